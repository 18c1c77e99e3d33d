package store_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/search"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// A place removed from a post is gone from every read of that post by the remover's tenant
// (by id, in searches, the inbox, threads and flags) and still there for another tenant; the
// removal and its audit row are written together, once; restoring puts the place back.
func TestPlaceRemovalsAreTheTenants(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Now().UTC().Truncate(time.Millisecond)
		paris := post.MentionedLocation{Name: "Paris", CountryCode: "FR", Point: post.Point{Lat: 48.85, Lon: 2.35}}
		lyon := post.MentionedLocation{Name: "Lyon", CountryCode: "FR", Point: post.Point{Lat: 45.76, Lon: 4.84}}
		p := indexed("news", "1", now.Add(-time.Minute), "harbour fire in Paris and Lyon")
		p.MentionedLocations, p.ThreadID = []post.MentionedLocation{paris, lyon}, "t1"
		other := indexed("news", "2", now.Add(-2*time.Minute), "harbour fire, no place named")
		other.ThreadID = "t1"
		if _, err := s.InsertPosts(ctx, []post.Post{p, other}); err != nil {
			t.Fatal(err)
		}
		ana, ben := seedUser(t, s, "ana@one.test"), seedUser(t, s, "ben@two.test")
		var matches []monitor.Match
		for _, u := range []account.User{ana, ben} {
			if err := s.FlagPost(ctx, u.ID, p); err != nil {
				t.Fatal(err)
			}
			matches = append(matches, monitor.Match{SearchID: seedSearches(t, s, u, 1)[0], OrganizationID: u.OrganizationID,
				PostID: p.ID, PublishedAt: p.PublishedAt, DiscoveredAt: p.DiscoveredAt, Provider: p.Provider})
		}
		if _, err := s.InsertMatches(ctx, matches); err != nil {
			t.Fatal(err)
		}
		// places is what each read path shows the user of p's places.
		places := func(u account.User, searchID int64) map[string][]string {
			out := map[string][]string{}
			add := func(path string, posts ...post.Post) {
				for _, q := range posts {
					if q.ID == p.ID {
						for _, l := range q.MentionedLocations {
							out[path] = append(out[path], l.Name)
						}
						out[path] = append(out[path], "") // read, even without places
					}
				}
			}
			byID, err := s.Post(ctx, p.ID, u.TenantID)
			if err != nil {
				t.Fatal(err)
			}
			add("post", byID)
			found, err := s.CandidatePosts(ctx, search.PostQuery{Tenant: u.TenantID, From: now.Add(-time.Hour), To: now,
				Sort: post.SortPublishedDesc, Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range found {
				add("search", c.Post)
			}
			items, _, err := s.Inbox(ctx, monitor.MatchQuery{UserID: u.ID, SearchIDs: []int64{searchID},
				Sort: post.SortPublishedDesc, Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			for _, it := range items {
				add("inbox", it.Post)
			}
			thread, err := s.ThreadPosts(ctx, "t1", u.TenantID, 10)
			if err != nil {
				t.Fatal(err)
			}
			add("thread", thread...)
			flagged, err := s.FlaggedPosts(ctx, u.ID, u.TenantID, 10)
			if err != nil {
				t.Fatal(err)
			}
			add("flags", flagged...)
			return out
		}
		shows := func(names ...string) map[string][]string {
			want := map[string][]string{}
			for _, path := range []string{"post", "search", "inbox", "thread", "flags"} {
				want[path] = append(slices.Clone(names), "")
			}
			return want
		}
		check := func(when string, u account.User, searchID int64, want map[string][]string) {
			t.Helper()
			got := places(u, searchID)
			for path, names := range want {
				if !slices.Equal(got[path], names) {
					t.Errorf("%s, %s's %s shows %q, want %q", when, u.Email, path, got[path], names)
				}
			}
		}
		auditRows := func() int {
			log, err := s.AuditLog(ctx, ana.TenantID, 10)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, e := range log {
				if e.Model == "post_place" && e.ModelID == p.ID {
					n++
				}
			}
			return n
		}
		entry := account.AuditEntry{TenantID: ana.TenantID, OrganizationID: ana.OrganizationID, UserID: ana.ID,
			Model: "post_place", ModelID: p.ID, Action: "removed"}

		for i, want := range []bool{true, false} {
			removed, err := s.RemovePlace(ctx, ana.TenantID, p, paris, ana.ID, entry)
			if err != nil || removed != want {
				t.Fatalf("removal %d: %v, %v; want %v", i+1, removed, err, want)
			}
		}
		if n := auditRows(); n != 1 {
			t.Errorf("%d audit rows after removing twice, want 1", n)
		}
		check("removed", ana, matches[0].SearchID, shows("Lyon"))
		check("removed by another tenant", ben, matches[1].SearchID, shows("Paris", "Lyon"))

		if _, err := s.RemovePlace(ctx, ana.TenantID, p, lyon, ana.ID); err != nil {
			t.Fatal(err)
		}
		check("both removed", ana, matches[0].SearchID, shows())

		entry.Action = "restored"
		for i, want := range []bool{true, false} {
			restored, err := s.RestorePlace(ctx, ana.TenantID, p.ID, paris, entry)
			if err != nil || restored != want {
				t.Fatalf("restoring %d: %v, %v; want %v", i+1, restored, err, want)
			}
		}
		if n := auditRows(); n != 2 {
			t.Errorf("%d audit rows after restoring twice, want 2", n)
		}
		check("restored", ana, matches[0].SearchID, shows("Paris"))

		// Retention forgets the removals with their posts.
		if n, err := s.DeletePlaceRemovalsBefore(ctx, p.PublishedAt); err != nil || n != 0 {
			t.Errorf("deleted %d removals of older posts, %v; want 0", n, err)
		}
		if n, err := s.DeletePlaceRemovalsBefore(ctx, now); err != nil || n != 1 {
			t.Errorf("deleted %d removals, %v; want 1", n, err)
		}
		check("forgotten", ana, matches[0].SearchID, shows("Paris", "Lyon"))
	})
}
