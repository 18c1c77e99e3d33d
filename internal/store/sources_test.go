package store_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// Ingested posts keep their source and user; the counts by source see only those, for every
// user or for one, with how many were discovered recently.
func TestCountSourcePosts(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Now().UTC().Truncate(time.Millisecond)
		ingested := func(user int64, source, provider, native string, discovered time.Time) post.Post {
			p := indexed(provider, native, now.Add(-time.Hour), "text")
			p.ID = post.NewIngestID(source, provider, native)
			p.Source, p.SourceUserID, p.DiscoveredAt = source, user, discovered
			return p
		}
		posts := []post.Post{
			indexed("reddit", "c1", now, "a connector's post"),
			ingested(1, "feed-a", "reddit", "1", now),
			ingested(1, "feed-a", "reddit", "2", now.Add(-time.Hour)),
			ingested(1, "feed-a", "telegram", "3", now),
			ingested(2, "feed-b", "reddit", "1", now),
		}
		if _, err := s.InsertPosts(ctx, posts); err != nil {
			t.Fatal(err)
		}
		stored, err := s.Post(ctx, posts[1].ID, 0)
		if err != nil || stored.Source != "feed-a" || stored.SourceUserID != 1 {
			t.Fatalf("stored %+v, %v", stored, err)
		}
		tests := []struct {
			user int64
			want []store.SourceCount
		}{
			{0, []store.SourceCount{{1, "feed-a", "reddit", 2, 1}, {1, "feed-a", "telegram", 1, 1}, {2, "feed-b", "reddit", 1, 1}}},
			{1, []store.SourceCount{{1, "feed-a", "reddit", 2, 1}, {1, "feed-a", "telegram", 1, 1}}},
			{2, []store.SourceCount{{2, "feed-b", "reddit", 1, 1}}},
			{3, nil},
		}
		for _, tt := range tests {
			got, err := s.CountSourcePosts(ctx, tt.user, now.Add(-5*time.Minute))
			if err != nil || !slices.Equal(got, tt.want) {
				t.Errorf("user %d: %v, %v; want %v", tt.user, got, err, tt.want)
			}
		}
	})
}
