package story

import (
	"net/url"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sightline/sightline/internal/geo"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/query"
)

// kind says what a feature is; each kind weighs differently and plays its own part in the vetoes.
type kind uint8

const (
	kindWord kind = iota
	kindPlace
	kindNumber
	kindSmallNumber // a single digit: "3 dead" says little on its own
	kindLink
	kindHandle
	kindTag      // a hashtag of one word (#flood, #breaking): many events use it
	kindEventTag // a hashtag of several words (#HamburgFire): it names one event
	kindSkeleton // a name's consonants in any script ("Malatya", "Малатьи"): skeleton.go
	kinds
)

// feature is a kind and a hash: what the index is keyed by. id is the feature's number in the
// clusterer's table (featureTable) once looked up, 0 before; it sits in what would be padding, so
// it costs no memory, and it is not part of what a feature is (compareFeatures ignores it).
type feature struct {
	kind kind
	id   uint32
	hash uint64
}

// signature is what the clusterer keeps of a post: its features, not its text.
type signature struct {
	text     uint64 // the hash of the folded tokens: equal for exact copies
	simhash  uint64 // over word shingles: close for near copies
	tokens   int
	features []feature
	// names are words written with a capital, and proper those of them written as names (a
	// sentence's first word is capitalized whatever it is); lower are words seen in lowercase,
	// which therefore are not names anywhere in the window.
	names  []uint64
	proper uint64 // bit i set: names[i] is written as a name (the first 64 names)
	lower  []uint64
	skels  []nameSkeleton
	// amounts are the numbers written as sums of money ("$900B", "1,8 milliard d'euros").
	amounts []uint64
	// places are the places it names, for the place veto.
	places []placeRef
	// placeNames are the words and skeletons of the names of the places it names.
	placeNames []uint64
	// located are the skeletons of the names written after a preposition of place ("in
	// Ryazan", "в Рязани"): places, whether or not the gazetteer knows them.
	located []uint64
	// lowerIDs are lower's words as ids of the clusterer's table, which counts them: a post of
	// the window keeps these instead of lower (set to nil when it is added).
	lowerIDs []uint32
}

// nameSkeleton is the skeleton of a name (a kindSkeleton feature's hash) and the name's word.
type nameSkeleton struct{ skel, word uint64 }

// compareFeatures orders features by hash, then kind: written out, as sorting a post's features
// calls it hundreds of times.
func compareFeatures(a, b feature) int {
	switch {
	case a.hash < b.hash:
		return -1
	case a.hash > b.hash:
		return 1
	}
	return int(a.kind) - int(b.kind)
}

// fnv is FNV-1a: a fixed hash, so that every node and every restart gets the same simhash.
func fnv(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// fnvBytes is fnv of a []byte.
func fnvBytes(s []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range s {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

func hashOf(k kind, s string) uint64 { return fnv(s) ^ uint64(k)<<56 }

// mix spreads the bits of h (the finalizer of MurmurHash3), so that a pair's hash is as good as
// its words'.
func mix(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	return h ^ h>>33
}

// analyzer folds texts into tokens in order, reusing its buffers from post to post.
type analyzer struct {
	text   query.Text
	buf    []byte
	ends   []int
	order  []string
	hashes []uint64
	feats  []feature
}

// tokens returns the folded tokens of text in order, as query.Tokens does; they are valid until
// the next call.
func (a *analyzer) tokens(text string) []string {
	a.buf, a.ends = a.buf[:0], a.ends[:0]
	a.text.EachToken(text, func(tok []byte) {
		a.buf = append(a.buf, tok...)
		a.ends = append(a.ends, len(a.buf))
	})
	all := string(a.buf) // the tokens are substrings of one string: one allocation a post
	a.order = a.order[:0]
	start := 0
	for _, end := range a.ends {
		a.order = append(a.order, all[start:end])
		start = end
	}
	return a.order
}

// sign computes a post's signature from its title, text, link, entities and places.
func (a *analyzer) sign(p *post.Post) signature {
	text := p.TitleText
	if p.ContentText != "" {
		text = leadOf(text, p.ContentText)
	} else {
		text = lead(text)
	}
	var s signature
	toks := a.tokens(text)
	hashes := slices.Grow(a.hashes[:0], len(toks))[:len(toks)]
	a.hashes = hashes
	s.tokens = len(toks)
	// Built in the analyzer's buffer and copied once sorted and compacted: the window keeps
	// the features, so they take no more room than they need.
	s.features = a.feats[:0]
	s.text = 14695981039346656037
	for i, t := range toks {
		hashes[i] = fnv(t)
		s.text = (s.text ^ hashes[i]) * 1099511628211
	}
	s.simhash = simhash(hashes)

	add := func(k kind, v string) {
		f := feature{kind: k, hash: hashOf(k, v)}
		s.features = append(s.features, f)
	}
	for i, t := range toks {
		// Short words are mostly grammar; digits are read as numbers below.
		if utf8.RuneCountInString(t) >= 3 && !isDigits(t) {
			s.features = append(s.features, feature{kind: kindWord, hash: hashes[i] ^ uint64(kindWord)<<56})
		}
	}
	for _, m := range p.MentionedLocations {
		name := geo.NameKey(m.Name)
		add(kindPlace, name+"|"+m.CountryCode)
		s.places = append(s.places, placeRef{hash: s.features[len(s.features)-1].hash, name: fnv(name), lat: float32(m.Point.Lat), lon: float32(m.Point.Lon)})
		// The place's name as words and as a skeleton: evidence counts the place, not its
		// name again.
		for _, w := range strings.Fields(geo.NameKey(m.Name)) {
			s.placeNames = append(s.placeNames, wordHash(w))
			if sk := skeleton(w); sk != "" {
				s.placeNames = append(s.placeNames, hashOf(kindSkeleton, sk))
			}
		}
	}
	nums, money := numbersOf(text)
	for i, n := range nums {
		if len(n) == 1 {
			add(kindSmallNumber, n)
		} else {
			add(kindNumber, n)
			if i < 64 && money&(1<<i) != 0 {
				s.amounts = append(s.amounts, hashOf(kindNumber, n))
			}
		}
	}
	s.names, s.proper, s.lower, s.skels, s.located = a.casing(text)
	for _, sk := range s.skels {
		s.features = append(s.features, feature{kind: kindSkeleton, hash: sk.skel})
	}
	links := append([]string{p.PostLink}, p.Entities.ExternalLinks...)
	for _, l := range links {
		if c := CanonicalURL(l); c != "" {
			add(kindLink, c)
			// An article's slug is its headline ("manhattan-crane-collapse"): a comment that
			// shares the link says what it is about through it.
			words := slugWords(c)
			for _, w := range words {
				if !isDigits(w) && utf8.RuneCountInString(w) >= 3 {
					s.features = append(s.features, feature{kind: kindWord, hash: wordHash(w)})
					// What the address names counts as evidence, as a name in the text does.
					s.names = append(s.names, wordHash(w))
				}
			}
			// Read as the text's numbers are: "micron-900-billion" writes $900B.
			for _, n := range numbers(strings.Join(words, " ")) {
				if len(n) > 1 {
					add(kindNumber, n)
				}
			}
		}
	}
	for _, t := range hashtags(text, p.Tags) {
		if utf8.RuneCountInString(t) < 3 {
			continue
		}
		k := kindTag
		if writtenAsName(t) {
			k = kindEventTag
		}
		add(k, strings.ToLower(t))
	}
	for _, h := range p.Entities.Handles {
		add(kindHandle, strings.ToLower(strings.TrimPrefix(h, "@")))
		// An account is often named for what it reports on ("@lufthansa_de", "@metro_madrid").
		for _, w := range query.Tokens(strings.ReplaceAll(h, "_", " ")) {
			if utf8.RuneCountInString(w) >= 3 && !isDigits(w) {
				s.features = append(s.features, feature{kind: kindWord, hash: wordHash(w)})
			}
		}
	}
	// Sorted by hash, each once: hasFeature looks a feature up by binary search, so comparing two
	// long posts costs n log n, not n².
	slices.SortFunc(s.features, compareFeatures)
	a.feats = s.features[:0]
	s.features = slices.Clone(slices.Compact(s.features))
	return s
}

// hashtags are the post's tags and the hashtags of its text, without "#", as written.
func hashtags(text string, tags []string) []string {
	out := slices.Clone(tags)
	for rest := text; ; {
		i := strings.IndexByte(rest, '#')
		if i < 0 {
			return out
		}
		rest = rest[i+1:]
		end := strings.IndexFunc(rest, func(r rune) bool { return !isWordRune(r) && r != '_' })
		if end < 0 {
			end = len(rest)
		}
		if end > 0 && (i == 0 || !isWordByte(text[len(text)-len(rest)-2])) {
			out = append(out, rest[:end])
		}
		rest = rest[end:]
	}
}

// maxLead is how much of a post's text its signature reads: a report names its event in its
// first sentences, and reading the rest of a long thread or article would cost in proportion
// to its length (and weigh its story down with words about everything else).
const maxLead = 300

// lead is the text up to maxLead bytes, cut at a space.
func lead(text string) string {
	if len(text) <= maxLead {
		return text
	}
	if i := strings.LastIndexAny(text[:maxLead], " \n\t"); i > 0 {
		return text[:i]
	}
	return strings.ToValidUTF8(text[:maxLead], "")
}

// leadOf is lead(strings.TrimSpace(title + "\n" + content)) without copying all of a long
// content: a prefix of it that leaves more than maxLead bytes once trimmed has the same lead.
func leadOf(title, content string) string {
	if len(content) > 2*maxLead {
		if t := strings.TrimSpace(title + "\n" + content[:2*maxLead]); len(t) > maxLead {
			return lead(t)
		}
	}
	return lead(strings.TrimSpace(title + "\n" + content))
}

// slugWords are the folded words of a canonical link's slugs: the path segments that join words
// with hyphens or underscores, as article addresses do. Segments without them (ids, dates,
// sections) say nothing of the story.
func slugWords(canonical string) []string {
	path, _, _ := strings.Cut(canonical, "?")
	_, path, _ = strings.Cut(path, "/")
	var out []string
	for _, seg := range strings.Split(path, "/") {
		if strings.ContainsAny(seg, "-_") {
			if dec, err := url.PathUnescape(seg); err == nil {
				seg = dec
			}
			out = append(out, query.Tokens(strings.NewReplacer("-", " ", "_", " ").Replace(seg))...)
		}
	}
	return out
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// simhash is Charikar's hash over word pairs, given the words' hashes: texts that differ in a
// few words differ in a few bits.
//
// Bit b of the result is set when more of the hashed pairs have it set than not. The ones are
// counted eight bits at a time: acc[k] holds, in byte lane l, how many hashes have bit 8l+k set
// (emptied into ones before a lane can overflow), so a pair costs 8 additions, not 64.
func simhash(words []uint64) uint64 {
	const lanes = 0x0101010101010101
	var ones [64]int32
	var acc [8]uint64
	n, pending := int32(0), 0
	empty := func() {
		for k := range acc {
			for l := range 8 {
				ones[8*l+k] += int32(acc[k] >> (8 * l) & 0xff)
			}
			acc[k] = 0
		}
		pending = 0
	}
	for i := range words {
		h := words[i]
		if i+1 < len(words) {
			h = mix(words[i]*31 + words[i+1])
		} else if i > 0 {
			continue
		}
		for k := range acc {
			acc[k] += h >> k & lanes
		}
		n++
		if pending++; pending == 255 {
			empty()
		}
	}
	empty()
	var out uint64
	for b := range 64 {
		if 2*ones[b]-n > 0 { // the sum over the pairs of +1 for a set bit, -1 for a clear one
			out |= 1 << b
		}
	}
	return out
}

// numbers lists the numbers written in text with their grouping removed, so that "1,200" (en),
// "1.200" (de) and "1 200" (fr) are the same number; a decimal part is kept after a point.
func numbers(text string) []string {
	out, _ := numbersOf(text)
	return out
}

// numbersOf is numbers, with bit i of money set when the i-th is a sum of money: after a
// currency sign or before the name of a currency.
func numbersOf(text string) (out []string, money uint64) {
	for i := 0; i < len(text); {
		if !isDigit(text[i]) || i > 0 && isWordByte(text[i-1]) {
			i++
			continue
		}
		var b strings.Builder
		j := i
		for j < len(text) {
			c := text[j]
			switch {
			case isDigit(c):
				b.WriteByte(c)
				j++
				continue
			case (c == ',' || c == '.' || c == ' ') && j+1 < len(text) && isDigit(text[j+1]):
				if group(text, j+1) {
					j++ // a thousands separator
					continue
				}
				if c != ' ' && !strings.Contains(b.String(), ".") {
					b.WriteByte('.')
					j++
					continue
				}
			}
			break
		}
		n := b.String()
		if exp, end := scaleAfter(text, i, j); exp > 0 {
			n, j = shift(n, exp), end
		}
		if len(out) < 64 && isMoney(text, i, j) {
			money |= 1 << len(out)
		}
		n = strings.TrimLeft(n, "0")
		if strings.Contains(n, ".") { // "4.0%" and "4%" are one number
			n = strings.TrimRight(strings.TrimRight(n, "0"), ".")
		}
		out = append(out, n)
		if out[len(out)-1] == "" {
			out[len(out)-1] = "0"
		}
		i = j
	}
	return out, money
}

// scales are the words that multiply the number written before them, by the power of ten given,
// in the languages Sightline reads: "$900B", "900 billion", "900 Milliarden", "900.000 millones"
// and "900 مليار" are one amount, and so are "187k", "187,000" and "187 mil".
var scales = map[string]int{
	"k": 3, "thousand": 3, "mil": 3, "mille": 3, "tausend": 3, "тыс": 3, "тысяч": 3, "тысячи": 3,
	"тысяча": 3, "тис": 3, "тисяч": 3, "тисячі": 3, "тисяча": 3, "bin": 3, "ألف": 3, "آلاف": 3,
	"duizend": 3, "tys": 3, "tysięcy": 3, "tysiące": 3, "tūkst": 3,
	"mn": 6, "million": 6, "millions": 6, "millón": 6, "millones": 6, "millionen": 6, "mio": 6,
	"milione": 6, "milioni": 6, "milhão": 6, "milhões": 6, "млн": 6, "миллион": 6, "миллиона": 6,
	"миллионов": 6, "мільйон": 6, "мільйона": 6, "мільйонів": 6, "milyon": 6, "مليون": 6,
	"ملايين": 6, "miljoen": 6, "mln": 6, "milion": 6, "miliony": 6, "milionów": 6,
	"milijonai": 6, "milijonų": 6,
	"bn": 9, "billion": 9, "billions": 9, "milliard": 9, "milliards": 9, "milliarde": 9,
	"milliarden": 9, "mrd": 9, "miliardo": 9, "miliardi": 9, "bilhão": 9, "bilhões": 9,
	"млрд": 9, "миллиард": 9, "миллиарда": 9, "миллиардов": 9, "мільярд": 9, "мільярда": 9,
	"мільярдів": 9, "milyar": 9, "مليار": 9, "مليارات": 9, "miljard": 9, "mld": 9, "miliard": 9,
	"miliardy": 9, "miliardów": 9, "milijardai": 9, "milijardų": 9, "bilioni": 9,
	"trillion": 12, "trillions": 12, "billones": 12, "billionen": 12, "trilhão": 12, "trilhões": 12,
	"трлн": 12, "триллион": 12, "триллиона": 12, "триллионов": 12, "трильйон": 12, "trilyon": 12,
}

// scaleAfter reads the word that follows the number text[start:end], attached or after one space,
// and returns the power of ten it multiplies the number by (0 for none) and where it ends. A
// letter attached to an amount of money is a scale too ("$2m", "$900B"); elsewhere "5m" is five
// metres. "mil millones" (Spanish, Portuguese) is a thousand millions.
func scaleAfter(text string, start, end int) (int, int) {
	word := func(at int) (string, int) {
		e := at
		for e < len(text) {
			r, size := utf8.DecodeRuneInString(text[e:])
			if !unicode.IsLetter(r) {
				break
			}
			e += size
		}
		return strings.ToLower(text[at:e]), e
	}
	at, attached := end, true
	if at < len(text) && text[at] == ' ' {
		at, attached = at+1, false
	} else if strings.HasPrefix(text[at:], "\u00a0") {
		at, attached = at+2, false
	}
	w, e := word(at)
	if w == "" {
		return 0, end
	}
	money := start > 0 && strings.ContainsAny(text[max(0, start-3):start], "$€£¥₽₴")
	switch {
	case attached && (w == "m" || w == "b") && money:
		if w == "m" {
			return 6, e
		}
		return 9, e
	case attached && w != "k" && w != "bn" && w != "mn" && w != "mln" && w != "mrd" && w != "млн" && w != "млрд" && w != "трлн":
		return 0, end
	}
	exp := scales[w]
	if w == "mil" && e+1 < len(text) && text[e] == ' ' {
		if next, e2 := word(e + 1); scales[next] == 6 {
			return 9, e2
		}
	}
	if exp == 0 {
		return 0, end
	}
	return exp, e
}

// currencies are the names of currencies written after an amount, as the languages Sightline
// reads write them.
var currencies = map[string]bool{
	"dollar": true, "dollars": true, "dólar": true, "dólares": true, "dollari": true, "dollaro": true,
	"euro": true, "euros": true, "евро": true, "євро": true, "pound": true, "pounds": true,
	"libras": true, "franc": true, "francs": true, "franken": true, "franchi": true, "yen": true,
	"yuan": true, "долларов": true, "доллара": true, "доллар": true, "доларів": true, "долара": true,
	"долари": true, "рублей": true, "рубля": true, "гривень": true, "гривні": true, "dolar": true,
	"dolarlık": true, "دولار": true, "يورو": true, "reais": true, "shillings": true, "shilingi": true,
	"rupees": true, "lira": true, "zł": true, "złotych": true, "usd": true, "eur": true, "gbp": true,
}

// isMoney reports whether the number text[start:end] (its scale included) is a sum of money: a
// currency sign before it, or a currency's name among the two words after it ("1,8 milliard
// d'euros", "300 miliardi di euro").
func isMoney(text string, start, end int) bool {
	if strings.ContainsAny(text[max(0, start-3):start], "$€£¥₽₴") {
		return true
	}
	rest := text[end:]
	for range 2 {
		rest = strings.TrimLeftFunc(rest, func(r rune) bool { return !unicode.IsLetter(r) && r != '$' && r != '€' && r != '£' })
		if rest == "" {
			return false
		}
		if r, _ := utf8.DecodeRuneInString(rest); r == '$' || r == '€' || r == '£' {
			return true
		}
		e := strings.IndexFunc(rest, func(r rune) bool { return !unicode.IsLetter(r) })
		if e < 0 {
			e = len(rest)
		}
		w := strings.ToLower(rest[:e])
		// "d'euros": the article is cut off at the apostrophe.
		if currencies[w] {
			return true
		}
		rest = rest[e:]
	}
	return false
}

// shift multiplies the decimal number n ("1.8", "900000") by ten to the power exp.
func shift(n string, exp int) string {
	whole, frac, _ := strings.Cut(n, ".")
	if len(frac) > exp {
		return whole + frac[:exp] + "." + frac[exp:]
	}
	return whole + frac + strings.Repeat("0", exp-len(frac))
}

// group reports whether exactly three digits start at i: the shape of a thousands group.
func group(s string, i int) bool {
	n := 0
	for i+n < len(s) && isDigit(s[i+n]) {
		n++
	}
	return n == 3
}

func isDigit(c byte) bool    { return '0' <= c && c <= '9' }
func isWordByte(c byte) bool { return isDigit(c) || 'a' <= c|0x20 && c|0x20 <= 'z' }

// casing returns the folded words written with a capital, those of them written as names, and
// the words written in lowercase. A
// capitalized word is a name unless some post of the window writes it in lowercase: that tells
// "CROSSES" in a headline from "Micron". A sentence starts with a capital whatever its first
// word, so that word is a name only when written as one: in capitals ("FDNY"), with a capital
// inside ("OpenAI"), or before another capitalized word ("Northwind Bank").
func (a *analyzer) casing(text string) (names []uint64, proper uint64, lower []uint64, skels []nameSkeleton, located []uint64) {
	type word struct {
		w              string
		upper, initial bool
	}
	var words [64]word
	list := words[:0]
	initial := true
	for field := range strings.FieldsSeq(text) {
		// Handles and links are not written as words, and "RT" marks a repost on any topic.
		if field[0] == '@' || strings.IndexByte(field, ':') >= 0 && strings.Contains(field, "://") || field == "RT" {
			initial = initial || endsSentence(field)
			continue
		}
		for start := 0; start < len(field); {
			r, size := utf8.DecodeRuneInString(field[start:])
			if !isWordRune(r) {
				start += size
				continue
			}
			end := start + size
			for end < len(field) {
				if c := field[end]; c < utf8.RuneSelf { // ASCII, as most words are
					if !isWordByte(c) {
						break
					}
					end++
					continue
				}
				r, size := utf8.DecodeRuneInString(field[end:])
				if !isWordRune(r) {
					break
				}
				end += size
			}
			if unicode.IsLower(r) || unicode.IsUpper(r) {
				list = append(list, word{field[start:end], unicode.IsUpper(r), initial})
			}
			initial = false
			start = end
		}
		initial = endsSentence(field)
	}
	upper := 0
	for _, w := range list {
		if w.upper {
			upper++
		}
	}
	names, lower = make([]uint64, 0, upper), make([]uint64, 0, len(list)-upper)
	for i, w := range list {
		switch {
		case !w.upper:
			lower = a.appendFolded(lower, w.w)
		default:
			n := len(names)
			names = a.appendFolded(names, w.w)
			if sk := skeleton(w.w); sk != "" && len(names) > n {
				h := hashOf(kindSkeleton, sk)
				skels = append(skels, nameSkeleton{h, names[n]})
				if i > 0 && !w.initial && placePrepositions[list[i-1].w] {
					located = append(located, h)
				}
			}
			if !w.initial || writtenAsName(w.w) || i+1 < len(list) && list[i+1].upper && !list[i+1].initial {
				for j := n; j < len(names) && j < 64; j++ {
					proper |= 1 << j
				}
			}
		}
	}
	return names, proper, lower, skels, located
}

// placePrepositions are the prepositions of place a name follows in the languages Sightline
// reads, as written in lowercase.
var placePrepositions = map[string]bool{
	"in": true, "near": true, "в": true, "во": true, "у": true, "біля": true, "под": true,
	"à": true, "près": true, "en": true, "em": true, "no": true, "na": true, "nel": true,
	"nella": true, "w": true, "we": true, "bei": true, "nahe": true, "cerca": true, "perto": true,
}

// endsSentence reports whether a word ends a sentence, or a lead-in such as "RT @AP:".
func endsSentence(field string) bool {
	if c := field[len(field)-1]; c < utf8.RuneSelf && strings.IndexByte(`"')]`, c) < 0 {
		return strings.IndexByte(".!?:", c) >= 0 // nothing to trim: most words
	}
	field = strings.TrimRight(field, `"')»”’]`)
	return field != "" && strings.IndexByte(".!?:", field[len(field)-1]) >= 0
}

// writtenAsName reports whether a capitalized word is written as only names are: with another
// capital after its first letter ("FDNY", "OpenAI").
func writtenAsName(w string) bool {
	_, size := utf8.DecodeRuneInString(w)
	for _, r := range w[size:] {
		if unicode.IsUpper(r) {
			return true
		}
	}
	return false
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// appendFolded appends the hashes of the word's tokens as the index folds them, lowercasing
// ASCII words directly: most words are, and folding through the analyzer costs more. Other
// words go through the analyzer's tokenizer without its table of positions (query.Text's
// EachToken), which allocates nothing.
func (a *analyzer) appendFolded(hashes []uint64, w string) []uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c >= utf8.RuneSelf {
			a.text.EachToken(w, func(tok []byte) {
				hashes = append(hashes, fnvBytes(tok)^uint64(kindWord)<<56)
			})
			return hashes
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		h ^= uint64(c)
		h *= 1099511628211
	}
	return append(hashes, h^uint64(kindWord)<<56)
}

// wordHash is the hash of a folded word's feature.
func wordHash(t string) uint64 { return hashOf(kindWord, t) }

// trackingParams are query parameters that say who shared a link, not what it points to.
var trackingParams = map[string]bool{
	"fbclid": true, "gclid": true, "dclid": true, "msclkid": true, "igshid": true, "mc_cid": true,
	"mc_eid": true, "ref": true, "ref_src": true, "ref_url": true, "cmpid": true, "ocid": true,
	"smid": true, "taid": true, "s": true, "si": true, "src": true, "share": true, "sh": true,
}

// CanonicalURL is the form of a link that copies of a story share: lowercase host without
// "www.", "m." or "amp.", no fragment, no tracking parameters, no trailing slash or "/amp". A
// site's home page names no story: it gives "".
func CanonicalURL(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" || u.Scheme != "http" && u.Scheme != "https" {
		return ""
	}
	host := strings.ToLower(u.Hostname())
	for _, prefix := range []string{"www.", "m.", "amp.", "mobile."} {
		host = strings.TrimPrefix(host, prefix)
	}
	path := strings.TrimSuffix(strings.TrimSuffix(u.EscapedPath(), "/"), "/amp")
	q := u.Query()
	for k := range q {
		if strings.HasPrefix(strings.ToLower(k), "utm_") || trackingParams[strings.ToLower(k)] {
			q.Del(k)
		}
	}
	if path == "" && len(q) == 0 {
		return ""
	}
	c := host + path
	if len(q) > 0 {
		c += "?" + q.Encode() // Encode sorts by key
	}
	return c
}
