package api_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/alerts/channel/email"
	"github.com/sightline/sightline/internal/api"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/mail"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// mailEnv is the alerts' API with e-mail on, for exports too.
func mailEnv(t *testing.T, s *store.Store) *alertEnv {
	t.Helper()
	x := newAlertEnv(t, s, true)
	x.exports.Mail = x.email.Mail
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	x.srv.Config.Handler = api.New(api.Deps{Accounts: x.accounts, Auth: x.auth, Monitor: x.monitor, Live: x.hub,
		Alerts: x.alerts, Exports: x.exports, EmailDelivery: true, Health: s.Ping, App: api.AppHandler(nil, false), Logger: log})
	return x
}

func (x *alertEnv) testSend(c *client, searchID int64, address string) reply {
	x.t.Helper()
	return c.do("POST", fmt.Sprintf("/api/v1/monitor/searches/%d/notification-settings/test", searchID),
		map[string]any{"destination": map[string]string{"type": "email", "address": address}}, withBearer(c.bearer))
}

// A test alert reaches the sender's own address or another member's of their organization;
// a stranger's address, or a member's of another organization, is refused with 422 and no mail
// is sent.
func TestTestAlertsGoOnlyToTheOrganization(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		x := mailEnv(t, s)
		x.seed("owner@acme.test", 0)
		owner := x.signedIn("owner@acme.test")
		searchID := x.searchID("owner@acme.test")
		sent := 0
		for _, tc := range []struct {
			address string
			want    int
		}{
			{"owner@acme.test", http.StatusOK},
			{"OWNER@acme.test", http.StatusOK},
			{"analyst@acme.test", http.StatusOK},
			{"victim@bank.example", http.StatusUnprocessableEntity},
			{"owner@globex.test", http.StatusUnprocessableEntity},
		} {
			r := x.testSend(owner, searchID, tc.address)
			if r.status != tc.want {
				t.Errorf("test to %s = %d %v, want %d", tc.address, r.status, r.body, tc.want)
			}
			if tc.want == http.StatusOK {
				sent++
			} else if r.body["message"] != authz.MsgMailRecipient || dig(r.body, "errors", "destination") == nil {
				t.Errorf("test to %s: %v", tc.address, r.body)
			}
		}
		if got := x.smtp.Messages(); len(got) != sent {
			t.Errorf("the server got %d messages, want %d", len(got), sent)
		}
		for _, m := range x.smtp.Messages() {
			if to := strings.Join(m.To, ","); strings.Contains(to, "bank.example") || strings.Contains(to, "globex") {
				t.Errorf("mailed %s", to)
			}
		}
	})
}

// Export links are mailed only inside the organization too; the refused export is not queued.
func TestExportMailGoesOnlyToTheOrganization(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		x := mailEnv(t, s)
		x.seed("owner@acme.test", 1)
		owner := x.signedIn("owner@acme.test")
		r := owner.requestExport(map[string]any{"source": "matches", "columns": []string{"id"}, "email": "victim@bank.example"})
		if r.status != http.StatusUnprocessableEntity || r.body["message"] != authz.MsgMailRecipient {
			t.Errorf("export mailed to a stranger = %d %v", r.status, r.body)
		}
		exportOf(t, owner.requestExport(map[string]any{"source": "matches", "columns": []string{"id"}, "email": "analyst@acme.test"}))
		if r := owner.do("GET", "/api/v1/exports", nil, withBearer(owner.bearer)); len(r.body["data"].([]any)) != 1 {
			t.Errorf("exports = %v, want the accepted one only", r.body)
		}
	})
}

// Every mail path people trigger draws on one limit per user and one per organization: past
// either, 429 with Retry-After, and nothing is sent or queued.
func TestMailIsRateLimited(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		x := mailEnv(t, s)
		x.seed("owner@acme.test", 1)
		owner := x.signedIn("owner@acme.test")
		searchID := x.searchID("owner@acme.test")
		// The default limit: a burst of ten, then a wait.
		for i := range mail.DefaultLimits.UserBurst {
			if r := x.testSend(owner, searchID, "owner@acme.test"); r.status != http.StatusOK {
				t.Fatalf("test %d = %d %v", i+1, r.status, r.body)
			}
		}
		r := x.testSend(owner, searchID, "owner@acme.test")
		if r.status != http.StatusTooManyRequests || r.header.Get("Retry-After") == "" || r.body["message"] != mail.MsgUserRateLimited {
			t.Errorf("past the burst = %d (Retry-After %q) %v, want 429", r.status, r.header.Get("Retry-After"), r.body)
		}
		if got := len(x.smtp.Messages()); got != mail.DefaultLimits.UserBurst {
			t.Errorf("the server got %d messages, want %d", got, mail.DefaultLimits.UserBurst)
		}

		// One small limit shared by the alerts and the exports, as the server shares one.
		shared := mail.NewLimiter(mail.Limits{UserPerHour: 1, UserBurst: 2, OrgPerHour: 1, OrgBurst: 3})
		x.email.TestLimit, x.exports.MailLimit = shared, shared
		x.seed("analyst@acme.test", 1)
		analyst := x.signedIn("analyst@acme.test")
		export := func(c *client) reply {
			return c.requestExport(map[string]any{"source": "matches", "columns": []string{"id"}, "email": "owner@acme.test"})
		}
		exportOf(t, export(owner))
		if r := x.testSend(owner, searchID, "owner@acme.test"); r.status != http.StatusOK {
			t.Errorf("owner's second mail = %d %v", r.status, r.body)
		}
		if r := export(owner); r.status != http.StatusTooManyRequests || r.body["message"] != mail.MsgUserRateLimited {
			t.Errorf("owner's third mail = %d %v, want the user's 429", r.status, r.body)
		}
		// The analyst's own bucket is full, but the organization has one mail left.
		if r := export(analyst); r.status != http.StatusAccepted {
			t.Errorf("analyst's first mail = %d %v", r.status, r.body)
		}
		if r := export(analyst); r.status != http.StatusTooManyRequests || r.header.Get("Retry-After") == "" ||
			r.body["message"] != mail.MsgOrgRateLimited {
			t.Errorf("past the organization's limit = %d %v, want the organization's 429", r.status, r.body)
		}
		// Exports without an e-mail send nothing and are not held back.
		exportOf(t, analyst.requestExport(map[string]any{"source": "matches", "columns": []string{"id"}}))
		if r := analyst.do("GET", "/api/v1/exports", nil, withBearer(analyst.bearer)); len(r.body["data"].([]any)) != 2 {
			t.Errorf("analyst's exports = %v, want the two accepted", r.body)
		}
	})
}

// Invitations draw on the same limits: a script inviting address after address is stopped
// after the burst.
func TestInvitationsAreRateLimited(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		x := newMemberEnv(t, s, true)
		owner := x.signedIn("owner@acme.test")
		for i := range mail.DefaultLimits.UserBurst {
			if r := owner.call("POST", x.invitationsPath("Acme"), map[string]string{"email": fmt.Sprintf("new%d@acme.test", i)}); r.status != 200 {
				t.Fatalf("invitation %d = %d %v", i+1, r.status, r.body)
			}
		}
		r := owner.call("POST", x.invitationsPath("Acme"), map[string]string{"email": "one-more@acme.test"})
		if r.status != http.StatusTooManyRequests || r.header.Get("Retry-After") == "" {
			t.Errorf("past the burst = %d %v, want 429", r.status, r.body)
		}
		if got := len(x.smtp.Messages()); got != mail.DefaultLimits.UserBurst {
			t.Errorf("the server got %d messages, want %d", got, mail.DefaultLimits.UserBurst)
		}
		if list := owner.call("GET", x.invitationsPath("Acme"), nil); len(list.body["data"].([]any)) != mail.DefaultLimits.UserBurst {
			t.Errorf("invitations = %v, the refused one stored", list.body)
		}
	})
}

// What users wrote (a search's or an organization's name) is quoted in the body, after the
// product's words, never the subject's headline, and escaped in HTML.
func TestUserTextInMailIsQuoted(t *testing.T) {
	const phishing = "URGENT: your bank account is locked, verify at <b>evil.example</b>"
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		x := mailEnv(t, s)
		ctx := context.Background()
		a := x.actor("owner@acme.test")
		home, err := x.store.UncategorizedGroup(ctx, a.OrganizationID, a.UserID)
		if err != nil {
			t.Fatal(err)
		}
		m, err := x.monitor.CreateSearch(ctx, a, monitor.SearchInput{GroupID: home.ID, Name: phishing,
			Keywords: "flood", Providers: []string{"reddit"}})
		if err != nil {
			t.Fatal(err)
		}
		owner := x.signedIn("owner@acme.test")
		if r := x.testSend(owner, m.ID, "owner@acme.test"); r.status != http.StatusOK {
			t.Fatalf("test = %d %v", r.status, r.body)
		}
		text := mailText(t, x.smtp.WaitFor(t, 1)[0].Data)
		subject, body, _ := strings.Cut(text, "\n")
		if subject != "Sightline test alert" {
			t.Errorf("subject = %q", subject)
		}
		// The plain text quotes the name as it is; the HTML escapes it.
		if !strings.Contains(body, "the saved search “"+phishing+"”") || !strings.Contains(body, "&lt;b&gt;evil.example&lt;/b&gt;") ||
			strings.Count(body, "<b>evil.example</b>") != 1 {
			t.Errorf("body:\n%s", body)
		}

		inv := newMemberEnv(t, storetest.Open(t, s.Dialect()), true)
		if r := inv.signedIn("owner@acme.test").call("POST", inv.invitationsPath("Acme"), map[string]string{"email": "new@acme.test"}); r.status != 200 {
			t.Fatalf("invite = %d %v", r.status, r.body)
		}
		text = mailText(t, inv.smtp.WaitFor(t, 1)[0].Data)
		subject, body, _ = strings.Cut(text, "\n")
		if strings.Contains(subject, "Acme") || !strings.Contains(body, "the organization “Acme”") {
			t.Errorf("invitation:\n%s", text)
		}
	})
}

// Scheduled alert e-mails to addresses outside the organization draw on its own limit: past it
// the delivery waits and is retried, saying why; members' alerts go out regardless.
func TestAlertsToOutsidersAreLimited(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		x := newAlertEnv(t, s, true)
		x.email.OutsideLimit = mail.NewLimiter(mail.Limits{OrgPerHour: 1, OrgBurst: 1})
		owner := x.signedIn("owner@acme.test")
		x.seed("owner@acme.test", 0)
		searchID := x.searchID("owner@acme.test")
		const outsider = "desk@outside.example"
		x.settings(owner, searchID, []map[string]any{{"type": "batch", "interval": 60, "destinations": []map[string]string{
			{"type": "email", "address": outsider}, {"type": "email", "address": "analyst@acme.test"}}}})
		for range 2 {
			x.clock.Advance(time.Second)
			x.addMatches("owner@acme.test", searchID, 1)
			x.clock.Advance(2 * time.Minute)
			x.run()
		}
		to := map[string]int{}
		for _, m := range x.smtp.Messages() {
			to[strings.Join(m.To, ",")]++
		}
		if to[outsider] != 1 || to["analyst@acme.test"] != 2 {
			t.Errorf("mails by recipient: %v, want 1 outside and 2 to the member", to)
		}
		r := owner.do("GET", fmt.Sprintf("/api/v1/monitor/searches/%d/deliveries", searchID), nil, withBearer(owner.bearer))
		waiting := 0
		for _, d := range r.body["data"].([]any) {
			if dig(d, "destination", "address") == outsider && dig(d, "status") == "retrying" &&
				strings.Contains(dig(d, "lastError").(string), "outside it is reached") {
				waiting++
			}
		}
		if waiting != 1 {
			t.Errorf("deliveries = %v, want one outside delivery waiting for the limit", r.body)
		}
	})
}

// A test e-mail the mail server refuses answers 502 without the server's address or dialogue:
// those are the operator's, and go to the log.
func TestTestMailFailureNamesNoMailServer(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		x := mailEnv(t, s)
		x.seed("owner@acme.test", 0)
		owner := x.signedIn("owner@acme.test")
		x.smtp.Refuse(errors.New("relay.internal.example mailbox quota exceeded"))
		r := x.testSend(owner, x.searchID("owner@acme.test"), "owner@acme.test")
		msg, _ := r.body["message"].(string)
		if r.status != http.StatusBadGateway || msg != email.MsgTestFailed {
			t.Errorf("refused test = %d %v", r.status, r.body)
		}
		host := strings.TrimPrefix(x.smtp.URL(), "smtp://")
		if strings.Contains(msg, "127.0.0.1") || strings.Contains(msg, host) || strings.Contains(msg, "relay.internal") {
			t.Errorf("the reply names the mail server: %q", msg)
		}
	})
}
