package trend

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/post"
)

func TestTerms(t *testing.T) {
	p := post.Post{ContentText: "Dam warning from @RiverWatch: the #Flood is near, about 3000 people", Tags: []string{"storm"},
		MentionedLocations: []post.MentionedLocation{{Name: "Porto"}}}
	var got []string
	for _, x := range terms(p) {
		got = append(got, x.kind+":"+x.text)
	}
	slices.Sort(got)
	want := []string{"handle:@riverwatch", "hashtag:#flood", "hashtag:#storm", "place:Porto", "word:near", "word:people", "word:warning"}
	if !slices.Equal(got, want) {
		t.Errorf("terms = %v, want %v", got, want)
	}
}

// A term trends when its share of the recent posts rises well above its share before; terms
// as common as before, or too few, do not.
func TestFind(t *testing.T) {
	at := time.Date(2026, 11, 28, 3, 0, 0, 0, time.UTC)
	posts := func(n int, text string) []post.Post {
		out := make([]post.Post, n)
		for i := range out {
			out[i] = post.Post{ID: fmt.Sprintf("%s-%d", text, i), ContentText: text, PublishedAt: at}
		}
		return out
	}
	baseline := append(posts(300, "harbour traffic"), posts(10, "harbour flood")...)
	tests := []struct {
		name   string
		recent []post.Post
		want   []string
	}{
		{"the usual mix", append(posts(30, "harbour traffic"), posts(1, "harbour flood")...), nil},
		{"a word rising", append(posts(20, "harbour traffic"), posts(15, "harbour flood")...), []string{"flood"}},
		{"a new word, too rare", append(posts(30, "harbour traffic"), posts(3, "harbour storm")...), nil},
		{"a new word", append(posts(30, "harbour traffic"), posts(8, "harbour storm")...), []string{"storm"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, tr := range Find(tt.recent, baseline, Defaults) {
				got = append(got, tr.Term)
				if len(tr.StoryIDs) == 0 || len(tr.Samples) == 0 {
					t.Errorf("%s names no story or post", tr.Term)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("trends = %v, want %v", got, tt.want)
			}
		})
	}
}
