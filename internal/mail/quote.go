package mail

import (
	"strings"
	"unicode"
)

// SubjectRunes bounds the user-written text a subject quotes.
const SubjectRunes = 60

// Quote is text someone wrote (a search's or an organization's name) as a message shows it:
// between curly quotes, on one line, without control or format characters (bidirectional
// overrides included), cut to maxRunes when maxRunes > 0. It follows the product's own wording and never
// leads it, so a name written to look like a bank's warning reads as the name it is.
func Quote(text string, maxRunes int) string {
	clean := strings.Join(strings.FieldsFunc(text, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r)
	}), " ")
	clean = strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, clean)
	if runes := []rune(clean); maxRunes > 0 && len(runes) > maxRunes {
		clean = strings.TrimSpace(string(runes[:maxRunes-1])) + "…"
	}
	return "“" + clean + "”"
}
