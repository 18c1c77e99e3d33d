package translate

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sightline/sightline/internal/enrich"
)

// Form B asks that what identifies a document survive its translation: its links, addresses,
// numbers and names, and the search's terms. A translation server rewrites whatever it is given
// (it capitalizes, transliterates, spaces digits, translates a user name that is a word), so
// each such span is replaced by a placeholder before sending and put back, as written, after.
//
// A placeholder is "[[" P N "]]": P is a run of digits chosen so that the text holds nothing a
// placeholder could be mistaken for, N the span's number. Digits and brackets are what
// translation models copy through unchanged; restoring tolerates the spaces some insert.

// maxKnownItems bounds each list a client sends, and maxKnownChars each item: they are looked
// for in the text one by one.
const (
	maxKnownItems = 100
	maxKnownChars = 300
)

// opening matches the start of anything that reads as a placeholder, capturing its digits.
var opening = regexp.MustCompile(`\[\s*\[\s*(\d+)`)

// masked is a text with its entities replaced by placeholders.
type masked struct {
	text      string         // what is sent
	originals []string       // originals[n] is what placeholder n stands for
	pattern   *regexp.Regexp // the placeholders of this text, capturing n
}

// span is a byte range of the text.
type span struct{ start, end int }

// mask replaces in text the entities enrichment finds, the client's entity lists and the query
// terms with placeholders. In HTML only text is masked, never markup.
func mask(text, format string, queryTerms []string, known Entities) masked {
	var spans []span
	for _, s := range enrich.EntitySpans(text) {
		spans = append(spans, span{s.Start, s.End})
	}
	seen := map[string]bool{}
	for _, list := range [][]string{known.ExternalLinks, known.ExternalIPs, known.Phones, known.Authors,
		known.AuthorScreenName, known.AuthorUsername, known.Emails, known.CreditCards, known.SSNs, queryTerms} {
		for i, item := range list {
			if i == maxKnownItems {
				break
			}
			item = strings.TrimSpace(item)
			if key := strings.ToLower(item); !seen[key] {
				seen[key] = true
				spans = append(spans, occurrences(text, item)...)
			}
		}
	}
	if format == FormatHTML {
		spans = outsideMarkup(text, spans)
	}
	if len(spans) == 0 {
		return masked{text: text}
	}
	spans = merge(spans)

	prefix := freePrefix(text)
	m := masked{pattern: regexp.MustCompile(`\[\s*\[\s*` + prefix + `\s*(\d+)\s*\]\s*\]`)}
	index := map[string]int{} // the same entity twice is one placeholder
	var b strings.Builder
	last := 0
	for _, s := range spans {
		original := text[s.start:s.end]
		n, ok := index[original]
		if !ok {
			n = len(m.originals)
			index[original] = n
			m.originals = append(m.originals, original)
		}
		b.WriteString(text[last:s.start])
		b.WriteString("[[" + prefix + strconv.Itoa(n) + "]]")
		last = s.end
	}
	b.WriteString(text[last:])
	m.text = b.String()
	return m
}

// restore puts the originals back into a translation of the masked text; ok is false when the
// server lost or broke a placeholder, or made one up.
func (m masked) restore(translated string) (string, bool) {
	if m.pattern == nil {
		return translated, true
	}
	seen := make([]bool, len(m.originals))
	ok := true
	out := m.pattern.ReplaceAllStringFunc(translated, func(p string) string {
		n, err := strconv.Atoi(m.pattern.FindStringSubmatch(p)[1])
		if err != nil || n >= len(m.originals) {
			ok = false
			return p
		}
		seen[n] = true
		return m.originals[n]
	})
	return out, ok && !slices.Contains(seen, false)
}

// freePrefix is the shortest digit run from 7 up that no opening in text starts with, so that
// the text's own brackets are never read as placeholders.
func freePrefix(text string) string {
	var runs []string
	for _, m := range opening.FindAllStringSubmatch(text, -1) {
		runs = append(runs, m[1])
	}
	for p := 7; ; p++ {
		prefix := strconv.Itoa(p)
		if !slices.ContainsFunc(runs, func(r string) bool { return strings.HasPrefix(r, prefix) }) {
			return prefix
		}
	}
}

// occurrences finds item in text ignoring case, as a whole word where it starts or ends with
// a letter or digit ("flood" is not masked inside "flooding").
func occurrences(text, item string) []span {
	if item == "" || len(item) > maxKnownChars || !utf8.ValidString(item) {
		return nil // JSON gives valid UTF-8; anything else is not the client's word
	}
	first, _ := utf8.DecodeRuneInString(item)
	last, _ := utf8.DecodeLastRuneInString(item)
	var out []span
	for _, loc := range regexp.MustCompile(`(?i)`+regexp.QuoteMeta(item)).FindAllStringIndex(text, -1) {
		before, _ := utf8.DecodeLastRuneInString(text[:loc[0]])
		after, _ := utf8.DecodeRuneInString(text[loc[1]:])
		if (isWord(first) && loc[0] > 0 && isWord(before)) || (isWord(last) && loc[1] < len(text) && isWord(after)) {
			continue
		}
		out = append(out, span{loc[0], loc[1]})
	}
	return out
}

func isWord(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// markupPattern finds tags, comments and character references.
var markupPattern = regexp.MustCompile(`<!--[\s\S]*?-->|<[A-Za-z/!?][^>]*>|&(?:#[0-9]+|#[xX][0-9A-Fa-f]+|[A-Za-z][A-Za-z0-9]*);`)

// outsideMarkup drops the spans that touch a tag or comment, or cut a character reference: the
// server parses the markup, and a placeholder inside it would break what it parses. (An
// attribute's value, a link's href, is not translated anyway.)
func outsideMarkup(text string, spans []span) []span {
	markup := markupPattern.FindAllStringIndex(text, -1)
	if len(markup) == 0 {
		return spans
	}
	return slices.DeleteFunc(spans, func(s span) bool {
		for _, m := range markup {
			if s.start >= m[1] || s.end <= m[0] {
				continue
			}
			if text[m[0]] == '<' || s.start > m[0] || s.end < m[1] {
				return true
			}
		}
		return false
	})
}

// merge sorts spans and joins those that overlap: a link holding an IP address is one span.
func merge(spans []span) []span {
	slices.SortFunc(spans, func(a, b span) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return b.end - a.end
	})
	out := spans[:1]
	for _, s := range spans[1:] {
		if top := &out[len(out)-1]; s.start < top.end {
			top.end = max(top.end, s.end)
		} else {
			out = append(out, s)
		}
	}
	return out
}
