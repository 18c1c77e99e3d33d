package search_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/provider"
	"github.com/sightline/sightline/internal/search"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// An area search stops finding a post through a place the tenant removed from it, and finds it
// again when the place is put back; another tenant's searches are not affected.
func TestAreaSearchLeavesOutRemovedPlaces(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		var tenants []int64
		for _, name := range []string{"one", "two"} {
			tn := account.Tenant{Name: name}
			if err := s.CreateTenant(ctx, &tn); err != nil {
				t.Fatal(err)
			}
			tenants = append(tenants, tn.ID)
		}
		now := time.Now().UTC().Truncate(time.Millisecond)
		p := post.Post{ID: post.NewID("reddit", "1"), Provider: "reddit", NativeID: "1", ContentText: "crane down",
			PublishedAt: now.Add(-time.Hour), DiscoveredAt: now.Add(-time.Hour), MentionedLocations: []post.MentionedLocation{
				{Name: "Lyon", CountryCode: "FR", Point: post.Point{Lat: 45.76, Lon: 4.84}}}}
		if _, err := s.InsertPosts(ctx, []post.Post{p}); err != nil {
			t.Fatal(err)
		}
		svc, places := search.NewService(s, search.Options{}), search.NewPlaces(s)
		lyon := "POLYGON((4.7 45.7, 5.0 45.7, 5.0 45.9, 4.7 45.9, 4.7 45.7))"
		found := func(tenant int64) []string {
			e := everything
			e.Tenant = tenant
			page, err := svc.Search(ctx, e, provider.Social, search.Request{Bounds: lyon})
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, d := range page.Documents {
				ids = append(ids, d.ID)
			}
			return ids
		}
		actor := authz.Actor{TenantID: tenants[0], ACL: account.ACL{Beacon: true, Pro: true, Enterprise: true}}
		if kept, err := places.Remove(ctx, actor, p.ID, "fr", "Lyon"); err != nil || len(kept) != 0 {
			t.Fatalf("removed Lyon: kept %v, %v", kept, err)
		}
		for _, tt := range []struct {
			tenant int64
			want   []string
		}{{tenants[0], nil}, {tenants[1], []string{p.ID}}} {
			if got := found(tt.tenant); !slices.Equal(got, tt.want) {
				t.Errorf("tenant %d's area search found %v, want %v", tt.tenant, got, tt.want)
			}
		}
		if back, err := places.Restore(ctx, actor, p.ID, "fr", "Lyon"); err != nil || len(back) != 1 {
			t.Fatalf("restored Lyon: %v, %v", back, err)
		}
		if got := found(tenants[0]); !slices.Equal(got, []string{p.ID}) {
			t.Errorf("after restoring, the area search found %v", got)
		}
	})
}
