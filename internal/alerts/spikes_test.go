package alerts_test

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
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

// owner is an organization's owner and the monitor service their searches are made with.
type owner struct {
	t       *testing.T
	s       *store.Store
	user    account.User
	matches *monitor.Service
}

func newOwner(t *testing.T, s *store.Store) *owner {
	t.Helper()
	u, err := account.NewService(s).CreateUser(context.Background(), account.NewUser{Organization: "Acme",
		Email: "owner@acme.test", Password: "correct-horse-9", Role: account.RoleOwner})
	if err != nil {
		t.Fatal(err)
	}
	return &owner{t: t, s: s, user: u, matches: monitor.NewService(monitor.Deps{Store: s, Inbox: s})}
}

// search makes a search of "harbour" on reddit in the owner's Uncategorized group; with
// spikeAlert, its spike alert to the relay, set up an hour ago.
func (o *owner) search(name string, spikeAlert bool) monitor.Search {
	o.t.Helper()
	ctx := context.Background()
	home, err := o.s.UncategorizedGroup(ctx, o.user.OrganizationID, o.user.ID)
	if err != nil {
		o.t.Fatal(err)
	}
	sv, err := o.matches.CreateSearch(ctx, auth.Identity{User: o.user, Role: account.RoleOwner}.Actor(),
		monitor.SearchInput{GroupID: home.ID, Name: name, Keywords: "harbour", Providers: []string{"reddit"}})
	if err != nil {
		o.t.Fatal(err)
	}
	m := sv.Search
	if spikeAlert {
		setUp := time.Now().Add(-time.Hour).Unix()
		m.NotificationSettings, _ = json.Marshal([]monitor.NotificationSetting{{Type: monitor.AlertSpike, Interval: 60,
			Destinations: []monitor.Destination{{Type: "relay", Address: "relay://desk"}}, LastUpdatedAt: &setUp}})
		if err := o.s.UpdateSearch(ctx, m, nil, nil); err != nil {
			o.t.Fatal(err)
		}
	}
	return m
}

// A new spike of a search whose spike alert is on is sent once to its destination, as the
// spike's event; told again (another run, another node), it is not sent twice; a spike of a
// search without the alert, or from before the alert was on, is not sent.
func TestSpikeAlertSentOnce(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		o := newOwner(t, s)
		matches := o.matches
		now := time.Now().UTC().Truncate(time.Second)
		watched, quiet := o.search("Harbour", true), o.search("Quiet", false)
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

// A spike obeys the search's snooze and flood guard like every alert: while snoozed it is
// skipped, once, with the reason in the delivery history; past the organization's daily
// bound it is held back with the guard's one notice, and a sent spike counts against it.
func TestSpikeAlertSnoozedAndHeldBack(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		o := newOwner(t, s)
		u, matches := o.user, o.matches
		now := time.Now().UTC().Truncate(time.Second)
		m := o.search("Harbour", true)
		save := func(minutesAgo int) []spike.Spike {
			start := now.Add(-time.Duration(minutesAgo) * time.Minute)
			added, err := s.SaveSpikes(ctx, []spike.Spike{{SearchID: m.ID, Series: spike.SeriesSearch, DetectedAt: now,
				Found: spike.Found{Start: start, End: start.Add(15 * time.Minute), Count: 40, Expected: 2, High: 5, Score: 9}}})
			if err != nil || len(added) != 1 {
				t.Fatal(added, err)
			}
			return added
		}
		relay := &recordingChannel{}
		svc := alerts.NewService(alerts.Deps{Store: s, Matches: matches, Channels: channel.Table{relay}, Spikes: s})

		// Snoozed: skipped with its reason, once however often detection tells of it.
		if err := s.SetSnooze(ctx, alerts.Snooze{SearchID: m.ID, Until: now.Add(time.Hour), UserID: u.ID, CreatedAt: now}); err != nil {
			t.Fatal(err)
		}
		snoozed := save(50)
		svc.SpikesFound(ctx, snoozed)
		svc.SpikesFound(ctx, snoozed)
		if err := svc.SendDue(ctx); err != nil {
			t.Fatal(err)
		}
		got, err := s.Deliveries(ctx, m.ID, 10)
		if err != nil || len(relay.sent) != 0 || len(got) != 1 || got[0].Status != alerts.StatusSkipped ||
			got[0].Skipped != alerts.SkippedSnoozed || !strings.Contains(got[0].Note, "snoozed") || got[0].MatchCount != 40 {
			t.Fatalf("sent %d, deliveries %+v, %v; want one skipped, snoozed spike delivery", len(relay.sent), got, err)
		}

		// Awake, with a bound of one a day: the first spike goes, the second is held back and
		// the guard's notice says so.
		if err := s.SetSnooze(ctx, alerts.Snooze{SearchID: m.ID, UserID: u.ID, CreatedAt: now}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.ChangeOrganization(ctx, u.OrganizationID, func(o *account.Organization) ([]account.AuditEntry, error) {
			o.AlertDailyLimit = 1
			return nil, nil
		}); err != nil {
			t.Fatal(err)
		}
		first, second := save(40), save(20)
		svc.SpikesFound(ctx, first)
		svc.SpikesFound(ctx, second)
		if err := svc.SendDue(ctx); err != nil {
			t.Fatal(err)
		}
		if n, err := s.CountNotifications(ctx, m.ID, now.Add(-time.Hour)); err != nil || n != 1 {
			t.Errorf("flood guard counts %d, %v; want the one sent spike", n, err)
		}
		var events []string
		for _, msg := range relay.sent {
			switch e := msg.Content.Event().(type) {
			case alerts.SpikeEvent:
				events = append(events, "spike "+strconv.FormatInt(e.Spike.ID, 10))
			case map[string]any:
				events = append(events, e["type"].(string))
			}
		}
		slices.Sort(events) // the sender takes due deliveries in no set order within a millisecond
		if want := []string{"monitor.flood", "spike " + strconv.FormatInt(first[0].ID, 10)}; !slices.Equal(events, want) {
			t.Errorf("sent %v, want %v", events, want)
		}
		got, err = s.Deliveries(ctx, m.ID, 10)
		if err != nil {
			t.Fatal(err)
		}
		var held []alerts.Delivery
		for _, d := range got {
			if d.Skipped == alerts.SkippedHeld {
				held = append(held, d)
			}
		}
		if len(got) != 4 || len(held) != 1 || !strings.Contains(held[0].Note, "spike "+strconv.FormatInt(second[0].ID, 10)) {
			t.Errorf("deliveries %+v; want snoozed, sent, held back (naming the second spike) and the guard's notice", got)
		}
	})
}
