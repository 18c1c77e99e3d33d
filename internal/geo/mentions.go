package geo

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sightline/sightline/internal/post"
)

const (
	// maxMentionWords is the longest place name looked for, in words ("Saint Vincent and the
	// Grenadines", "Santa Cruz de la Sierra").
	maxMentionWords = 5
	// minMentionPopulation keeps small towns whose names are also surnames or ordinary words
	// ("Bill", "Hope") out, unless the text names their country or state.
	minMentionPopulation = 15000
	// minRegionMentionPopulation admits the big regions people name (Bavaria, Ontario, England)
	// besides the US states, and keeps the many small ones with generic names out.
	minRegionMentionPopulation = 1000000
	// minCommonWordPopulation is the bar for a city named like an English word ("Best", "Most",
	// "Sale") when its country is not named: only big ones such as Nice or Reading pass.
	minCommonWordPopulation = 100000
	// maxMentions bounds what one post can carry.
	maxMentions = 20
)

// connectorWords may stand in lowercase inside a place name ("Rio de Janeiro", "Isle of Man",
// "Stratford-upon-Avon", "Côte d'Ivoire").
var connectorWords = map[string]bool{
	"de": true, "del": true, "della": true, "di": true, "da": true, "das": true, "do": true,
	"dos": true, "du": true, "des": true, "la": true, "las": true, "le": true, "les": true,
	"los": true, "el": true, "al": true, "of": true, "the": true, "and": true, "upon": true,
	"on": true, "am": true, "an": true, "der": true, "den": true, "im": true, "y": true, "e": true,
	"et": true, "sur": true, "sous": true, "d": true, "l": true,
}

// textWord is a word of the text with what mention finding needs to know about its writing.
type textWord struct {
	word
	capitalized   bool // starts with a capital letter, or a letter of a script without capitals
	cased         bool // starts with a letter that has a case: not Arabic, Hebrew or Chinese
	allCaps       bool
	sentenceStart bool // first word of a sentence or line, capitalized whatever it is
	handle        bool // part of @handle, a URL, a domain or an e-mail address
}

// MentionedLocations finds the places a text names: countries (in English and a few other
// languages), US states, other regions of a million people or more, and cities. To keep ordinary
// words out, a name must be capitalized ("Nice" but not "nice"), and a city must have at least
// 15,000 people unless its country or region is written right after it. A city name that is also
// an English word ("Reading", "Mobile") does not count at the start of a sentence, in ALL-CAPITALS
// or Title Case text, or below 100,000 people, unless its country or region is written right
// after it; a preposition of place right before it ("in Bath") is evidence enough from 15,000
// people. A town named like an ordinary word of the text's own language (Spanish "Caen", German
// "Essen", see words.go) counts only after such a preposition or with its region or country
// right after it. Among homonyms, a city in the region or country written right after it wins
// ("Paris, Texas"), then one in a region or country named elsewhere in the text, else the most
// populous; a country named like a more populous city in another language is the city.
// Longer names win over the shorter names inside them ("New York City" over "New York"). Each
// place is listed once, in order of first mention, at most 20.
func (g *Gazetteer) MentionedLocations(text string) []post.MentionedLocation {
	words := splitText(text)
	g.unglueArabic(words)
	// In ALL-CAPITALS or Title Case text, capitals say little about what is a name.
	shouting := !hasLower(text) && hasUpper(text)
	unsureCase := shouting || titleCase(words)
	langs := textLanguages(words)
	var mentions []mention
	for i := 0; i < len(words); {
		n, candidates := g.longestNameAt(text, words, i, unsureCase, shouting)
		if n == 0 {
			i++
			continue
		}
		m := mention{candidates: candidates, sentenceStart: words[i].sentenceStart && words[i].cased || unsureCase,
			afterPreposition: i > 0 && afterPreposition(text, words[i-1], words[i]),
			word:             n == 1 && wordInText(words[i].folded, langs)}
		if k := len(mentions); k > 0 && mentions[k-1].end == i && qualifierGap(text[words[i-1].end:words[i].start]) {
			m.qualifiesPrevious = true
		}
		m.end = i + n
		mentions = append(mentions, m)
		i += n
	}
	if len(mentions) == 0 {
		return nil
	}
	global := newArea()
	for _, m := range mentions {
		if country, region := g.areas(m.candidates); (country < 0) != (region < 0) {
			global.addAll(g, m.candidates) // not "Georgia", which names both
		}
	}
	chosen := make([]int32, len(mentions))
	for i := range mentions {
		local := newArea()
		if i+1 < len(mentions) && mentions[i+1].qualifiesPrevious {
			local.addAll(g, mentions[i+1].candidates)
		}
		var qualified []int32 // the candidates of the place this mention qualifies
		if mentions[i].qualifiesPrevious {
			qualified = mentions[i-1].candidates
		}
		chosen[i] = g.chooseMention(mentions[i], qualified, local, global)
	}

	var out []post.MentionedLocation
	seen := map[int32]bool{}
	for _, idx := range chosen {
		if idx < 0 || seen[idx] {
			continue
		}
		seen[idx] = true
		p := g.places[idx]
		out = append(out, post.MentionedLocation{
			Name:        p.name,
			CountryCode: p.country,
			Point:       post.Point{Lat: p.point.Lat, Lon: p.point.Lon},
		})
		if len(out) == maxMentions {
			break
		}
	}
	return out
}

// mention is a run of words naming at least one place.
type mention struct {
	end           int     // index of the word after the name
	candidates    []int32 // most populous first
	sentenceStart bool    // or capitals say little in this text
	// qualifiesPrevious says the mention directly follows the previous one after a comma, as
	// "Texas" in "Paris, Texas".
	qualifiesPrevious bool
	// afterPreposition says a preposition of place stands right before it: "in Bath", "à Caen".
	afterPreposition bool
	// word says the name is an ordinary word in the text's language (Spanish "Caen", German
	// "Essen"): it needs a preposition before it or its region or country after it.
	word bool
}

// area is a set of countries and regions named in a text.
type area struct{ countries, regions map[string]bool }

func newArea() area { return area{countries: map[string]bool{}, regions: map[string]bool{}} }

// addAll adds every country and region among the candidates.
func (a area) addAll(g *Gazetteer, candidates []int32) {
	for _, idx := range candidates {
		switch p := g.places[idx]; p.kind {
		case KindCountry:
			a.countries[p.country] = true
		case KindRegion:
			a.regions[p.region] = true
			a.countries[p.country] = true
		}
	}
}

// areas returns the most populous country and region among candidates, -1 for none.
func (g *Gazetteer) areas(candidates []int32) (country, region int32) {
	country, region = -1, -1
	for _, idx := range candidates {
		switch g.places[idx].kind {
		case KindCountry:
			if country < 0 {
				country = idx
			}
		case KindRegion:
			if region < 0 {
				region = idx
			}
		}
	}
	return country, region
}

// chooseMention picks the place a mention means, or -1 when the evidence is too weak.
func (g *Gazetteer) chooseMention(m mention, qualified []int32, local, global area) int32 {
	if m.word && !m.afterPreposition && len(local.countries) == 0 {
		return -1
	}
	country, region := g.areas(m.candidates)
	if region >= 0 {
		// A region named after its main city ("São Paulo") is mentioned for the city.
		for _, idx := range m.candidates {
			if p := g.places[idx]; p.kind == KindCity && p.region == g.places[region].region {
				return idx
			}
		}
		if country < 0 || g.meansRegion(region, qualified, global) {
			return region
		}
	}
	if country >= 0 {
		// A country named in another language like a bigger city ("Granada" is also Grenada
		// in Spanish) is the city.
		for _, idx := range m.candidates {
			if p := g.places[idx]; p.kind == KindCity && p.population > g.places[country].population {
				return idx
			}
		}
		return country
	}
	// Cities, most populous first: one in the region or country written right after the name
	// whatever its size, else one in a region or country named elsewhere, else the largest.
	// Those last two must be big enough and not a capitalized ordinary word, unless a preposition
	// of place says it is a place ("in Bath").
	plausible := func(p place) bool {
		return p.population >= minMentionPopulation && (m.afterPreposition || !(p.commonWord && m.sentenceStart))
	}
	choices := []func(place) bool{
		func(p place) bool { return local.regions[p.region] },
		func(p place) bool { return local.countries[p.country] },
		func(p place) bool { return global.regions[p.region] && plausible(p) },
		func(p place) bool { return global.countries[p.country] && plausible(p) },
	}
	for _, choose := range choices {
		for _, idx := range m.candidates {
			if p := g.places[idx]; p.kind == KindCity && choose(p) {
				return idx
			}
		}
	}
	for _, idx := range m.candidates {
		if p := g.places[idx]; p.kind == KindCity {
			if plausible(p) && (m.afterPreposition || !(p.commonWord && p.population < minCommonWordPopulation)) {
				return idx
			}
			return -1
		}
	}
	return -1
}

// meansRegion settles a name that is both a country and a region ("Georgia"): the region when
// the text names its country elsewhere, or when it qualifies a city of that region ("Atlanta,
// Georgia").
func (g *Gazetteer) meansRegion(region int32, qualified []int32, global area) bool {
	if global.countries[g.places[region].country] {
		return true
	}
	adminKey := g.places[region].region
	for _, idx := range qualified {
		if g.places[idx].region == adminKey {
			return true
		}
	}
	return false
}

// afterPreposition reports whether w follows a preposition of place in lowercase, as in "in Bath"
// (not "Sell Your Phone In Nice", where capitals say nothing).
func afterPreposition(text string, prev, w textWord) bool {
	return placePrepositions[prev.folded] && !prev.capitalized && strings.TrimSpace(text[prev.end:w.start]) == ""
}

// qualifierGap is a comma between a place and the country or state that qualifies it.
func qualifierGap(gap string) bool {
	return strings.TrimSpace(gap) == ","
}

// longestNameAt returns how many words starting at words[i] form the longest place name there,
// and the places of that name.
func (g *Gazetteer) longestNameAt(text string, words []textWord, i int, unsureCase, shouting bool) (int, []int32) {
	first := words[i]
	if first.handle || !(first.capitalized || unsureCase) {
		return 0, nil
	}
	var k strings.Builder
	ends := make([]int, 0, maxMentionWords) // key length after each word
	for j := i; j < len(words) && j-i < maxMentionWords; j++ {
		w := words[j]
		if j > i {
			if w.handle || !joinable(text[words[j-1].end:w.start]) {
				break
			}
			if !w.capitalized && !unsureCase && !connectorWords[w.folded] {
				break
			}
			k.WriteByte(' ')
		}
		k.WriteString(w.folded)
		ends = append(ends, k.Len())
	}
	full := k.String()
	for n := len(ends); n >= 1; n-- {
		last := words[i+n-1]
		if !last.capitalized && !unsureCase {
			continue // a name does not end on a connector
		}
		name := full[:ends[n-1]]
		if g.abbreviations[name] {
			if shouting || !allCaps(words[i:i+n]) {
				continue // "us" and "Us" are not the United States
			}
		} else if len(name) < 3 {
			continue
		}
		var candidates []int32
		for _, idx := range g.byKey[name] {
			if g.mentionable(g.places[idx]) {
				candidates = append(candidates, idx)
			}
		}
		if len(candidates) > 0 {
			return n, candidates
		}
	}
	return 0, nil
}

// mentionable leaves out of mention finding the regions that are small or named like a word
// ("Central", "Littoral").
func (g *Gazetteer) mentionable(p place) bool {
	if p.kind != KindRegion {
		return true
	}
	return !p.commonWord && (p.country == "US" || p.population >= minRegionMentionPopulation)
}

// joinable reports whether the text between two words can sit inside one place name: spaces,
// hyphens, apostrophes, the dot of an abbreviation ("St. Louis", "U.S.") and the comma of the few
// names that hold one ("Washington, D.C.").
func joinable(gap string) bool {
	if gap == "" || len(gap) > 3 {
		return false
	}
	for _, r := range gap {
		switch r {
		case ' ', '-', '\'', '’', '.', ',':
		default:
			return false
		}
	}
	return true
}

func splitText(text string) []textWord {
	var words []textWord
	forEachWord(text, func(w word) {
		first, _ := utf8.DecodeRuneInString(text[w.start:])
		upper := unicode.IsUpper(first) || unicode.IsTitle(first)
		tw := textWord{word: w, cased: upper || unicode.IsLower(first)}
		tw.capitalized = upper || !tw.cased
		tw.allCaps = upper && !hasLower(text[w.start:w.end])
		before, _ := utf8.DecodeLastRuneInString(text[:w.start])
		after, _ := utf8.DecodeRuneInString(text[w.end:])
		tw.handle = strings.ContainsRune("@/_=&?", before) || after == '@' || inDomain(text, w)
		tw.sentenceStart = startsSentence(text[:w.start])
		words = append(words, tw)
	})
	return words
}

// inDomain reports whether a word is glued by a dot to another word, as in "example.Com" or
// "Paris.com", except for initials ("U.S.", "D.C.").
func inDomain(text string, w word) bool {
	this := text[w.start:w.end]
	if before, ok := strings.CutSuffix(text[:w.start], "."); ok {
		if prev := lastWord(before); prev != "" && !initials(prev, this) {
			return true
		}
	}
	if after, ok := strings.CutPrefix(text[w.end:], "."); ok {
		if next := firstWord(after); next != "" && !initials(this, next) {
			return true
		}
	}
	return false
}

func initials(a, b string) bool {
	return utf8.RuneCountInString(a) == 1 && utf8.RuneCountInString(b) == 1
}

func notWordRune(r rune) bool { return !isWordRune(r) }

func lastWord(s string) string { return s[strings.LastIndexFunc(s, notWordRune)+1:] }

func firstWord(s string) string {
	if i := strings.IndexFunc(s, notWordRune); i >= 0 {
		return s[:i]
	}
	return s
}

// startsSentence reports whether a word preceded by before opens a sentence or a line: only
// spaces, quotes and brackets stand between it and the text's start or a sentence end.
func startsSentence(before string) bool {
	s := strings.TrimRightFunc(before, func(r rune) bool {
		return r == ' ' || r == '\t' || strings.ContainsRune("\"'“”‘’«»([*>", r)
	})
	if s == "" {
		return true
	}
	last, _ := utf8.DecodeLastRuneInString(s)
	return strings.ContainsRune(".!?\n\r:…•-–—|", last)
}

// titleCase reports whether most longer words are capitalized, as in a headline.
func titleCase(words []textWord) bool {
	long, capitalized := 0, 0
	for _, w := range words {
		if w.cased && w.end-w.start >= 4 {
			long++
			if w.capitalized {
				capitalized++
			}
		}
	}
	return long >= 4 && capitalized*10 >= long*7
}

func hasUpper(s string) bool { return strings.IndexFunc(s, unicode.IsUpper) >= 0 }

func hasLower(s string) bool {
	for _, r := range s {
		if unicode.IsLower(r) {
			return true
		}
	}
	return false
}

func allCaps(words []textWord) bool {
	for _, w := range words {
		if !w.allCaps {
			return false
		}
	}
	return true
}

// unglueArabic separates the one-letter words Arabic writes onto the next ("و" and, "ب" in,
// "ل" for, "ف", "ك"), so that "بجدة" (in Jeddah) and "والقاهرة" (and Cairo) are looked up as
// "جدة" and "القاهرة"; "لل" is "ل" with the article ("للقاهرة"). Only where the word without
// them starts a known name.
func (g *Gazetteer) unglueArabic(words []textWord) {
	for i := range words {
		w := &words[i]
		first, size := utf8.DecodeRuneInString(w.folded)
		if !strings.ContainsRune("وبلفك", first) || utf8.RuneCountInString(w.folded) < 4 || g.startsName(w.folded) {
			continue
		}
		rest := w.folded[size:]
		if strings.HasPrefix(w.folded, "لل") {
			rest = "ال" + rest[size:]
		}
		if g.startsName(rest) {
			w.folded = rest
		}
	}
}

// startsName reports whether a key is a name or the first words of one.
func (g *Gazetteer) startsName(k string) bool {
	if len(g.byKey[k]) > 0 {
		return true
	}
	i := sort.Search(len(g.names), func(i int) bool { return g.names[i].key >= k+" " })
	return i < len(g.names) && strings.HasPrefix(g.names[i].key, k+" ")
}
