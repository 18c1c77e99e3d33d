package store_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/alerts"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// A delivery may go to any channel's destination type (the channels' table is the list); the
// upgrades that lift the old two-type CHECK (0030) and let a delivery be skipped (0036) keep
// every delivery and the matches each covers.
func TestDeliveriesOfAnyChannelSurviveTheUpgrade(t *testing.T) {
	for _, d := range []store.Dialect{store.SQLite, store.Postgres} {
		t.Run(string(d), func(t *testing.T) {
			ctx := context.Background()
			s := openAtVersion(t, storetest.DSN(t, d), 29)
			owner := seedUser(t, s, "owner@acme.test")
			search := seedSearches(t, s, owner, 1)[0]
			now := time.Now().UTC().Truncate(time.Millisecond)
			delivery := func(destinationType, address string) alerts.Delivery {
				return alerts.Delivery{SearchID: search, OrganizationID: owner.OrganizationID, Type: monitor.AlertWebhook,
					Destination: monitor.Destination{Type: destinationType, Address: address}, MatchCount: 2,
					Status: alerts.StatusPending, NextAttemptAt: now, CreatedAt: now}
			}
			before := delivery("webhook", "https://hooks.example/a")
			if err := s.CreateDeliveryAsOf0015(ctx, &before, []int64{11, 12}); err != nil {
				t.Fatal(err)
			}
			if err := s.Migrate(ctx); err != nil {
				t.Fatal(err)
			}

			kept, err := s.Deliveries(ctx, search, 10)
			if err != nil || len(kept) != 1 || kept[0].ID != before.ID || kept[0].Destination != before.Destination ||
				kept[0].Kind != alerts.KindMatches || kept[0].Skipped != "" {
				t.Fatalf("deliveries after the upgrade = %+v, %v; want %+v", kept, err, before)
			}
			if ids, err := s.DeliveryMatches(ctx, before.ID); err != nil || !slices.Equal(ids, []int64{11, 12}) {
				t.Fatalf("matches of the kept delivery = %v, %v", ids, err)
			}
			again := delivery("webhook", "https://hooks.example/a")
			if ok, err := s.CreateDelivery(ctx, &again, []int64{12, 13}); err != nil || ok {
				t.Fatalf("a second delivery of a covered match = %v, %v; want refused", ok, err)
			}
			relay := delivery("relay", "relay://desk")
			if ok, err := s.CreateDelivery(ctx, &relay, []int64{11, 12}); err != nil || !ok {
				t.Fatalf("a delivery of a new channel = %v, %v", ok, err)
			}
			if relay.ID <= before.ID {
				t.Errorf("the new delivery's id %d does not follow the kept one's %d", relay.ID, before.ID)
			}
		})
	}
}
