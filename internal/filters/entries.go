package filters

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sightline/sightline/internal/query"
)

// Stripped counts the values left out of a list, for the message telling the user.
type Stripped struct {
	Duplicates   int // of each other or of entries already in the list
	TooShort     int // under MinEntryLength characters
	TooLong      int // over MaxEntryLength characters
	Unsearchable int // keywords without letters or digits, which could never match
}

func (s Stripped) total() int { return s.Duplicates + s.TooShort + s.TooLong + s.Unsearchable }

// Message says how many values were removed and why ("" when none was): "3 keywords were
// removed: 2 duplicates and 1 shorter than 3 characters."
func (s Stripped) Message() string {
	var parts []string
	if s.Duplicates > 0 {
		parts = append(parts, count(s.Duplicates, "duplicate", "duplicates"))
	}
	if s.TooShort > 0 {
		parts = append(parts, fmt.Sprintf("%d shorter than %d characters", s.TooShort, MinEntryLength))
	}
	if s.TooLong > 0 {
		parts = append(parts, fmt.Sprintf("%d longer than %d characters", s.TooLong, MaxEntryLength))
	}
	if s.Unsearchable > 0 {
		parts = append(parts, fmt.Sprintf("%d without letters or digits", s.Unsearchable))
	}
	if len(parts) == 0 {
		return ""
	}
	return count(s.total(), "keyword was", "keywords were") + " removed: " + joinAnd(parts) + "."
}

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// joinAnd joins "a", "b", "c" as "a, b and c".
func joinAnd(parts []string) string {
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

func joinSentences(first, second string) string {
	if second == "" {
		return first
	}
	return first + " " + second
}

// collapseSpace trims a value and makes each inner run of white space one space.
func collapseSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// entryKey is how the matcher compares a value of a list of type t: folded, and for authors
// without the '@' of a handle.
func entryKey(t Type, value string) string {
	key := query.Fold(value)
	if t == Author {
		key = strings.TrimSpace(strings.TrimPrefix(key, "@"))
	}
	return key
}

// clean turns typed values into entries of a list of type t that already holds existing. Blank
// values are skipped silently; duplicates, too short or too long values and keywords with nothing
// to match are dropped and counted; objects outside the supported vocabulary are returned
// separately, as they make the request invalid.
func clean(t Type, values []string, existing []Entry) (kept []Entry, stripped Stripped, unsupported []string) {
	seen := make(map[string]bool, len(existing)+len(values))
	for _, e := range existing {
		seen[e.Key] = true
	}
	for _, raw := range values {
		value := collapseSpace(raw)
		if value == "" {
			continue
		}
		key := entryKey(t, value)
		if t == ObjectDetection {
			object, ok := supportedObject(key)
			if !ok {
				if !slices.Contains(unsupported, value) {
					unsupported = append(unsupported, value)
				}
				continue
			}
			value, key = object, object
		}
		length := utf8.RuneCountInString(value)
		if t == Author {
			length = utf8.RuneCountInString(strings.TrimSpace(strings.TrimPrefix(value, "@")))
		}
		switch {
		case length < MinEntryLength:
			stripped.TooShort++
		case length > MaxEntryLength:
			stripped.TooLong++
		case t == Keyword && len(query.Tokens(value)) == 0:
			stripped.Unsearchable++
		case seen[key]:
			stripped.Duplicates++
		default:
			seen[key] = true
			kept = append(kept, Entry{Value: value, Key: key})
		}
	}
	return kept, stripped, unsupported
}

func unsupportedMessage(objects []string) string {
	quoted := make([]string, len(objects))
	for i, o := range objects {
		quoted[i] = strconv.Quote(o)
	}
	return "Objects must come from the supported list; not supported: " + strings.Join(quoted, ", ") + "."
}
