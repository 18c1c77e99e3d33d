package store_test

import (
	"context"
	"fmt"
	"github.com/sightline/sightline/internal/search"
	"slices"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/query"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// PostgreSQL reads a search's window in two steps: a walk over its first rows in time order,
// then the full-text index for the rest. Whatever the walk's length, every order and every page
// of a cursor-paged read, and every capped count, must be what one plain query gives.
func TestPostgresSearchInTwoStepsKeepsOrderAndPages(t *testing.T) {
	s := storetest.Open(t, store.Postgres)
	now := time.Now().UTC().Truncate(time.Millisecond)
	batch := make([]postForSearch, 0, 240)
	for i := range 240 {
		text := "common words"
		switch {
		case i%7 == 0:
			text += " rare"
		case i%3 == 0:
			text += " medium"
		}
		provider := "reddit"
		if i%5 == 0 {
			provider = "news" // a word's posts may lie outside the providers searched
		}
		// Pairs of posts share a time, so ties are broken by the key.
		at := now.Add(-time.Duration(i/2) * time.Minute)
		batch = append(batch, postForSearch{provider, fmt.Sprint("p", i), at, text})
	}
	insertForSearch(t, s, batch)

	for _, sort := range []string{post.SortPublishedDesc, post.SortPublishedAsc, post.SortDiscoveredDesc, post.SortDiscoveredAsc} {
		for _, words := range []string{"common", "medium", "rare", "rare OR medium"} {
			for _, providers := range [][]string{nil, {"reddit"}} {
				keywords, issues := query.Parse(words, query.ModeSavedSearch)
				if len(issues) > 0 {
					t.Fatal(issues)
				}
				q := search.PostQuery{Keywords: keywords, From: now.Add(-24 * time.Hour), To: now, Providers: providers, Sort: sort}
				s.SetWalk(1 << 30)
				want := readAll(t, s, q, 1000)
				counts := countAt(t, s, q)
				for _, walk := range []int{1, 5, 17, 60} {
					s.SetWalk(walk)
					if got := countAt(t, s, q); !slices.Equal(got, counts) {
						t.Fatalf("%s %q providers %v, walk %d: counts capped at 5, 30 and 1000 are %v, want %v",
							sort, words, providers, walk, got, counts)
					}
					for _, page := range []int{3, 25} {
						if got := readAll(t, s, q, page); !slices.Equal(got, want) {
							t.Fatalf("%s %q providers %v, walk %d, pages of %d:\n got %v\nwant %v", sort, words, providers, walk, page, got, want)
						}
					}
				}
			}
		}
	}
}

type postForSearch struct {
	provider, native string
	at               time.Time
	text             string
}

func insertForSearch(t *testing.T, s *store.Store, posts []postForSearch) {
	t.Helper()
	batch := make([]post.Post, len(posts))
	for i, p := range posts {
		batch[i] = indexed(p.provider, p.native, p.at, p.text)
	}
	if _, err := s.InsertPosts(context.Background(), batch); err != nil {
		t.Fatal(err)
	}
}

// readAll pages through q with cursors, pageSize at a time, and returns the posts' ids in order.
func readAll(t *testing.T, s *store.Store, q search.PostQuery, pageSize int) []string {
	t.Helper()
	var ids []string
	q.Limit = pageSize
	for {
		page, err := s.CandidatePosts(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range page {
			ids = append(ids, c.Post.ID)
		}
		if len(page) < pageSize {
			return ids
		}
		q.After = &page[len(page)-1].Cursor
	}
}

// countAt counts q's candidates with the caps 5, 30 and 1000.
func countAt(t *testing.T, s *store.Store, q search.PostQuery) []int {
	t.Helper()
	var out []int
	for _, limit := range []int{5, 30, 1000} {
		n, err := s.CountCandidates(context.Background(), q, limit)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, n)
	}
	return out
}
