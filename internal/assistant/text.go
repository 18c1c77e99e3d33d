package assistant

import (
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/query"
	"github.com/sightline/sightline/internal/search"
)

// maxSentenceRunes bounds one quoted sentence.
const maxSentenceRunes = 300

// Sentences splits text after ., ! or ? followed by a space, and at line breaks.
func Sentences(text string) []string {
	var out []string
	start := 0
	runes := []rune(text)
	for i, r := range runes {
		end := r == '\n' || ((r == '.' || r == '!' || r == '?') && (i+1 == len(runes) || unicode.IsSpace(runes[i+1])))
		if end || i+1 == len(runes) {
			if s := strings.TrimSpace(string(runes[start : i+1])); s != "" {
				out = append(out, s)
			}
			start = i + 1
		}
	}
	return out
}

// postSentences are the sentences of a post's title and text; a title the text begins with (as
// many feeds repeat it) is not said twice.
func postSentences(p post.Post) []string {
	title, content := strings.TrimSpace(p.TitleText), strings.TrimSpace(p.ContentText)
	var out []string
	if title != "" && !strings.HasPrefix(content, title) {
		out = Sentences(title)
	}
	return append(out, Sentences(content)...)
}

// Text is a post's title and content as one text.
func Text(p post.Post) string {
	return strings.TrimSpace(strings.Join(slices.DeleteFunc([]string{p.TitleText, p.ContentText},
		func(s string) bool { return s == "" }), " — "))
}

// Excerpt is s with its spaces collapsed, cut to n runes.
func Excerpt(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return strings.TrimSpace(string([]rune(s)[:n])) + "…"
}

// terms are the folded words of s that say something: stop words (English and the post's
// language) and one-letter tokens dropped.
func terms(s string, language string) []string {
	en, own := search.StopWords("en"), search.StopWords(language)
	var out []string
	for _, t := range query.Tokens(s) {
		if utf8.RuneCountInString(t) < 2 || en[t] || own[t] {
			continue
		}
		out = append(out, stem(t))
	}
	return out
}

// stem strips the commonest English inflections, lightly, so that "flooding", "floods" and
// "flood" are one term for ranking (and "flood*" one search): -ing and -ed from longer words,
// a plural -s (not -ss). Both the question and the posts go through it, so a rough cut is enough.
func stem(t string) string {
	n := len(t)
	switch {
	case n >= 6 && strings.HasSuffix(t, "ing"):
		return t[:n-3]
	case n >= 5 && strings.HasSuffix(t, "ed"):
		return t[:n-2]
	case n >= 4 && strings.HasSuffix(t, "s") && !strings.HasSuffix(t, "ss"):
		return t[:n-1]
	}
	return t
}

// bm25 scores documents (each a list of terms) against weighted query terms with Okapi BM25
// (k1 1.2, b 0.75), the ranking SQLite's FTS5 uses.
type bm25 struct {
	df     map[string]int
	n      int
	avgLen float64
}

func newBM25(docs [][]string) *bm25 {
	b := &bm25{df: map[string]int{}, n: len(docs)}
	total := 0
	for _, d := range docs {
		total += len(d)
		seen := map[string]bool{}
		for _, t := range d {
			if !seen[t] {
				seen[t] = true
				b.df[t]++
			}
		}
	}
	if len(docs) > 0 {
		b.avgLen = float64(total) / float64(len(docs))
	}
	return b
}

func (b *bm25) score(doc []string, q map[string]float64) float64 {
	const k1, bb = 1.2, 0.75
	if len(doc) == 0 || b.avgLen == 0 {
		return 0
	}
	tf := map[string]int{}
	for _, t := range doc {
		if _, ok := q[t]; ok {
			tf[t]++
		}
	}
	var s float64
	for t, f := range tf {
		df := float64(b.df[t])
		idf := math.Log(1 + (float64(b.n)-df+0.5)/(df+0.5))
		ff := float64(f)
		s += q[t] * idf * ff * (k1 + 1) / (ff + k1*(1-bb+bb*float64(len(doc))/b.avgLen))
	}
	return s
}

// similar says two sentences' term sets overlap so much (Jaccard 0.8) that they say the same.
func similar(a, b []string) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	set := map[string]bool{}
	for _, t := range a {
		set[t] = true
	}
	inter, union := 0, len(set)
	seen := map[string]bool{}
	for _, t := range b {
		if seen[t] {
			continue
		}
		seen[t] = true
		if set[t] {
			inter++
		} else {
			union++
		}
	}
	return float64(inter)/float64(union) >= 0.8
}
