package query

import (
	"slices"
	"testing"
	"unicode/utf8"
)

func TestExplain(t *testing.T) {
	for _, c := range []struct {
		name, query, title, text string
		want                     []Hit
	}{
		{"a word in the text", "flood", "", "The flood is rising", []Hit{{"flood", "word", "text"}}},
		{"the same word in both fields", "flood", "Flood warning", "the flood", []Hit{
			{"flood", "word", "title"}, {"flood", "word", "text"}}},
		{"only the OR branches that hit", "flood OR fire OR storm", "", "fire and storm",
			[]Hit{{"fire", "word", "text"}, {"storm", "word", "text"}}},
		{"a phrase", `"bridge closed" AND river`, "River news", "the bridge closed today", []Hit{
			{"river", "word", "title"}, {`"bridge closed"`, "phrase", "text"}}},
		{"a wildcard and a fuzzy word", "flood* AND colour~1", "", "Flooding: the color of mud", []Hit{
			{"flood*", "wildcard", "text"}, {"colour~1", "fuzzy", "text"}}},
		{"proximity", `"bridge river"~2`, "", "the bridge over the river", []Hit{
			{`"bridge river"~2`, "proximity", "text"}}},
		{"an exclusion is never a reason", "flood -spam", "", "flood", []Hit{{"flood", "word", "text"}}},
		{"an AND branch that failed is not a reason", "(flood AND dam) OR fire", "", "flood and fire",
			[]Hit{{"fire", "word", "text"}}},
		{"no match, no reasons", "flood AND fire", "", "flood", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			q, issues := Parse(c.query, ModeSavedSearch)
			if q == nil {
				t.Fatalf("Parse(%q): %v", c.query, issues)
			}
			got := q.Explain(Field{"title", c.title}, Field{"text", c.text})
			if !slices.Equal(got, c.want) {
				t.Errorf("Explain = %v, want %v", got, c.want)
			}
		})
	}
}

// FuzzExplain: a query explains a post exactly when it matches it (the language has no query
// that matches by exclusions alone), and every term it gives, read back as a query, matches the
// field it names on its own.
func FuzzExplain(f *testing.F) {
	for _, s := range [][2]string{
		{"a b OR c", "a b c"}, {`"new york"~2 -(spam OR "ham eggs") café* te?t colour~1`, "new big york cafés test color"},
		{"flood -spam", "flood spam"}, {"e-mail~1 OR x", "email x"}, {`"a b"`, "b a a b"},
	} {
		f.Add(s[0], s[1], "title "+s[1])
	}
	f.Fuzz(func(t *testing.T, q, text, title string) {
		if !utf8.ValidString(q) || !utf8.ValidString(text) || !utf8.ValidString(title) || len(q) > 500 {
			return
		}
		parsed, _ := Parse(q, ModeSavedSearch)
		if parsed == nil {
			return
		}
		var all Text
		all.Reset(title, text)
		hits := parsed.Explain(Field{"title", title}, Field{"text", text})
		if matched := parsed.Match(&all); matched != (len(hits) > 0) {
			t.Fatalf("%q matches %q/%q: %v, but explains %v", q, title, text, matched, hits)
		}
		for _, h := range hits {
			field := map[string]string{"title": title, "text": text}[h.Field]
			back, _ := Parse(h.Term, ModeSavedSearch)
			if back == nil {
				continue // a lowercase operator word, say, prints as a phrase that reads back differently
			}
			var one Text
			one.Reset(field)
			if !back.Match(&one) {
				t.Fatalf("%q: hit %v does not match its field %q", q, h, field)
			}
		}
	})
}
