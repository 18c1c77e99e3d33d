package api_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime/quotedprintable"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/api"
	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/mail"
	"github.com/sightline/sightline/internal/mail/mailtest"
	"github.com/sightline/sightline/internal/members"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
	"github.com/sightline/sightline/internal/usage"
)

// memberEnv is the API with membership over a real store and a real SMTP server: Acme (owner,
// analyst member) and Globex (owner), and an admin added to Acme.
type memberEnv struct {
	*env
	smtp  *mailtest.Server
	clock *offsetClock
	ended struct {
		sync.Mutex
		users []int64
	}
}

func newMemberEnv(t *testing.T, s *store.Store, withMail bool) *memberEnv {
	t.Helper()
	e := newEnv(t, s)
	e.createUser("Acme", "admin@acme.test", account.RoleAdmin)
	e.createUser("Globex", "admin@globex.test", account.RoleAdmin)
	x := &memberEnv{env: e, smtp: mailtest.Start(t), clock: &offsetClock{}}
	var sender mail.Sender
	if withMail {
		var err error
		if sender, err = mail.NewSMTP(x.smtp.URL(), "Sightline <team@sightline.test>"); err != nil {
			t.Fatal(err)
		}
	}
	e.auth.SessionEnded = func(_ context.Context, sess auth.Session) {
		x.ended.Lock()
		defer x.ended.Unlock()
		x.ended.users = append(x.ended.users, sess.UserID)
	}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc := members.NewService(members.Deps{Store: s, Access: e.auth, Mail: sender, PublicURL: "https://sightline.example/",
		Logger: logger, Now: x.clock.Now})
	h := api.New(api.Deps{Accounts: e.accounts, Auth: e.auth, Members: svc, Usage: usage.NewService(s, logger),
		EmailDelivery: withMail, Health: s.Ping, App: api.AppHandler(nil, false), Logger: logger})
	e.srv.Close()
	e.srv = httptest.NewServer(h)
	t.Cleanup(e.srv.Close)
	return x
}

// signedIn is a client signed in as email.
func (x *memberEnv) signedIn(email string) *client {
	x.t.Helper()
	c := x.client()
	if r := c.login(email); r.status != 200 {
		x.t.Fatalf("sign in %s = %d %v", email, r.status, r.body)
	}
	return c
}

func (c *client) call(method, path string, body any) reply {
	c.e.t.Helper()
	return c.do(method, path, body, withBearer(c.bearer), withXSRF(c))
}

func (x *memberEnv) orgID(name string) int64 {
	x.t.Helper()
	tenant, err := x.store.TenantByName(context.Background(), account.DefaultTenant)
	if err != nil {
		x.t.Fatal(err)
	}
	org, err := x.store.OrganizationByName(context.Background(), tenant.ID, name)
	if err != nil {
		x.t.Fatal(err)
	}
	return org.ID
}

func (x *memberEnv) userID(email string) int64 {
	x.t.Helper()
	u, err := x.store.UserByEmail(context.Background(), email)
	if err != nil {
		x.t.Fatal(err)
	}
	return u.ID
}

var inviteLink = regexp.MustCompile(`https://sightline\.example/invite/([A-Za-z0-9_-]+)`)

// linkIn finds the invitation link in the n-th message the SMTP server received.
func (x *memberEnv) linkIn(n int) (to, token string) {
	x.t.Helper()
	msgs := x.smtp.WaitFor(x.t, n, 10*time.Second)
	m := msgs[n-1]
	body, err := io.ReadAll(quotedprintable.NewReader(bytes.NewReader(m.Data)))
	if err != nil {
		body = m.Data
	}
	found := inviteLink.FindSubmatch(body)
	if found == nil {
		x.t.Fatalf("no invitation link in:\n%s", m.Data)
	}
	return strings.Join(m.To, ","), string(found[1])
}

func (x *memberEnv) invitationsPath(org string) string {
	return fmt.Sprintf("/api/v1/settings/organizations/%d/invitations", x.orgID(org))
}

func TestInvitationJourney(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		x := newMemberEnv(t, s, true)
		owner := x.signedIn("owner@acme.test")
		r := owner.call("POST", x.invitationsPath("Acme"), map[string]string{"email": " Colleague@Acme.test ", "role": "admin"})
		if r.status != 200 || dig(r.body, "data", "email") != "colleague@acme.test" || dig(r.body, "data", "state") != "pending" {
			t.Fatalf("invite = %d %v", r.status, r.body)
		}
		to, token := x.linkIn(1)
		if to != "colleague@acme.test" {
			t.Errorf("mailed to %q", to)
		}
		if !strings.Contains(string(x.smtp.Messages()[0].Data), "Your invitation to Sightline") {
			t.Errorf("subject missing: %s", x.smtp.Messages()[0].Data)
		}
		list := owner.call("GET", x.invitationsPath("Acme"), nil)
		if items, _ := list.body["data"].([]any); list.status != 200 || len(items) != 1 {
			t.Fatalf("invitations = %d %v", list.status, list.body)
		}
		if r := owner.call("POST", x.invitationsPath("Acme"), map[string]string{"email": "colleague@acme.test"}); r.status != 422 {
			t.Errorf("second invitation while one is pending = %d, want 422", r.status)
		}

		// The page opens without signing in and says what the link is for.
		guest := x.client()
		r = guest.do("GET", "/api/v1/invitations/"+token, nil)
		if r.status != 200 || dig(r.body, "data", "organization") != "Acme" || dig(r.body, "data", "role") != "admin" {
			t.Fatalf("open = %d %v", r.status, r.body)
		}
		if r := guest.do("POST", "/api/v1/invitations/"+token+"/accept", map[string]string{"name": "Col", "password": "short",
			"password_confirmation": "short"}); r.status != 422 || dig(r.body, "errors", "password") == nil {
			t.Errorf("weak password = %d %v", r.status, r.body)
		}
		if r := guest.do("POST", "/api/v1/invitations/"+token+"/accept", map[string]string{"name": "",
			"password": testPassword, "password_confirmation": testPassword}); r.status != 422 || dig(r.body, "errors", "name") == nil {
			t.Errorf("no name = %d %v", r.status, r.body)
		}
		r = guest.do("POST", "/api/v1/invitations/"+token+"/accept", map[string]string{"name": "Colleague Two",
			"password": testPassword, "password_confirmation": testPassword})
		if r.status != 200 || dig(r.body, "data", "user", "role") != "admin" || dig(r.body, "data", "token") == nil {
			t.Fatalf("accept = %d %v", r.status, r.body)
		}
		guest.bearer = dig(r.body, "data", "token").(string)
		if r := guest.call("GET", "/api/v1/settings/profile/current", nil); r.status != 200 || dig(r.body, "data", "name") != "Colleague Two" {
			t.Errorf("the new member's profile = %d %v", r.status, r.body)
		}
		// The link works once; the new member signs in like anyone.
		if r := x.client().do("POST", "/api/v1/invitations/"+token+"/accept", map[string]string{"name": "Again",
			"password": testPassword, "password_confirmation": testPassword}); r.status != 409 || r.body["message"] != members.MsgInvitationUsed {
			t.Errorf("second accept = %d %v", r.status, r.body)
		}
		if r := x.client().do("GET", "/api/v1/invitations/"+token, nil); r.status != 409 {
			t.Errorf("used link opened = %d", r.status)
		}
		x.signedIn("colleague@acme.test")
		if list := owner.call("GET", x.invitationsPath("Acme"), nil); len(list.body["data"].([]any)) != 0 {
			t.Errorf("accepted invitation still listed: %v", list.body)
		}
		if r := owner.call("POST", x.invitationsPath("Acme"), map[string]string{"email": "colleague@acme.test"}); r.status != 422 ||
			!strings.Contains(r.body["message"].(string), "already a member") {
			t.Errorf("re-inviting a member = %d %v", r.status, r.body)
		}
		if r := x.client().do("GET", "/api/v1/invitations/not-a-token", nil); r.status != 404 || r.body["message"] != members.MsgInvitationUnknown {
			t.Errorf("unknown link = %d %v", r.status, r.body)
		}
		assertAudit(t, s, "invitation", "invited", "accepted")
	})
}

// assertAudit checks the audit log holds the model's actions.
func assertAudit(t *testing.T, s *store.Store, model string, actions ...string) {
	t.Helper()
	tenant, _ := s.TenantByName(context.Background(), account.DefaultTenant)
	entries, err := s.AuditLog(context.Background(), tenant.ID, 500)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range actions {
		found := false
		for _, e := range entries {
			found = found || (e.Model == model && e.Action == want)
		}
		if !found {
			t.Errorf("no audit row %s %s", model, want)
		}
	}
}

func TestInvitationExpiryAndRevocation(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		x := newMemberEnv(t, s, true)
		admin := x.signedIn("admin@acme.test")
		if r := admin.call("POST", x.invitationsPath("Acme"), map[string]string{"email": "late@acme.test"}); r.status != 200 {
			t.Fatalf("invite = %d %v", r.status, r.body)
		}
		_, token := x.linkIn(1)
		x.clock.Advance(members.InvitationTTL + time.Minute)
		accept := map[string]string{"name": "Late", "password": testPassword, "password_confirmation": testPassword}
		if r := x.client().do("POST", "/api/v1/invitations/"+token+"/accept", accept); r.status != 422 || r.body["message"] != members.MsgInvitationExpired {
			t.Errorf("expired accept = %d %v", r.status, r.body)
		}
		list := admin.call("GET", x.invitationsPath("Acme"), nil)
		items := list.body["data"].([]any)
		if len(items) != 1 || dig(items[0], "state") != "expired" {
			t.Fatalf("after expiry = %v", list.body)
		}
		// An expired invitation does not block a new one; withdrawing one kills its link.
		if r := admin.call("POST", x.invitationsPath("Acme"), map[string]string{"email": "late@acme.test"}); r.status != 200 {
			t.Fatalf("invite again = %d %v", r.status, r.body)
		}
		_, fresh := x.linkIn(2)
		id := int64(dig(admin.call("GET", x.invitationsPath("Acme"), nil).body["data"].([]any)[0], "id").(float64))
		if r := x.signedIn("owner@globex.test").call("DELETE", fmt.Sprintf("/api/v1/settings/organizations/invitations/%d", id), nil); r.status != 404 {
			t.Errorf("another organization's owner withdraws = %d, want 404", r.status)
		}
		if r := admin.call("DELETE", fmt.Sprintf("/api/v1/settings/organizations/invitations/%d", id), nil); r.status != 200 {
			t.Fatalf("withdraw = %d %v", r.status, r.body)
		}
		if r := x.client().do("POST", "/api/v1/invitations/"+fresh+"/accept", accept); r.status != 404 {
			t.Errorf("withdrawn accept = %d %v", r.status, r.body)
		}
		assertAudit(t, s, "invitation", "invited", "revoked")
	})
}

func TestInvitingWithoutEmail(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		x := newMemberEnv(t, s, false)
		r := x.signedIn("owner@acme.test").call("POST", x.invitationsPath("Acme"), map[string]string{"email": "new@acme.test"})
		if r.status != 503 || r.body["message"] != members.MsgEmailOff {
			t.Errorf("invite without SMTP = %d %v", r.status, r.body)
		}
	})
}

// An invitation the mail server refused is withdrawn: it does not block sending it again.
func TestInvitationMailRefused(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		x := newMemberEnv(t, s, true)
		owner := x.signedIn("owner@acme.test")
		x.smtp.Refuse(errors.New("mailbox full"))
		r := owner.call("POST", x.invitationsPath("Acme"), map[string]string{"email": "new@acme.test"})
		if r.status != 502 {
			t.Errorf("invite refused by the mail server = %d %v, want 502", r.status, r.body)
		}
		if list := owner.call("GET", x.invitationsPath("Acme"), nil); len(list.body["data"].([]any)) != 0 {
			t.Errorf("unsent invitation listed: %v", list.body)
		}
		x.smtp.Refuse(nil)
		if r := owner.call("POST", x.invitationsPath("Acme"), map[string]string{"email": "new@acme.test"}); r.status != 200 {
			t.Errorf("invite again = %d %v", r.status, r.body)
		}
	})
}

func TestMemberPermissions(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		x := newMemberEnv(t, s, true)
		acme := x.invitationsPath("Acme")
		tests := []struct {
			who, email, role string
			want             int
		}{
			{"analyst@acme.test", "a@acme.test", "member", 403},
			{"admin@acme.test", "b@acme.test", "owner", 403},
			{"admin@acme.test", "c@acme.test", "admin", 200},
			{"owner@acme.test", "d@acme.test", "owner", 200},
			{"owner@globex.test", "e@acme.test", "member", 404},
			{"admin@globex.test", "f@acme.test", "member", 404},
			{"owner@acme.test", "owner@globex.test", "member", 422}, // belongs to another organization
			{"owner@acme.test", "not an address", "member", 422},
			{"owner@acme.test", "g@acme.test", "boss", 422},
		}
		for _, tt := range tests {
			if r := x.signedIn(tt.who).call("POST", acme, map[string]string{"email": tt.email, "role": tt.role}); r.status != tt.want {
				t.Errorf("%s invites %s as %s = %d %v, want %d", tt.who, tt.email, tt.role, r.status, r.body["message"], tt.want)
			}
		}
		if r := x.signedIn("analyst@acme.test").call("GET", acme, nil); r.status != 403 {
			t.Errorf("member lists invitations = %d", r.status)
		}
		if r := x.signedIn("admin@globex.test").call("GET", acme, nil); r.status != 404 || r.body["data"] != nil {
			t.Errorf("another organization's admin lists invitations = %d %v", r.status, r.body)
		}

		member := func(email string) string {
			return fmt.Sprintf("/api/v1/settings/organizations/%d/members/%d", x.orgID("Acme"), x.userID(email))
		}
		changes := []struct {
			who, method, target, role string
			want                      int
		}{
			{"analyst@acme.test", "DELETE", "admin@acme.test", "", 403},
			{"analyst@acme.test", "PUT", "analyst@acme.test", "admin", 403},
			{"admin@globex.test", "DELETE", "analyst@acme.test", "", 404},
			{"owner@globex.test", "PUT", "analyst@acme.test", "admin", 404},
			{"admin@acme.test", "DELETE", "owner@acme.test", "", 403},
			{"admin@acme.test", "PUT", "owner@acme.test", "member", 403},
			{"admin@acme.test", "PUT", "analyst@acme.test", "owner", 403},
			{"owner@acme.test", "PUT", "owner@acme.test", "admin", 422}, // the last owner
			{"owner@acme.test", "DELETE", "owner@acme.test", "", 422},
			{"owner@acme.test", "PUT", "analyst@acme.test", "bogus", 422},
			{"admin@acme.test", "PUT", "analyst@acme.test", "admin", 200},
			{"owner@acme.test", "PUT", "admin@acme.test", "owner", 200},
			{"admin@acme.test", "PUT", "owner@acme.test", "admin", 200}, // now an owner, and another remains
			{"owner@acme.test", "DELETE", "owner@globex.test", "", 404},
		}
		for _, tt := range changes {
			var body any
			if tt.method == "PUT" {
				body = map[string]string{"role": tt.role}
			}
			if r := x.signedIn(tt.who).call(tt.method, member(tt.target), body); r.status != tt.want {
				t.Errorf("%s %s %s (%s) = %d %v, want %d", tt.who, tt.method, tt.target, tt.role, r.status, r.body["message"], tt.want)
			}
		}
		assertAudit(t, s, "member", "role_changed")
	})
}

func TestRemovingAMemberEndsTheirAccess(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		x := newMemberEnv(t, s, true)
		ctx := context.Background()
		analyst := x.signedIn("analyst@acme.test")
		other := x.signedIn("analyst@acme.test")
		token, _, err := x.auth.CreateAPIToken(ctx, "analyst@acme.test", "script", nil)
		if err != nil {
			t.Fatal(err)
		}
		owner := x.signedIn("owner@acme.test")
		path := fmt.Sprintf("/api/v1/settings/organizations/%d/members/%d", x.orgID("Acme"), x.userID("analyst@acme.test"))
		if r := owner.call("DELETE", path, nil); r.status != 200 {
			t.Fatalf("remove = %d %v", r.status, r.body)
		}
		for name, c := range map[string]*client{"session": analyst, "other session": other} {
			if r := c.call("GET", "/api/v1/settings/profile/current", nil); r.status != 401 {
				t.Errorf("%s after removal = %d, want 401", name, r.status)
			}
			if r := c.do("PUT", "/api/v1/token", nil, withXSRF(c)); r.status != 401 {
				t.Errorf("%s refresh after removal = %d, want 401", name, r.status)
			}
		}
		if r := x.client().do("GET", "/api/v1/settings/profile/current", nil, withBearer(token)); r.status != 401 {
			t.Errorf("API token after removal = %d, want 401", r.status)
		}
		x.ended.Lock()
		ended := len(x.ended.users)
		x.ended.Unlock()
		if ended != 2 {
			t.Errorf("sessions told to the live channel = %d, want 2", ended)
		}
		if r := x.client().login("analyst@acme.test"); r.status != 401 || r.body["message"] != auth.MsgNoOrganization {
			t.Errorf("sign-in after removal = %d %v", r.status, r.body)
		}
		org := owner.call("GET", "/api/v1/settings/organizations/current", nil)
		for _, u := range dig(org.body, "data", "data", "users").([]any) {
			if dig(u, "email") == "analyst@acme.test" {
				t.Errorf("removed member still listed")
			}
		}
		assertAudit(t, s, "member", "removed")

		// Invited back, they choose a new password and are a member again.
		if r := owner.call("POST", x.invitationsPath("Acme"), map[string]string{"email": "analyst@acme.test"}); r.status != 200 {
			t.Fatalf("invite back = %d %v", r.status, r.body)
		}
		_, link := x.linkIn(1)
		r := x.client().do("POST", "/api/v1/invitations/"+link+"/accept", map[string]string{"name": "Analyst Again",
			"password": "a new long passphrase", "password_confirmation": "a new long passphrase"})
		if r.status != 200 || dig(r.body, "data", "user", "email") != "analyst@acme.test" {
			t.Fatalf("accept back = %d %v", r.status, r.body)
		}
	})
}

func TestStatistics(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		x := newMemberEnv(t, s, true)
		ctx := context.Background()
		now := usage.Month(time.Now())
		if err := s.AddUsage(ctx, x.orgID("Acme"), x.userID("analyst@acme.test"), usage.Beacon, now, usage.Counts{Searches: 3, Matches: 40, Exports: 1}); err != nil {
			t.Fatal(err)
		}
		if err := s.AddUsage(ctx, x.orgID("Acme"), x.userID("analyst@acme.test"), usage.Beacon, now, usage.Counts{Searches: 1, Matches: 2}); err != nil {
			t.Fatal(err)
		}
		if err := s.AddUsage(ctx, x.orgID("Globex"), x.userID("owner@globex.test"), usage.Beacon, now, usage.Counts{Searches: 9}); err != nil {
			t.Fatal(err)
		}
		base := fmt.Sprintf("/api/v1/settings/organizations/%d/statistics/", x.orgID("Acme"))
		owner := x.signedIn("owner@acme.test")
		r := owner.call("GET", base+"beacon/organization-counts-monthly", nil)
		months, _ := dig(r.body, "data", "months").([]any)
		searches, _ := dig(r.body, "data", "counts", "searches").([]any)
		if r.status != 200 || len(months) != 12 || len(searches) != 12 || searches[11] != 4.0 || dig(r.body, "data", "counts", "matches").([]any)[11] != 42.0 {
			t.Fatalf("organization counts = %d %v", r.status, r.body)
		}
		r = owner.call("GET", base+"beacon/member-counts-monthly", nil)
		for _, m := range dig(r.body, "data", "members").([]any) {
			want := 0.0
			if dig(m, "email") == "analyst@acme.test" {
				want = 1
			}
			if got := dig(m, "exports").([]any)[11]; got != want {
				t.Errorf("%v exports = %v, want %v", dig(m, "email"), got, want)
			}
		}
		if r := owner.call("GET", base+"locate/organization-counts-monthly", nil); r.status != 200 {
			t.Errorf("locate counts = %d %v", r.status, r.body)
		}
		if r := owner.call("GET", base+"nothing/organization-counts-monthly", nil); r.status != 404 {
			t.Errorf("unknown product = %d", r.status)
		}
		if r := x.signedIn("analyst@acme.test").call("GET", base+"beacon/organization-counts-monthly", nil); r.status != 403 {
			t.Errorf("member reads statistics = %d", r.status)
		}
		if r := x.signedIn("admin@globex.test").call("GET", base+"beacon/member-counts-monthly", nil); r.status != 404 {
			t.Errorf("another organization's admin reads statistics = %d", r.status)
		}
	})
}

// An invitation link's token is a credential until used: request logs leave it out.
func TestInvitationTokensAreNotLogged(t *testing.T) {
	var logs bytes.Buffer
	h := api.New(api.Deps{App: api.AppHandler(nil, false), Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	for _, path := range []string{"/invite/s3cr3t-token", "/api/v1/invitations/s3cr3t-token/accept"} {
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", path, nil))
	}
	if strings.Contains(logs.String(), "s3cr3t") || !strings.Contains(logs.String(), "/api/v1/invitations/{token}/accept") {
		t.Errorf("logs:\n%s", logs.String())
	}
}
