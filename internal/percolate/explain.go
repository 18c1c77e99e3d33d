package percolate

import (
	"strings"

	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/query"
)

// Explain says why a saved search matched a post, as the matcher reads it: the keyword terms
// the post's title or text contains (keywords parsed once by the caller, nil for none), and the
// author of the search's author list (comma-separated) who wrote it. Nothing when neither hit:
// a search of a place or a board alone has no terms to show.
func Explain(keywords *query.Query, authors string, p post.Post) []query.Hit {
	var hits []query.Hit
	if keywords != nil {
		hits = keywords.Explain(query.Field{Name: query.FieldTitle, Text: p.TitleText}, query.Field{Name: query.FieldText, Text: p.ContentText})
	}
	name, handle := foldName(p.AuthorName, true), foldName(p.AuthorScreenName, true)
	for _, a := range strings.Split(authors, ",") {
		if f := foldName(a, true); f != "" && (f == name || f == handle) {
			hits = append(hits, query.Hit{Term: strings.TrimSpace(a), Kind: query.HitAuthor, Field: query.FieldAuthor})
			break
		}
	}
	return hits
}
