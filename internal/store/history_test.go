package store_test

import (
	"context"
	"fmt"
	"github.com/sightline/sightline/internal/search"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// A user's history keeps only the newest entries; others' histories are untouched; the
// retention removes entries older than its cutoff.
func TestSearchHistoryIsBounded(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		owner := seedUser(t, s, "owner@acme.test")
		other := seedMember(t, s, owner, "other@acme.test")
		const keep = 5
		now := time.Now()
		add := func(userID int64, i int, at time.Time) {
			t.Helper()
			if _, err := s.AddSearchHistory(ctx, search.HistoryEntry{UserID: userID, OrganizationID: owner.OrganizationID,
				Category: "social", Request: fmt.Sprintf(`{"query":"q%d"}`, i), CreatedAt: at}, keep); err != nil {
				t.Fatal(err)
			}
		}
		for i := range 3 {
			add(other.ID, i, now.Add(-40*24*time.Hour))
		}
		for i := range keep + 3 {
			add(owner.ID, i, now.Add(time.Duration(i-keep-3)*time.Minute))
		}
		requests := func(userID int64) []string {
			t.Helper()
			list, err := s.SearchHistory(ctx, userID, 100)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, e := range list {
				out = append(out, e.Request)
			}
			return out
		}
		if got := fmt.Sprint(requests(owner.ID)); got != `[{"query":"q7"} {"query":"q6"} {"query":"q5"} {"query":"q4"} {"query":"q3"}]` {
			t.Errorf("the owner's history = %s, want the newest %d", got, keep)
		}
		if got := requests(other.ID); len(got) != 3 {
			t.Errorf("another user's history = %v, want their 3 entries", got)
		}

		n, err := s.DeleteSearchHistoryBefore(ctx, now.Add(-30*24*time.Hour))
		if err != nil || n != 3 {
			t.Fatalf("retention removed %d (%v), want the 3 old entries", n, err)
		}
		if got := requests(other.ID); len(got) != 0 {
			t.Errorf("after retention the old history = %v", got)
		}
		if got := requests(owner.ID); len(got) != keep {
			t.Errorf("after retention the recent history = %v", got)
		}
	})
}
