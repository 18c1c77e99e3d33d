package search

import (
	"context"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sightline/sightline/internal/provider"
	"github.com/sightline/sightline/internal/query"
)

// A search that finds few posts suggests word forms and near spellings of its words that the
// stored posts hold, each with what the search would find with it instead: exact matching stays
// the query language's rule, the user chooses (docs/search-api.md, "Suggestions").
const (
	// FewResults: a first page with an exact total under this gets suggestions.
	FewResults = 5
	// suggestTerms and suggestCounts bound the work: the words looked at, and the searches run
	// to count the variants found in the index; suggestBudget bounds the time of all of them
	// (Options.SuggestBudget sets another).
	suggestTerms  = 3
	suggestCounts = 6
	suggestBudget = 400 * time.Millisecond
	// nearFrom and nearTo are the shortest and longest words whose near spellings (one edit
	// away, some 50 a letter) are looked up.
	nearFrom, nearTo = 5, 30
	// wildcardFrom is the shortest word suggested with a trailing wildcard: the words starting
	// with one or two letters are a good part of the index, which FTS5 merges whole to count
	// them, and too many to be a suggestion.
	wildcardFrom = 3
)

// Suggestion is the search with one word replaced, and what it finds.
type Suggestion struct {
	// Term replaces Replaces, a word of the query; Query is the whole query with it, as the
	// search would run it.
	Term     string `json:"term"`
	Replaces string `json:"replaces"`
	Query    string `json:"query"`
	// Count is the posts Query finds under the same filters, sources and window; an estimate
	// when CountIsEstimate (too many candidates to count them all).
	Count           int  `json:"count"`
	CountIsEstimate bool `json:"countIsEstimate"`
}

// suggest finds the suggestions of a request whose first page found few posts.
func (s *Service) suggest(ctx context.Context, e provider.Entitlements, category provider.Category, r Request, found int) ([]Suggestion, error) {
	out := []Suggestion{}
	if strings.TrimSpace(r.Query) == "" {
		return out, nil
	}
	q, _ := query.Parse(r.Query, query.ModeBeacon)
	if q == nil {
		return out, nil
	}
	terms := plainWords(q.Root)
	ctx, cancel := context.WithTimeout(ctx, s.suggestBudget)
	defer cancel()
	counted := 0
	for _, t := range terms[:min(len(terms), suggestTerms)] {
		word := t.Patterns[0].Text
		forms := wordForms(word)
		if n := utf8.RuneCountInString(word); n >= nearFrom && n <= nearTo {
			for _, near := range oneEditAway(word) {
				if !slices.Contains(forms, near) {
					forms = append(forms, near)
				}
			}
		}
		known, err := s.store.IndexedTerms(ctx, forms)
		if err != nil {
			return out, ctxDone(ctx, err)
		}
		// Word forms first, then the near spellings, each in the order generated.
		slices.SortStableFunc(known, func(a, b string) int { return slices.Index(forms, a) - slices.Index(forms, b) })
		if utf8.RuneCountInString(word) >= wildcardFrom {
			known = append(known, word+"*")
		}
		for _, variant := range known {
			if counted == suggestCounts {
				return out, nil
			}
			alt := r
			alt.Query, alt.Size = replaced(q.Root, t, variant), 1
			if valid, _ := query.Parse(alt.Query, query.ModeBeacon); valid == nil {
				continue // "を*" is a bare wildcard: the analyzer makes each kana a word of its own
			}
			counted++
			n, estimate, err := s.firstTotal(ctx, e, continuation{Category: category, Request: alt})
			if err != nil {
				return out, ctxDone(ctx, err)
			}
			if n > found {
				out = append(out, Suggestion{Term: variant, Replaces: word, Query: alt.Query, Count: n,
					CountIsEstimate: estimate})
			}
		}
	}
	return out, nil
}

// ctxDone drops the error of work the suggestion budget cut short: what was found stands.
func ctxDone(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// plainWords are the query's single words compared exactly (no phrase, wildcard or similarity),
// outside exclusions: the words a near form could stand in for.
func plainWords(root query.Node) []*query.Term {
	var out []*query.Term
	query.Walk(root, func(n query.Node) bool {
		switch n := n.(type) {
		case *query.Not:
			return false
		case *query.Term:
			if len(n.Patterns) == 1 && !n.Quoted && n.Patterns[0].Kind == query.Exact {
				out = append(out, n)
			}
		}
		return true
	})
	return out
}

// replaced is the query of root with term t replaced by word.
func replaced(root query.Node, t *query.Term, word string) string {
	switch n := root.(type) {
	case *query.And:
		return joined(n.Children, " AND ", t, word)
	case *query.Or:
		return joined(n.Children, " OR ", t, word)
	case *query.Not:
		return "-" + replaced(n.Child, t, word)
	case *query.Term:
		if n == t {
			return word
		}
	}
	return root.String()
}

func joined(children []query.Node, sep string, t *query.Term, word string) string {
	parts := make([]string, len(children))
	for i, c := range children {
		parts[i] = replaced(c, t, word)
	}
	return "(" + strings.Join(parts, sep) + ")"
}

// wordForms are the English singular or plural of a folded word: hospital ↔ hospitals,
// church ↔ churches, city ↔ cities.
func wordForms(w string) []string {
	var out []string
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		out = append(out, w[:len(w)-3]+"y")
	case strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "sses"):
		out = append(out, w[:len(w)-2])
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && len(w) > 3:
		out = append(out, w[:len(w)-1])
	}
	switch {
	case strings.HasSuffix(w, "y") && len(w) > 2 && !strings.ContainsRune("aeiou", rune(w[len(w)-2])):
		out = append(out, w[:len(w)-1]+"ies")
	case strings.HasSuffix(w, "ch"), strings.HasSuffix(w, "sh"), strings.HasSuffix(w, "x"), strings.HasSuffix(w, "ss"):
		out = append(out, w+"es")
	case !strings.HasSuffix(w, "s"):
		out = append(out, w+"s")
	}
	return out
}

// oneEditAway are the words one deletion, transposition, substitution or insertion of a letter
// away from w, in the letters a to z and those of w.
func oneEditAway(w string) []string {
	word := []rune(w)
	letters := []rune("abcdefghijklmnopqrstuvwxyz")
	for _, r := range word {
		if !slices.Contains(letters, r) {
			letters = append(letters, r)
		}
	}
	seen := map[string]bool{w: true}
	var out []string
	add := func(rs []rune) {
		if s := string(rs); !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for i := range word {
		add(slices.Concat(word[:i], word[i+1:]))
		if i+1 < len(word) {
			swapped := slices.Clone(word)
			swapped[i], swapped[i+1] = swapped[i+1], swapped[i]
			add(swapped)
		}
		for _, r := range letters {
			changed := slices.Clone(word)
			changed[i] = r
			add(changed)
		}
	}
	for i := 0; i <= len(word); i++ {
		for _, r := range letters {
			add(slices.Concat(word[:i], []rune{r}, word[i:]))
		}
	}
	return out
}
