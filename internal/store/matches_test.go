package store_test

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// seedSearches makes n saved searches of the owner, in its Uncategorized group.
func seedSearches(t *testing.T, s *store.Store, owner account.User, n int) []int64 {
	t.Helper()
	ctx := context.Background()
	home, err := s.UncategorizedGroup(ctx, owner.OrganizationID, owner.ID)
	if err != nil {
		t.Fatal(err)
	}
	var searches []int64
	for i := range n {
		m := monitor.Search{OrganizationID: owner.OrganizationID, OwnerID: owner.ID, GroupID: home.ID,
			Name: fmt.Sprint("search ", i), Enabled: true, Keywords: "bridge"}
		if err := s.CreateSearch(ctx, &m, nil, nil); err != nil {
			t.Fatal(err)
		}
		searches = append(searches, m.ID)
	}
	return searches
}

// More matches than one statement carries, a pair repeated in the batch and a batch delivered
// again: each (search, post) pair is stored once and reported new once, in the given order.
func TestInsertMatchesStoresEachPairOnce(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		owner := seedUser(t, s, "owner@acme.test")
		searches := seedSearches(t, s, owner, 2)
		now := time.Now().UTC().Truncate(time.Millisecond)
		var batch []monitor.Match
		for i := range 700 {
			batch = append(batch, monitor.Match{SearchID: searches[i%2], OrganizationID: owner.OrganizationID,
				PostID: fmt.Sprint("post-", i), PublishedAt: now, DiscoveredAt: now, HasImages: i%3 == 0, Provider: "reddit"})
		}
		batch = append(batch, batch[5]) // the same pair twice in one batch

		created, err := s.InsertMatches(ctx, batch)
		if err != nil {
			t.Fatal(err)
		}
		if len(created) != 700 {
			t.Fatalf("created %d matches, want 700", len(created))
		}
		ids := map[int64]bool{}
		for i, m := range created {
			if m.PostID != batch[i].PostID || m.SearchID != batch[i].SearchID || m.HasImages != batch[i].HasImages ||
				m.ID == 0 || ids[m.ID] || m.CreatedAt.IsZero() {
				t.Fatalf("created[%d] = %+v, want the batch's match %d with a new id", i, m, i)
			}
			ids[m.ID] = true
		}

		// Redelivery, with one new pair among the stored ones.
		again := append(batch[:10:10], monitor.Match{SearchID: searches[1], OrganizationID: owner.OrganizationID,
			PostID: "post-0", PublishedAt: now, DiscoveredAt: now, Provider: "reddit"})
		created, err = s.InsertMatches(ctx, again)
		if err != nil {
			t.Fatal(err)
		}
		if len(created) != 1 || created[0].SearchID != searches[1] || created[0].PostID != "post-0" || ids[created[0].ID] {
			t.Errorf("redelivery created %+v, want only the new pair", created)
		}
	})
}

// StoredMatches finds the stored matches of a batch run again, with their ids, and only those
// created since the given time.
func TestStoredMatchesOfABatchRunAgain(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		owner := seedUser(t, s, "owner@acme.test")
		searches := seedSearches(t, s, owner, 2)
		now := time.Now().UTC().Truncate(time.Millisecond)
		var batch []monitor.Match
		for i := range 450 { // more than one statement's chunk
			batch = append(batch, monitor.Match{SearchID: searches[i%2], OrganizationID: owner.OrganizationID,
				PostID: fmt.Sprint("post-", i), PublishedAt: now, DiscoveredAt: now, Provider: "reddit"})
		}
		created, err := s.InsertMatches(ctx, batch)
		if err != nil {
			t.Fatal(err)
		}
		idOf := map[string]int64{}
		for _, m := range created {
			idOf[fmt.Sprint(m.SearchID, m.PostID)] = m.ID
		}
		// The same posts against the other search are not stored; neither is an unknown post.
		asked := append(slices.Clone(batch), monitor.Match{SearchID: searches[1], PostID: "post-0"},
			monitor.Match{SearchID: searches[0], PostID: "post-unknown"})
		for _, tt := range []struct {
			name  string
			since time.Time
			want  int
		}{{"recent", now.Add(-time.Minute), len(batch)}, {"older than the window", now.Add(time.Minute), 0}} {
			found, err := s.StoredMatches(ctx, asked, tt.since)
			if err != nil {
				t.Fatal(err)
			}
			if len(found) != tt.want {
				t.Errorf("%s: found %d stored matches, want %d", tt.name, len(found), tt.want)
			}
			for _, m := range found {
				if id := idOf[fmt.Sprint(m.SearchID, m.PostID)]; id == 0 || m.ID != id || m.CreatedAt.IsZero() ||
					m.OrganizationID != owner.OrganizationID {
					t.Fatalf("%s: found %+v, want the stored match %d", tt.name, m, id)
				}
			}
		}
	})
}

// countsAgree fails the test unless each user's kept counts of the searches are what counting
// every match gives: of every provider, and of some providers only (a user whose subscriptions
// do not reach them all).
func countsAgree(t *testing.T, s *store.Store, when string, searches []int64, users ...int64) {
	t.Helper()
	ctx := context.Background()
	for _, user := range users {
		for _, providers := range [][]string{nil, {"reddit"}, {"tor"}, {"reddit", "tor"}} {
			kept, err := s.MatchCounts(ctx, user, searches, providers)
			if err != nil {
				t.Fatal(err)
			}
			scanned, err := s.CountMatchesByScan(ctx, user, searches, providers)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(kept) != fmt.Sprint(scanned) {
				t.Fatalf("%s, user %d, providers %v: kept counts %v, counted %v", when, user, providers, kept, scanned)
			}
		}
	}
}

// The counts kept by triggers agree with counting every match, through state changes of two
// users, matches expiring and a search deleted with its matches.
func TestMatchCountsAgreeWithAScan(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		owner, other := seedUser(t, s, "owner@acme.test"), seedUser(t, s, "other@acme.test")
		searches := seedSearches(t, s, owner, 3)
		now := time.Now().UTC().Truncate(time.Millisecond)
		var batch []monitor.Match
		for i := range 300 {
			published := now.Add(-time.Duration(i) * time.Hour) // the oldest expire below
			batch = append(batch, monitor.Match{SearchID: searches[i%3], OrganizationID: owner.OrganizationID,
				PostID: fmt.Sprint("post-", i), PublishedAt: published, DiscoveredAt: now, Provider: []string{"reddit", "tor"}[i%2]})
		}
		created, err := s.InsertMatches(ctx, batch)
		if err != nil {
			t.Fatal(err)
		}
		countsAgree(t, s, "before any state", searches, owner.ID, other.ID)

		rng := rand.New(rand.NewPCG(1, 2))
		fields := []string{monitor.FieldRead, monitor.FieldFlagged, monitor.FieldDeleted}
		for step := range 60 {
			user := []int64{owner.ID, other.ID}[rng.IntN(2)]
			var ids []int64
			for range 1 + rng.IntN(40) {
				ids = append(ids, created[rng.IntN(len(created))].ID)
			}
			if _, err := s.SetMatchState(ctx, user, ids, fields[rng.IntN(3)], rng.IntN(3) > 0); err != nil {
				t.Fatal(err)
			}
			countsAgree(t, s, fmt.Sprint("after change ", step), searches, owner.ID, other.ID)
		}
		all := make([]int64, len(created))
		for i, m := range created {
			all[i] = m.ID
		}
		if _, err := s.SetMatchState(ctx, owner.ID, all, monitor.FieldRead, true); err != nil {
			t.Fatal(err)
		}
		countsAgree(t, s, "after marking all read", searches, owner.ID, other.ID)

		if _, err := s.DeleteMatchesBefore(ctx, now.Add(-200*time.Hour)); err != nil {
			t.Fatal(err)
		}
		countsAgree(t, s, "after expiry", searches, owner.ID, other.ID)
		if err := s.DeleteSearch(ctx, searches[0]); err != nil {
			t.Fatal(err)
		}
		countsAgree(t, s, "after a deleted search", searches, owner.ID, other.ID)
	})
}

// Migration 0007 fills the kept counts from the states an older version stored, and the
// triggers go on from there.
func TestStateCountsMigrationFillsFromStoredStates(t *testing.T) {
	for _, d := range []store.Dialect{store.SQLite, store.Postgres} {
		t.Run(string(d), func(t *testing.T) {
			ctx := context.Background()
			s := openAtVersion(t, storetest.DSN(t, d), 6)
			owner, other := seedUser(t, s, "owner@acme.test"), seedUser(t, s, "other@acme.test")
			searches := seedSearches(t, s, owner, 3)
			now := time.Now().UTC().Truncate(time.Millisecond)
			// Matches as version 6 stored them.
			var created []monitor.Match
			for i := range 90 {
				m := monitor.Match{SearchID: searches[i%3], OrganizationID: owner.OrganizationID,
					PostID: fmt.Sprint("post-", i), PublishedAt: now.Add(-time.Duration(i) * time.Hour), DiscoveredAt: now, Provider: "reddit"}
				if err := s.QueryRow(ctx, `INSERT INTO monitor_matches (search_id, organization_id, post_id, published_at,
					discovered_at, created_at, provider) VALUES ($1, $2, $3, $4, $5, $5, $6) RETURNING id`, []any{m.SearchID,
					m.OrganizationID, m.PostID, m.PublishedAt.UnixMilli(), now.UnixMilli(), m.Provider}, &m.ID); err != nil {
					t.Fatal(err)
				}
				created = append(created, m)
			}
			// States as version 6 wrote them, without their search.
			rng := rand.New(rand.NewPCG(3, 4))
			for i, m := range created {
				for _, user := range []int64{owner.ID, other.ID} {
					if rng.IntN(3) == 0 {
						continue
					}
					if err := s.Exec(ctx, `INSERT INTO monitor_match_states (match_id, user_id, is_read, is_flagged, is_deleted, updated_at)
						VALUES ($1, $2, $3, $4, $5, $6)`, m.ID, user, rng.IntN(2) == 0, rng.IntN(2) == 0, i%7 == 0, now.UnixMilli()); err != nil {
						t.Fatal(err)
					}
				}
			}
			if err := s.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			countsAgree(t, s, "after the migration", searches, owner.ID, other.ID)
			if _, err := s.SetMatchState(ctx, owner.ID, []int64{created[0].ID, created[1].ID}, monitor.FieldDeleted, true); err != nil {
				t.Fatal(err)
			}
			if _, err := s.DeleteMatchesBefore(ctx, now.Add(-45*time.Hour)); err != nil {
				t.Fatal(err)
			}
			countsAgree(t, s, "after changes and expiry", searches, owner.ID, other.ID)
		})
	}
}

// An inbox page and its total are what sorting and counting every match in Go gives, for each
// filter, order and page, across more searches than one statement reads, with two users'
// states; ties in time are broken by id.
func TestInboxAgreesWithAScan(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		owner, other := seedUser(t, s, "owner@acme.test"), seedUser(t, s, "other@acme.test")
		searches := seedSearches(t, s, owner, 120)
		now := time.Now().UTC().Truncate(time.Millisecond)
		rng := rand.New(rand.NewPCG(5, 6))
		var posts []post.Post
		var batch []monitor.Match
		for i := range 600 {
			// Few distinct times, so that ties are common.
			published := now.Add(-time.Duration(rng.IntN(40)) * time.Minute)
			discovered := now.Add(-time.Duration(rng.IntN(40)) * time.Minute)
			id := fmt.Sprint("post-", i)
			provider := []string{"reddit", "telegram", "twitter"}[rng.IntN(3)]
			posts = append(posts, post.Post{ID: id, Provider: provider, NativeID: id, Type: post.TypeThreadPost,
				ContentText: "bridge", PublishedAt: published, DiscoveredAt: discovered})
			// Most matches in a few searches, one in each of the rest.
			search := searches[rng.IntN(4)]
			if i < len(searches) {
				search = searches[i]
			}
			batch = append(batch, monitor.Match{SearchID: search, OrganizationID: owner.OrganizationID, PostID: id,
				PublishedAt: published, DiscoveredAt: discovered, Provider: provider, HasImages: rng.IntN(4) == 0})
		}
		if _, err := s.InsertPosts(ctx, posts); err != nil {
			t.Fatal(err)
		}
		created, err := s.InsertMatches(ctx, batch)
		if err != nil {
			t.Fatal(err)
		}
		type state struct{ read, flagged, deleted bool }
		states := map[[2]int64]*state{}
		for range 40 {
			user := []int64{owner.ID, other.ID}[rng.IntN(2)]
			field, value := []string{monitor.FieldRead, monitor.FieldFlagged, monitor.FieldDeleted}[rng.IntN(3)], rng.IntN(3) > 0
			var ids []int64
			for range 1 + rng.IntN(30) {
				ids = append(ids, created[rng.IntN(len(created))].ID)
			}
			if _, err := s.SetMatchState(ctx, user, ids, field, value); err != nil {
				t.Fatal(err)
			}
			for _, id := range ids {
				st := states[[2]int64{user, id}]
				if st == nil {
					st = &state{}
					states[[2]int64{user, id}] = st
				}
				switch field {
				case monitor.FieldRead:
					st.read = value
				case monitor.FieldFlagged:
					st.flagged = value
				default:
					st.deleted = value
				}
			}
		}

		queries := []monitor.MatchQuery{{}, {Unread: true}, {Flagged: true}, {IncludeDeleted: true},
			{Unread: true, IncludeDeleted: true}, {Images: true}, {Providers: []string{"telegram", "twitter"}},
			{SearchIDs: searches[:2]}, {Unread: true, Providers: []string{"reddit"}}}
		for _, user := range []int64{owner.ID, other.ID} {
			for qi, q := range queries {
				for _, sort := range post.TimeSorts {
					var want []monitor.Match
					for _, m := range created {
						st := states[[2]int64{user, m.ID}]
						if st == nil {
							st = &state{}
						}
						switch {
						case q.SearchIDs != nil && !slices.Contains(q.SearchIDs, m.SearchID),
							!q.IncludeDeleted && st.deleted, q.Unread && st.read, q.Flagged && !st.flagged,
							q.Images && !m.HasImages, len(q.Providers) > 0 && !slices.Contains(q.Providers, m.Provider):
							continue
						}
						want = append(want, m)
					}
					slices.SortFunc(want, func(a, b monitor.Match) int {
						at, bt := a.PublishedAt, b.PublishedAt
						if sort == post.SortDiscoveredAsc || sort == post.SortDiscoveredDesc {
							at, bt = a.DiscoveredAt, b.DiscoveredAt
						}
						c := cmp.Or(at.Compare(bt), cmp.Compare(a.ID, b.ID))
						if sort == post.SortPublishedDesc || sort == post.SortDiscoveredDesc {
							return -c
						}
						return c
					})
					for _, page := range []struct{ offset, limit int }{{0, 50}, {130, 25}, {len(want) - 3, 50}} {
						q := q
						q.UserID, q.Sort, q.Offset, q.Limit = user, sort, max(page.offset, 0), page.limit
						if q.SearchIDs == nil {
							q.SearchIDs = searches
						}
						items, total, err := s.Inbox(ctx, q)
						if err != nil {
							t.Fatal(err)
						}
						var got, wantIDs []int64
						for _, it := range items {
							got = append(got, it.ID)
						}
						for _, m := range want[min(q.Offset, len(want)):min(q.Offset+q.Limit, len(want))] {
							wantIDs = append(wantIDs, m.ID)
						}
						if total != int64(len(want)) || !slices.Equal(got, wantIDs) {
							t.Fatalf("user %d, query %d %+v: total %d, page %v; want %d, %v", user, qi, q, total, got, len(want), wantIDs)
						}
					}
				}
			}
		}
	})
}

// An action bounded by the time the analyst's list was read (MatchQuery.UpTo) leaves alone the
// matches made since, which the inbox holds back behind "Show them"; the total agrees, and
// MatchQuery.Since counts exactly those waiting, so the list and the page's counts add up.
func TestInboxUpToLeavesLaterMatchesAlone(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		owner := seedUser(t, s, "owner@acme.test")
		search := seedSearches(t, s, owner, 1)[0]
		now := time.Now().UTC()
		insert := func(from, n int) {
			var batch []monitor.Match
			for i := from; i < from+n; i++ {
				batch = append(batch, monitor.Match{SearchID: search, OrganizationID: owner.OrganizationID,
					PostID: fmt.Sprint("post-", i), PublishedAt: now, DiscoveredAt: now, Provider: "reddit"})
			}
			if _, err := s.InsertMatches(ctx, batch); err != nil {
				t.Fatal(err)
			}
		}
		insert(0, 3)
		asOf := time.Now()
		time.Sleep(5 * time.Millisecond) // created_at is kept in milliseconds
		insert(3, 32)

		q := monitor.MatchQuery{UserID: owner.ID, SearchIDs: []int64{search}, UpTo: asOf}
		ids, err := s.MatchIDs(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		_, total, err := s.Inbox(ctx, monitor.MatchQuery{UserID: owner.ID, SearchIDs: []int64{search}, UpTo: asOf, Limit: 50})
		if err != nil {
			t.Fatal(err)
		}
		if len(ids) != 3 || total != 3 {
			t.Errorf("up to the list's time: %d ids, total %d; want the 3 made before it", len(ids), total)
		}
		q.UpTo = time.Time{}
		if ids, err = s.MatchIDs(ctx, q); err != nil || len(ids) != 35 {
			t.Errorf("unbounded: %d ids (%v), want 35", len(ids), err)
		}
		for _, unread := range []bool{false, true} {
			_, waiting, err := s.Inbox(ctx, monitor.MatchQuery{UserID: owner.ID, SearchIDs: []int64{search}, Since: asOf,
				Unread: unread, Limit: 1})
			if err != nil || waiting != 32 {
				t.Errorf("since the list's time (unread %v): total %d (%v), want the 32 made after it", unread, waiting, err)
			}
		}
	})
}

// The inbox's text filter finds the matches whose title or text holds every word, whatever
// quotes and backslashes the words come with, or whose author's name holds the text.
func TestInboxTextFilter(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		owner := seedUser(t, s, "owner@acme.test")
		search := seedSearches(t, s, owner, 1)[0]
		now := time.Now().UTC().Truncate(time.Millisecond)
		texts := map[string]string{
			"both":   `The bridge is closed`,
			"one":    `The bridge is open`,
			"quoted": `"closed" bridge, it's C:\roads\bridge`,
		}
		var posts []post.Post
		var batch []monitor.Match
		for id, text := range texts {
			posts = append(posts, post.Post{ID: id, Provider: "reddit", NativeID: id, Type: post.TypeThreadPost,
				ContentText: text, AuthorName: "Author " + id, PublishedAt: now, DiscoveredAt: now})
			batch = append(batch, monitor.Match{SearchID: search, OrganizationID: owner.OrganizationID, PostID: id,
				PublishedAt: now, DiscoveredAt: now, Provider: "reddit"})
		}
		if _, err := s.InsertPosts(ctx, posts); err != nil {
			t.Fatal(err)
		}
		if _, err := s.InsertMatches(ctx, batch); err != nil {
			t.Fatal(err)
		}
		tests := []struct {
			text     string
			searchIn []string
			want     []string
		}{
			{"bridge closed", nil, []string{"both", "quoted"}},
			{`"Closed" BRIDGE`, nil, []string{"both", "quoted"}},
			{`it's C:\roads\`, nil, []string{"quoted"}},
			{`\"open\"`, nil, []string{"one"}},
			{"author quoted", []string{monitor.InAuthorName}, []string{"quoted"}},
			{"author quoted", []string{monitor.InTitleText}, nil},
		}
		for _, tt := range tests {
			items, _, err := s.Inbox(ctx, monitor.MatchQuery{UserID: owner.ID, SearchIDs: []int64{search}, Text: tt.text, SearchIn: tt.searchIn, Limit: 10})
			if err != nil {
				t.Fatalf("%q: %v", tt.text, err)
			}
			var got []string
			for _, it := range items {
				got = append(got, it.PostID)
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				t.Errorf("%q in %v found %v, want %v", tt.text, tt.searchIn, got, tt.want)
			}
		}
	})
}
