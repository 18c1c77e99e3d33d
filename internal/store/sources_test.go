package store_test

import (
	"context"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// Ingested posts keep their source and user; the counts by source see only those of one
// tenant's users, for every such user or for one, with how many were discovered recently; the
// connectors' counts see none of them, and only the shared sources' posts and the tenant's own
// sources' posts, never another tenant's sources'.
func TestCountSourcePosts(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Now().UTC().Truncate(time.Millisecond)
		a1 := seedUser(t, s, "ops1@acme.test")
		a2 := seedMember(t, s, a1, "ops2@acme.test")
		b := seedUser(t, s, "ops@initech.test")
		ingested := func(user int64, source, provider, native string, discovered time.Time) post.Post {
			p := indexed(provider, native, now.Add(-time.Hour), "text")
			p.ID = post.NewIngestID(source, provider, native)
			p.Source, p.SourceUserID, p.DiscoveredAt = source, user, discovered
			return p
		}
		ownSource := indexed("news", "o1", now, "tenant A's own feed")
		ownSource.ID, ownSource.Tenant = post.NewTenantID(a1.TenantID, "news", "o1"), a1.TenantID
		othersSource := indexed("news", "o2", now, "tenant B's own feed")
		othersSource.ID, othersSource.Tenant = post.NewTenantID(b.TenantID, "news", "o2"), b.TenantID
		posts := []post.Post{
			indexed("reddit", "c1", now, "a connector's post"),
			ingested(a1.ID, "feed-a", "reddit", "1", now),
			ingested(a1.ID, "feed-a", "reddit", "2", now.Add(-time.Hour)),
			ingested(a1.ID, "feed-a", "telegram", "3", now),
			ingested(a2.ID, "feed-b", "reddit", "1", now),
			ingested(b.ID, "feed-c", "reddit", "1", now),
			ownSource, othersSource,
		}
		if _, err := s.InsertPosts(ctx, posts); err != nil {
			t.Fatal(err)
		}
		stored, err := s.Post(ctx, posts[1].ID, posts[1].Tenant)
		if err != nil || stored.Source != "feed-a" || stored.SourceUserID != a1.ID {
			t.Fatalf("stored %+v, %v", stored, err)
		}
		tests := []struct {
			name   string
			tenant int64
			user   int64
			want   []store.SourceCount
		}{
			{"tenant A", a1.TenantID, 0, []store.SourceCount{{a1.ID, "feed-a", "reddit", 2, 1}, {a1.ID, "feed-a", "telegram", 1, 1}, {a2.ID, "feed-b", "reddit", 1, 1}}},
			{"A's first user", a1.TenantID, a1.ID, []store.SourceCount{{a1.ID, "feed-a", "reddit", 2, 1}, {a1.ID, "feed-a", "telegram", 1, 1}}},
			{"A's second user", a1.TenantID, a2.ID, []store.SourceCount{{a2.ID, "feed-b", "reddit", 1, 1}}},
			{"tenant B", b.TenantID, 0, []store.SourceCount{{b.ID, "feed-c", "reddit", 1, 1}}},
			{"B's user asked in A", a1.TenantID, b.ID, nil},
		}
		for _, tt := range tests {
			got, err := s.CountSourcePosts(ctx, tt.tenant, tt.user, now.Add(-5*time.Minute))
			if err != nil || !slices.Equal(got, tt.want) {
				t.Errorf("%s: %v, %v; want %v", tt.name, got, err, tt.want)
			}
		}
		total, recent, err := s.CountConnectorPosts(ctx, a1.TenantID, now.Add(-5*time.Minute))
		if want := map[string]int64{"reddit": 1, "news": 1}; err != nil || !maps.Equal(total, want) || !maps.Equal(recent, want) {
			t.Errorf("tenant A's connector posts: %v %v, %v; want %v", total, recent, err, want)
		}
	})
}
