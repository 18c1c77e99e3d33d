package api_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// Only the session cookie with the anti-forgery echo buys a fresh bearer token: a bearer token
// alone (one stolen from a page, say) cannot keep itself alive.
func TestTokenRefreshNeedsTheSession(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		e := newEnv(t, s)
		browser := e.client()
		if r := browser.login("owner@acme.test"); r.status != http.StatusOK {
			t.Fatalf("login = %d %v", r.status, r.body)
		}
		thief := e.client() // no cookies: only the bearer token
		tests := []struct {
			name string
			c    *client
			opts []opt
			want int
		}{
			{"bearer alone", thief, []opt{withBearer(browser.bearer)}, http.StatusUnauthorized},
			{"bearer with a forged anti-forgery header", thief, []opt{withBearer(browser.bearer),
				func(r *http.Request) { r.Header.Set("X-XSRF-TOKEN", "forged-forged-forged-forged-forged") }}, http.StatusUnauthorized},
			{"session cookie and bearer, no anti-forgery header", browser, []opt{withBearer(browser.bearer)}, 419},
			{"session cookie, no anti-forgery header", browser, nil, 419},
			{"session cookie with the anti-forgery header", browser, []opt{withXSRF(browser)}, http.StatusOK},
			{"session cookie, bearer and anti-forgery header", browser, []opt{withBearer(browser.bearer), withXSRF(browser)}, http.StatusOK},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				if r := tt.c.do("PUT", "/api/v1/token", nil, tt.opts...); r.status != tt.want {
					t.Errorf("PUT /api/v1/token = %d %v, want %d", r.status, r.body, tt.want)
				}
			})
		}
	})
}

// The session cookie outlives the idle window, so a session in daily use lasts until its
// 30-day end rather than losing its cookie after 14 days.
func TestSessionCookieLastsAsLongAsTheSession(t *testing.T) {
	e := newEnv(t, storetest.Open(t, store.SQLite))
	r := e.client().login("owner@acme.test")
	if r.status != http.StatusOK {
		t.Fatalf("login: %d %v", r.status, r.body)
	}
	for _, line := range r.header.Values("Set-Cookie") {
		c, err := http.ParseSetCookie(line)
		if err != nil || c.Name != auth.SessionCookie {
			continue
		}
		if left := time.Until(c.Expires); left < auth.SessionMaxAge-time.Minute || left > auth.SessionMaxAge {
			t.Fatalf("session cookie expires in %v, want %v", left, auth.SessionMaxAge)
		}
		return
	}
	t.Fatal("no session cookie set")
}
