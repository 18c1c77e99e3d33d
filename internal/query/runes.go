package query

import (
	"math"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Analysis looks up every rune of every post, so what it needs to know of a BMP rune is computed
// once, from the unicode, norm and cases packages, into one table. Runes beyond the BMP (rare in
// tokens) are computed on the spot.

const (
	runeToken      = 1 << iota // letter, digit, mark or '_'
	runeSearchable             // letter, digit or '_': a token needs one
	runeIdeograph              // Han, Hiragana, Katakana: a token by itself
	runeMn                     // nonspacing mark: removed by folding
	runeComplex                // NFKD of a text holding it may reorder it: decompose the text properly
	runeDecomposes             // NFKD changes it (see decompositions)
)

type runeInfo struct {
	class uint8
	// fold is the full case folding when it is one rune, -1 when it is longer (ß to ss).
	fold rune
}

// runeAnalysis is how Text analyzes a BMP rune in one step (see Text.appendTokens): what NFKD
// makes of it, when that is all token characters (appended folded, counted in NFKD runes), all
// separators, or one ideograph; else the rune's segment takes the general path. Its folded form
// is folds[off:off+size]. Eight bytes, so that a script's block takes few cache lines.
type runeAnalysis struct {
	kind      analysisKind
	nfkdRunes uint8
	size      uint8
	off       uint32
}

type analysisKind uint8

const (
	analyzeSlow       analysisKind = iota // the general path: NFKD of the segment, split, fold
	analyzeWord                           // part of a word: append folded
	analyzeSearchable                     // part of a word that makes it searchable
	analyzeSeparator                      // ends a word
	analyzeIdeograph                      // a word by itself
)

var (
	runeTableOnce sync.Once
	runeTable     []runeInfo
	analysisTable []runeAnalysis
	folds         string
	// decompositions holds NFKD(r) for the BMP runes it changes.
	decompositions map[rune]string
)

func buildRuneTable() {
	caser := cases.Fold()
	runeTable = make([]runeInfo, 0x10000)
	analysisTable = make([]runeAnalysis, 0x10000)
	var allFolds []byte
	decompositions = map[rune]string{}
	for r := rune(0); r < 0x10000; r++ {
		info := runeInfo{class: classify(r), fold: -1}
		if r >= 0xD800 && r < 0xE000 {
			info.fold = r
		} else if folded := []rune(caser.String(string(r))); len(folded) == 1 {
			info.fold = folded[0]
		}
		d := norm.NFKD.String(string(r))
		if d != string(r) {
			decompositions[r] = d
			info.class |= runeDecomposes
			for _, dr := range d {
				if classify(dr)&runeComplex != 0 {
					info.class |= runeComplex
				}
			}
		}
		if r >= utf8.RuneSelf && info.class&runeComplex == 0 && (r < 0xD800 || r >= 0xE000) {
			kind, n, folded := analysisOf(d, caser)
			analysisTable[r] = runeAnalysis{kind: kind, nfkdRunes: n, size: uint8(len(folded)), off: uint32(len(allFolds))}
			allFolds = append(allFolds, folded...)
		}
		runeTable[r] = info
	}
	folds = string(allFolds)
}

// analysisOfRunes returns the BMP's runeAnalysis table and their folded forms.
func analysisOfRunes() ([]runeAnalysis, string) {
	runeTableOnce.Do(buildRuneTable)
	return analysisTable, folds
}

// analysisOf tells how splitTokens and appendFold treat the NFKD runes d of one rune, when they
// all agree.
func analysisOf(d string, caser cases.Caser) (analysisKind, uint8, string) {
	var tokens, separators, ideographs, searchable int
	for _, r := range d {
		c := classify(r)
		switch {
		case c&runeToken == 0:
			separators++
		case c&runeIdeograph != 0:
			ideographs++
		default:
			tokens++
			if c&runeSearchable != 0 {
				searchable++
			}
		}
	}
	n := utf8.RuneCountInString(d)
	// appendFold's steps, without the table being built.
	var folded []byte
	for _, r := range d {
		switch {
		case r < utf8.RuneSelf:
			folded = append(folded, byte(unicode.ToLower(r)))
		case !unicode.Is(unicode.Mn, r):
			folded = append(folded, caser.String(string(r))...)
		}
	}
	switch {
	case n > math.MaxUint8 || len(folded) > math.MaxUint8:
		return analyzeSlow, 0, "" // longer than an entry holds (no BMP rune is)
	case separators == n:
		return analyzeSeparator, uint8(n), ""
	case ideographs == 1 && n == 1:
		return analyzeIdeograph, 1, string(folded)
	case tokens == n && searchable > 0:
		return analyzeSearchable, uint8(n), string(folded)
	case tokens == n:
		return analyzeWord, uint8(n), string(folded)
	}
	return analyzeSlow, 0, ""
}

func classify(r rune) uint8 {
	var c uint8
	switch {
	case r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r):
		c = runeToken | runeSearchable
	case unicode.IsMark(r):
		c = runeToken
	}
	if unicode.Is(unicode.Mn, r) {
		c |= runeMn
	}
	if r >= 0x2E80 && unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) {
		c |= runeIdeograph
	}
	// A non-starter that folding keeps could be moved by canonical reordering.
	if norm.NFD.PropertiesString(string(r)).CCC() != 0 && c&runeMn == 0 {
		c |= runeComplex
	}
	return c
}

func lookupRune(r rune) runeInfo {
	runeTableOnce.Do(buildRuneTable)
	if r < 0x10000 {
		return runeTable[r]
	}
	info := runeInfo{class: classify(r) | runeComplex, fold: -1}
	if folded := []rune(cases.Fold().String(string(r))); len(folded) == 1 {
		info.fold = folded[0]
	}
	return info
}

// isTokenRune reports whether r belongs in a token: letters, digits, marks and '_'.
func isTokenRune(r rune) bool {
	if r < utf8.RuneSelf {
		return isTokenByte(byte(r))
	}
	return lookupRune(r).class&runeToken != 0
}

// isTokenByte is isTokenRune for ASCII.
func isTokenByte(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// isSearchable reports whether a token holding r is worth keeping: marks alone are not.
func isSearchable(r rune) bool {
	if r < utf8.RuneSelf {
		return isTokenRune(r)
	}
	return lookupRune(r).class&runeSearchable != 0
}

// appendNFKD appends the compatibility decomposition of seg: rune by rune from the table, unless
// a rune could take part in canonical reordering, when the norm package does the whole segment.
func appendNFKD(dst []byte, seg string) []byte {
	start := len(dst)
	for _, r := range seg {
		if r < utf8.RuneSelf {
			dst = append(dst, byte(r))
			continue
		}
		class := lookupRune(r).class
		switch {
		case class&runeComplex != 0:
			return norm.NFKD.AppendString(dst[:start], seg)
		case class&runeDecomposes != 0:
			dst = append(dst, decompositions[r]...)
		default:
			dst = utf8.AppendRune(dst, r)
		}
	}
	return dst
}
