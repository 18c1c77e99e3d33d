package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// More matches than one statement carries, a pair repeated in the batch and a batch delivered
// again: each (search, post) pair is stored once and reported new once, in the given order.
func TestInsertMatchesStoresEachPairOnce(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		owner := seedUser(t, s, "owner@acme.test")
		home, err := s.UncategorizedGroup(ctx, owner.OrganizationID, owner.ID)
		if err != nil {
			t.Fatal(err)
		}
		var searches []int64
		for i := range 2 {
			m := monitor.Search{OrganizationID: owner.OrganizationID, OwnerID: owner.ID, GroupID: home.ID,
				Name: fmt.Sprint("search ", i), Enabled: true, Keywords: "bridge"}
			if err := s.CreateSearch(ctx, &m, nil, nil); err != nil {
				t.Fatal(err)
			}
			searches = append(searches, m.ID)
		}
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
