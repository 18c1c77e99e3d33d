package api_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/sightline/sightline/internal/api"
	"github.com/sightline/sightline/internal/social"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// fakeNetwork is an OAuth 2 provider on loopback: it hands out a code for each PKCE challenge
// and gives a token only for the code with the verifier that matches it.
type fakeNetwork struct {
	srv        *httptest.Server
	mu         sync.Mutex
	challenges map[string]string // code → challenge
}

func newFakeNetwork(t *testing.T) *fakeNetwork {
	f := &fakeNetwork{challenges: map[string]string{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /token", func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		id, secret, _ := r.BasicAuth()
		sum := sha256.Sum256([]byte(r.Form.Get("code_verifier")))
		f.mu.Lock()
		challenge, known := f.challenges[r.Form.Get("code")]
		delete(f.challenges, r.Form.Get("code"))
		f.mu.Unlock()
		if !known || id != "sightline-app" || secret != "app-secret" ||
			base64.RawURLEncoding.EncodeToString(sum[:]) != challenge ||
			r.Form.Get("redirect_uri") != "http://sightline.test/api/v1/settings/social/callback/mastodon" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`{"error":"invalid_grant"}`))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"access_token":"network-token-123","token_type":"bearer","expires_in":3600}`))
	})
	mux.HandleFunc("GET /me", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer network-token-123" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.Write([]byte(`{"data":{"id":42,"username":"analyst42"}}`))
	})
	f.srv = httptest.NewServer(mux)
	t.Cleanup(f.srv.Close)
	return f
}

// approve is the user approving at the provider: a code for the authorization request.
func (f *fakeNetwork) approve(t *testing.T, authorize string) (state, code string) {
	t.Helper()
	u, err := url.Parse(authorize)
	if err != nil || !strings.HasPrefix(authorize, f.srv.URL+"/authorize") {
		t.Fatalf("sent to %q, want the provider's authorize address", authorize)
	}
	q := u.Query()
	if q.Get("code_challenge_method") != "S256" || q.Get("client_id") != "sightline-app" {
		t.Fatalf("authorization request %v lacks PKCE or the client id", q)
	}
	code = "code-" + q.Get("state")[:8]
	f.mu.Lock()
	f.challenges[code] = q.Get("code_challenge")
	f.mu.Unlock()
	return q.Get("state"), code
}

func TestSocialIntegrations(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		network := newFakeNetwork(t)
		e := newEnvWith(t, s, func(d *api.Deps) {
			d.Social = social.NewService(s, []social.Provider{{Name: "mastodon", DisplayName: "Mastodon",
				ClientID: "sightline-app", ClientSecret: "app-secret", AuthURL: network.srv.URL + "/authorize",
				TokenURL: network.srv.URL + "/token", UserInfoURL: network.srv.URL + "/me", AccountIDPath: "data.id",
				AccountNamePath: "data.username", Scopes: []string{"read"}}}, "http://sightline.test")
		})
		owner, analyst := e.client(), e.client()
		owner.login("owner@acme.test")
		analyst.login("analyst@acme.test")
		bearer := func(c *client) opt { return withBearer(c.bearer) }
		callback := func(c *client, query string) url.Values {
			t.Helper()
			r := c.do("GET", "/api/v1/settings/social/callback/mastodon?"+query, nil)
			location, _ := url.Parse(r.header.Get("Location"))
			if r.status != http.StatusFound || location.Path != "/settings" {
				t.Fatalf("callback = %d %q, want a redirect to Settings", r.status, r.header.Get("Location"))
			}
			return location.Query()
		}
		connect := func(c *client) (state, code string) {
			t.Helper()
			r := c.do("GET", "/api/v1/settings/social/connect/mastodon", nil)
			if r.status != http.StatusFound {
				t.Fatalf("connect = %d", r.status)
			}
			return network.approve(t, r.header.Get("Location"))
		}

		r := owner.do("GET", "/api/v1/settings/social/providers", nil, bearer(owner))
		if got := dig(r.body, "data").([]any); len(got) != 1 || dig(got[0], "display_name") != "Mastodon" {
			t.Fatalf("providers = %v", r.body)
		}

		state, code := connect(owner)
		// Another user cannot finish the owner's connection.
		if q := callback(analyst, url.Values{"state": {state}, "code": {code}}.Encode()); q.Get("social_error") == "" {
			t.Fatalf("a colleague finished the owner's connection: %v", q)
		}
		state, code = connect(owner)
		if q := callback(owner, url.Values{"state": {state}, "code": {code}}.Encode()); q.Get("social_connected") != "Mastodon account analyst42" {
			t.Fatalf("callback said %v", q)
		}
		// A state is good once.
		if q := callback(owner, url.Values{"state": {state}, "code": {code}}.Encode()); !strings.Contains(q.Get("social_error"), "expired") {
			t.Fatalf("a used state was accepted: %v", q)
		}
		// Declining at the provider is said as such.
		if q := callback(owner, "error=access_denied&state=x"); q.Get("social_error") != "You did not allow the connection at Mastodon." {
			t.Fatalf("declined: %v", q)
		}

		r = owner.do("GET", "/api/v1/settings/profile/current", nil, bearer(owner))
		accounts := dig(r.body, "data", "social_accounts").([]any)
		if len(accounts) != 1 || dig(accounts[0], "account_id") != "42" || dig(accounts[0], "provider", "name") != "mastodon" {
			t.Fatalf("profile social_accounts = %v", accounts)
		}
		raw, _ := json.Marshal(r.body)
		if strings.Contains(string(raw), "network-token-123") {
			t.Fatal("the provider's token reached the browser")
		}
		id := int64(dig(accounts[0], "id").(float64))
		path := "/api/v1/settings/social/logout/" + jsonNumber(id)

		if r := analyst.do("GET", "/api/v1/settings/social/integrations", nil, bearer(analyst)); len(dig(r.body, "data").([]any)) != 0 {
			t.Fatalf("a colleague sees the owner's accounts: %v", r.body)
		}
		if r := analyst.do("DELETE", path, nil, bearer(analyst), withXSRF(analyst)); r.status != http.StatusNotFound {
			t.Fatalf("a colleague disconnecting the owner's account = %d, want 404", r.status)
		}
		if r := owner.do("DELETE", path, nil, bearer(owner), withXSRF(owner)); r.status != http.StatusOK {
			t.Fatalf("disconnect = %d %v", r.status, r.body)
		}
		if r := owner.do("GET", "/api/v1/settings/social/integrations", nil, bearer(owner)); len(dig(r.body, "data").([]any)) != 0 {
			t.Fatalf("still connected: %v", r.body)
		}
	})
}

func jsonNumber(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}
