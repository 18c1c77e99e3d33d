package percolate

import (
	"slices"
	"testing"

	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/query"
)

func TestExplain(t *testing.T) {
	p := post.Post{TitleText: "Flood warning", ContentText: "The river bridge is closed", AuthorName: "River Watch",
		AuthorScreenName: "riverwatch"}
	for _, c := range []struct {
		name, keywords, authors string
		want                    []query.Hit
	}{
		{"keywords in both fields", "flood OR bridge", "", []query.Hit{
			{Term: "flood", Kind: "word", Field: "title"}, {Term: "bridge", Kind: "word", Field: "text"}}},
		{"an author by screen name", "", "@someone, @RiverWatch", []query.Hit{
			{Term: "@RiverWatch", Kind: "author", Field: "author"}}},
		{"keywords and author", "closed", "River Watch", []query.Hit{
			{Term: "closed", Kind: "word", Field: "text"}, {Term: "River Watch", Kind: "author", Field: "author"}}},
		{"another author", "", "someone", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			var q *query.Query
			if c.keywords != "" {
				q, _ = query.Parse(c.keywords, query.ModeSavedSearch)
			}
			if got := Explain(q, c.authors, p); !slices.Equal(got, c.want) {
				t.Errorf("Explain = %v, want %v", got, c.want)
			}
		})
	}
}
