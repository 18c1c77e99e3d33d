package api_test

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/api"
	"github.com/sightline/sightline/internal/filters"
	"github.com/sightline/sightline/internal/live"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// JSON endpoints refuse a body not declared JSON, so another site's form or no-cors fetch (which
// can only send text/plain, a form encoding or no type) cannot post to them; the endpoints that
// take forms, files or NDJSON keep taking them.
func TestJSONEndpointsRefuseOtherContentTypes(t *testing.T) {
	fe := newFiltersEnv(t, storetest.Open(t, store.SQLite))
	le, _ := liveEnv(t, storetest.Open(t, store.SQLite))
	owner, analyst := fe.client(), le.client()
	if r := owner.login("owner@acme.test"); r.status != http.StatusOK {
		t.Fatalf("login = %d", r.status)
	}
	if r := analyst.login("analyst@acme.test"); r.status != http.StatusOK {
		t.Fatalf("login = %d", r.status)
	}
	list := fe.newList(filters.Keyword, false, "riot")
	channel := live.UserChannel(le.userID("analyst@acme.test"))
	csvType, csvBody := multipartFile(t, "words.csv", "text/csv", []byte("arson\n"))

	loginBody := fmt.Sprintf(`{"email":"owner@acme.test","password":%q}`, testPassword)
	jsonEndpoints := []struct {
		name      string
		c         *client
		path      string
		body      string
		takesForm bool // pusher-js's form, tested below
	}{
		{"sign-in", fe.client(), "/api/v1/auth/login", loginBody, false},
		{"create a group", owner, "/api/v1/monitor/monitor-search-groups", `{"name":"Watch","privacy":"readonly"}`, false},
		{"create a filter list", owner, "/api/v1/filter-lists", `{"name":"Words","type":"keyword","inclusion":false,"entries":["a"]}`, false},
		{"add filter-list entries", owner, fmt.Sprintf("/api/v1/filter-lists/%d/keyword", list.ID), `{"entries":["b"]}`, false},
		{"channel authorization as JSON", analyst, "/broadcasting/auth", fmt.Sprintf(`{"socket_id":"1.2","channel_name":%q}`, channel), true},
	}
	contentTypes := []struct {
		contentType string
		json        bool
	}{
		{"application/json", true},
		{"application/json; charset=utf-8", true},
		{"application/merge-patch+json", true},
		{"", false},
		{"text/plain", false},
		{"text/plain;charset=UTF-8", false},
		{"application/x-www-form-urlencoded", false},
		{"multipart/form-data; boundary=x", false},
		{"application/x-ndjson", false},
		{"not a media type", false},
	}
	for _, ep := range jsonEndpoints {
		for _, ct := range contentTypes {
			if ep.takesForm && ct.contentType == "application/x-www-form-urlencoded" {
				continue
			}
			t.Run(ep.name+" as "+ct.contentType, func(t *testing.T) {
				r := ep.c.sendRaw("POST", ep.path, ct.contentType, []byte(ep.body), withBearer(ep.c.bearer))
				switch {
				case ct.json && (r.status == http.StatusUnsupportedMediaType || r.status >= 500):
					t.Errorf("status %d %v, want the endpoint's answer", r.status, r.body)
				case !ct.json && (r.status != http.StatusUnsupportedMediaType || r.body["message"] != api415Message):
					t.Errorf("status %d %v, want 415 %q", r.status, r.body, api415Message)
				}
			})
		}
	}

	// Endpoints that read other formats keep reading them.
	others := []struct {
		name        string
		c           *client
		path        string
		contentType string
		body        []byte
		want        int
	}{
		{"channel authorization as pusher-js's form", analyst, "/broadcasting/auth", "application/x-www-form-urlencoded",
			[]byte(url.Values{"socket_id": {"1.2"}, "channel_name": {channel}}.Encode()), http.StatusOK},
		{"filter-list file upload", owner, fmt.Sprintf("/api/v1/filter-lists/%d/upload", list.ID), csvType, csvBody, http.StatusOK},
	}
	for _, tt := range others {
		t.Run(tt.name, func(t *testing.T) {
			if r := tt.c.sendRaw("POST", tt.path, tt.contentType, tt.body, withBearer(tt.c.bearer)); r.status != tt.want {
				t.Errorf("status %d %v, want %d", r.status, r.body, tt.want)
			}
		})
	}
}

const api415Message = "The request body must be JSON, sent with Content-Type: application/json."

// GET /logout signs out on the app's own link or a typed address, never on a navigation another
// site started; either way it sends the browser to sign-in.
func TestLogoutOnlyForSameOriginOrDirectNavigations(t *testing.T) {
	e := newEnv(t, storetest.Open(t, store.SQLite))
	tests := []struct {
		fetchSite string
		signsOut  bool
	}{
		{"", true}, // no Sec-Fetch-Site: not a modern browser, taken as direct
		{"none", true},
		{"same-origin", true},
		{"same-site", false},
		{"cross-site", false},
	}
	for _, tt := range tests {
		t.Run("Sec-Fetch-Site "+tt.fetchSite, func(t *testing.T) {
			c := e.client()
			if r := c.login("analyst@acme.test"); r.status != http.StatusOK {
				t.Fatalf("login = %d", r.status)
			}
			r := c.do("GET", "/logout", nil, func(r *http.Request) {
				if tt.fetchSite != "" {
					r.Header.Set("Sec-Fetch-Site", tt.fetchSite)
				}
			})
			if r.status != http.StatusFound || r.header.Get("Location") != "/login" {
				t.Errorf("logout = %d to %q, want 302 to /login", r.status, r.header.Get("Location"))
			}
			want := http.StatusOK
			if tt.signsOut {
				want = http.StatusUnauthorized
			}
			if r := c.do("GET", "/api/v1/settings/profile/current", nil); r.status != want {
				t.Errorf("session after logout = %d, want %d", r.status, want)
			}
		})
	}
}

// Every response carries the security headers: the app's page, the API's answers and errors,
// redirects.
func TestSecurityHeadersOnEveryResponse(t *testing.T) {
	e := newEnv(t, storetest.Open(t, store.SQLite))
	host := strings.TrimPrefix(e.srv.URL, "http://")
	c := e.client()
	requests := []struct {
		method, path string
		body         any
	}{
		{"GET", "/", nil},
		{"GET", "/monitor", nil},
		{"GET", "/healthz", nil},
		{"GET", "/api/v1/settings/profile/current", nil},
		{"GET", "/api/v1/no-such-thing", nil},
		{"POST", "/api/v1/auth/login", map[string]string{"email": "nobody@acme.test", "password": "wrong-password"}},
		{"GET", "/logout", nil},
	}
	for _, rq := range requests {
		t.Run(rq.method+" "+rq.path, func(t *testing.T) {
			r := c.do(rq.method, rq.path, rq.body)
			csp := r.header.Get("Content-Security-Policy")
			for _, directive := range []string{"default-src 'self'", "script-src 'self'", "frame-ancestors 'none'",
				"img-src 'self' data: blob:", "object-src 'none'", "base-uri 'self'", "form-action 'self'",
				"connect-src 'self' ws://" + host + " wss://" + host} {
				if !slices.Contains(strings.Split(csp, "; "), directive) {
					t.Errorf("Content-Security-Policy %q lacks %q", csp, directive)
				}
			}
			if got := r.header.Get("X-Content-Type-Options"); got != "nosniff" {
				t.Errorf("X-Content-Type-Options %q", got)
			}
			if got := r.header.Get("Referrer-Policy"); got != "no-referrer" {
				t.Errorf("Referrer-Policy %q", got)
			}
		})
	}
}

// Behind a trusted proxy, sign-in throttles each forwarded client on its own: one client's
// guesses do not lock out another who shares the proxy's address. The sign-in clock stands still,
// so the guesses all fall within the delay that follows the address's free ones.
func TestSignInThrottlesTheForwardedClient(t *testing.T) {
	e := newEnvStill(t, storetest.Open(t, store.SQLite), time.Now())
	loopback, err := api.ParseTrustedProxies("127.0.0.0/8, ::1")
	if err != nil {
		t.Fatal(err)
	}
	e.srv.Close()
	e.srv = httptest.NewServer(api.New(api.Deps{Accounts: e.accounts, Auth: e.auth, Health: e.store.Ping,
		App: api.AppHandler(nil, false), Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), TrustedProxies: loopback}))
	t.Cleanup(e.srv.Close)
	from := func(client string) opt {
		return func(r *http.Request) { r.Header.Set("X-Forwarded-For", "198.51.100.1, "+client) }
	}
	c := e.client()
	for i := range 30 { // the address limit, over as many accounts
		r := c.do("POST", "/api/v1/auth/login", map[string]string{"email": fmt.Sprintf("guess%d@acme.test", i),
			"password": "wrong-password"}, from("203.0.113.1"))
		if r.status != http.StatusUnauthorized {
			t.Fatalf("guess %d = %d %v", i, r.status, r.body)
		}
	}
	login := map[string]string{"email": "owner@acme.test", "password": testPassword}
	if r := c.do("POST", "/api/v1/auth/login", login, from("203.0.113.1")); r.status != http.StatusTooManyRequests {
		t.Errorf("the guessing client = %d, want 429", r.status)
	}
	if r := c.do("POST", "/api/v1/auth/login", login, from("203.0.113.2")); r.status != http.StatusOK {
		t.Errorf("another client behind the same proxy = %d %v, want 200", r.status, r.body)
	}
}
