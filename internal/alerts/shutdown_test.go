package alerts_test

import (
	"context"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/alerts"
	"github.com/sightline/sightline/internal/alerts/channel"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// stoppingChannel delivers every message, and the node stops as each is delivered: the
// shutdown that comes between a receiver taking a message and the row saying so.
type stoppingChannel struct {
	stop func()
	sent int
}

func (c *stoppingChannel) Describe() channel.Description {
	return channel.Description{Name: "relay", Label: "Relay", AlertTypes: []string{monitor.AlertWebhook}, Available: true}
}

func (c *stoppingChannel) Check(string) string { return "" }

func (c *stoppingChannel) Send(context.Context, channel.Message) error {
	c.sent++
	c.stop()
	return nil
}

// A delivery sent while the node stops is recorded sent, so the next start does not send it again.
func TestDeliverySentAtShutdownIsNotSentAgain(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		o := newOwner(t, s)
		u, matches := o.user, o.matches
		m := o.search("Harbour", false)
		now := time.Now().UTC().Truncate(time.Millisecond)
		p := post.Post{ID: "p-1", Provider: "reddit", NativeID: "p-1", Type: post.TypeThreadPost, AuthorName: "Ana",
			ContentText: "The harbour is closed.", PublishedAt: now, DiscoveredAt: now}
		if _, err := s.InsertPosts(ctx, []post.Post{p}); err != nil {
			t.Fatal(err)
		}
		created, err := s.InsertMatches(ctx, []monitor.Match{{SearchID: m.ID, OrganizationID: u.OrganizationID,
			PostID: p.ID, PublishedAt: now, DiscoveredAt: now, Provider: "reddit"}})
		if err != nil || len(created) != 1 {
			t.Fatal(created, err)
		}
		d := alerts.Delivery{SearchID: m.ID, OrganizationID: u.OrganizationID, Type: monitor.AlertWebhook,
			Destination: monitor.Destination{Type: "relay", Address: "relay://desk"}, MatchCount: 1,
			Status: alerts.StatusPending, NextAttemptAt: now, CreatedAt: now}
		if ok, err := s.CreateDelivery(ctx, &d, []int64{created[0].ID}); err != nil || !ok {
			t.Fatal(ok, err)
		}

		relay := &stoppingChannel{}
		svc := alerts.NewService(alerts.Deps{Store: s, Matches: matches, Channels: channel.Table{relay}})
		running, stop := context.WithCancel(ctx)
		relay.stop = stop
		svc.SendDue(running)
		// The next start: the lease the stopped node held has run out.
		later := alerts.NewService(alerts.Deps{Store: s, Matches: matches, Channels: channel.Table{relay},
			Now: func() time.Time { return time.Now().Add(time.Minute) }})
		relay.stop = func() {}
		if err := later.SendDue(ctx); err != nil {
			t.Fatal(err)
		}
		got, err := s.Deliveries(ctx, m.ID, 10)
		if err != nil || len(got) != 1 {
			t.Fatal(got, err)
		}
		if relay.sent != 1 || got[0].Status != alerts.StatusSent {
			t.Errorf("sent %d times, delivery %s; want once, sent", relay.sent, got[0].Status)
		}
	})
}
