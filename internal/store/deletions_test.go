package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// A post the provider deleted keeps what was stored and gains deletedAt; only its owner's
// report marks it, and the first report's time stays.
func TestMarkPostDeleted(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Now().UTC().Truncate(time.Millisecond)
		shared := indexed("mastodon", "111", now.Add(-time.Hour), "a shared post <b>&</b>")
		shared.Photos = []post.Media{{Large: "https://files.example/a.jpg"}}
		ownA := indexed("reddit", "t3_a", now.Add(-2*time.Hour), "tenant A's own post")
		ownA.ID, ownA.Tenant = post.NewTenantID(1, "reddit", "t3_a"), 1
		ownB := indexed("reddit", "t3_b", now.Add(-2*time.Hour), "tenant B's own post")
		ownB.ID, ownB.Tenant = post.NewTenantID(2, "reddit", "t3_b"), 2
		if _, err := s.InsertPosts(ctx, []post.Post{shared, ownA, ownB}); err != nil {
			t.Fatal(err)
		}
		first, second := now.Add(-time.Minute), now

		for _, tc := range []struct {
			name      string
			id        string
			owner     int64
			at        time.Time
			wantFound bool
		}{
			{"tenant B cannot mark tenant A's post", ownA.ID, 2, first, false},
			{"a tenant cannot mark a shared post", shared.ID, 1, first, false},
			{"the shared sources mark a shared post", shared.ID, 0, first, true},
			{"a second report keeps the first time", shared.ID, 0, second, true},
			{"tenant A marks its own post", ownA.ID, 1, second, true},
			{"an unknown post", post.NewID("mastodon", "nope"), 0, first, false},
		} {
			t.Run(tc.name, func(t *testing.T) {
				found, err := s.MarkPostDeleted(ctx, tc.id, tc.owner, tc.at)
				if err != nil || found != tc.wantFound {
					t.Fatalf("MarkPostDeleted = %v, %v; want %v", found, err, tc.wantFound)
				}
			})
		}

		for _, tc := range []struct {
			name   string
			id     string
			tenant int64
			want   *time.Time
			text   string
		}{
			{"shared, seen by tenant A", shared.ID, 1, &first, shared.ContentText},
			{"shared, seen by tenant B", shared.ID, 2, &first, shared.ContentText},
			{"tenant A's own", ownA.ID, 1, &second, ownA.ContentText},
			{"tenant B's own, untouched", ownB.ID, 2, nil, ownB.ContentText},
		} {
			t.Run(tc.name, func(t *testing.T) {
				got, err := s.Post(ctx, tc.id, tc.tenant)
				if err != nil {
					t.Fatal(err)
				}
				switch {
				case tc.want == nil && got.DeletedAt != nil:
					t.Errorf("deletedAt = %v, want none", got.DeletedAt)
				case tc.want != nil && (got.DeletedAt == nil || !got.DeletedAt.Equal(*tc.want)):
					t.Errorf("deletedAt = %v, want %v", got.DeletedAt, *tc.want)
				}
				if got.ContentText != tc.text || got.ID != tc.id {
					t.Errorf("the stored post changed: %+v", got)
				}
			})
		}
		got, _ := s.Post(ctx, shared.ID, 0)
		if len(got.Photos) != 1 || got.Photos[0].Large != shared.Photos[0].Large || got.Location == nil {
			t.Errorf("the deleted post lost what was stored: %+v", got)
		}
		// Stored again (a redelivery), the post keeps its mark.
		if _, err := s.InsertPosts(ctx, []post.Post{shared}); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.Post(ctx, shared.ID, 0); got.DeletedAt == nil {
			t.Error("a redelivered post lost its deletion mark")
		}
	})
}
