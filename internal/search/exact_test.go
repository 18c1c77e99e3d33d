package search_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/provider"
	"github.com/sightline/sightline/internal/query"
	"github.com/sightline/sightline/internal/search"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// pages runs a search to its end: each page's ids, and the first page's total.
func pages(t *testing.T, svc *search.Service, r search.Request) (ids [][]string, total int, estimate bool) {
	t.Helper()
	ctx := context.Background()
	page, err := svc.Search(ctx, everything, provider.Social, r)
	if err != nil {
		t.Fatalf("search %+v: %v", r, err)
	}
	total, estimate = page.TotalCount, page.TotalIsEstimate
	for {
		var got []string
		for _, d := range page.Documents {
			got = append(got, d.ID)
		}
		ids = append(ids, got)
		if page.SearchID == "" || len(ids) > 1000 {
			return ids, total, estimate
		}
		if page, err = svc.More(ctx, everything, provider.Social, page.SearchID); err != nil {
			t.Fatal(err)
		}
	}
}

// A search the store's index answers exactly reads the page alone and counts its total; one it
// does not is verified. Both readings give the same pages and totals, for every form of query,
// on both stores, in every order, over a window whose edges fall inside milliseconds holding
// posts, with sources and media chosen; and the index answers exactly the forms expected.
func TestExactReadingAgreesWithVerifying(t *testing.T) {
	forms := []struct {
		query            string
		sqlite, postgres bool // the index answers exactly
	}{
		{"attack", true, true},
		{"attack OR riot", true, true},
		{"market vendor", true, true},
		{"ALPHA beta OR gamma", true, true},
		{"CAFE", true, true},
		{"leak*", true, true},
		{`"police riot"`, true, false},
		{`"police riot" OR drone*`, true, false},
		{"attack -attacks", true, true},
		{"(fire OR drone) -night", true, true},
		{`police -"night city"`, true, false},
		{"*ware", false, false},
		{"cr?dential", false, false},
		{"protets~1", false, false},
		{`"night city"~3`, false, false},
	}
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		posts := corpus(t, s, 150, 4)
		// Posts within the milliseconds of the window's edges below, a part of a millisecond in.
		edge := posts[0].PublishedAt.Truncate(time.Millisecond)
		var inside []post.Post
		for i, at := range []time.Time{edge.Add(300 * time.Microsecond), edge.Add(-24*time.Hour + 700*time.Microsecond)} {
			p := post.Post{Provider: "twitter", NativeID: fmt.Sprint("edge", i), ContentText: "attack riot police leaked",
				PublishedAt: at, DiscoveredAt: at}
			p.ID = post.NewID(p.Provider, p.NativeID)
			inside = append(inside, p)
		}
		if _, err := s.InsertPosts(context.Background(), inside); err != nil {
			t.Fatal(err)
		}
		stopped := time.Now() // no page runs out of its time budget, whose totals would be estimates
		exact := search.NewService(s, search.Options{Now: func() time.Time { return stopped }})
		verifying := search.NewVerifyingService(s, search.Options{Now: func() time.Time { return stopped }})
		start, end := edge.Add(-24*time.Hour).UnixMilli(), edge.UnixMilli()
		for _, f := range forms {
			q, _ := query.Parse(f.query, query.ModeBeacon)
			exactly := map[store.Dialect]bool{store.SQLite: f.sqlite, store.Postgres: f.postgres}[s.Dialect()]
			if s.ExactKeywords(q) != exactly {
				t.Errorf("%q: the index answers exactly: %v, want %v", f.query, !exactly, exactly)
			}
			if !s.ExactKeywords(q) {
				// Both services verify a form the index does not answer exactly (indexAnswers):
				// the same code on both sides, nothing to compare.
				continue
			}
			requests := []search.Request{{Query: f.query, Size: search.MaxSize},
				{Query: f.query, Size: 20, StartDate: &start, EndDate: &end},
				{Query: f.query, Size: 20, Providers: []string{"twitter", "reddit"}, ImagesOnly: true}}
			for _, sort := range []string{post.SortPublishedDesc, post.SortDiscoveredAsc, post.SortRelevance, post.SortEngagementDesc} {
				requests = append(requests, search.Request{Query: f.query, Sort: sort, Size: 20})
			}
			for _, r := range requests {
				got, total, estimate := pages(t, exact, r)
				want, wantTotal, wantEstimate := pages(t, verifying, r)
				if !slices.EqualFunc(got, want, slices.Equal) || total != wantTotal || estimate != wantEstimate {
					t.Errorf("%q %s, pages of %d, window %v, sources %v: %d pages, total %d (estimate %v); verified: %d pages, total %d (%v)",
						f.query, r.Sort, r.Size, r.StartDate != nil, r.Providers, len(got), total, estimate, len(want), wantTotal, wantEstimate)
				}
			}
		}
	})
}
