package geo

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Names are compared by key: the name's words, case and accents folded, joined by single spaces.
// "Saint-Étienne", "saint etienne" and "SAINT ÉTIENNE" share the key "saint etienne", and text is
// cut into words the same way, so a run of words in a post can be looked up directly.

// NameKey is the comparison key of a place name: two names with the same key are the same
// name written with other case, accents or punctuation.
func NameKey(s string) string { return key(s) }

// key returns the comparison key of a name or address part.
func key(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	forEachWord(s, func(w word) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w.folded)
	})
	return b.String()
}

// word is one run of letters and digits in a text.
type word struct {
	start, end int    // byte offsets in the text
	folded     string // lowercase, accents removed
}

// forEachWord calls fn for every word of s: letters, digits and combining marks; anything else
// (spaces, punctuation, apostrophes, hyphens) separates words.
func forEachWord(s string, fn func(word)) {
	start := -1
	var folded []byte
	for i, r := range s {
		if isWordRune(r) {
			if start < 0 {
				start = i
				folded = folded[:0]
			}
			folded = appendFolded(folded, r)
			continue
		}
		if start >= 0 {
			fn(word{start: start, end: i, folded: string(folded)})
			start = -1
		}
	}
	if start >= 0 {
		fn(word{start: start, end: len(s), folded: string(folded)})
	}
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

// appendFolded appends r lowercased and without accents; combining marks vanish.
func appendFolded(b []byte, r rune) []byte {
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		return append(b, byte(r))
	}
	if f, ok := foldTable[r]; ok {
		return append(b, f...)
	}
	if unicode.Is(unicode.Mn, r) {
		return b
	}
	return utf8.AppendRune(b, unicode.ToLower(r))
}

// foldTable maps the accented Latin letters to their plain forms. Built once from Unicode
// decompositions, plus the letters that do not decompose (ß, ø, ł, æ ...).
var foldTable = buildFoldTable()

func buildFoldTable() map[rune]string {
	table := map[rune]string{
		'ß': "ss", 'ẞ': "ss", 'æ': "ae", 'Æ': "ae", 'œ': "oe", 'Œ': "oe", 'ø': "o", 'Ø': "o",
		'ł': "l", 'Ł': "l", 'đ': "d", 'Đ': "d", 'ð': "d", 'Ð': "d", 'þ': "th", 'Þ': "th",
		'ı': "i", 'ħ': "h", 'Ħ': "h", 'ŧ': "t", 'Ŧ': "t", 'ŋ': "n", 'Ŋ': "n",
	}
	latin := [][2]rune{{0x00C0, 0x024F}, {0x1E00, 0x1EFF}} // Latin-1, Extended-A/B, Additional
	for _, span := range latin {
		for r := span[0]; r <= span[1]; r++ {
			if _, ok := table[r]; ok || !unicode.IsLetter(r) {
				continue
			}
			var plain []rune
			for _, d := range norm.NFD.String(string(unicode.ToLower(r))) {
				if !unicode.Is(unicode.Mn, d) {
					plain = append(plain, d)
				}
			}
			if s := string(plain); s != string(r) {
				table[r] = s
			}
		}
	}
	return table
}
