package query

import (
	"strings"
	"unicode/utf8"
)

// PatternKind says how a query token is compared with a post's tokens.
type PatternKind uint8

const (
	// Exact: the folded token itself.
	Exact PatternKind = iota
	// Wildcard: '*' is zero or more characters, '?' exactly one, inside one token.
	Wildcard
	// Fuzzy: Damerau-Levenshtein distance (optimal string alignment) at most MaxEdits.
	Fuzzy
)

// MaxEdits is the largest similarity distance (word~2), and the default of word~.
const MaxEdits = 2

// Pattern is one token of a query term, folded like a post's tokens.
type Pattern struct {
	Kind     PatternKind
	Text     string // folded; for Wildcard it keeps its '*' and '?'
	MaxEdits int    // Fuzzy only
	runes    []rune // Text as runes, for Wildcard and Fuzzy
	hash     uint64 // HashToken(Text), for Exact
}

func newPattern(kind PatternKind, text string, edits int) *Pattern {
	p := &Pattern{Kind: kind, Text: text, MaxEdits: edits}
	if kind == Exact {
		p.hash = HashToken(text)
	} else {
		p.runes = []rune(text)
	}
	return p
}

// String is the pattern as it would be written in a query.
func (p *Pattern) String() string {
	if p.Kind == Fuzzy {
		return p.Text + "~" + string(rune('0'+p.MaxEdits))
	}
	return p.Text
}

// Literal returns the longest run of the pattern's text without wildcards and where it starts
// (0) or ends (len) if it is a prefix or a suffix: index keys are built from it.
func (p *Pattern) Literal() (literal string, prefix, suffix bool) {
	if p.Kind != Wildcard {
		return p.Text, true, true
	}
	best, bestStart := "", 0
	for start := 0; start < len(p.Text); {
		end := strings.IndexAny(p.Text[start:], "*?")
		if end < 0 {
			end = len(p.Text)
		} else {
			end += start
		}
		if end-start > len(best) {
			best, bestStart = p.Text[start:end], start
		}
		start = end + 1
	}
	return best, bestStart == 0 && best != "", bestStart+len(best) == len(p.Text) && best != ""
}

// Prefix returns the literal text before the first wildcard (all of it for Exact and Fuzzy).
func (p *Pattern) Prefix() string {
	if p.Kind != Wildcard {
		return p.Text
	}
	if i := strings.IndexAny(p.Text, "*?"); i >= 0 {
		return p.Text[:i]
	}
	return p.Text
}

// Matches reports whether the folded token tok matches the pattern.
func (p *Pattern) Matches(tok string) bool {
	var scratch []rune
	return p.matchToken(tok, &scratch)
}

// MatchesRunes reports whether the folded token, given as runes, matches the pattern.
func (p *Pattern) MatchesRunes(tok []rune) bool {
	switch p.Kind {
	case Exact:
		return string(tok) == p.Text
	case Wildcard:
		return globMatch(p.runes, tok)
	}
	return WithinEdits(p.runes, tok, p.MaxEdits)
}

// matchToken is Matches with a caller-owned rune buffer, to match many tokens without allocating.
func (p *Pattern) matchToken(tok string, scratch *[]rune) bool {
	switch p.Kind {
	case Exact:
		return tok == p.Text
	case Wildcard:
		*scratch = appendRunes((*scratch)[:0], tok)
		return globMatch(p.runes, *scratch)
	default:
		// A length difference beyond the allowed edits settles it before any decoding.
		n := utf8.RuneCountInString(tok)
		if n > len(p.runes)+p.MaxEdits || n < len(p.runes)-p.MaxEdits {
			return false
		}
		*scratch = appendRunes((*scratch)[:0], tok)
		return WithinEdits(p.runes, *scratch, p.MaxEdits)
	}
}

func appendRunes(dst []rune, s string) []rune {
	for _, r := range s {
		dst = append(dst, r)
	}
	return dst
}

// globMatch matches '*' and '?' patterns in time O(len(pattern)*len(text)) at worst: on a
// mismatch it only ever backtracks to the last '*', which is enough for these two wildcards.
func globMatch(pattern, text []rune) bool {
	p, t := 0, 0
	star, mark := -1, 0
	for t < len(text) {
		switch {
		case p < len(pattern) && (pattern[p] == wildcardOne || pattern[p] == text[t]):
			p++
			t++
		case p < len(pattern) && pattern[p] == wildcardMany:
			star, mark = p, t
			p++
		case star >= 0:
			mark++
			p, t = star+1, mark
		default:
			return false
		}
	}
	for p < len(pattern) && pattern[p] == wildcardMany {
		p++
	}
	return p == len(pattern)
}

// WithinEdits reports whether the optimal-string-alignment distance (Levenshtein plus adjacent
// transpositions, the restricted Damerau-Levenshtein distance Lucene also uses) between a and b
// is at most k. Only the cells within k of the diagonal can stay within k, so only they are
// computed (cells outside count as k+1), and it stops as soon as a whole band row exceeds k.
func WithinEdits(a, b []rune, k int) bool {
	if len(a)-len(b) > k || len(b)-len(a) > k {
		return false
	}
	if len(a) == 0 || len(b) == 0 {
		return max(len(a), len(b)) <= k
	}
	const far = 1 << 20
	// Three rows: two back for the transposition case; on the stack for words of usual length.
	var stack [3 * 48]int
	var rows []int
	if len(b)+1 <= 48 {
		rows = stack[:3*(len(b)+1)]
	} else {
		rows = make([]int, 3*(len(b)+1))
	}
	prev2, prev, cur := rows[:len(b)+1], rows[len(b)+1:2*(len(b)+1)], rows[2*(len(b)+1):]
	for j := range prev {
		prev[j] = j
		prev2[j] = far
	}
	for i := 1; i <= len(a); i++ {
		lo, hi := max(1, i-k), min(len(b), i+k)
		// The cells just outside the band read as out of reach.
		cur[lo-1] = far
		if lo == 1 {
			cur[0] = i
		}
		if hi < len(b) {
			cur[hi+1] = far
		}
		rowMin := far
		if lo == 1 {
			rowMin = cur[0]
		}
		for j := lo; j <= hi; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin > k {
			return false
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)] <= k
}
