package query

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// keywordGroups splits a query for display: items are separated by commas and by the word OR
// (outside quotes); the word AND and brackets are dropped; each item is a list of words, a quoted
// phrase (with any ~N after it) counting as one word. Empty and repeated items are dropped.
func keywordGroups(q string) [][]string {
	var groups [][]string
	var words []string
	seen := map[string]bool{}
	var word strings.Builder
	inQuote := false
	flushWord := func() {
		w := word.String()
		word.Reset()
		switch w {
		case "":
		case "OR":
			flushItem(&groups, &words, seen)
		case "AND":
		default:
			words = append(words, w)
		}
	}
	for _, r := range q {
		switch {
		case inQuote:
			word.WriteRune(r)
			inQuote = r != '"'
		case r == '"':
			word.WriteRune(r)
			inQuote = true
		case isSpace(r) || r == '(' || r == ')':
			flushWord()
		case r == ',':
			flushWord()
			flushItem(&groups, &words, seen)
		default:
			word.WriteRune(r)
		}
	}
	flushWord()
	flushItem(&groups, &words, seen)
	return groups
}

func flushItem(groups *[][]string, words *[]string, seen map[string]bool) {
	item := strings.Join(*words, " ")
	if item != "" && !seen[item] {
		seen[item] = true
		*groups = append(*groups, *words)
	}
	*words = nil
}

// Keywords returns the keyword list shown for a query (spec: keyword parsing): split on OR and on
// commas outside quotes, AND and brackets stripped, items trimmed, empty and duplicate items and
// bare ORs dropped.
func Keywords(q string) []string {
	groups := keywordGroups(q)
	out := make([]string, len(groups))
	for i, g := range groups {
		out[i] = strings.Join(g, " ")
	}
	return out
}

// Summary returns the keyword summary (spec: keyword summary): one group per keyword-list item,
// its words and quoted phrases joined with AND, each group in brackets, groups joined with OR.
func Summary(q string) string {
	groups := keywordGroups(q)
	parts := make([]string, len(groups))
	for i, g := range groups {
		parts[i] = "(" + strings.Join(g, " AND ") + ")"
	}
	return strings.Join(parts, " OR ")
}

// MaxNameLength is the longest saved-search name the builder accepts.
const MaxNameLength = 255

// copySuffix matches a duplicate's suffix: "(copy)" or "(copy N)" at the end of a name.
var copySuffix = regexp.MustCompile(`\(copy(?: ([0-9]+))?\)$`)

// HasCopySuffix reports whether a name ends in "(copy)" or "(copy N)".
func HasCopySuffix(name string) bool { return copySuffix.MatchString(name) }

// AutoName returns the name the search builder fills in while the user has not edited it: the
// location, else the keywords, else the author (the first that is not blank, trimmed), cut to 255
// characters plus an ellipsis. A current name ending in a copy suffix (a duplicate) is kept.
func AutoName(current, location, keywords, author string) string {
	if HasCopySuffix(current) {
		return current
	}
	for _, source := range []string{location, keywords, author} {
		source = strings.TrimFunc(source, isSpace)
		if source == "" {
			continue
		}
		if utf8.RuneCountInString(source) > MaxNameLength {
			return string([]rune(source)[:MaxNameLength]) + "…"
		}
		return source
	}
	return ""
}

// DuplicateName returns the name of a duplicated search: "name (copy)", or for a name already
// ending in "(copy)" or "(copy N)", the same with the counter raised ("(copy)" counts as 1, so the
// first numbered copy is "(copy 2)").
func DuplicateName(name string) string {
	m := copySuffix.FindStringSubmatchIndex(name)
	if m == nil {
		return name + " (copy)"
	}
	n := "1"
	if m[2] >= 0 {
		n = name[m[2]:m[3]]
	}
	return name[:m[0]] + "(copy " + incrementDecimal(n) + ")"
}

// incrementDecimal adds one to a decimal numeral of any length (leading zeros dropped), so that
// no counter overflows and the browser port gives the same text.
func incrementDecimal(n string) string {
	n = strings.TrimLeft(n, "0")
	digits := []byte("0" + n)
	i := len(digits) - 1
	for digits[i] == '9' {
		digits[i] = '0'
		i--
	}
	digits[i]++
	return strings.TrimLeft(string(digits[:1]), "0") + string(digits[1:])
}
