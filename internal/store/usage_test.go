package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
	"github.com/sightline/sightline/internal/usage"
)

// Usage adds up per member and month; the matches saved searches stored count for their owner,
// in the month they were stored.
func TestUsageCounts(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		owner := seedUser(t, s, "owner@acme.test")
		month := usage.Month(time.Now())
		for range 2 {
			if err := s.AddUsage(ctx, owner.OrganizationID, owner.ID, usage.Locate, month, usage.Counts{Searches: 1, Matches: 5, Exports: 1}); err != nil {
				t.Fatal(err)
			}
		}
		rows, err := s.Usage(ctx, owner.OrganizationID, usage.Locate, month, month)
		if err != nil || len(rows) != 1 || rows[0].Searches != 2 || rows[0].Matches != 10 || rows[0].Exports != 2 {
			t.Fatalf("usage = %+v %v", rows, err)
		}
		if rows, _ := s.Usage(ctx, owner.OrganizationID, usage.Beacon, month, month); len(rows) != 0 {
			t.Errorf("another product's usage = %+v", rows)
		}

		searches := seedSearches(t, s, owner, 2)
		now := time.Now().UTC()
		var batch []monitor.Match
		for i := range 7 {
			batch = append(batch, monitor.Match{SearchID: searches[i%2], OrganizationID: owner.OrganizationID,
				PostID: fmt.Sprint("post-", i), PublishedAt: now, DiscoveredAt: now, Provider: "reddit"})
		}
		if _, err := s.InsertMatches(ctx, batch); err != nil {
			t.Fatal(err)
		}
		start := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
		got, err := s.MatchesStored(ctx, owner.OrganizationID, start, start.AddDate(0, 1, 0))
		if err != nil || got[owner.ID] != 7 {
			t.Errorf("matches stored this month = %v %v, want 7 for the owner", got, err)
		}
		if got, _ := s.MatchesStored(ctx, owner.OrganizationID, start.AddDate(0, -1, 0), start); len(got) != 0 {
			t.Errorf("matches stored last month = %v", got)
		}
	})
}
