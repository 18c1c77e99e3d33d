package assistant

import (
	"fmt"
	"slices"
	"testing"

	"github.com/sightline/sightline/internal/post"
)

func TestRelatedSearches(t *testing.T) {
	posts := func(texts ...string) []post.Post {
		out := make([]post.Post, len(texts))
		for i, text := range texts {
			out[i] = post.Post{ID: fmt.Sprint("p", i), ContentText: text, Language: "en"}
		}
		return out
	}
	strike := posts(
		"Dockers extended the harbour strike at the container terminal. Police watched.",
		"Police closed the container terminal during the harbour strike.",
		"The harbour strike reached the terminal gates at dawn.",
	)
	cases := []struct {
		name     string
		question string
		history  []Turn
		posts    []post.Post
		want     []string
	}{
		{
			// "terminal" is in every post; "container terminal" names the same place and is not
			// offered again; words of one post of three are not offered; "happening" is in no post.
			name: "words the posts share, with the question's", question: "What is happening with the harbour strike?",
			posts: strike, want: []string{"harbour strike terminal", "harbour strike container", "harbour strike police"},
		},
		{
			name: "the question found few posts: words of one post too", question: "Harbour strike?", posts: strike[:1],
			// Phrases first: a phrase found once weighs more than a word found once.
			want: []string{"harbour strike container terminal", "harbour strike dockers extended", "harbour strike police watched"},
		},
		{
			// The follow-up's own word anchors it; the previous question's words are not offered.
			name: "a follow-up", question: "Was anybody arrested?",
			history: []Turn{{Question: "harbour strike"}},
			posts: posts(
				"Police arrested two dockers at the harbour strike.",
				"Two dockers arrested near the harbour, police said.",
				"Dockers arrested after the strike were released.",
			),
			want: []string{"arrested dockers", "arrested police", "arrested two"},
		},
		{
			name: "numbers and addresses are no search", question: "flood warning",
			posts: posts(
				"Flood warning for the river 2026 https://example.com/news",
				"Flood warning 2026 issued, see www.example.com/alerts or mail desk@example.com",
				"The river flood warning stays https://example.com/a",
			),
			want: []string{"flood warning river"},
		},
		{name: "no posts", question: "harbour strike", posts: nil, want: []string{}},
		{name: "a question of stop words only", question: "what is it?", posts: strike, want: []string{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := RelatedSearches(c.question, c.history, c.posts)
			if !slices.Equal(got, c.want) || got == nil {
				t.Errorf("RelatedSearches(%q) = %q, want %q", c.question, got, c.want)
			}
			if len(got) > MaxRelated {
				t.Errorf("%d related searches, at most %d", len(got), MaxRelated)
			}
		})
	}
}

// A related search asked finds what it was drawn from: every word of it is in the posts.
func TestRelatedSearchesComeFromThePosts(t *testing.T) {
	ps := corpus()
	for _, q := range []string{"harbour strike", "floods in the valley", "bank outage"} {
		for _, r := range RelatedSearches(q, nil, ps) {
			for _, w := range terms(r, "en") {
				found := slices.ContainsFunc(ps, func(p post.Post) bool { return slices.Contains(terms(Text(p), "en"), w) })
				if !found {
					t.Errorf("%q: related search %q has %q, which no post holds", q, r, w)
				}
			}
		}
	}
}
