package api_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/api"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

func TestPortals(t *testing.T) {
	e := newEnvWith(t, storetest.Open(t, store.SQLite), func(d *api.Deps) {
		d.Portals = api.Portals{authz.PortalIntelReports: "https://reports.example.test/home",
			authz.PortalCompliance: "https://compliance.example.test/"}
	})
	owner, err := e.store.UserByEmail(context.Background(), "owner@acme.test")
	if err != nil {
		t.Fatal(err)
	}
	// An analyst whose permission codes grant Intel Reports (and the owner's password).
	reader := account.User{TenantID: owner.TenantID, OrganizationID: owner.OrganizationID, Email: "reader@acme.test",
		PasswordHash: owner.PasswordHash, Permissions: []string{"IGNITE_NATSEC_REPORTS_READ"},
		DisplayTheme: account.ThemeSystem, MediaSensitivity: account.MediaBlur}
	if err := e.store.CreateUser(context.Background(), &reader, account.RoleMember); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		user, path string
		status     int
		location   string
	}{
		{"reader@acme.test", "/cti", http.StatusFound, "https://reports.example.test/home"},
		{"owner@acme.test", "/cti", http.StatusForbidden, ""},
		{"owner@acme.test", "/compliance", http.StatusFound, "https://compliance.example.test/"},
		// Without an address the path is the web app's (a page saying so); the test's app is
		// the unbuilt one, which answers 503.
		{"reader@acme.test", "/rfi", http.StatusServiceUnavailable, ""},
	}
	for _, tc := range tests {
		t.Run(tc.user+tc.path, func(t *testing.T) {
			c := e.client()
			if r := c.login(tc.user); r.status != http.StatusOK {
				t.Fatalf("login: %d", r.status)
			}
			r := c.do("GET", tc.path, nil)
			if r.status != tc.status || r.header.Get("Location") != tc.location {
				t.Fatalf("GET %s = %d %q, want %d %q", tc.path, r.status, r.header.Get("Location"), tc.status, tc.location)
			}
		})
	}

	c := e.client()
	c.login("owner@acme.test")
	r := c.do("GET", "/api/v1/settings/profile/current", nil, withBearer(c.bearer))
	portals := dig(r.body, "data", "portals").(map[string]any)
	if portals["intel_reports"] != true || portals["compliance"] != true || portals["rfi"] != false {
		t.Fatalf("profile portals = %v", portals)
	}
}

func TestParsePortalURL(t *testing.T) {
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{"https://rfi.example.test/portal", true},
		{"http://10.0.0.5:8443", true},
		{"rfi.example.test", false},
		{"javascript:alert(1)", false},
		{"ftp://files.example.test", false},
	} {
		if _, err := api.ParsePortalURL(tc.in); (err == nil) != tc.ok {
			t.Errorf("ParsePortalURL(%q) error = %v, want ok %v", tc.in, err, tc.ok)
		}
	}
}
