package store_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/query"
	"github.com/sightline/sightline/internal/search"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// A tenant's private posts are read by that tenant only, in every order and count of the
// search and by id and thread; the shared posts by everyone.
func TestPostsAreVisibleToTheirTenant(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Now().UTC().Truncate(time.Millisecond)
		owned := func(tenant int64, native string, at time.Time) post.Post {
			p := indexed("news", native, at, "harbour fire reported")
			p.ThreadID, p.Tenant = "t1", tenant
			if tenant != 0 {
				p.ID = post.NewTenantID(tenant, p.Provider, p.NativeID)
			}
			return p
		}
		// The same native id for everyone: the private copies keep ids of their own.
		posts := []post.Post{owned(0, "1", now.Add(-time.Minute)), owned(7, "1", now.Add(-2*time.Minute)),
			owned(8, "1", now.Add(-3*time.Minute))}
		if n, err := s.InsertPosts(ctx, posts); err != nil || n != 3 {
			t.Fatalf("inserted %d, %v", n, err)
		}
		shared, seven, eight := posts[0].ID, posts[1].ID, posts[2].ID
		keywords, _ := query.Parse("harbour", query.ModeSavedSearch)
		visible := map[int64][]string{0: {shared}, 7: {shared, seven}, 8: {shared, eight}, 9: {shared}}
		for tenant, want := range visible {
			for _, sort := range []string{post.SortPublishedDesc, post.SortPublishedAsc, post.SortRelevance, post.SortEngagementDesc} {
				for _, kw := range []*query.Query{nil, keywords} {
					q := search.PostQuery{Tenant: tenant, Keywords: kw, From: now.Add(-time.Hour), To: now, Sort: sort, Limit: 10}
					got, err := s.CandidatePosts(ctx, q)
					if err != nil {
						t.Fatal(err)
					}
					var ids []string
					for _, c := range got {
						ids = append(ids, c.Post.ID)
					}
					if !sameIDs(ids, want) {
						t.Errorf("tenant %d, %s, keywords %v: found %v, want %v", tenant, sort, kw != nil, ids, want)
					}
					if n, err := s.CountCandidates(ctx, q, 100); err != nil || n != len(want) {
						t.Errorf("tenant %d, %s: counted %d, %v, want %d", tenant, sort, n, err, len(want))
					}
				}
			}
			byDay, err := s.CountCandidatesByDay(ctx, search.PostQuery{Tenant: tenant, Keywords: keywords,
				From: now.Add(-time.Hour), To: now})
			total := 0
			for _, n := range byDay {
				total += n
			}
			if err != nil || total != len(want) {
				t.Errorf("tenant %d: counted %d by day, %v, want %d", tenant, total, err, len(want))
			}
			for _, id := range []string{shared, seven, eight} {
				p, err := s.Post(ctx, id, tenant)
				if slices.Contains(want, id) != (err == nil) || (err == nil && p.ID != id) {
					t.Errorf("tenant %d reading %s: %v", tenant, id, err)
				}
			}
			thread, err := s.ThreadPosts(ctx, "t1", tenant, 10)
			var ids []string
			for _, p := range thread {
				ids = append(ids, p.ID)
			}
			if err != nil || !sameIDs(ids, want) {
				t.Errorf("tenant %d's thread: %v, %v, want %v", tenant, ids, err, want)
			}
		}
		if p, err := s.Post(ctx, seven, 7); err != nil || p.Tenant != 7 {
			t.Errorf("the owner read %+v, %v", p, err)
		}
		// A user's flags list only what the user's tenant may see, whatever was flagged before.
		u := seedUser(t, s, "flagger@example.test")
		for _, p := range posts {
			if err := s.FlagPost(ctx, u.ID, p); err != nil {
				t.Fatal(err)
			}
		}
		for tenant, want := range map[int64][]string{7: {shared, seven}, 9: {shared}} {
			flagged, err := s.FlaggedPosts(ctx, u.ID, tenant, 10)
			var ids []string
			for _, p := range flagged {
				ids = append(ids, p.ID)
			}
			if err != nil || !sameIDs(ids, want) {
				t.Errorf("flagged posts as tenant %d: %v, %v, want %v", tenant, ids, err, want)
			}
		}
	})
}

func sameIDs(got, want []string) bool {
	return len(got) == len(want) && !slices.ContainsFunc(want, func(id string) bool { return !slices.Contains(got, id) })
}
