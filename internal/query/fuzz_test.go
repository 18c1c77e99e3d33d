package query

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// FuzzParse: any input, hostile included (deep nesting, long runs of operators or wildcards),
// is judged without panicking, quickly; a valid query's printed form parses back to the same
// tree; Validate agrees with Parse.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"a b OR c", `"new york"~2 -(spam OR "ham eggs") café* te?t colour~1`,
		"a and (b OR", strings.Repeat("(", 500) + "a" + strings.Repeat(")", 500),
		strings.Repeat("AND OR ", 300), strings.Repeat("*", 2000), strings.Repeat("a*", 1000),
		`"unclosed`, ",,, a ,,", "-", "東京~", "word~9", `"a b"~1000`, "\u0301\u0301*",
		// Deep nesting, within and beyond the length limits (800,000 brackets once overflowed
		// the stack, which no recover catches).
		strings.Repeat("(", 800_000), strings.Repeat("-(", 1000) + "a", strings.Repeat("(", 1999) + "a",
		"x " + strings.Repeat("-(", 16) + "a", strings.Repeat("(", MaxDepth+1) + "a" + strings.Repeat(")", MaxDepth+1),
		strings.Repeat("-", 3000) + "a", "a AND " + strings.Repeat("((", 100_000),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		if !utf8.ValidString(q) {
			return
		}
		start := time.Now()
		parsed, issues := Parse(q, ModeSavedSearch)
		if elapsed := time.Since(start); elapsed > 2*time.Second {
			t.Fatalf("parsing %d bytes took %v", len(q), elapsed)
		}
		if (parsed != nil) == HasError(issues) {
			t.Fatalf("Parse(%q): query %v with issues %v", q, parsed != nil, issues)
		}
		if got := Validate(q, ModeSavedSearch); len(got) != len(issues) {
			t.Fatalf("Validate and Parse disagree on %q: %v vs %v", q, got, issues)
		}
		for _, is := range issues {
			if is.Message == "" || is.Code == "" {
				t.Fatalf("issue without code or message: %+v", is)
			}
		}
		if parsed == nil {
			return
		}
		printed := parsed.String()
		if utf8.RuneCountInString(printed) > MaxLengthWithAnd {
			return // brackets and AND added by printing can pass the length limits
		}
		again, issues := Parse(printed, ModeSavedSearch)
		if again == nil {
			t.Fatalf("%q prints as %q, which does not parse: %v", q, printed, issues)
		}
		if again.String() != printed {
			t.Fatalf("%q prints as %q, which prints as %q", q, printed, again.String())
		}
		// Summaries and keyword lists take anything.
		Keywords(q)
		Summary(q)
	})
}

// FuzzMatch: matching any valid query against any text terminates quickly and agrees with the
// query's printed form; the FTS widening never rejects a post the query matches.
func FuzzMatch(f *testing.F) {
	f.Add("a b OR c", "b then c")
	f.Add(`"new york"~2 -spam`, "york in new state")
	f.Add("n*k te?t colour~2", "network test color")
	f.Add(strings.Repeat("*a", 120)+"*", strings.Repeat("a", 3000))
	f.Add(`"a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a"~100`, strings.Repeat("a b ", 2000))
	f.Add("x~2", strings.Repeat("xyzzy ", 5000))
	f.Fuzz(func(t *testing.T, q, text string) {
		if !utf8.ValidString(q) || !utf8.ValidString(text) {
			return
		}
		parsed, _ := Parse(q, ModeSavedSearch)
		if parsed == nil {
			return
		}
		var doc Text
		doc.Reset("", text)
		start := time.Now()
		got := parsed.Match(&doc)
		if elapsed := time.Since(start); elapsed > time.Second {
			t.Fatalf("matching %q on %d bytes took %v", q, len(text), elapsed)
		}
		reparsed, _ := Parse(parsed.String(), ModeSavedSearch)
		if reparsed == nil {
			return // printing made it longer than the limits
		}
		var doc2 Text
		doc2.Reset("", text)
		if reparsed.Match(&doc2) != got {
			t.Fatalf("%q and its printed form %q disagree on %q", q, parsed.String(), text)
		}
		if got && !widenedMatch(widen(parsed.Root, true), &doc) {
			t.Fatalf("FTS widening of %q rejects %q, which the query matches", q, text)
		}
	})
}

// FuzzTokens: a post's analysis in one pass gives what the definition gives (see
// TestAnalysisMatchesDefinition), whatever the text.
func FuzzTokens(f *testing.F) {
	for _, s := range []string{
		"Café STRASSE Straße", "ﬁre ½ ℃ x_y", "東京タワー が", "ΣΊΣΥΦΟΣ", "a\u00a0b\u3000c \u0301\u0301 a",
		strings.Repeat("a", 254) + "ﬁa", strings.Repeat("é", 200), "x\u0323\u0307 ǅ ᾳ \U0001D400",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if !utf8.ValidString(text) {
			return
		}
		got, want := Tokens(text), definitionTokens(text)
		if len(got) != len(want) {
			t.Fatalf("Tokens(%q) = %q, definition gives %q", text, got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("Tokens(%q) = %q, definition gives %q", text, got, want)
			}
		}
	})
}

// FuzzQuote: whatever a token holds, its quoted form reads back, by each backend's rules, as
// exactly that token (both double the quote inside; tsquery also reads a backslash as an
// escape of the next character).
func FuzzQuote(f *testing.F) {
	for _, s := range []string{"", "plain", `"`, `'`, `\`, `a\'b`, `""''\\`, `it's "x" C:\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, ok := unquote(quoteFTS5(s), '"', false); !ok || got != s {
			t.Fatalf("quoteFTS5(%q) = %s reads back as %q (%v)", s, quoteFTS5(s), got, ok)
		}
		if got, ok := unquote(quoteTS(s), '\'', true); !ok || got != s {
			t.Fatalf("quoteTS(%q) = %s reads back as %q (%v)", s, quoteTS(s), got, ok)
		}
	})
}

// unquote reads a literal in quote q with doubled quotes, and backslash escapes when escapes is
// set; ok is false unless the literal is exactly one such string.
func unquote(lit string, q byte, escapes bool) (string, bool) {
	if len(lit) < 2 || lit[0] != q || lit[len(lit)-1] != q {
		return "", false
	}
	var b strings.Builder
	body := lit[1 : len(lit)-1]
	for i := 0; i < len(body); i++ {
		switch c := body[i]; {
		case escapes && c == '\\':
			if i+1 == len(body) {
				return "", false // the closing quote would be escaped
			}
			i++
			b.WriteByte(body[i])
		case c == q:
			if i+1 == len(body) || body[i+1] != q {
				return "", false // a lone quote ends the literal early
			}
			i++
			b.WriteByte(q)
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}
