package store_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/monitor"
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

// countsAgree fails the test unless each user's kept counts of the searches are what counting
// every match gives.
func countsAgree(t *testing.T, s *store.Store, when string, searches []int64, users ...int64) {
	t.Helper()
	ctx := context.Background()
	for _, user := range users {
		kept, err := s.MatchCounts(ctx, user, searches)
		if err != nil {
			t.Fatal(err)
		}
		scanned, err := s.CountMatchesByScan(ctx, user, searches)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(kept) != fmt.Sprint(scanned) {
			t.Fatalf("%s, user %d: kept counts %v, counted %v", when, user, kept, scanned)
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
				PostID: fmt.Sprint("post-", i), PublishedAt: published, DiscoveredAt: now, Provider: "reddit"})
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
			s, err := store.Open(ctx, storetest.DSN(t, d))
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if err := s.MigrateTo(ctx, 6); err != nil {
				t.Fatal(err)
			}
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
