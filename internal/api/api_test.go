package api_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/api"
	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
	"github.com/sightline/sightline/internal/tenant"
)

const testPassword = "correct-horse-9"

// env is a running API over a real store, with two organizations.
type env struct {
	t        *testing.T
	srv      *httptest.Server
	store    *store.Store
	accounts *account.Service
	auth     *auth.Service
	// ended are the sessions the auth service said were signed out.
	ended *endedSessions
}

// endedSessions records the users whose sessions ended, as the live channel hears of them.
type endedSessions struct {
	mu    sync.Mutex
	users []int64
}

func (e *endedSessions) record(_ context.Context, sess auth.Session) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.users = append(e.users, sess.UserID)
}

// since returns the users recorded after the first n.
func (e *endedSessions) since(n int) []int64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.users[n:])
}

func newEnv(t *testing.T, s *store.Store) *env {
	t.Helper()
	return newEnvWith(t, s, nil)
}

// newEnvWith is newEnv with the API's dependencies adjusted by configure first.
func newEnvWith(t *testing.T, s *store.Store, configure func(*api.Deps)) *env {
	t.Helper()
	return newEnvAt(t, s, nil, configure)
}

// newEnvStill is newEnv on a sign-in clock standing still at still: a test that counts attempts
// against the throttle's delays (a second once the free ones are used) gets the same answers
// however slowly the machine makes them (issue 26).
func newEnvStill(t *testing.T, s *store.Store, still time.Time) *env {
	t.Helper()
	return newEnvAt(t, s, func() time.Time { return still }, nil)
}

// newEnvAt is newEnvWith with the auth service on the clock now (time.Now when nil).
func newEnvAt(t *testing.T, s *store.Store, now func() time.Time, configure func(*api.Deps)) *env {
	t.Helper()
	ctx := context.Background()
	accounts := account.NewService(s)
	ended := &endedSessions{}
	a, err := auth.New(ctx, s, auth.Options{SessionEnded: ended.record, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	deps := api.Deps{Accounts: accounts, Auth: a, Tenant: tenant.NewService(s, accounts, a), Health: s.Ping, App: api.AppHandler(nil, false),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if configure != nil {
		configure(&deps)
	}
	h := api.New(deps)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	e := &env{t: t, srv: srv, store: s, accounts: accounts, auth: a, ended: ended}
	e.createUser("Acme", "owner@acme.test", account.RoleOwner)
	e.createUser("Acme", "analyst@acme.test", account.RoleMember)
	e.createUser("Globex", "owner@globex.test", account.RoleOwner)
	return e
}

func (e *env) createUser(org, email string, role account.Role) account.User {
	e.t.Helper()
	u, err := e.accounts.CreateUser(context.Background(), account.NewUser{Organization: org, Email: email,
		Password: testPassword, Role: role})
	if err != nil {
		e.t.Fatal(err)
	}
	return u
}

// client is a browser-like client with a cookie jar and, after sign-in, a bearer token.
type client struct {
	e      *env
	http   *http.Client
	bearer string
}

func (e *env) client() *client {
	jar, _ := cookiejar.New(nil)
	return &client{e: e, http: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}}
}

type reply struct {
	status int
	header http.Header
	body   map[string]any
}

// request options
type opt func(*http.Request)

func withXSRF(c *client) opt {
	return func(r *http.Request) {
		u, _ := url.Parse(c.e.srv.URL)
		for _, ck := range c.http.Jar.Cookies(u) {
			if ck.Name == "XSRF-TOKEN" {
				r.Header.Set("X-XSRF-TOKEN", ck.Value)
			}
		}
	}
}

func withBearer(token string) opt {
	return func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+token) }
}

func (c *client) do(method, path string, body any, opts ...opt) reply {
	c.e.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = strings.NewReader(string(b))
	}
	req, _ := http.NewRequest(method, c.e.srv.URL+path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return c.send(req, opts...)
}

// send applies the options to req, sends it and decodes the JSON reply.
func (c *client) send(req *http.Request, opts ...opt) reply {
	c.e.t.Helper()
	for _, o := range opts {
		o(req)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		c.e.t.Fatal(err)
	}
	defer resp.Body.Close()
	r := reply{status: resp.StatusCode, header: resp.Header}
	json.NewDecoder(resp.Body).Decode(&r.body)
	return r
}

func (c *client) login(email string) reply {
	c.e.t.Helper()
	c.do("GET", "/healthz", nil) // collect the XSRF cookie, as the page load would
	r := c.do("POST", "/api/v1/auth/login", map[string]string{"email": email, "password": testPassword}, withXSRF(c))
	if r.status == http.StatusOK {
		c.bearer = r.body["data"].(map[string]any)["token"].(string)
	}
	return r
}

func dig(v any, path ...string) any {
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[p]
	}
	return v
}

func TestAuthentication(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		e := newEnv(t, s)

		anon := e.client()
		for _, path := range []string{"/api/v1/settings/profile/current", "/api/v1/settings/organizations/current"} {
			if r := anon.do("GET", path, nil); r.status != http.StatusUnauthorized {
				t.Errorf("anonymous GET %s = %d, want 401", path, r.status)
			}
		}
		if r := anon.do("PUT", "/api/v1/token", nil); r.status != http.StatusUnauthorized {
			t.Errorf("anonymous PUT /api/v1/token = %d, want 401", r.status)
		}
		if r := anon.do("GET", "/api/v1/settings/profile/current", nil, withBearer("garbage")); r.status != http.StatusUnauthorized {
			t.Errorf("bad bearer = %d, want 401", r.status)
		}

		bad := anon.do("POST", "/api/v1/auth/login", map[string]string{"email": "owner@acme.test", "password": "wrong-password"})
		if bad.status != http.StatusUnauthorized || bad.body["message"] != auth.MsgBadCredentials {
			t.Errorf("wrong password = %d %v", bad.status, bad.body)
		}

		c := e.client()
		if r := c.login("owner@acme.test"); r.status != http.StatusOK || dig(r.body, "data", "user", "email") != "owner@acme.test" {
			t.Fatalf("login = %d %v", r.status, r.body)
		}

		tests := []struct {
			name   string
			method string
			path   string
			body   any
			opts   []opt
			want   int
		}{
			{"session reads the profile", "GET", "/api/v1/settings/profile/current", nil, nil, 200},
			{"session write without the anti-forgery header", "PATCH", "/api/v1/settings/profile/update/display-theme",
				map[string]string{"display_theme": "dark"}, nil, 419},
			{"session write with a wrong anti-forgery header", "PATCH", "/api/v1/settings/profile/update/display-theme",
				map[string]string{"display_theme": "dark"}, []opt{func(r *http.Request) { r.Header.Set("X-XSRF-TOKEN", "nope") }}, 419},
			{"session write with the anti-forgery header", "PATCH", "/api/v1/settings/profile/update/display-theme",
				map[string]string{"display_theme": "dark"}, []opt{withXSRF(c)}, 200},
			{"bearer write needs no anti-forgery header", "PATCH", "/api/v1/settings/profile/update/display-theme",
				map[string]string{"display_theme": "light"}, []opt{withBearer(c.bearer)}, 200},
			{"invalid theme", "PATCH", "/api/v1/settings/profile/update/display-theme",
				map[string]string{"display_theme": "purple"}, []opt{withXSRF(c)}, 422},
			{"token refresh without the anti-forgery header", "PUT", "/api/v1/token", nil, nil, 419},
			{"token refresh", "PUT", "/api/v1/token", nil, []opt{withXSRF(c)}, 200},
			{"unknown API path", "GET", "/api/v1/no-such-thing", nil, nil, 404},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				r := c.do(tt.method, tt.path, tt.body, tt.opts...)
				if r.status != tt.want {
					t.Errorf("%s %s = %d %v, want %d", tt.method, tt.path, r.status, r.body, tt.want)
				}
			})
		}

		// A stale bearer beside a live session cookie falls back to the cookie, with its rules.
		if r := c.do("GET", "/api/v1/settings/profile/current", nil, withBearer("expired.jwt.value")); r.status != 200 {
			t.Errorf("stale bearer with a session cookie = %d, want 200", r.status)
		}
		if r := c.do("PATCH", "/api/v1/settings/profile/update/display-theme", map[string]string{"display_theme": "dark"},
			withBearer("expired.jwt.value")); r.status != 419 {
			t.Errorf("stale bearer with a session cookie, no anti-forgery header = %d, want 419", r.status)
		}

		refreshed := c.do("PUT", "/api/v1/token", nil, withXSRF(c))
		token, _ := dig(refreshed.body, "data", "token").(string)
		if token == "" || refreshed.header.Get("Authorization") != "Bearer "+token {
			t.Errorf("refresh: header %q, body token %q", refreshed.header.Get("Authorization"), token)
		}
		bearerOnly := e.client()
		if r := bearerOnly.do("GET", "/api/v1/settings/profile/current", nil, withBearer(token)); r.status != 200 {
			t.Errorf("refreshed bearer alone = %d", r.status)
		}

		// Signing out ends the session and every bearer token issued for it.
		if r := c.do("GET", "/logout", nil); r.status != http.StatusFound || r.header.Get("Location") != "/login" {
			t.Errorf("logout = %d to %q", r.status, r.header.Get("Location"))
		}
		if r := c.do("GET", "/api/v1/settings/profile/current", nil); r.status != 401 {
			t.Errorf("session after logout = %d, want 401", r.status)
		}
		if r := bearerOnly.do("GET", "/api/v1/settings/profile/current", nil, withBearer(token)); r.status != 401 {
			t.Errorf("bearer after logout = %d, want 401", r.status)
		}
	})
}

func TestAPITokens(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		e := newEnv(t, s)
		ctx := context.Background()
		full, _, err := e.auth.CreateAPIToken(ctx, "analyst@acme.test", "script", nil)
		if err != nil {
			t.Fatal(err)
		}
		ingest, _, err := e.auth.CreateAPIToken(ctx, "analyst@acme.test", "feeder", []string{"ingest"})
		if err != nil {
			t.Fatal(err)
		}
		c := e.client()
		if r := c.do("GET", "/api/v1/settings/profile/current", nil, withBearer(full)); r.status != 200 || dig(r.body, "data", "email") != "analyst@acme.test" {
			t.Errorf("API token alone = %d %v", r.status, r.body)
		}
		if r := c.do("PATCH", "/api/v1/settings/profile/update/display-theme", map[string]string{"display_theme": "dark"}, withBearer(full)); r.status != 200 {
			t.Errorf("API token write = %d, want 200 without an anti-forgery header", r.status)
		}
		if r := c.do("GET", "/api/v1/settings/profile/current", nil, withBearer(ingest)); r.status != 403 {
			t.Errorf("ingest-scoped token on the profile = %d, want 403", r.status)
		}
		if r := c.do("PUT", "/api/v1/token", nil, withBearer(full)); r.status != 401 {
			t.Errorf("API token exchanged for a session token = %d, want 401", r.status)
		}
		if r := c.do("GET", "/api/v1/settings/profile/current", nil, withBearer(full+"x")); r.status != 401 {
			t.Errorf("altered API token = %d, want 401", r.status)
		}
	})
}

func TestOrganizationsAreIsolated(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		e := newEnv(t, s)
		members := func(email string) []string {
			c := e.client()
			c.login(email)
			r := c.do("GET", "/api/v1/settings/organizations/current", nil, withBearer(c.bearer))
			if r.status != 200 {
				t.Fatalf("%s: organization = %d", email, r.status)
			}
			var emails []string
			for _, u := range dig(r.body, "data", "data", "users").([]any) {
				emails = append(emails, u.(map[string]any)["email"].(string))
			}
			return emails
		}
		if got := strings.Join(members("analyst@acme.test"), ","); got != "analyst@acme.test,owner@acme.test" {
			t.Errorf("Acme sees members %s", got)
		}
		if got := strings.Join(members("owner@globex.test"), ","); got != "owner@globex.test" {
			t.Errorf("Globex sees members %s", got)
		}
	})
}

func TestMFAAndThrottling(t *testing.T) {
	still := time.Now()
	e := newEnvStill(t, storetest.Open(t, store.SQLite), still)
	ctx := context.Background()
	u, _ := e.store.UserByEmail(ctx, "owner@acme.test")
	key, err := totp.Generate(totp.GenerateOpts{Issuer: "Sightline", AccountName: u.Email})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.store.StartMFAEnrolment(ctx, u.ID, key.Secret()); err != nil {
		t.Fatal(err)
	}
	if err := e.store.EnableMFA(ctx, u.ID, nil); err != nil {
		t.Fatal(err)
	}
	c := e.client()
	login := func(otp string) reply {
		return c.do("POST", "/api/v1/auth/login", map[string]string{"email": u.Email, "password": testPassword, "otp": otp})
	}
	if r := login(""); r.status != 401 || r.body["mfaRequired"] != true || r.body["message"] != auth.MsgOTPRequired {
		t.Errorf("no code = %d %v", r.status, r.body)
	}
	if r := login("000000"); r.status != 401 || r.body["message"] != auth.MsgOTPInvalid {
		t.Errorf("wrong code = %d %v", r.status, r.body)
	}
	code, _ := totp.GenerateCode(key.Secret(), still)
	if r := login(code); r.status != 200 {
		t.Errorf("right code = %d %v", r.status, r.body)
	}

	for i := 0; i < 5; i++ {
		c.do("POST", "/api/v1/auth/login", map[string]string{"email": "analyst@acme.test", "password": "nope-nope"})
	}
	r := c.do("POST", "/api/v1/auth/login", map[string]string{"email": "analyst@acme.test", "password": testPassword})
	if r.status != http.StatusTooManyRequests || r.header.Get("Retry-After") == "" {
		t.Errorf("after five failures = %d (Retry-After %q), want 429", r.status, r.header.Get("Retry-After"))
	}
}

func TestProvidersFollowEntitlements(t *testing.T) {
	e := newEnv(t, storetest.Open(t, store.SQLite))
	c := e.client()
	c.login("owner@acme.test")
	names := func() map[string]bool {
		r := c.do("GET", "/api/v1/monitor/providers", nil, withBearer(c.bearer))
		if r.status != 200 {
			t.Fatalf("providers = %d", r.status)
		}
		got := map[string]bool{}
		for _, p := range r.body["data"].([]any) {
			got[p.(map[string]any)["name"].(string)] = true
		}
		return got
	}
	if all := names(); !all["tor"] || !all["twitter"] || !all["news"] {
		t.Errorf("a user with every subscription misses providers: %v", all)
	}
	// Without Beacon, dark-web providers are gone; without Locate (pro/enterprise), news is.
	u, _ := e.store.UserByEmail(context.Background(), "owner@acme.test")
	if err := e.store.UpdateUserAccess(context.Background(), u.ID, account.ACL{}); err != nil {
		t.Fatal(err)
	}
	if got := names(); got["tor"] || got["news"] || !got["twitter"] {
		t.Errorf("a user without subscriptions sees %v", got)
	}
}

func TestDemoMedia(t *testing.T) {
	e := newEnv(t, storetest.Open(t, store.SQLite))
	for path, want := range map[string]int{"/demo-media/street-crowd.svg": 200, "/demo-media/avatar-3.svg": 200,
		"/demo-media/unknown.svg": 404, "/demo-media/street-crowd.png": 404} {
		resp, err := http.Get(e.srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("%s = %d, want %d", path, resp.StatusCode, want)
		}
		if want == 200 && (resp.Header.Get("Content-Type") != "image/svg+xml" || !strings.Contains(string(body), "<svg")) {
			t.Errorf("%s is not an SVG: %s", path, body)
		}
	}
}
