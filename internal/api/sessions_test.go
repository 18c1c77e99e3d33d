package api_test

import (
	"net/http"
	"testing"

	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// A user sees their own sessions, which one is this one, and ends another at once; nobody else
// sees or ends them.
func TestSessions(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		e := newEnv(t, s)
		laptop, phone, tablet := e.client(), e.client(), e.client()
		for _, c := range []*client{laptop, phone, tablet} {
			if r := c.login("owner@acme.test"); r.status != http.StatusOK {
				t.Fatalf("login = %d", r.status)
			}
		}
		list := func(c *client) []any {
			r := c.do("GET", "/api/v1/settings/sessions", nil, withBearer(c.bearer))
			if r.status != http.StatusOK {
				t.Fatalf("sessions = %d %v", r.status, r.body)
			}
			return r.body["data"].([]any)
		}
		sessions := list(laptop)
		var current, other string
		for _, s := range sessions {
			if dig(s, "current") == true {
				current = dig(s, "id").(string)
			} else if other == "" {
				other = dig(s, "id").(string)
			}
		}
		if len(sessions) != 3 || current == "" || other == "" {
			t.Fatalf("sessions = %v", sessions)
		}

		// Another user, in the organization or not, cannot end it: it does not exist for them.
		for _, email := range []string{"analyst@acme.test", "owner@globex.test"} {
			c := e.client()
			c.login(email)
			if r := c.do("DELETE", "/api/v1/settings/sessions/"+other, nil, withBearer(c.bearer)); r.status != http.StatusNotFound {
				t.Errorf("%s ended another's session: %d", email, r.status)
			}
			if got := list(c); len(got) != 1 {
				t.Errorf("%s sees %d sessions", email, len(got))
			}
		}
		if len(list(laptop)) != 3 {
			t.Fatal("a session ended by someone else")
		}

		if r := laptop.do("DELETE", "/api/v1/settings/sessions/"+other, nil, withBearer(laptop.bearer)); r.status != http.StatusOK {
			t.Fatalf("end = %d %v", r.status, r.body)
		}
		// The ended one is signed out at once: one of phone and tablet now gets 401.
		refused := 0
		for _, c := range []*client{phone, tablet} {
			if r := c.do("GET", "/api/v1/settings/profile/current", nil, withBearer(c.bearer)); r.status == http.StatusUnauthorized {
				refused++
			}
		}
		if refused != 1 {
			t.Errorf("%d sessions refused after ending one", refused)
		}
		r := laptop.do("DELETE", "/api/v1/settings/sessions", nil, withBearer(laptop.bearer))
		if r.status != http.StatusOK || dig(r.body["data"], "ended") != float64(1) {
			t.Errorf("end others = %d %v", r.status, r.body)
		}
		if got := list(laptop); len(got) != 1 || dig(got[0], "current") != true {
			t.Errorf("after ending the others: %v", got)
		}
		for _, c := range []*client{phone, tablet} {
			if r := c.do("GET", "/api/v1/settings/profile/current", nil, withBearer(c.bearer)); r.status != http.StatusUnauthorized {
				t.Errorf("an ended session still works: %d", r.status)
			}
		}
	})
}

func TestDevice(t *testing.T) {
	for ua, want := range map[string]string{
		"Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0":                                             "Firefox on Linux",
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36":        "Chrome on Windows",
		"Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36 Edg/131.0":          "Edge on Windows",
		"Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Version/18.0 Mobile Safari/604.1":       "Safari on iPhone",
		"Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15": "Safari on macOS",
		"Go-http-client/1.1": "Unknown browser",
	} {
		if got := auth.Device(ua); got != want {
			t.Errorf("Device(%q) = %q, want %q", ua, got, want)
		}
	}
}

// Changing the password checks the current one and the new one's rules, signs the other
// sessions out and keeps this one; the new password signs in, the old one no longer does.
func TestChangePassword(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		e := newEnv(t, s)
		here, there := e.client(), e.client()
		here.login("owner@acme.test")
		there.login("owner@acme.test")
		change := func(current, next, confirmation string) reply {
			return here.do("PUT", "/api/v1/settings/profile/password", map[string]string{"current_password": current,
				"password": next, "password_confirmation": confirmation}, withBearer(here.bearer))
		}
		const next = "tidal-harbour-lantern-42"
		for _, tt := range []struct{ name, current, next, confirmation, field, want string }{
			{"wrong current", "not-the-password", next, next, "current_password", auth.MsgCurrentPassword},
			{"too short", testPassword, "short-pw", "short-pw", "password", "The password must be at least 12 characters."},
			{"unchanged", testPassword, testPassword, testPassword, "password", auth.MsgPasswordUnchanged},
			{"holds the e-mail", testPassword, "owner-is-me-2026", "owner-is-me-2026", "password", auth.MsgPasswordHasEmail},
			{"common", testPassword, "password1234", "password1234", "password", auth.MsgPasswordTooCommon},
			{"one character", testPassword, "zzzzzzzzzzzzzz", "zzzzzzzzzzzzzz", "password", auth.MsgPasswordTooCommon},
			{"confirmation differs", testPassword, next, next + "!", "password_confirmation", auth.MsgPasswordConfirmed},
		} {
			r := change(tt.current, tt.next, tt.confirmation)
			errs, _ := r.body["errors"].(map[string]any)
			if r.status != http.StatusUnprocessableEntity || errs == nil || dig(errs, tt.field) == nil ||
				dig(errs, tt.field).([]any)[0] != tt.want {
				t.Errorf("%s: %d %v, want 422 %s: %q", tt.name, r.status, r.body, tt.field, tt.want)
			}
		}
		if r := there.do("GET", "/api/v1/settings/profile/current", nil, withBearer(there.bearer)); r.status != http.StatusOK {
			t.Fatalf("a refused change signed the other session out: %d", r.status)
		}
		if r := change(testPassword, next, next); r.status != http.StatusOK {
			t.Fatalf("change = %d %v", r.status, r.body)
		}
		if r := here.do("GET", "/api/v1/settings/profile/current", nil, withBearer(here.bearer)); r.status != http.StatusOK {
			t.Errorf("this session was signed out: %d", r.status)
		}
		if r := there.do("GET", "/api/v1/settings/profile/current", nil, withBearer(there.bearer)); r.status != http.StatusUnauthorized {
			t.Errorf("the other session still works: %d", r.status)
		}
		fresh := e.client()
		r := fresh.do("POST", "/api/v1/auth/login", map[string]string{"email": "owner@acme.test", "password": testPassword})
		if r.status == http.StatusOK {
			t.Error("the old password still signs in")
		}
		r = fresh.do("POST", "/api/v1/auth/login", map[string]string{"email": "owner@acme.test", "password": next})
		if r.status != http.StatusOK {
			t.Errorf("the new password = %d %v", r.status, r.body)
		}
	})
}
