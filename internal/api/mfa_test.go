package api_test

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"

	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// code is the TOTP code of secret for the time step offset steps from now.
func code(t *testing.T, secret string, offset int) string {
	t.Helper()
	c, err := totp.GenerateCodeCustom(secret, time.Now().Add(time.Duration(offset)*30*time.Second), totp.ValidateOpts{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func (c *client) loginWith(email, otp string) reply {
	c.e.t.Helper()
	c.do("GET", "/healthz", nil)
	r := c.do("POST", "/api/v1/auth/login", map[string]string{"email": email, "password": testPassword, "otp": otp}, withXSRF(c))
	if r.status == http.StatusOK {
		c.bearer = r.body["data"].(map[string]any)["token"].(string)
	}
	return r
}

func (c *client) mfa(body map[string]any) reply {
	c.e.t.Helper()
	return c.do("PUT", "/api/v1/settings/profile/mfa", body, withBearer(c.bearer))
}

// auditActions lists the actions of the tenant's audit entries about users.
func (e *env) auditActions(t *testing.T, email string) []string {
	t.Helper()
	u, err := e.store.UserByEmail(context.Background(), email)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := e.store.AuditLog(context.Background(), u.TenantID, 100)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, en := range entries {
		if en.Model == "user" && en.UserID == u.ID && strings.HasPrefix(en.Action, "mfa_") {
			out = append(out, en.Action)
		}
	}
	return out
}

// Two-step verification end to end: enrol, confirm, sign in with and without a code, a replayed
// code, recovery codes that work once, and turning it off with a code only; nobody else can
// touch it.
func TestTwoStepVerification(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		e := newEnv(t, s)
		owner := e.client()
		owner.login("owner@acme.test")

		// Confirming before starting, or turning off what is not on, is a conflict.
		if r := owner.mfa(map[string]any{"enabled": true, "code": "123456"}); r.status != http.StatusConflict {
			t.Errorf("confirm before start = %d %v", r.status, r.body)
		}
		if r := owner.mfa(map[string]any{"enabled": false, "code": "123456"}); r.status != http.StatusConflict {
			t.Errorf("disable while off = %d %v", r.status, r.body)
		}

		start := owner.mfa(map[string]any{"enabled": true, "current_password": testPassword})
		if start.status != http.StatusOK {
			t.Fatalf("start = %d %v", start.status, start.body)
		}
		secret, _ := dig(start.body, "data", "secret").(string)
		uri, _ := dig(start.body, "data", "otpauth_uri").(string)
		qr, _ := dig(start.body, "data", "qr_code").(string)
		if len(secret) < 16 || !strings.HasPrefix(uri, "otpauth://totp/") || !strings.Contains(uri, "secret="+secret) ||
			!strings.HasPrefix(qr, "data:image/png;base64,") || dig(start.body, "data", "is_mfa_enabled") != false {
			t.Fatalf("start reply = %v", start.body)
		}
		// The secret is stored (sealed: internal/store TestMFAStore), and a pending enrolment does
		// not guard sign-in yet.
		if u, err := s.UserByEmail(context.Background(), "owner@acme.test"); err != nil || u.MFASecret != secret || u.IsMFAEnabled {
			t.Errorf("stored = %v %v, %v", u.MFASecret, u.IsMFAEnabled, err)
		}
		if r := e.client().login("owner@acme.test"); r.status != http.StatusOK {
			t.Errorf("sign-in during enrolment = %d %v", r.status, r.body)
		}
		state := owner.do("GET", "/api/v1/settings/profile/state", nil, withBearer(owner.bearer))
		if dig(state.body, "data", "mfa_pending") != true || dig(state.body, "data", "is_mfa_enabled") != false {
			t.Errorf("state while pending = %v", state.body)
		}

		// Another user's code cannot confirm the owner's enrolment, nor can another user act on it.
		for _, email := range []string{"analyst@acme.test", "owner@globex.test"} {
			other := e.client()
			other.login(email)
			if r := other.mfa(map[string]any{"enabled": true, "code": code(t, secret, 0)}); r.status != http.StatusConflict {
				t.Errorf("%s confirmed with the owner's code: %d %v", email, r.status, r.body)
			}
		}

		// A wrong code is refused with the field's message; the enrolment stays pending.
		wrong := owner.mfa(map[string]any{"enabled": true, "code": "000000"})
		if wrong.status != http.StatusUnprocessableEntity || dig(wrong.body, "message") != auth.MsgOTPInvalid {
			t.Errorf("wrong code = %d %v", wrong.status, wrong.body)
		}

		// An API token cannot turn it on.
		token := e.token("owner@acme.test", "script")
		if r := owner.do("PUT", "/api/v1/settings/profile/mfa", map[string]any{"enabled": true, "code": code(t, secret, 0)},
			withBearer(token)); r.status != http.StatusForbidden {
			t.Errorf("API token confirm = %d %v", r.status, r.body)
		}

		confirmCode := code(t, secret, 0)
		confirm := owner.mfa(map[string]any{"enabled": true, "code": confirmCode})
		if confirm.status != http.StatusOK || dig(confirm.body, "data", "is_mfa_enabled") != true {
			t.Fatalf("confirm = %d %v", confirm.status, confirm.body)
		}
		raw, _ := dig(confirm.body, "data", "recovery_codes").([]any)
		if len(raw) != 10 {
			t.Fatalf("recovery codes = %v", raw)
		}
		recovery := make([]string, len(raw))
		for i, c := range raw {
			recovery[i] = c.(string)
		}
		if r := owner.mfa(map[string]any{"enabled": true, "current_password": testPassword}); r.status != http.StatusConflict {
			t.Errorf("start while on = %d", r.status)
		}
		state = owner.do("GET", "/api/v1/settings/profile/state", nil, withBearer(owner.bearer))
		if dig(state.body, "data", "is_mfa_enabled") != true || dig(state.body, "data", "recovery_codes_left") != float64(10) {
			t.Errorf("state when on = %v", state.body)
		}

		// Sign-in: the password alone asks for the code; the confirming code is spent; the next
		// step's code (clock drift) works once.
		browser := e.client()
		if r := browser.login("owner@acme.test"); r.status != http.StatusUnauthorized ||
			dig(r.body, "mfaRequired") != true || dig(r.body, "message") != auth.MsgOTPRequired {
			t.Errorf("sign-in without a code = %d %v", r.status, r.body)
		}
		if r := browser.loginWith("owner@acme.test", confirmCode); r.status != http.StatusUnauthorized ||
			dig(r.body, "message") != auth.MsgOTPInvalid {
			t.Errorf("replayed confirming code = %d %v", r.status, r.body)
		}
		next := code(t, secret, 1)
		if r := browser.loginWith("owner@acme.test", next); r.status != http.StatusOK {
			t.Errorf("sign-in with a code = %d %v", r.status, r.body)
		}
		if r := e.client().loginWith("owner@acme.test", next); r.status != http.StatusUnauthorized {
			t.Errorf("same code twice = %d %v", r.status, r.body)
		}

		// A recovery code signs in once, typed in any case and with or without dashes.
		typed := strings.ToUpper(strings.ReplaceAll(recovery[0], "-", " "))
		if r := e.client().loginWith("owner@acme.test", typed); r.status != http.StatusOK {
			t.Errorf("sign-in with a recovery code = %d %v", r.status, r.body)
		}
		if r := e.client().loginWith("owner@acme.test", recovery[0]); r.status != http.StatusUnauthorized {
			t.Errorf("recovery code used twice = %d %v", r.status, r.body)
		}

		// Turning it off needs a valid code, not from another user and not from an API token.
		if r := owner.mfa(map[string]any{"enabled": false}); r.status != http.StatusUnprocessableEntity {
			t.Errorf("disable without a code = %d %v", r.status, r.body)
		}
		if r := owner.mfa(map[string]any{"enabled": false, "code": recovery[0], "current_password": testPassword}); r.status != http.StatusUnprocessableEntity {
			t.Errorf("disable with a spent recovery code = %d %v", r.status, r.body)
		}
		analyst := e.client()
		analyst.login("analyst@acme.test")
		if r := analyst.mfa(map[string]any{"enabled": false, "code": recovery[1], "current_password": testPassword}); r.status != http.StatusConflict {
			t.Errorf("another user disabled with the owner's code: %d %v", r.status, r.body)
		}
		if r := owner.do("PUT", "/api/v1/settings/profile/mfa", map[string]any{"enabled": false, "code": recovery[1], "current_password": testPassword},
			withBearer(token)); r.status != http.StatusForbidden {
			t.Errorf("API token disable = %d %v", r.status, r.body)
		}
		if r := owner.mfa(map[string]any{"enabled": false, "code": recovery[1], "current_password": testPassword}); r.status != http.StatusOK ||
			dig(r.body, "data", "is_mfa_enabled") != false {
			t.Fatalf("disable with a recovery code = %d %v", r.status, r.body)
		}
		if r := e.client().login("owner@acme.test"); r.status != http.StatusOK {
			t.Errorf("sign-in after turning off = %d %v", r.status, r.body)
		}
		if got := e.auditActions(t, "owner@acme.test"); strings.Join(got, ",") != "mfa_disabled,mfa_enabled" {
			t.Errorf("audit = %v", got)
		}
		if u, err := s.UserByEmail(context.Background(), "owner@acme.test"); err != nil || u.MFASecret != "" {
			t.Errorf("secret kept after turning off: %q %v", u.MFASecret, err)
		}
	})
}

// Turning two-step verification on or off takes the current password: a session alone (a browser
// left open) can neither enrol an authenticator of its own nor remove the owner's.
func TestTwoStepNeedsTheCurrentPassword(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		e := newEnv(t, s)
		owner := e.client()
		owner.login("owner@acme.test")
		for _, tt := range []struct {
			name, password, want string
		}{
			{"without the password", "", auth.MsgCurrentPasswordRequired},
			{"with a wrong password", "not-the-password", auth.MsgCurrentPassword},
		} {
			r := owner.mfa(map[string]any{"enabled": true, "current_password": tt.password})
			if r.status != http.StatusUnprocessableEntity || dig(r.body, "errors", "current_password") == nil ||
				dig(r.body, "message") != tt.want {
				t.Errorf("start %s = %d %v, want 422 %q", tt.name, r.status, r.body, tt.want)
			}
		}
		if u, err := s.UserByEmail(context.Background(), "owner@acme.test"); err != nil || u.MFASecret != "" {
			t.Fatalf("an enrolment started without the password: %q %v", u.MFASecret, err)
		}
		start := owner.mfa(map[string]any{"enabled": true, "current_password": testPassword})
		secret, _ := dig(start.body, "data", "secret").(string)
		if start.status != http.StatusOK || secret == "" {
			t.Fatalf("start with the password = %d %v", start.status, start.body)
		}
		if r := owner.mfa(map[string]any{"enabled": true, "code": code(t, secret, 0)}); r.status != http.StatusOK {
			t.Fatalf("confirm = %d %v", r.status, r.body)
		}
		for _, tt := range []struct{ name, password string }{{"without the password", ""}, {"with a wrong password", "nope-nope-nope"}} {
			r := owner.mfa(map[string]any{"enabled": false, "code": code(t, secret, 1), "current_password": tt.password})
			if r.status != http.StatusUnprocessableEntity || dig(r.body, "errors", "current_password") == nil {
				t.Errorf("disable %s = %d %v, want 422 on current_password", tt.name, r.status, r.body)
			}
		}
		if r := owner.mfa(map[string]any{"enabled": false, "code": code(t, secret, 1), "current_password": testPassword}); r.status != http.StatusOK {
			t.Errorf("disable with the password and a code = %d %v", r.status, r.body)
		}
	})
}

// Wrong codes typed in settings are throttled like sign-in attempts.
func TestTwoStepCodesAreThrottled(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		e := newEnvStill(t, s, time.Now())
		c := e.client()
		c.login("analyst@acme.test")
		if r := c.mfa(map[string]any{"enabled": true, "current_password": testPassword}); r.status != http.StatusOK {
			t.Fatalf("start = %d", r.status)
		}
		for i := range 5 {
			if r := c.mfa(map[string]any{"enabled": true, "code": "000000"}); r.status != http.StatusUnprocessableEntity {
				t.Fatalf("wrong code %d = %d %v", i, r.status, r.body)
			}
		}
		r := c.mfa(map[string]any{"enabled": true, "code": "000000"})
		if r.status != http.StatusTooManyRequests || r.header.Get("Retry-After") == "" {
			t.Errorf("sixth wrong code = %d %v", r.status, r.body)
		}
	})
}

// Contact details: validated per field, stored, audited, and only one's own.
func TestProfileContact(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		e := newEnv(t, s)
		c := e.client()
		c.login("analyst@acme.test")
		put := func(body map[string]any, opts ...opt) reply {
			return c.do("PUT", "/api/v1/settings/profile/contact", body, append([]opt{withBearer(c.bearer)}, opts...)...)
		}
		for _, tt := range []struct {
			body  map[string]any
			field string
			msg   string
		}{
			{map[string]any{"name": " ", "username": "ada"}, "name", "Name is required"},
			{map[string]any{"name": "Ada", "username": ""}, "username", "Username is required"},
			{map[string]any{"name": strings.Repeat("a", 101), "username": "ada"}, "name", "Name may be at most 100 characters."},
			{map[string]any{"name": "Ada", "username": "ada lovelace"}, "username", "Username may contain only letters, numbers, dots, dashes and underscores."},
		} {
			r := put(tt.body)
			if r.status != http.StatusUnprocessableEntity {
				t.Errorf("%v = %d", tt.body, r.status)
				continue
			}
			if msgs, _ := dig(r.body, "errors", tt.field).([]any); len(msgs) == 0 || msgs[0] != tt.msg {
				t.Errorf("%v errors = %v", tt.body, r.body)
			}
		}
		r := put(map[string]any{"name": "  Ada Lovelace ", "username": "ada.l"})
		if r.status != http.StatusOK || dig(r.body, "data", "name") != "Ada Lovelace" || dig(r.body, "data", "username") != "ada.l" {
			t.Fatalf("update = %d %v", r.status, r.body)
		}
		owner := e.client()
		owner.login("owner@acme.test")
		org := owner.do("GET", "/api/v1/settings/organizations/current", nil, withBearer(owner.bearer))
		found := false
		for _, m := range dig(org.body, "data", "data", "users").([]any) {
			if dig(m, "email") == "analyst@acme.test" && dig(m, "name") == "Ada Lovelace" && dig(m, "username") == "ada.l" {
				found = true
			}
		}
		if !found {
			t.Errorf("members do not show the new name: %v", org.body)
		}
		if r := put(map[string]any{"name": "Script", "username": "script"}, withBearer(e.token("analyst@acme.test", "script"))); r.status != http.StatusForbidden {
			t.Errorf("API token = %d", r.status)
		}
		u, _ := s.UserByEmail(context.Background(), "analyst@acme.test")
		entries, _ := s.AuditLog(context.Background(), u.TenantID, 50)
		audited := false
		for _, en := range entries {
			if en.Model == "user" && en.Action == "updated" && en.UserID == u.ID && strings.Contains(en.NewValue, "Ada Lovelace") {
				audited = true
			}
		}
		if !audited {
			t.Error("contact change not audited")
		}
	})
}

// enableMFA turns two-step verification on for email through Settings and returns its secret.
func (e *env) enableMFA(t *testing.T, email string) string {
	t.Helper()
	c := e.client()
	c.login(email)
	start := c.mfa(map[string]any{"enabled": true, "current_password": testPassword})
	secret, _ := dig(start.body, "data", "secret").(string)
	if r := c.mfa(map[string]any{"enabled": true, "code": code(t, secret, 0)}); r.status != http.StatusOK {
		t.Fatalf("turn on two-step verification for %s = %d %v", email, r.status, r.body)
	}
	return secret
}

// A tenant admin resets the two-step verification of a user of their tenant who lost their
// authenticator (audited as theirs); not their own, nor another tenant's user's.
func TestTenantAdminResetsTwoStep(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		e := newTenantEnv(t, s)
		e.enableMFA(t, "analyst@acme.test")
		e.enableMFA(t, "tenant-admin@umbrella.test")
		reset := func(c *client, email string) reply {
			return c.do("PUT", fmt.Sprintf("/api/v1/tenant/users/%d/reset-mfa", mustUser(t, s, email).ID), map[string]any{},
				withBearer(c.bearer))
		}
		admin := e.signedIn("tenant-admin@acme.test")
		other := e.client()
		if r := other.loginWith("tenant-admin@umbrella.test", ""); r.status != http.StatusUnauthorized {
			t.Fatalf("the other tenant's admin signs in without a code = %d", r.status)
		}
		tests := []struct {
			who    *client
			name   string
			target string
			want   int
		}{
			{e.signedIn("owner@acme.test"), "an organization owner", "analyst@acme.test", 403},
			{admin, "the tenant admin, another tenant's user", "tenant-admin@umbrella.test", 404},
			{admin, "the tenant admin, themselves", "tenant-admin@acme.test", 403},
			{admin, "the tenant admin, a user of the tenant", "analyst@acme.test", 200},
			{admin, "the tenant admin, again", "analyst@acme.test", 409},
		}
		for _, tt := range tests {
			if r := reset(tt.who, tt.target); r.status != tt.want {
				t.Errorf("%s resets %s = %d %v, want %d", tt.name, tt.target, r.status, r.body, tt.want)
			}
		}
		if r := e.client().login("analyst@acme.test"); r.status != http.StatusOK {
			t.Errorf("the analyst signs in with the password alone after the reset = %d %v", r.status, r.body)
		}
		if u := mustUser(t, s, "tenant-admin@umbrella.test"); !u.IsMFAEnabled {
			t.Error("another tenant's user's two-step verification was reset")
		}
		log, err := s.AuditLog(context.Background(), e.acme.TenantID, 100)
		if err != nil {
			t.Fatal(err)
		}
		analyst, me := mustUser(t, s, "analyst@acme.test"), mustUser(t, s, "tenant-admin@acme.test")
		var audited bool
		for _, a := range log {
			audited = audited || (a.Action == "mfa_reset" && a.UserID == me.ID && a.ModelID == strconv.FormatInt(analyst.ID, 10))
		}
		if !audited {
			t.Errorf("the reset is not audited as the tenant admin's: %+v", log)
		}
	})
}
