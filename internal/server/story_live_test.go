package server_test

import (
	"context"
	"testing"

	"github.com/sightline/sightline/internal/story"
	"github.com/sightline/sightline/internal/wait"
)

// When a post joins a story the user has matches in, the user's open app hears story.updated
// with the story as it grew, under the same id: the inbox updates the card in place.
func TestStoryUpdatedReachesTheOwnersSocket(t *testing.T) {
	node, srv := startNode(t)
	ctx := context.Background()
	admin, owner := adminSearch(t, node, srv.URL, `"name":"Quakes","keywords":"earthquake","providers":["reddit"]`)
	client := userSocket(t, node, srv.URL, owner.ID)
	deadline, cancel := context.WithTimeout(ctx, wait.Deadline)
	defer cancel()
	next := func() story.Updated {
		t.Helper()
		for {
			f, err := client.Next(deadline)
			if err != nil {
				t.Fatalf("waiting for %s: %v", story.EventUpdated, err)
			}
			if f.Event != story.EventUpdated {
				continue
			}
			var got story.Updated
			if err := f.Decode(&got); err != nil {
				t.Fatal(err)
			}
			return got
		}
	}

	const text = "A magnitude 6.4 earthquake was felt downtown this morning, shaking buildings near the harbour"
	ingestLines(t, srv.URL, admin, postLine("q1", text))
	first := next()
	if first.ID == "" || first.PostCount != 1 || first.Title == "" || len(first.Providers) != 1 || first.Providers[0].Name != "reddit" {
		t.Fatalf("first story.updated %+v, want the new story of one reddit post", first)
	}
	ingestLines(t, srv.URL, admin, postLine("q2", "RT: "+text))
	if grown := next(); grown.ID != first.ID || grown.PostCount != 2 {
		t.Errorf("after a copy, story.updated %+v; want story %s with 2 posts", grown, first.ID)
	}
}
