package api_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/alerts"
	"github.com/sightline/sightline/internal/alerts/channel"
	"github.com/sightline/sightline/internal/alerts/channel/email"
	"github.com/sightline/sightline/internal/alerts/channel/webhook"
	"github.com/sightline/sightline/internal/api"
	"github.com/sightline/sightline/internal/filters"
	"github.com/sightline/sightline/internal/mail"
	"github.com/sightline/sightline/internal/mail/mailtest"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/outbound"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
	"github.com/sightline/sightline/internal/story"
)

// alertEnv is the API with the Monitor and alerts, a real SMTP server and a webhook receiver.
type alertEnv struct {
	*exportEnv
	alerts   *alerts.Service
	email    *email.Channel
	smtp     *mailtest.Server
	receiver *receiver
	clock    *offsetClock
	added    int
}

// offsetClock runs with the real one, ahead by what the test advanced it: matches are stamped
// with the real time when stored, and alerts fall due on this clock.
type offsetClock struct {
	mu     sync.Mutex
	offset time.Duration
}

func (c *offsetClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.offset)
}

func (c *offsetClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.offset += d
}

func newAlertEnv(t *testing.T, s *store.Store, withMail bool) *alertEnv {
	t.Helper()
	x := newExportEnv(t, s, nil)
	smtp := mailtest.Start(t)
	var sender mail.Sender
	if withMail {
		var err error
		if sender, err = mail.NewSMTP(smtp.URL(), "Sightline <alerts@sightline.test>"); err != nil {
			t.Fatal(err)
		}
	}
	clock := &offsetClock{}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	channels := alerts.Channels(alerts.ChannelDeps{Store: s, Mail: sender, Webhooks: webhook.NewClient(outbound.Everywhere),
		PublicURL: "https://sightline.example", Logger: logger})
	x.monitor = monitor.NewService(monitor.Deps{Store: s, Inbox: s, Channels: channels})
	svc := alerts.NewService(alerts.Deps{Store: s, Matches: x.monitor, Channels: channels, Stories: story.NewService(s),
		PublicURL: "https://sightline.example", Now: clock.Now, Logger: logger})
	h := api.New(api.Deps{Accounts: x.accounts, Auth: x.auth, Monitor: x.monitor, Live: x.hub, Alerts: svc,
		EmailDelivery: withMail, Health: s.Ping, App: api.AppHandler(nil, false), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	x.srv.Close()
	x.srv = httptest.NewServer(h)
	t.Cleanup(x.srv.Close)
	rc := &receiver{}
	rc.srv = httptest.NewServer(rc)
	t.Cleanup(rc.srv.Close)
	return &alertEnv{exportEnv: x, alerts: svc, email: channels[0].(*email.Channel), smtp: smtp, receiver: rc, clock: clock}
}

// searchID is the id of the user's "Floods" search (seed).
func (x *alertEnv) searchID(email string) int64 {
	x.t.Helper()
	views, err := x.monitor.Searches(context.Background(), x.actor(email), 0)
	if err != nil || len(views) == 0 {
		x.t.Fatalf("searches = %v %v", views, err)
	}
	return views[0].ID
}

// addMatches stores n new posts about floods as matches of the search, now.
func (x *alertEnv) addMatches(email string, searchID int64, n int) []int64 {
	x.t.Helper()
	ctx := context.Background()
	a := x.actor(email)
	now := time.Now().UTC().Truncate(time.Millisecond)
	var posts []post.Post
	var matches []monitor.Match
	for range n {
		x.added++
		id := fmt.Sprintf("new-%d", x.added)
		posts = append(posts, post.Post{ID: id, Provider: "reddit", NativeID: id, Type: post.TypeThreadPost,
			AuthorName: "Ana " + email, ContentText: fmt.Sprintf("The flood reached the bridge, report %d.", x.added),
			PostLink: "https://reddit.example/" + id, PublishedAt: now, DiscoveredAt: now})
		matches = append(matches, monitor.Match{SearchID: searchID, OrganizationID: a.OrganizationID, PostID: id,
			PublishedAt: now, DiscoveredAt: now, Provider: "reddit"})
	}
	if _, err := x.store.InsertPosts(ctx, posts); err != nil {
		x.t.Fatal(err)
	}
	created, err := x.store.InsertMatches(ctx, matches)
	if err != nil {
		x.t.Fatal(err)
	}
	ids := make([]int64, len(created))
	for i, c := range created {
		ids[i] = c.ID
	}
	return ids
}

// emailBatchAlert gives the owner a search with a one-minute e-mail batch alert and n matches
// found after it was set up, and moves the clock past the alert's interval.
func (x *alertEnv) emailBatchAlert(n int) int64 {
	x.t.Helper()
	owner := x.signedIn("owner@acme.test")
	x.seed("owner@acme.test", 0)
	searchID := x.searchID("owner@acme.test")
	x.settings(owner, searchID, []map[string]any{{"type": "batch", "interval": 60, "grouping": "post",
		"destinations": []map[string]string{{"type": "email", "address": "desk@acme.test"}}}})
	x.clock.Advance(time.Second)
	x.addMatches("owner@acme.test", searchID, n)
	x.clock.Advance(2 * time.Minute)
	return searchID
}

// run collects and sends as the scheduler does at the clock's time.
func (x *alertEnv) run() { x.runOn(x.alerts) }

// runOn is run on another node's service, or on this node's after a restart.
func (x *alertEnv) runOn(svc *alerts.Service) {
	x.t.Helper()
	if err := svc.Collect(context.Background()); err != nil {
		x.t.Fatal(err)
	}
	if err := svc.SendDue(context.Background()); err != nil {
		x.t.Fatal(err)
	}
}

func (x *alertEnv) settings(c *client, searchID int64, body any) reply {
	x.t.Helper()
	path := fmt.Sprintf("/api/v1/monitor/searches/%d/notification-settings", searchID)
	if body == nil {
		return c.do("GET", path, nil, withBearer(c.bearer))
	}
	return c.do("PUT", path, body, withBearer(c.bearer))
}

// receiver is a webhook endpoint that keeps what it was sent.
type receiver struct {
	srv    *httptest.Server
	mu     sync.Mutex
	got    []received
	status int
}

type received struct {
	header http.Header
	body   []byte
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.got = append(rc.got, received{header: r.Header.Clone(), body: body})
	if rc.status != 0 {
		w.WriteHeader(rc.status)
	}
}

func (rc *receiver) all() []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]received(nil), rc.got...)
}

// verify checks a webhook as the Standard Webhooks reference verifier does: the signed content
// is "id.timestamp.body", the key the base64 after whsec_, and one of the space-separated
// "v1,<base64>" signatures must equal the HMAC-SHA256, compared in constant time.
func verify(secret string, h http.Header, body []byte) error {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		return err
	}
	id, ts := h.Get("webhook-id"), h.Get("webhook-timestamp")
	if id == "" || ts == "" {
		return errors.New("missing webhook-id or webhook-timestamp")
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || time.Since(time.Unix(sec, 0)).Abs() > 5*time.Minute {
		return fmt.Errorf("timestamp %q out of tolerance", ts)
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + ts + "." + string(body)))
	want := mac.Sum(nil)
	for _, sig := range strings.Fields(h.Get("webhook-signature")) {
		version, b64, ok := strings.Cut(sig, ",")
		got, err := base64.StdEncoding.DecodeString(b64)
		if ok && version == "v1" && err == nil && hmac.Equal(got, want) {
			return nil
		}
	}
	return errors.New("no valid signature")
}

func TestNotificationSettingsRules(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		x := newAlertEnv(t, s, true)
		x.seed("owner@acme.test", 0)
		owner := x.signedIn("owner@acme.test")
		searchID := x.searchID("owner@acme.test")
		ctx := context.Background()
		for _, email := range []string{"owner@acme.test", "owner@globex.test"} {
			u, err := s.UserByEmail(ctx, email)
			if err != nil {
				t.Fatal(err)
			}
			fpid := "fp-" + strings.TrimSuffix(strings.TrimPrefix(email, "owner@"), ".test")
			if err := s.CreateLocationConfiguration(ctx, &filters.LocationConfiguration{FPID: fpid, OrganizationID: u.OrganizationID,
				OwnerID: u.ID, Name: "Office", Address: "Paris, France",
				AddressBounds: []byte(`{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[2.35,48.85]}}`)}); err != nil {
				t.Fatal(err)
			}
		}

		r := x.settings(owner, searchID, nil)
		types := []string{}
		for _, n := range r.body["data"].([]any) {
			types = append(types, dig(n, "type").(string))
		}
		// The AI summary needs the organization's AI feature, which Acme lacks.
		if r.status != 200 || strings.Join(types, ",") != "batch,digest,webhook,proximity,spike" || dig(r.body["meta"], "canEdit") != true {
			t.Fatalf("GET = %d %v", r.status, r.body)
		}
		if dest := dig(r.body["data"].([]any)[0], "destinations").([]any); len(dest) != 1 || dig(dest[0], "address") != "owner@acme.test" {
			t.Errorf("batch destinations = %v, want the user's e-mail by default", dest)
		}

		for _, tt := range []struct {
			name string
			body string
			want string
		}{
			{"proximity without locations", `[{"type":"proximity","interval":300,"destinations":[]}]`, monitor.MsgProximityNeedsPlace},
			{"invalid e-mail", `[{"type":"batch","interval":300,"destinations":[{"type":"email","address":"not-an-address"}]}]`, email.MsgInvalid},
			{"duplicate e-mail", `[{"type":"batch","interval":300,"destinations":[{"type":"email","address":"a@b.test"},{"type":"email","address":"A@b.test"}]}]`, email.MsgDuplicate},
			{"ftp webhook", `[{"type":"webhook","interval":0,"destinations":[{"type":"webhook","address":"ftp://example.test/x"}]}]`, webhook.MsgURL},
			// Every delivery is signed: before the organization has a secret, a webhook is refused at save.
			{"webhook without a signing secret", `[{"type":"webhook","interval":0,"destinations":[{"type":"webhook","address":"https://hooks.example/x"}]}]`, webhook.MsgNoSecret},
			{"interval not offered", `[{"type":"digest","interval":300,"destinations":[]}]`, "300 seconds is not an interval a digest alert offers."},
			{"AI summary without the AI feature", `[{"type":"ai_summary","interval":86400,"destinations":[]}]`, monitor.MsgAISummaryNotOffered},
			{"unknown location", `[{"type":"proximity","interval":300,"locationAssetIds":["nowhere"]}]`, fmt.Sprintf(monitor.MsgUnknownLocation, "nowhere")},
			{"another organization's location", `[{"type":"proximity","interval":300,"locationAssetIds":["fp-globex"]}]`, fmt.Sprintf(monitor.MsgUnknownLocation, "fp-globex")},
		} {
			r := owner.do("PUT", fmt.Sprintf("/api/v1/monitor/searches/%d/notification-settings", searchID),
				rawJSON(tt.body), withBearer(owner.bearer))
			// The refusal is on the setting's own type.
			var sent []monitor.NotificationSetting
			_ = json.Unmarshal([]byte(tt.body), &sent)
			if r.status != http.StatusUnprocessableEntity || r.body["message"] != tt.want || dig(r.body["errors"], sent[0].Type) == nil {
				t.Errorf("%s: %d %v, want 422 %q on %s", tt.name, r.status, r.body, tt.want, sent[0].Type)
			}
		}

		// The organization's own location is watched; with the AI feature the summary is offered.
		if r := x.settings(owner, searchID, []map[string]any{{"type": "proximity", "interval": 300,
			"locationAssetIds": []string{"fp-acme"}}}); r.status != 200 || dig(r.body["data"].([]any)[3], "interval") != float64(300) {
			t.Errorf("PUT proximity at Acme's location = %d %v", r.status, r.body)
		}
		acme, _ := s.UserByEmail(ctx, "owner@acme.test")
		if _, err := s.ChangeOrganization(ctx, acme.OrganizationID, func(o *account.Organization) ([]account.AuditEntry, error) {
			o.IsMooseMindEnabled = true
			return nil, nil
		}); err != nil {
			t.Fatal(err)
		}
		if r := x.settings(owner, searchID, []map[string]any{{"type": "ai_summary", "interval": 86400}}); r.status != 200 {
			t.Errorf("PUT AI summary with the AI feature = %d %v", r.status, r.body)
		}
		// Without the proximity flag, the alert already on may be saved as it is, and switched
		// off, but not on again.
		if _, err := s.ChangeOrganization(ctx, acme.OrganizationID, func(o *account.Organization) ([]account.AuditEntry, error) {
			o.FeatureFlags[account.FlagProximityNotifications] = false
			return nil, nil
		}); err != nil {
			t.Fatal(err)
		}
		proximity := func(interval int) reply {
			return owner.do("PUT", fmt.Sprintf("/api/v1/monitor/searches/%d/notification-settings", searchID),
				[]map[string]any{{"type": "proximity", "interval": interval, "locationAssetIds": []string{"fp-acme"}}}, withBearer(owner.bearer))
		}
		for _, step := range []struct {
			interval int
			status   int
		}{{300, 200}, {0, 200}, {300, 422}} {
			if r := proximity(step.interval); r.status != step.status || (step.status == 422 && r.body["message"] != monitor.MsgProximityNotOffered) {
				t.Errorf("proximity at %d s without its flag = %d %v, want %d", step.interval, r.status, r.body, step.status)
			}
		}

		r = x.settings(owner, searchID, []map[string]any{{"type": "batch", "interval": 300,
			"destinations": []map[string]string{{"type": "email", "address": "desk@acme.test"}}}})
		batch := r.body["data"].([]any)[0]
		if r.status != 200 || dig(batch, "interval") != float64(300) || dig(batch, "lastUpdatedAt") == nil {
			t.Errorf("PUT batch = %d %v", r.status, r.body)
		}
		// Saved: the next read has it, and the other types are untouched.
		if r = x.settings(owner, searchID, nil); dig(r.body["data"].([]any)[0], "interval") != float64(300) ||
			dig(r.body["data"].([]any)[1], "interval") != float64(0) {
			t.Errorf("after PUT, GET = %v", r.body)
		}

		// Once an owner has generated the secret, the same webhook is taken.
		org := x.actor("owner@acme.test").OrganizationID
		if r := owner.do("PUT", fmt.Sprintf("/api/v1/settings/organizations/%d/webhook", org), nil, withBearer(owner.bearer)); r.status != 200 {
			t.Fatalf("webhook secret = %d %v", r.status, r.body)
		}
		if r := x.settings(owner, searchID, []map[string]any{{"type": "webhook", "interval": 0,
			"destinations": []map[string]string{{"type": "webhook", "address": "https://hooks.example/x"}}}}); r.status != 200 {
			t.Errorf("PUT webhook with a secret = %d %v", r.status, r.body)
		}

		// Another organization does not see the search; a colleague it is not shared with neither.
		for _, email := range []string{"owner@globex.test", "analyst@acme.test"} {
			c := x.signedIn(email)
			if r := x.settings(c, searchID, nil); r.status != http.StatusNotFound {
				t.Errorf("%s GET = %d %v", email, r.status, r.body)
			}
			if r := x.settings(c, searchID, []map[string]any{{"type": "batch", "interval": 60}}); r.status != http.StatusNotFound {
				t.Errorf("%s PUT = %d %v", email, r.status, r.body)
			}
			if r := c.do("GET", fmt.Sprintf("/api/v1/monitor/searches/%d/deliveries", searchID), nil, withBearer(c.bearer)); r.status != http.StatusNotFound {
				t.Errorf("%s deliveries = %d", email, r.status)
			}
		}
	})
}

// A daily digest is not sent when it is set up but at the next 00:00 UTC, with the matches
// found since.
func TestDigestWaitsForMidnight(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		x := newAlertEnv(t, s, true)
		owner := x.signedIn("owner@acme.test")
		x.seed("owner@acme.test", 0)
		searchID := x.searchID("owner@acme.test")
		if r := x.settings(owner, searchID, []map[string]any{{"type": "digest", "interval": 86400,
			"destinations": []map[string]string{{"type": "email", "address": "desk@acme.test"}}}}); r.status != 200 {
			t.Fatalf("PUT = %d %v", r.status, r.body)
		}
		x.addMatches("owner@acme.test", searchID, 2)
		deliveries := func() []any {
			r := owner.do("GET", fmt.Sprintf("/api/v1/monitor/searches/%d/deliveries", searchID), nil, withBearer(owner.bearer))
			return r.body["data"].([]any)
		}
		now := x.clock.Now().UTC()
		midnight := now.Truncate(24 * time.Hour).Add(24 * time.Hour)
		x.run()
		x.clock.Advance(midnight.Sub(now) - 10*time.Second)
		x.run()
		if got := deliveries(); len(got) != 0 {
			t.Fatalf("before midnight: %d deliveries, want none", len(got))
		}
		x.clock.Advance(10 * time.Second)
		x.run()
		if got := deliveries(); len(got) != 1 || dig(got[0], "matchCount") != float64(2) {
			t.Fatalf("at midnight: deliveries %v, want one of the 2 matches", got)
		}
		if msgs := x.smtp.WaitFor(t, 1); len(msgs) != 1 {
			t.Errorf("%d mails", len(msgs))
		}
	})
}

// The tenant portal's "AI features" switch stops AI summaries set up while it was on, and lets
// them go again when it is back on.
func TestAISummaryFollowsTheAIFeature(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		x := newAlertEnv(t, s, true)
		owner := x.signedIn("owner@acme.test")
		x.seed("owner@acme.test", 0)
		searchID := x.searchID("owner@acme.test")
		ctx := context.Background()
		ai := func(on bool) {
			if _, err := s.ChangeOrganization(ctx, x.actor("owner@acme.test").OrganizationID, func(o *account.Organization) ([]account.AuditEntry, error) {
				o.IsMooseMindEnabled = on
				return nil, nil
			}); err != nil {
				t.Fatal(err)
			}
		}
		ai(true)
		if r := x.settings(owner, searchID, []map[string]any{{"type": "ai_summary", "interval": 86400,
			"destinations": []map[string]string{{"type": "email", "address": "desk@acme.test"}}}}); r.status != 200 {
			t.Fatalf("PUT = %d %v", r.status, r.body)
		}
		x.addMatches("owner@acme.test", searchID, 2)
		ai(false)
		now := x.clock.Now().UTC()
		x.clock.Advance(now.Truncate(24 * time.Hour).Add(24 * time.Hour).Sub(now))
		x.run()
		deliveries := func() int {
			r := owner.do("GET", fmt.Sprintf("/api/v1/monitor/searches/%d/deliveries", searchID), nil, withBearer(owner.bearer))
			return len(r.body["data"].([]any))
		}
		if n := deliveries(); n != 0 {
			t.Fatalf("with AI features off: %d deliveries", n)
		}
		ai(true)
		x.run()
		if n := deliveries(); n != 1 {
			t.Errorf("with AI features on again: %d deliveries, want 1", n)
		}
	})
}

// Each match reaches each destination once: by e-mail with its content, and by a webhook the
// receiver verifies; a second run sends nothing again; new matches go in a new delivery.
func TestAlertsDeliverEachMatchOnce(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		x := newAlertEnv(t, s, true)
		owner := x.signedIn("owner@acme.test")
		x.seed("owner@acme.test", 3)
		searchID := x.searchID("owner@acme.test")
		// lastUpdatedAt is in seconds: set the alert up a second after these matches were stored.
		time.Sleep(1100 * time.Millisecond)
		org := x.actor("owner@acme.test").OrganizationID
		r := owner.do("PUT", fmt.Sprintf("/api/v1/settings/organizations/%d/webhook", org), nil, withBearer(owner.bearer))
		secret, _ := dig(r.body["data"], "webhookSecret").(string)
		if r.status != 200 || !strings.HasPrefix(secret, "whsec_") {
			t.Fatalf("rotate = %d %v", r.status, r.body)
		}
		// Grouped by post: one message for the new matches, as before stories (alert_grouping_test.go groups by story).
		if r := x.settings(owner, searchID, []map[string]any{
			{"type": "batch", "interval": 60, "grouping": "post", "destinations": []map[string]string{{"type": "email", "address": "desk@acme.test"}}},
			{"type": "webhook", "interval": 0, "grouping": "post", "destinations": []map[string]string{{"type": "webhook", "address": x.receiver.srv.URL + "/hook"}}},
		}); r.status != 200 {
			t.Fatalf("PUT = %d %v", r.status, r.body)
		}
		// Matches found before the alert was set up are not news: the seeded ones are older.
		x.clock.Advance(2 * time.Minute)
		x.run()
		if n := len(x.smtp.Messages()) + len(x.receiver.all()); n != 0 {
			t.Fatalf("%d messages about matches older than the alert", n)
		}
		newIDs := x.addMatches("owner@acme.test", searchID, 2)
		x.clock.Advance(2 * time.Minute)
		x.run()
		msgs := x.smtp.WaitFor(t, 1)
		raw := mailText(t, msgs[0].Data)
		for _, want := range []string{"2 new matches for", "Floods", "Ana owner@acme.test", "Matched: flood",
			"https://sightline.example/monitor/matches/list?monitorSearchIds=" + strconv.FormatInt(searchID, 10), "<b>flood</b>"} {
			if !strings.Contains(raw, want) {
				t.Errorf("the e-mail lacks %q:\n%s", want, raw)
			}
		}
		hooks := x.receiver.all()
		if len(hooks) != 1 {
			t.Fatalf("%d webhooks, want 1", len(hooks))
		}
		if err := verify(secret, hooks[0].header, hooks[0].body); err != nil {
			t.Errorf("webhook signature: %v", err)
		}
		for _, id := range newIDs {
			if !strings.Contains(string(hooks[0].body), fmt.Sprintf(`"matchId":%d`, id)) {
				t.Errorf("webhook body lacks match %d: %s", id, hooks[0].body)
			}
		}
		// Nothing new: nothing sent. Then one more match: a delivery of it alone.
		x.clock.Advance(2 * time.Minute)
		x.run()
		if len(x.smtp.Messages()) != 1 || len(x.receiver.all()) != 1 {
			t.Fatalf("a second run sent again: %d mails, %d webhooks", len(x.smtp.Messages()), len(x.receiver.all()))
		}
		x.addMatches("owner@acme.test", searchID, 1)
		x.clock.Advance(2 * time.Minute)
		x.run()
		if msgs := x.smtp.WaitFor(t, 2); !strings.Contains(mailText(t, msgs[1].Data), "1 new match for") {
			t.Errorf("second mail:\n%s", msgs[1].Data)
		}
		r = owner.do("GET", fmt.Sprintf("/api/v1/monitor/searches/%d/deliveries", searchID), nil, withBearer(owner.bearer))
		list := r.body["data"].([]any)
		if r.status != 200 || len(list) != 4 || dig(list[0], "status") != "sent" || dig(list[0], "sentAt") == nil {
			t.Errorf("deliveries = %d %v", r.status, r.body)
		}
	})
}

// A node that wrote a delivery and claimed it, then stopped, leaves it to another once its lease
// runs out; two nodes collecting at once write each match into one delivery.
func TestAlertsResumeAfterACrash(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		x := newAlertEnv(t, s, true)
		x.emailBatchAlert(5)

		// Two nodes collect at the same moment.
		other := alerts.NewService(x.alerts.Deps)
		var wg sync.WaitGroup
		for _, svc := range []*alerts.Service{x.alerts, other} {
			wg.Go(func() {
				if err := svc.Collect(context.Background()); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		// The crashed node claimed the delivery and never finished it.
		now := x.clock.Now()
		if _, ok, err := s.ClaimDelivery(context.Background(), now, now.Add(2*time.Minute)); err != nil || !ok {
			t.Fatalf("claim = %v %v", ok, err)
		}
		if err := x.alerts.SendDue(context.Background()); err != nil {
			t.Fatal(err)
		}
		if n := len(x.smtp.Messages()); n != 0 {
			t.Fatalf("%d mails while the crashed node's lease runs", n)
		}
		x.clock.Advance(3 * time.Minute)
		x.run()
		x.run()
		// x.run returns once the mail server took every message it was sent: a second is there now.
		if msgs := x.smtp.Messages(); len(msgs) != 1 || !strings.Contains(mailText(t, msgs[0].Data), "5 new matches") {
			t.Fatalf("%d mails, want one of the 5 matches", len(msgs))
		}
	})
}

// A sender whose lease ran out and passed to another can neither renew it nor record its
// outcome over the new holder's; the holder can.
func TestAlertsLeaseIsHeldByOneSender(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		x := newAlertEnv(t, s, true)
		searchID := x.emailBatchAlert(1)
		if err := x.alerts.Collect(context.Background()); err != nil {
			t.Fatal(err)
		}
		ctx, now := context.Background(), x.clock.Now().UTC()
		stale, ok, err := s.ClaimDelivery(ctx, now, now.Add(20*time.Second))
		if err != nil || !ok {
			t.Fatalf("claim = %v %v", ok, err)
		}
		if ok, err := s.RenewDelivery(ctx, stale.ID, stale.LeaseUntil, now.Add(25*time.Second)); err != nil || !ok {
			t.Fatalf("renewing a held lease = %v %v", ok, err)
		}
		later := now.Add(time.Minute)
		holder, ok, err := s.ClaimDelivery(ctx, later, later.Add(20*time.Second))
		if err != nil || !ok || holder.ID != stale.ID {
			t.Fatalf("claim after the lease ran out = %+v %v %v", holder, ok, err)
		}
		if ok, err := s.RenewDelivery(ctx, stale.ID, now.Add(25*time.Second), later.Add(time.Hour)); err != nil || ok {
			t.Errorf("renewing a lost lease = %v %v, want false", ok, err)
		}
		stale.LeaseUntil, stale.Status = now.Add(25*time.Second), alerts.StatusFailed
		if ok, err := s.FinishDelivery(ctx, stale); err != nil || ok {
			t.Errorf("finishing under a lost lease = %v %v, want false", ok, err)
		}
		holder.Status, holder.SentAt = alerts.StatusSent, later
		if ok, err := s.FinishDelivery(ctx, holder); err != nil || !ok {
			t.Errorf("finishing under the held lease = %v %v", ok, err)
		}
		if ds, err := s.Deliveries(ctx, searchID, 5); err != nil || len(ds) != 1 || ds[0].Status != alerts.StatusSent {
			t.Errorf("deliveries = %+v %v, want one sent", ds, err)
		}
	})
}

// A failing destination is retried with backoff, then marked failed after a day; a test
// message reaches e-mail and webhook destinations; without SMTP e-mail says it is off.
func TestAlertsRetryThenFail(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		x := newAlertEnv(t, s, true)
		owner := x.signedIn("owner@acme.test")
		x.seed("owner@acme.test", 0)
		searchID := x.searchID("owner@acme.test")
		x.settings(owner, searchID, []map[string]any{{"type": "batch", "interval": 60, "grouping": "post",
			"destinations": []map[string]string{{"type": "email", "address": "desk@acme.test"}}}})
		x.clock.Advance(time.Second)
		x.addMatches("owner@acme.test", searchID, 1)
		x.smtp.Refuse(errors.New("mailbox full"))
		x.clock.Advance(2 * time.Minute)
		x.run()
		list := func() []any {
			r := owner.do("GET", fmt.Sprintf("/api/v1/monitor/searches/%d/deliveries", searchID), nil, withBearer(owner.bearer))
			return r.body["data"].([]any)
		}
		d := list()[0]
		next, _ := dig(d, "nextAttemptAt").(float64)
		if dig(d, "status") != "retrying" || dig(d, "attempts") != float64(1) || !strings.Contains(dig(d, "lastError").(string), "mailbox full") ||
			time.Duration(int64(next)-x.clock.Now().Add(time.Minute).Unix())*time.Second > 2*time.Second {
			t.Fatalf("after one failure: %v", d)
		}
		x.clock.Advance(30 * time.Second) // not yet due
		x.run()
		if dig(list()[0], "attempts") != float64(1) {
			t.Fatalf("retried before its time: %v", list()[0])
		}
		for range 40 { // a day of hourly retries at most
			x.clock.Advance(time.Hour)
			x.run()
		}
		if d := list()[0]; dig(d, "status") != "failed" || dig(d, "nextAttemptAt") != nil {
			t.Errorf("after a day: %v", d)
		}

		x.smtp.Refuse(nil)
		test := func(dest map[string]string) reply {
			return owner.do("POST", fmt.Sprintf("/api/v1/monitor/searches/%d/notification-settings/test", searchID),
				map[string]any{"destination": dest}, withBearer(owner.bearer))
		}
		if r := test(map[string]string{"type": "email", "address": "analyst@acme.test"}); r.status != 200 {
			t.Errorf("test e-mail = %d %v", r.status, r.body)
		}
		// Without a secret the webhook test fails and says why; with one it arrives signed.
		if r := test(map[string]string{"type": "webhook", "address": x.receiver.srv.URL}); r.status != http.StatusBadGateway ||
			!strings.Contains(r.body["message"].(string), "no webhook signing secret") {
			t.Errorf("webhook test without a secret = %d %v", r.status, r.body)
		}
		org := x.actor("owner@acme.test").OrganizationID
		r := owner.do("PUT", fmt.Sprintf("/api/v1/settings/organizations/%d/webhook", org), nil, withBearer(owner.bearer))
		secret := dig(r.body["data"], "webhookSecret").(string)
		if r := test(map[string]string{"type": "webhook", "address": x.receiver.srv.URL}); r.status != 200 {
			t.Errorf("webhook test = %d %v", r.status, r.body)
		} else if got := x.receiver.all(); len(got) != 1 || verify(secret, got[0].header, got[0].body) != nil {
			t.Errorf("test webhook not received signed: %v", got)
		}
		// Members may not rotate the secret; another organization's owner neither.
		for _, email := range []string{"analyst@acme.test", "owner@globex.test"} {
			c := x.signedIn(email)
			if r := c.do("PUT", fmt.Sprintf("/api/v1/settings/organizations/%d/webhook", org), nil, withBearer(c.bearer)); r.status == 200 {
				t.Errorf("%s rotated the secret", email)
			}
		}

		off := newAlertEnv(t, storetest.Open(t, s.Dialect()), false)
		off.seed("owner@acme.test", 0)
		c := off.signedIn("owner@acme.test")
		r = c.do("POST", fmt.Sprintf("/api/v1/monitor/searches/%d/notification-settings/test", off.searchID("owner@acme.test")),
			map[string]any{"destination": map[string]string{"type": "email", "address": "desk@acme.test"}}, withBearer(c.bearer))
		if r.status != http.StatusServiceUnavailable || r.body["message"] != "E-mail delivery is not configured on this server." {
			t.Errorf("test without SMTP = %d %v", r.status, r.body)
		}
		// Without SMTP an e-mail alert collects nothing: no delivery that could never be sent.
		offSearch := off.searchID("owner@acme.test")
		off.settings(c, offSearch, []map[string]any{{"type": "batch", "interval": 60,
			"destinations": []map[string]string{{"type": "email", "address": "desk@acme.test"}}}})
		off.clock.Advance(time.Second)
		off.addMatches("owner@acme.test", offSearch, 1)
		off.clock.Advance(2 * time.Minute)
		off.run()
		if r := c.do("GET", fmt.Sprintf("/api/v1/monitor/searches/%d/deliveries", offSearch), nil, withBearer(c.bearer)); len(r.body["data"].([]any)) != 0 {
			t.Errorf("deliveries without SMTP: %v", r.body)
		}
	})
}

// mailText is a received message's subject and decoded parts, text and HTML.
func mailText(t *testing.T, raw []byte) string {
	t.Helper()
	text, err := mailtest.Received{Data: raw}.Text()
	if err != nil {
		t.Fatal(err)
	}
	return text
}

// The app learns the alert channels from the server: each one's destinations, the rule and
// message it checks them with before the server does, and whether this server can send by it.
func TestAlertChannelsDescribeThemselves(t *testing.T) {
	for _, withMail := range []bool{true, false} {
		t.Run(fmt.Sprint("mail ", withMail), func(t *testing.T) {
			x := newAlertEnv(t, storetest.Open(t, store.SQLite), withMail)
			x.seed("owner@acme.test", 0)
			owner := x.signedIn("owner@acme.test")
			r := owner.do("GET", "/api/v1/monitor/alert-channels", nil, withBearer(owner.bearer))
			if r.status != http.StatusOK {
				t.Fatalf("GET = %d %v", r.status, r.body)
			}
			var got []channel.Description
			raw, _ := json.Marshal(r.body["data"])
			if err := json.Unmarshal(raw, &got); err != nil {
				t.Fatal(err)
			}
			if len(got) != 2 || got[0].Name != email.Name || got[1].Name != webhook.Name {
				t.Fatalf("channels = %+v, want e-mail then webhook", got)
			}
			mailOff := "E-mail delivery is not configured on this server."
			if got[0].Available != withMail || (got[0].Unavailable == mailOff) == withMail || !got[1].Available {
				t.Errorf("availability = e-mail %v %q, webhook %v; want e-mail %v", got[0].Available, got[0].Unavailable,
					got[1].Available, withMail)
			}
			if !slices.Equal(got[0].AlertTypes, []string{"batch", "digest", "proximity", "ai_summary", "spike"}) ||
				!slices.Equal(got[1].AlertTypes, []string{"webhook"}) || !got[0].DefaultsToUserEmail || got[1].DefaultsToUserEmail {
				t.Errorf("alert types = %v and %v", got[0].AlertTypes, got[1].AlertTypes)
			}
			// What the app's pattern refuses, the server refuses too: a user is never stopped
			// from saving an address the server would take.
			table := x.alerts.Channels
			for _, tt := range []struct{ channel, address string }{
				{"email", "desk@acme.test"}, {"email", "a.b+c@sub.example.org"}, {"email", "not-an-address"},
				{"email", "two@@acme.test"}, {"email", "spaced out@acme.test"}, {"email", "nodot@localhost"},
				{"webhook", "https://hooks.example/x?y=1"}, {"webhook", "HTTP://HOOKS.EXAMPLE"}, {"webhook", "http://10.0.0.7:8080/siem"},
				{"webhook", "ftp://example.test/x"}, {"webhook", "https://"}, {"webhook", "hooks.example/x"},
			} {
				ch, _ := table.Named(tt.channel)
				pattern := regexp.MustCompile("(?i)" + ch.Describe().Pattern)
				if !pattern.MatchString(tt.address) && ch.Check(tt.address) == "" {
					t.Errorf("%s %q: the server takes it, the app's pattern refuses it", tt.channel, tt.address)
				}
			}
		})
	}
}
