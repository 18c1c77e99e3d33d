package query

import (
	"encoding/binary"
	"hash/maphash"
	"math/bits"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// maxTokenRunes caps a token's length: longer runs (base64 blobs, pasted junk) are cut into
// pieces of this size, as Lucene's StandardTokenizer does, so no token makes matching quadratic.
const maxTokenRunes = 255

// fieldGap separates the positions of a post's fields (title, text) so that no phrase or
// proximity window, which spans at most a few hundred positions, can reach across two fields.
const fieldGap = 1 << 16

// isSpace is the one whitespace set of the language; the TypeScript port lists the same runes.
func isSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0x85, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

const (
	wildcardMany = '*'
	wildcardOne  = '?'
)

// splitTokens cuts NFKD-normalized text into raw (unfolded) tokens and calls emit for each in
// order. With wildcards, '*' and '?' are token characters (query words); in posts they separate.
func splitTokens(s []byte, wildcards bool, emit func(tok []byte)) {
	start, runes, searchable := -1, 0, false
	flush := func(end int) {
		if start >= 0 && searchable {
			emit(s[start:end])
		}
		start, runes, searchable = -1, 0, false
	}
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(s[i:])
		}
		wild := wildcards && (r == wildcardMany || r == wildcardOne)
		class := uint8(runeToken | runeSearchable)
		if r >= utf8.RuneSelf {
			class = lookupRune(r).class
		} else if !isTokenRune(r) {
			class = 0
		}
		switch {
		case !wild && class&runeToken == 0:
			flush(i)
		case class&runeIdeograph != 0:
			flush(i)
			emit(s[i : i+size])
		default:
			if runes == maxTokenRunes {
				flush(i)
			}
			if start < 0 {
				start = i
			}
			runes++
			searchable = searchable || wild || class&runeSearchable != 0
		}
		i += size
	}
	flush(len(s))
}

// forEachSegment cuts text at ASCII characters that are not token characters (nor wildcards,
// when asked) and at spaces, and calls fn with each piece and whether it is pure ASCII. NFKD is the identity on those cut
// characters or maps them to spaces, and they are starters (nothing reorders across them), so
// decomposing piece by piece equals decomposing the whole text, and ASCII pieces need nothing.
func forEachSegment(text string, wildcards bool, fn func(seg string, ascii bool)) {
	start, ascii := -1, true
	for i := 0; i < len(text); {
		c := text[i]
		cut, size := segmentCut(text[i:], wildcards)
		switch {
		case cut && start >= 0:
			fn(text[start:i], ascii)
			start = -1
		case !cut && start < 0:
			start, ascii = i, c < utf8.RuneSelf
		case !cut:
			ascii = ascii && c < utf8.RuneSelf
		}
		i += size
	}
	if start >= 0 {
		fn(text[start:], ascii)
	}
}

// segmentCut reports whether the first character of text ends a segment, and its size.
func segmentCut(text string, wildcards bool) (cut bool, size int) {
	if c := text[0]; c < utf8.RuneSelf {
		return !(isTokenByte(c) || wildcards && (c == wildcardMany || c == wildcardOne)), 1
	}
	r, size := utf8.DecodeRuneInString(text)
	return isSpace(r), size
}

// rawTokens splits text into raw tokens (NFKD applied), reusing scratch for the decomposition.
func rawTokens(text string, wildcards bool, scratch *[]byte, emit func(tok []byte)) {
	forEachSegment(text, wildcards, func(seg string, ascii bool) {
		if ascii {
			// Only token characters (and wildcards): tokens as they stand, cut at the length cap.
			*scratch = append((*scratch)[:0], seg...)
			for s := *scratch; len(s) > 0; {
				n := min(len(s), maxTokenRunes)
				emit(s[:n])
				s = s[n:]
			}
			return
		}
		*scratch = appendNFKD((*scratch)[:0], seg)
		splitTokens(*scratch, wildcards, emit)
	})
}

// appendFold appends the folded form of one raw token to dst: combining marks (Mn) removed,
// then full Unicode case folding.
func appendFold(dst, tok []byte) []byte {
	i := 0
	for i < len(tok) && tok[i] < utf8.RuneSelf {
		c := tok[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
		i++
	}
	if i == len(tok) {
		return dst
	}
	for i < len(tok) {
		r, size := utf8.DecodeRune(tok[i:])
		i += size
		if r < utf8.RuneSelf {
			dst = append(dst, byte(unicode.ToLower(r)))
			continue
		}
		info := lookupRune(r)
		switch {
		case info.class&runeMn != 0:
		case info.fold >= 0:
			dst = utf8.AppendRune(dst, info.fold)
		default:
			dst = append(dst, cases.Fold().String(string(r))...)
		}
	}
	return dst
}

// Fold returns the folded form of a whole string (names, boards, providers compared exactly):
// NFKD, combining marks removed, case folded, outer space trimmed and inner runs of space made one
// space. Words are not split, so "Jane Doe" stays "jane doe".
func Fold(s string) string {
	if isFolded(s) {
		return s // most names, providers and boards are (no allocation)
	}
	var out []byte
	for _, w := range strings.FieldsFunc(norm.NFKD.String(s), isSpace) {
		if len(out) > 0 {
			out = append(out, ' ')
		}
		out = appendFold(out, []byte(w))
	}
	return string(out)
}

// isFolded reports whether s is ASCII that Fold would return unchanged: no capitals, no space at
// either end or twice in a row, and no space other than ' '.
func isFolded(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= utf8.RuneSelf, 'A' <= c && c <= 'Z', c == '\t', c == '\n', c == '\v', c == '\f', c == '\r':
			return false
		case c == ' ' && (i == 0 || i == len(s)-1 || s[i-1] == ' '):
			return false
		}
	}
	return true
}

// Tokens returns the folded tokens of text in order: what a post's text is indexed as.
func Tokens(text string) []string {
	var t Text
	t.Reset(text)
	out := make([]string, len(t.spans))
	for i, sp := range t.spans {
		out[i] = t.all[sp.start:sp.end]
	}
	return out
}

var tokenSeed = maphash.MakeSeed()

// HashToken is the hash Text keeps for each distinct token (TokenHash), so that an index keyed
// by tokens can look a post's tokens up without hashing them again.
func HashToken(tok string) uint64 { return maphash.String(tokenSeed, tok) }

// Text is an analyzed post: its folded tokens with their positions, as a compact hash table from
// each distinct token to its positions. It is what matching runs on, built once per post. A Text
// is reused across posts (Reset) to avoid allocation; it is not safe for concurrent use.
type Text struct {
	buf     []byte
	scratch []byte
	all     string // the folded tokens back to back; tokens are substrings of it
	spans   []span // every token, in order
	// slots is an open-addressing table of entries (index+1; 0 is empty), indexed by hash.
	slots   []int32
	entries []textEntry
	flat    []int32 // positions of all entries, entry by entry
	runes   []rune
	// byToken lists the entries sorted by token, built when a wildcard with a literal start first
	// needs it, so that it looks at the tokens with that start only.
	byToken []int32

	patternPositions map[*Pattern][]int32
}

type span struct{ start, end, pos, entry int32 }

type textEntry struct {
	token      string
	hash       uint64
	first, num int32 // positions are flat[first : first+num]
}

// Reset analyzes the given fields (a post's title and text, say) into t, replacing its content.
// Positions restart far apart in each field, so phrases never span two fields.
func (t *Text) Reset(fields ...string) {
	if t.patternPositions == nil {
		t.patternPositions = make(map[*Pattern][]int32)
	}
	t.buf, t.spans, t.entries, t.flat, t.byToken = t.buf[:0], t.spans[:0], t.entries[:0], t.flat[:0], t.byToken[:0]
	clear(t.patternPositions)

	pos := int32(0)
	for _, field := range fields {
		pos = t.appendTokens(field, pos) + fieldGap
	}
	t.all = string(t.buf)

	size := 16
	for size < 2*len(t.spans) {
		size *= 2
	}
	t.slots = slices.Grow(t.slots[:0], size)[:size]
	clear(t.slots)
	for i := range t.spans {
		sp := &t.spans[i]
		tok := t.all[sp.start:sp.end]
		h := HashToken(tok)
		e := t.find(tok, h)
		if e < 0 {
			e = int32(len(t.entries))
			t.entries = append(t.entries, textEntry{token: tok, hash: h})
			t.slots[t.slot(tok, h)] = e + 1
		}
		t.entries[e].num++
		sp.entry = e
	}
	total := int32(0)
	for i := range t.entries {
		t.entries[i].first = total
		total += t.entries[i].num
		t.entries[i].num = 0
	}
	t.flat = slices.Grow(t.flat[:0], int(total))[:total]
	for _, sp := range t.spans {
		en := &t.entries[sp.entry]
		t.flat[en.first+en.num] = sp.pos
		en.num++
	}
}

// appendTokens appends the folded tokens of one field to t.buf and t.spans, numbered from pos,
// and returns the next position. It is rawTokens and appendFold in one pass: each rune is
// decomposed, split and folded from its table entry (runeAnalysis). A segment (the text
// between ASCII separators and spaces, which NFKD never reorders across) holding a rune the
// table cannot answer for alone is taken back and analyzed by the general path instead.
func (t *Text) appendTokens(field string, pos int32) int32 {
	table, folds := analysisOfRunes()
	start, runes, searchable := -1, 0, false // the word being appended to t.buf
	end := func() {
		if start >= 0 && searchable && len(t.buf) > start {
			t.spans = append(t.spans, span{start: int32(start), end: int32(len(t.buf)), pos: pos})
			pos++
		} else if start >= 0 {
			t.buf = t.buf[:start] // marks only
		}
		start, runes, searchable = -1, 0, false
	}
	segment, segmentBuf, segmentSpans, segmentPos := 0, len(t.buf), len(t.spans), pos
	newSegment := func(at int) {
		segment, segmentBuf, segmentSpans, segmentPos = at, len(t.buf), len(t.spans), pos
	}
	for i := 0; i < len(field); {
		c := field[i]
		if c < utf8.RuneSelf {
			if isTokenByte(c) {
				if runes == maxTokenRunes {
					end()
				}
				if start < 0 {
					start = len(t.buf)
				}
				if n, lowered := asciiRun(field, i); n > 1 && runes+n <= maxTokenRunes {
					l := len(t.buf)
					t.buf = binary.LittleEndian.AppendUint64(t.buf, lowered)[:l+n]
					runes += n
					searchable = true
					i += n
					continue
				}
				if 'A' <= c && c <= 'Z' {
					c += 'a' - 'A'
				}
				t.buf = append(t.buf, c)
				runes++
				searchable = true
			} else {
				end()
				newSegment(i + 1)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(field[i:])
		var a runeAnalysis // analyzeSlow beyond the BMP
		if r < 0x10000 {
			a = table[r]
		}
		folded := folds[a.off : a.off+uint32(a.size)]
		word := a.kind == analyzeWord || a.kind == analyzeSearchable
		if a.kind == analyzeSlow || word && runes+int(a.nfkdRunes) > maxTokenRunes {
			i = t.appendSegment(field, segment, segmentBuf, segmentSpans, &segmentPos)
			pos = segmentPos
			start, runes, searchable = -1, 0, false
			newSegment(i)
			continue
		}
		switch a.kind {
		case analyzeSeparator:
			end()
			if isSpace(r) {
				newSegment(i + size)
			}
		case analyzeIdeograph:
			end()
			start, searchable = len(t.buf), true
			t.buf = append(t.buf, folded...)
			end()
		default: // a word's part
			if start < 0 {
				start = len(t.buf)
			}
			t.buf = append(t.buf, folded...)
			runes += int(a.nfkdRunes)
			searchable = searchable || a.kind == analyzeSearchable
		}
		i += size
	}
	end()
	return pos
}

// asciiRun reads the 8 bytes of field from i at once (none when fewer are left) and returns how
// many of them, up to the first that is not an ASCII token character, make a run, and the 8
// bytes with capitals lowered. A word is mostly one run, instead of a loop turn a byte.
func asciiRun(field string, i int) (n int, lowered uint64) {
	if i+8 > len(field) {
		return 0, 0
	}
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	s := field[i : i+8]
	w := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
	// Each byte's high bit cleared, so that adding below never carries into the next byte; the
	// bytes that had it set (non-ASCII) end the run.
	w7 := w &^ highs
	atLeast := func(c byte) uint64 { return (w7 + ones*uint64(0x80-c)) & highs } // high bit: byte >= c
	upper := atLeast('A') &^ atLeast('Z'+1)
	lower := atLeast('a') &^ atLeast('z'+1)
	digit := atLeast('0') &^ atLeast('9'+1)
	underscore := ^(w7 ^ ones*'_' + ones*0x7f) & highs // high bit: the byte is '_'
	stop := ^(upper|lower|digit|underscore)&highs | w&highs
	return bits.TrailingZeros64(stop) / 8, w | upper>>2
}

// appendSegment analyzes again, by the general path, the segment of field starting at from,
// whose tokens were appended from t.buf[buf:] and t.spans[spans:] at position *pos; it returns
// where the segment ends and leaves *pos at the next position.
func (t *Text) appendSegment(field string, from, buf, spans int, pos *int32) int {
	t.buf, t.spans = t.buf[:buf], t.spans[:spans]
	to := from
	for to < len(field) {
		cut, size := segmentCut(field[to:], false)
		if cut {
			break
		}
		to += size
	}
	t.scratch = appendNFKD(t.scratch[:0], field[from:to])
	splitTokens(t.scratch, false, func(tok []byte) {
		start := len(t.buf)
		t.buf = appendFold(t.buf, tok)
		if len(t.buf) == start {
			return // the token was marks only
		}
		t.spans = append(t.spans, span{start: int32(start), end: int32(len(t.buf)), pos: *pos})
		*pos++
	})
	return to
}

// slot returns the table slot of tok: its own, or the empty one where it would go.
func (t *Text) slot(tok string, h uint64) int {
	mask := len(t.slots) - 1
	for i := int(h) & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 {
			return i
		}
		if e := &t.entries[s-1]; e.hash == h && e.token == tok {
			return i
		}
	}
}

// find returns the entry of tok, or -1.
func (t *Text) find(tok string, h uint64) int32 {
	if len(t.slots) == 0 {
		return -1
	}
	return t.slots[t.slot(tok, h)] - 1
}

// EachToken calls fn with each folded token of text in order, as Tokens returns them, reusing
// t's buffers and building no table of positions: for callers that need the tokens only. tok is
// valid until fn returns. It leaves t empty, as Reset with no fields does.
func (t *Text) EachToken(text string, fn func(tok []byte)) {
	if t.patternPositions == nil {
		t.patternPositions = make(map[*Pattern][]int32)
	}
	t.buf, t.spans, t.entries, t.flat, t.byToken, t.all = t.buf[:0], t.spans[:0], t.entries[:0], t.flat[:0], t.byToken[:0], ""
	clear(t.patternPositions)
	t.slots = t.slots[:0]
	t.appendTokens(text, 0)
	for _, sp := range t.spans {
		fn(t.buf[sp.start:sp.end])
	}
	t.buf, t.spans = t.buf[:0], t.spans[:0]
}

// Len returns the number of distinct tokens.
func (t *Text) Len() int { return len(t.entries) }

// Token returns the i-th distinct token, 0 <= i < Len(), in order of first appearance.
func (t *Text) Token(i int) string { return t.entries[i].token }

// TokenHash returns HashToken of the i-th distinct token.
func (t *Text) TokenHash(i int) uint64 { return t.entries[i].hash }

// Has reports whether the token occurs.
func (t *Text) Has(token string) bool { return t.find(token, HashToken(token)) >= 0 }

// Positions returns the sorted positions of a folded token (nil when absent). The slice belongs
// to t and is valid until the next Reset.
func (t *Text) Positions(token string) []int32 {
	return t.positions(t.find(token, HashToken(token)))
}

func (t *Text) positions(e int32) []int32 {
	if e < 0 {
		return nil
	}
	en := t.entries[e]
	return t.flat[en.first : en.first+en.num]
}

// positionsOf returns the sorted positions of every token matching p.
func (t *Text) positionsOf(p *Pattern) []int32 {
	if p.Kind == Exact {
		return t.positions(t.find(p.Text, p.hash))
	}
	if got, ok := t.patternPositions[p]; ok {
		return got
	}
	var out []int32
	add := func(i int) {
		if p.matchToken(t.entries[i].token, &t.runes) {
			en := t.entries[i]
			out = append(out, t.flat[en.first:en.first+en.num]...)
		}
	}
	if prefix := p.Prefix(); p.Kind == Wildcard && prefix != "" {
		for _, i := range t.withPrefix(prefix) {
			add(int(i))
		}
	} else {
		for i := range t.entries {
			add(i)
		}
	}
	slices.Sort(out)
	t.patternPositions[p] = out
	return out
}

// withPrefix returns the entries whose token starts with prefix.
func (t *Text) withPrefix(prefix string) []int32 {
	if len(t.byToken) != len(t.entries) {
		t.byToken = t.byToken[:0]
		for i := range t.entries {
			t.byToken = append(t.byToken, int32(i))
		}
		slices.SortFunc(t.byToken, func(a, b int32) int { return strings.Compare(t.entries[a].token, t.entries[b].token) })
	}
	from, _ := slices.BinarySearchFunc(t.byToken, prefix, func(e int32, p string) int {
		return strings.Compare(t.entries[e].token, p)
	})
	to := from
	for to < len(t.byToken) && strings.HasPrefix(t.entries[t.byToken[to]].token, prefix) {
		to++
	}
	return t.byToken[from:to]
}
