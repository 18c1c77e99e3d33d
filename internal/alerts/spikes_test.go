package alerts_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/alerts"
	"github.com/sightline/sightline/internal/alerts/channel"
	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/spike"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// recordingChannel keeps what it is given to send.
type recordingChannel struct{ sent []channel.Message }

func (c *recordingChannel) Describe() channel.Description {
	return channel.Description{Name: "relay", Label: "Relay", AlertTypes: []string{monitor.AlertSpike}, Available: true}
}
func (c *recordingChannel) Check(string) string { return "" }
func (c *recordingChannel) Send(_ context.Context, m channel.Message) error {
	c.sent = append(c.sent, m)
	return nil
}

// A new spike of a search whose spike alert is on is sent once to its destination, as the
// spike's event; told again (another run, another node), it is not sent twice; a spike of a
// search without the alert, or from before the alert was on, is not sent.
func TestSpikeAlertSentOnce(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u, err := account.NewService(s).CreateUser(ctx, account.NewUser{Organization: "Acme", Email: "owner@acme.test",
			Password: "correct-horse-9", Role: account.RoleOwner})
		if err != nil {
			t.Fatal(err)
		}
		matches := monitor.NewService(monitor.Deps{Store: s, Inbox: s})
		home, err := s.UncategorizedGroup(ctx, u.OrganizationID, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		now := time.Now().UTC().Truncate(time.Second)
		search := func(name string, alert bool) monitor.Search {
			sv, err := matches.CreateSearch(ctx, auth.Identity{User: u, Role: account.RoleOwner}.Actor(),
				monitor.SearchInput{GroupID: home.ID, Name: name, Keywords: "harbour", Providers: []string{"reddit"}})
			if err != nil {
				t.Fatal(err)
			}
			m := sv.Search
			if alert {
				setUp := now.Add(-time.Hour).Unix()
				m.NotificationSettings, _ = json.Marshal([]monitor.NotificationSetting{{Type: monitor.AlertSpike, Interval: 60,
					Destinations: []monitor.Destination{{Type: "relay", Address: "relay://desk"}}, LastUpdatedAt: &setUp}})
				if err := s.UpdateSearch(ctx, m, nil, nil); err != nil {
					t.Fatal(err)
				}
			}
			return m
		}
		watched, quiet := search("Harbour", true), search("Quiet", false)
		found := func(m monitor.Search, start time.Time) spike.Spike {
			return spike.Spike{SearchID: m.ID, Series: spike.SeriesSearch, DetectedAt: now, StoryIDs: []string{"story-1"},
				Found: spike.Found{Start: start, End: start.Add(30 * time.Minute), Count: 61, Expected: 2, Low: 0, High: 5, Score: 12}}
		}
		added, err := s.SaveSpikes(ctx, []spike.Spike{found(watched, now.Add(-30*time.Minute)),
			found(watched, now.Add(-3*time.Hour)), found(quiet, now.Add(-30*time.Minute))})
		if err != nil || len(added) != 3 {
			t.Fatal(added, err)
		}

		relay := &recordingChannel{}
		svc := alerts.NewService(alerts.Deps{Store: s, Matches: matches, Channels: channel.Table{relay}, Spikes: s})
		svc.SpikesFound(ctx, added)
		svc.SpikesFound(ctx, added)
		if err := svc.SendDue(ctx); err != nil {
			t.Fatal(err)
		}
		if len(relay.sent) != 1 {
			t.Fatalf("sent %d messages, want the one new spike of the watched search", len(relay.sent))
		}
		e, ok := relay.sent[0].Content.Event().(alerts.SpikeEvent)
		if !ok || e.Type != "monitor.spike" || e.Search.ID != watched.ID || e.Spike.ID != added[0].ID || e.Spike.Count != 61 {
			t.Errorf("event %+v, want the watched search's new spike", relay.sent[0].Content.Event())
		}
		msg, err := relay.sent[0].Content.Mail(ctx)
		if err != nil || msg.Subject == "" || !strings.Contains(msg.Text, "61 posts") {
			t.Errorf("mail %+v, %v; want the spike's count", msg, err)
		}
		got, err := s.Deliveries(ctx, watched.ID, 10)
		if err != nil || len(got) != 1 || got[0].Type != monitor.AlertSpike || got[0].Status != alerts.StatusSent {
			t.Errorf("deliveries %+v, %v; want one sent spike delivery", got, err)
		}
	})
}
