package monitor

import (
	"slices"

	"github.com/sightline/sightline/internal/query"
)

// broadWords match so much of the stream that a saved search made only of them would flood its
// inbox and the percolator: the commonest function words of the languages the product sees, and
// link debris. A search is refused when one of its OR alternatives is satisfied by them alone.
var broadWords = map[string]bool{}

func init() {
	for _, w := range []string{
		"a", "an", "the", "and", "or", "of", "to", "in", "on", "at", "is", "it", "be", "are", "was",
		"for", "with", "as", "by", "this", "that", "i", "you", "he", "she", "we", "they", "me", "my",
		"de", "la", "le", "el", "les", "los", "las", "et", "y", "en", "un", "une", "una", "der",
		"die", "das", "und", "ist", "il", "di", "e", "o", "que", "à", "da", "do", "em",
		"http", "https", "www", "com", "rt", "co", "amp",
	} {
		broadWords[query.Fold(w)] = true
	}
}

// tooBroad returns the broad words that alone satisfy some alternative of the query, or nil.
func tooBroad(q *query.Query) []string {
	var found []string
	if broad(q.Root, &found) {
		slices.Sort(found)
		return slices.Compact(found)
	}
	return nil
}

// broad reports whether n is satisfied by posts of nothing but broad words.
func broad(n query.Node, found *[]string) bool {
	switch n := n.(type) {
	case *query.Term:
		for _, p := range n.Patterns {
			if p.Kind != query.Exact || !broadWords[p.Text] {
				return false
			}
		}
		for _, p := range n.Patterns {
			*found = append(*found, p.Text)
		}
		return true
	case *query.Or:
		any := false
		for _, c := range n.Children {
			if broad(c, found) {
				any = true
			}
		}
		return any
	case *query.And:
		positive := 0
		for _, c := range n.Children {
			if _, excluded := c.(*query.Not); excluded {
				continue
			}
			positive++
			if !broad(c, found) {
				return false
			}
		}
		return positive > 0
	}
	return false
}
