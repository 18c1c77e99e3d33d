package story

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// A name written in two scripts ("Malatya", "Малатьи"; "Sheremetyevo", "Шереметьево") shares no
// word, and the gazetteer knows few places in every script. Its skeleton does: the name
// transliterated to Latin letters, its vowels and h dropped, its consonants put in classes of
// letters that transliterations swap (c, k, q and g; f, v and w; s, z and x; b and p; d and t), doubled ones
// once, cut to the first four. Inflections mostly change a name's end ("Малатьи", "Дарницького"),
// which the cut leaves out.

// cyrillic is the Latin spelling of the Cyrillic letters (Russian and Ukrainian), lowercase.
var cyrillic = map[rune]string{
	'а': "a", 'б': "b", 'в': "v", 'г': "g", 'ґ': "g", 'д': "d", 'е': "e", 'ё': "e", 'є': "ye",
	'ж': "zh", 'з': "z", 'и': "i", 'і': "i", 'ї': "yi", 'й': "y", 'к': "k", 'л': "l", 'м': "m",
	'н': "n", 'о': "o", 'п': "p", 'р': "r", 'с': "s", 'т': "t", 'у': "u", 'ф': "f", 'х': "kh",
	'ц': "ts", 'ч': "ch", 'ш': "sh", 'щ': "shch", 'ъ': "", 'ы': "y", 'ь': "", 'э': "e", 'ю': "yu",
	'я': "ya",
}

// skeletonClass is the class of a Latin consonant, 0 for the letters a skeleton drops.
func skeletonClass(c byte) byte {
	switch c {
	case 'b', 'p':
		return 'b'
	case 'f', 'v', 'w':
		return 'f'
	case 'c', 'k', 'q', 'g':
		return 'k'
	case 's', 'z', 'x':
		return 's'
	case 'd', 't':
		return 't'
	case 'l', 'm', 'n', 'r':
		return c
	}
	return 0 // vowels, y, j (which other languages write for y: "Rjasan", "Kijów"), h
}

// minSkeleton and maxSkeleton bound a skeleton's consonants: two say too little ("Kyiv" is
// "kf", as are a thousand words), and a name's end is its inflection.
const minSkeleton, maxSkeleton = 3, 4

// skeleton is the skeleton of a word (lowercase), "" when it has fewer than minSkeleton
// consonants or letters that are neither Latin nor Cyrillic.
func skeleton(w string) string {
	var out [maxSkeleton]byte
	n := 0
	var last byte
	letter := func(c byte) bool {
		if c < 'a' || c > 'z' {
			return false
		}
		k := skeletonClass(c)
		if k == 0 || k == last {
			if k == 0 && c != 'h' {
				last = 0 // a vowel between: "Anna" is "nn" once, "Nanon" twice
			}
			return true
		}
		last = k
		if n < maxSkeleton {
			out[n] = k
			n++
		}
		return true
	}
	add := func(s string) {
		for i := 0; i < len(s); i++ {
			letter(s[i])
		}
	}
	for i := 0; i < len(w); {
		r, size := utf8.DecodeRuneInString(w[i:])
		i += size
		switch {
		case r < utf8.RuneSelf:
			c := byte(r)
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if !letter(c) {
				return ""
			}
		default:
			lat, ok := cyrillic[unicode.ToLower(r)]
			if !ok {
				if l := latinBase(r); l != "" {
					lat = l
				} else {
					return ""
				}
			}
			add(lat)
		}
		if n == maxSkeleton {
			break
		}
	}
	if n < minSkeleton {
		return ""
	}
	return string(out[:n])
}

// latinBase is the base letter of an accented Latin letter ("é" is "e", "ł" is "l"), "" for
// others.
func latinBase(r rune) string {
	switch unicode.ToLower(r) {
	case 'ł':
		return "l"
	case 'ß':
		return "ss"
	case 'ø':
		return "o"
	case 'æ':
		return "ae"
	case 'ı':
		return "i"
	}
	if !unicode.Is(unicode.Latin, r) {
		return ""
	}
	// Accented letters decompose to a base letter and a mark; the folding the index does
	// has taken most away already.
	for _, base := range []string{"a", "c", "e", "g", "i", "n", "o", "s", "u", "y", "z"} {
		if strings.ContainsRune(accented[base], unicode.ToLower(r)) {
			return base
		}
	}
	return ""
}

var accented = map[string]string{
	"a": "àáâãäåāăą", "c": "çćčĉ", "e": "èéêëēęěė", "g": "ğ", "i": "ìíîïī", "n": "ñńň",
	"o": "òóôõöō", "s": "śšş", "u": "ùúûüūů", "y": "ýÿ", "z": "źżž",
}
