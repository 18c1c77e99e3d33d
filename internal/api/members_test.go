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
	msgs := x.smtp.WaitFor(x.t, n)
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
			{"owner@acme.test", "owner@globex.test", "member", 200}, // an account elsewhere is not told apart
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
		if ended := len(x.ended.since(0)); ended != 2 {
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

// accept opens the invitation link of token and accepts it as name, with the test password.
func (x *memberEnv) accept(token, name string) reply {
	x.t.Helper()
	return x.client().do("POST", "/api/v1/invitations/"+token+"/accept", map[string]string{"name": name,
		"password": testPassword, "password_confirmation": testPassword})
}

// An invitation never moves an account into another tenant: a tenant admin of tenant "other" who
// left their organization, invited into Acme by an ordinary owner, is refused on the invitation
// page (to them alone: the owner still sees a pending invitation) and keeps their tenant, rights
// and two-step state. An invitee who joins gets the invited role and the product access of the
// inviter, nothing more; an account of Acme's own tenant that left its organization rejoins
// without the tenant administration it held.
func TestInvitationNeverMovesAnAccountAcrossTenants(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		x := newMemberEnv(t, s, true)
		ctx := context.Background()
		for _, n := range []account.NewUser{
			{Tenant: "other", Organization: "Umbrella", Email: "owner@umbrella.test", Password: testPassword, Role: account.RoleOwner},
			{Tenant: "other", Organization: "Umbrella", Email: "leaver@umbrella.test", Password: testPassword,
				Role: account.RoleAdmin, TenantAdmin: true},
			{Organization: "Globex", Email: "leaver@globex.test", Password: testPassword, Role: account.RoleMember, TenantAdmin: true},
		} {
			u, err := x.accounts.CreateUser(ctx, n)
			if err != nil {
				t.Fatal(err)
			}
			if strings.HasPrefix(n.Email, "leaver@") {
				if err := s.RemoveMember(ctx, u.OrganizationID, u.ID); err != nil {
					t.Fatal(err)
				}
			}
		}
		leaver := mustUser(t, s, "leaver@umbrella.test")
		if err := s.StartMFAEnrolment(ctx, leaver.ID, "JBSWY3DPEHPK3PXP"); err != nil {
			t.Fatal(err)
		}
		if err := s.EnableMFA(ctx, leaver.ID, nil); err != nil {
			t.Fatal(err)
		}
		leaver = mustUser(t, s, "leaver@umbrella.test")
		// The inviting owner holds Beacon alone: that is all an invitation of theirs can give.
		inviter := mustUser(t, s, "owner@acme.test")
		if err := s.UpdateUserAccess(ctx, inviter.ID, account.ACL{Beacon: true}); err != nil {
			t.Fatal(err)
		}
		owner := x.signedIn("owner@acme.test")
		for _, email := range []string{"leaver@umbrella.test", "newcomer@acme.test", "leaver@globex.test"} {
			if r := owner.call("POST", x.invitationsPath("Acme"), map[string]string{"email": email, "role": "member"}); r.status != 200 {
				t.Fatalf("invite %s = %d %v", email, r.status, r.body)
			}
		}
		links := map[string]string{}
		for n := 1; n <= 3; n++ {
			to, token := x.linkIn(n)
			links[to] = token
		}

		// The other tenant's account: refused on opening and on accepting, with the message for them.
		token := links["leaver@umbrella.test"]
		if r := x.client().do("GET", "/api/v1/invitations/"+token, nil); r.status != 409 || r.body["message"] != members.MsgHasAccount {
			t.Errorf("open = %d %v, want 409 %q", r.status, r.body, members.MsgHasAccount)
		}
		if r := x.accept(token, "Moved"); r.status != 409 || r.body["message"] != members.MsgHasAccount {
			t.Errorf("accept = %d %v, want 409 %q", r.status, r.body, members.MsgHasAccount)
		}
		after := mustUser(t, s, "leaver@umbrella.test")
		if after.TenantID != leaver.TenantID || after.OrganizationID != leaver.OrganizationID || !after.IsTenantAdmin ||
			!after.IsMFAEnabled || after.Name != leaver.Name || after.PasswordHash != leaver.PasswordHash {
			t.Errorf("the other tenant's account changed: %+v", after)
		}
		if _, err := s.MembershipRole(ctx, x.orgID("Acme"), leaver.ID); err == nil {
			t.Error("the other tenant's account became a member of Acme")
		}
		// The inviter learns nothing: the invitation is still pending.
		states := map[string]any{}
		for _, inv := range owner.call("GET", x.invitationsPath("Acme"), nil).body["data"].([]any) {
			states[dig(inv, "email").(string)] = dig(inv, "state")
		}
		if states["leaver@umbrella.test"] != "pending" {
			t.Errorf("the inviter sees %v", states)
		}

		// A newcomer gets the member role and the inviter's product access, nothing more.
		if r := x.accept(links["newcomer@acme.test"], "Newcomer"); r.status != 200 || dig(r.body, "data", "user", "role") != "member" {
			t.Fatalf("the newcomer accepts = %d %v", r.status, r.body)
		}
		// An account of Acme's tenant that left its organization rejoins without its tenant administration.
		if r := x.accept(links["leaver@globex.test"], "Returner"); r.status != 200 {
			t.Fatalf("the returner accepts = %d %v", r.status, r.body)
		}
		for _, email := range []string{"newcomer@acme.test", "leaver@globex.test"} {
			u := mustUser(t, s, email)
			role, err := s.MembershipRole(ctx, x.orgID("Acme"), u.ID)
			if u.IsTenantAdmin || u.ACL != (account.ACL{Beacon: true}) || len(u.Permissions) != 0 ||
				u.OrganizationID != x.orgID("Acme") || err != nil || role != account.RoleMember {
				t.Errorf("%s joined as %+v, role %q %v; want a member with Beacon alone", email, u, role, err)
			}
			x.signedIn(email)
		}
		assertAudit(t, s, "invitation", "invited", "accepted")
	})
}

// Inviting an address tells nothing of whether it has an account elsewhere: an unknown address,
// one of another organization, one of another tenant and one of another tenant that left its
// organization get the same answer and the same e-mail.
func TestInvitationsDoNotTellWhoHasAnAccount(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		x := newMemberEnv(t, s, true)
		ctx := context.Background()
		for _, n := range []account.NewUser{
			{Tenant: "other", Organization: "Umbrella", Email: "owner@umbrella.test", Password: testPassword, Role: account.RoleOwner},
			{Tenant: "other", Organization: "Umbrella", Email: "leaver@umbrella.test", Password: testPassword, Role: account.RoleMember},
		} {
			if _, err := x.accounts.CreateUser(ctx, n); err != nil {
				t.Fatal(err)
			}
		}
		leaver := mustUser(t, s, "leaver@umbrella.test")
		if err := s.RemoveMember(ctx, leaver.OrganizationID, leaver.ID); err != nil {
			t.Fatal(err)
		}
		owner := x.signedIn("owner@acme.test")
		addresses := []string{"nobody@example.test", "owner@globex.test", "owner@umbrella.test", "leaver@umbrella.test"}
		var replies, mails []string
		for i, email := range addresses {
			r := owner.call("POST", x.invitationsPath("Acme"), map[string]string{"email": email, "role": "member"})
			data, _ := r.body["data"].(map[string]any)
			replies = append(replies, fmt.Sprintf("%d %v %v %v", r.status, data["role"], data["state"], r.body["message"]))
			msgs := x.smtp.WaitFor(t, i+1)
			text, err := msgs[i].Text()
			if err != nil {
				t.Fatal(err)
			}
			_, token := x.linkIn(i + 1)
			mails = append(mails, strings.ReplaceAll(strings.ReplaceAll(text, token, "TOKEN"), email, "ADDRESS"))
		}
		for i := range addresses[1:] {
			if replies[i+1] != replies[0] {
				t.Errorf("inviting %s = %s, inviting %s = %s", addresses[i+1], replies[i+1], addresses[0], replies[0])
			}
			if mails[i+1] != mails[0] {
				t.Errorf("the e-mail to %s differs from the one to %s:\n%s\n---\n%s", addresses[i+1], addresses[0], mails[i+1], mails[0])
			}
		}
	})
}
