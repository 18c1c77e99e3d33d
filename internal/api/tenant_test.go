package api_test

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// tenantEnv is newEnv with a tenant admin (a member of Acme), an Acme admin, and another
// tenant whose admin owns Umbrella.
type tenantEnv struct {
	*env
	acme, globex, umbrella account.Organization
	analyst                account.User
}

func newTenantEnv(t *testing.T, s *store.Store) tenantEnv {
	e := newEnv(t, s)
	ctx := context.Background()
	for _, n := range []account.NewUser{
		{Organization: "Acme", Email: "tenant-admin@acme.test", Password: testPassword, Role: account.RoleMember, TenantAdmin: true},
		{Organization: "Acme", Email: "admin@acme.test", Password: testPassword, Role: account.RoleAdmin},
		{Tenant: "other", Organization: "Umbrella", Email: "tenant-admin@umbrella.test", Password: testPassword,
			Role: account.RoleOwner, TenantAdmin: true},
	} {
		if _, err := e.accounts.CreateUser(ctx, n); err != nil {
			t.Fatal(err)
		}
	}
	te := tenantEnv{env: e}
	var err error
	tenantID := func(email string) int64 {
		u, err := s.UserByEmail(ctx, email)
		if err != nil {
			t.Fatal(err)
		}
		return u.TenantID
	}
	if te.acme, err = s.OrganizationByName(ctx, tenantID("owner@acme.test"), "Acme"); err != nil {
		t.Fatal(err)
	}
	if te.globex, err = s.OrganizationByName(ctx, tenantID("owner@acme.test"), "Globex"); err != nil {
		t.Fatal(err)
	}
	if te.umbrella, err = s.OrganizationByName(ctx, tenantID("tenant-admin@umbrella.test"), "Umbrella"); err != nil {
		t.Fatal(err)
	}
	if te.analyst, err = s.UserByEmail(ctx, "analyst@acme.test"); err != nil {
		t.Fatal(err)
	}
	return te
}

// signedIn signs a new client in as email.
func (e *env) signedIn(email string) *client {
	e.t.Helper()
	c := e.client()
	if r := c.login(email); r.status != http.StatusOK {
		e.t.Fatalf("login %s = %d %v", email, r.status, r.body)
	}
	return c
}

// Every tenant-portal route: members, organization admins and owners are refused (403); the
// tenant admin is served; another tenant's admin finds nothing of this tenant (404, or 422 for a
// reference in a body) and sees only their own tenant in the lists.
func TestTenantPortalPermissions(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		e := newTenantEnv(t, s)
		_, token, err := e.auth.CreateAPIToken(context.Background(), "analyst@acme.test", "nightly", nil)
		if err != nil {
			t.Fatal(err)
		}
		acme, analyst := strconv.FormatInt(e.acme.ID, 10), strconv.FormatInt(e.analyst.ID, 10)
		routes := []struct {
			method, path string
			body         any
			admin, other int // the tenant admin's and the other tenant admin's status
		}{
			{"GET", "/api/v1/tenant/organizations", nil, 200, 200},
			{"PUT", "/api/v1/tenant/organizations/" + acme + "/feature-flags/beacon_sunset", map[string]bool{"enabled": true}, 200, 404},
			{"PUT", "/api/v1/tenant/organizations/" + acme + "/settings/is_uspi_compliant", map[string]bool{"enabled": true}, 200, 404},
			{"PUT", "/api/v1/tenant/organizations/" + acme + "/limits", map[string]int{"asset_limit": 40}, 200, 404},
			{"GET", "/api/v1/tenant/users", nil, 200, 200},
			{"POST", "/api/v1/tenant/users", map[string]any{"name": "New Hire", "email": "new@acme.test",
				"organizationId": e.acme.ID, "role": "member", "acl": map[string]bool{"beacon": true}, "password": "a-long-first-password"}, 201, 422},
			{"PUT", "/api/v1/tenant/users/" + analyst, map[string]any{"role": "admin", "acl": map[string]bool{"beacon": true, "pro": true}}, 200, 404},
			{"PUT", "/api/v1/tenant/users/" + analyst + "/disable", nil, 200, 404},
			{"PUT", "/api/v1/tenant/users/" + analyst + "/enable", nil, 200, 404},
			{"GET", "/api/v1/tenant/tokens", nil, 200, 200},
			{"POST", "/api/v1/tenant/tokens", map[string]any{"name": "ci", "userId": e.analyst.ID, "scopes": []string{"ingest"},
				"expiresAt": time.Now().Add(24 * time.Hour).Unix()}, 201, 422},
			{"DELETE", "/api/v1/tenant/tokens/" + strconv.FormatInt(token.ID, 10), nil, 200, 404},
		}
		call := func(c *client, method, path string, body any) reply {
			if body == nil && method == "PUT" {
				body = map[string]any{}
			}
			return c.do(method, path, body, withBearer(c.bearer))
		}
		for _, email := range []string{"analyst@acme.test", "admin@acme.test", "owner@acme.test"} {
			c := e.signedIn(email)
			for _, rt := range routes {
				if r := call(c, rt.method, rt.path, rt.body); r.status != http.StatusForbidden {
					t.Errorf("%s: %s %s = %d, want 403", email, rt.method, rt.path, r.status)
				}
			}
		}
		other := e.signedIn("tenant-admin@umbrella.test")
		for _, rt := range routes {
			if r := call(other, rt.method, rt.path, rt.body); r.status != rt.other {
				t.Errorf("the other tenant's admin: %s %s = %d %v, want %d", rt.method, rt.path, r.status, r.body, rt.other)
			}
		}
		for path, want := range map[string]int{"/api/v1/tenant/organizations": 1, "/api/v1/tenant/users": 1, "/api/v1/tenant/tokens": 0} {
			r := call(other, "GET", path, nil)
			if got := r.body["data"].([]any); len(got) != want {
				t.Errorf("the other tenant's admin sees %d in %s: %v", len(got), path, got)
			}
		}
		admin := e.signedIn("tenant-admin@acme.test")
		for _, rt := range routes {
			if r := call(admin, rt.method, rt.path, rt.body); r.status != rt.admin {
				t.Errorf("the tenant admin: %s %s = %d %v, want %d", rt.method, rt.path, r.status, r.body, rt.admin)
			}
		}
		// The tenant admin's lists hold only their tenant.
		r := call(admin, "GET", "/api/v1/tenant/users", nil)
		for _, u := range r.body["data"].([]any) {
			if dig(u, "email") == "tenant-admin@umbrella.test" {
				t.Error("the tenant admin sees another tenant's user")
			}
		}
		if r := call(admin, "PUT", "/api/v1/tenant/organizations/"+strconv.FormatInt(e.umbrella.ID, 10)+
			"/feature-flags/beacon_sunset", map[string]bool{"enabled": true}); r.status != http.StatusNotFound {
			t.Errorf("another tenant's organization = %d", r.status)
		}
		// Nor may they change their own account here.
		me, _ := s.UserByEmail(context.Background(), "tenant-admin@acme.test")
		if r := call(admin, "PUT", fmt.Sprintf("/api/v1/tenant/users/%d/disable", me.ID), nil); r.status != http.StatusForbidden {
			t.Errorf("disabling oneself = %d", r.status)
		}
	})
}

// The home lists each organization with its usage, limits, flags and settings; a change is
// stored and audited with the value before and after.
func TestTenantOrganizations(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		e := newTenantEnv(t, s)
		ctx := context.Background()
		if err := s.SetOrganizationLimits(ctx, e.acme.ID, 5000, 25); err != nil {
			t.Fatal(err)
		}
		admin := e.signedIn("tenant-admin@acme.test")
		r := admin.do("GET", "/api/v1/tenant/organizations", nil, withBearer(admin.bearer))
		orgs := r.body["data"].([]any)
		if len(orgs) != 2 || dig(orgs[0], "name") != "Acme" || dig(orgs[1], "name") != "Globex" {
			t.Fatalf("organizations = %v", orgs)
		}
		acme := orgs[0]
		if dig(acme, "usage", "members") != float64(4) || dig(acme, "usage", "savedSearches") != float64(0) ||
			dig(acme, "usage", "matchesThisMonth") != float64(0) || dig(acme, "monthly_data_limit") != float64(5000) ||
			dig(acme, "asset_limit") != float64(25) || dig(acme, "feature_flags", "share_searches") != true ||
			dig(acme, "is_moose_mind_enabled") != false {
			t.Errorf("Acme = %v", acme)
		}
		path := fmt.Sprintf("/api/v1/tenant/organizations/%d/", e.acme.ID)
		r = admin.do("PUT", path+"feature-flags/beacon_sunset", map[string]bool{"enabled": true}, withBearer(admin.bearer))
		if r.status != http.StatusOK || dig(r.body["data"], "feature_flags", "beacon_sunset") != true {
			t.Fatalf("flag = %d %v", r.status, r.body)
		}
		r = admin.do("PUT", path+"settings/is_moose_mind_enabled", map[string]bool{"enabled": true}, withBearer(admin.bearer))
		if r.status != http.StatusOK || dig(r.body["data"], "is_moose_mind_enabled") != true {
			t.Fatalf("setting = %d %v", r.status, r.body)
		}
		for _, bad := range []string{"feature-flags/no_such_flag", "settings/webhook_secret"} {
			if r := admin.do("PUT", path+bad, map[string]bool{"enabled": true}, withBearer(admin.bearer)); r.status != http.StatusNotFound {
				t.Errorf("%s = %d", bad, r.status)
			}
		}
		if r := admin.do("PUT", path+"settings/is_uspi_compliant", map[string]any{}, withBearer(admin.bearer)); r.status != http.StatusUnprocessableEntity {
			t.Errorf("without enabled = %d", r.status)
		}
		// The alerts' flood guard: a bound a saved search sends in 24 hours, 0 for the default.
		r = admin.do("PUT", path+"limits", map[string]int{"alert_daily_limit": 120}, withBearer(admin.bearer))
		if r.status != http.StatusOK || dig(r.body["data"], "alert_daily_limit") != float64(120) {
			t.Fatalf("alert limit = %d %v", r.status, r.body)
		}
		for _, bad := range []any{map[string]int{"alert_daily_limit": -1}, map[string]int{"alert_daily_limit": 10_001}, map[string]any{}} {
			if r := admin.do("PUT", path+"limits", bad, withBearer(admin.bearer)); r.status != http.StatusUnprocessableEntity {
				t.Errorf("alert limit %v = %d", bad, r.status)
			}
		}
		if org, err := s.Organization(ctx, e.acme.ID); err != nil || org.AlertDailyLimit != 120 {
			t.Errorf("stored alert limit = %d, %v", org.AlertDailyLimit, err)
		}
		// Admins switching different flags at once each keep their change.
		var wg sync.WaitGroup
		for _, flag := range []string{"share_searches", "shared_filter_warning", "proximity_notifications",
			"ai_summary_notifications", "monitor_global_filter_bar"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				admin.do("PUT", path+"feature-flags/"+flag, map[string]bool{"enabled": false}, withBearer(admin.bearer))
			}()
		}
		wg.Wait()
		org, _ := s.Organization(ctx, e.acme.ID)
		for flag, on := range org.FeatureFlags {
			if on != (flag == "beacon_sunset") {
				t.Errorf("after concurrent switches %s = %v", flag, on)
			}
		}
		r = admin.do("PUT", path+"feature-flags/share_searches", map[string]bool{"enabled": true}, withBearer(admin.bearer))
		if r.status != http.StatusOK {
			t.Fatalf("flag = %d %v", r.status, r.body)
		}
		org, _ = s.Organization(ctx, e.acme.ID)
		if !org.FeatureFlags["beacon_sunset"] || !org.IsMooseMindEnabled || !org.FeatureFlags["share_searches"] {
			t.Errorf("stored = %+v", org)
		}
		// The member now sees the flag in their profile.
		member := e.signedIn("analyst@acme.test")
		if r := member.do("GET", "/api/v1/settings/profile/current", nil, withBearer(member.bearer)); dig(r.body["data"], "organization", "feature_flags", "beacon_sunset") != true {
			t.Errorf("profile = %v", r.body)
		}
		log, _ := s.AuditLog(ctx, org.TenantID, 50)
		var flag, setting bool
		for _, a := range log {
			flag = flag || (a.Model == "flag" && a.Action == "updated" && a.PreviousValue == "beacon_sunset: false" && a.NewValue == "beacon_sunset: true")
			setting = setting || (a.Model == "organization" && a.PreviousValue == "is_moose_mind_enabled: false" && a.NewValue == "is_moose_mind_enabled: true")
		}
		if !flag || !setting {
			t.Errorf("audit = %+v", log)
		}
	})
}

// A tenant admin sets an organization's limits (issue 29: they were only in the database): they
// are checked, stored, audited and seen by its members; another tenant's admin finds
// no such organization (TestTenantPortalPermissions).
func TestTenantOrganizationLimits(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		e := newTenantEnv(t, s)
		ctx := context.Background()
		admin := e.signedIn("tenant-admin@acme.test")
		path := fmt.Sprintf("/api/v1/tenant/organizations/%d/limits", e.acme.ID)
		for _, bad := range []map[string]any{{"asset_limit": -1}, {"monthly_data_limit": 1_000_000_001}, {}} {
			if r := admin.do("PUT", path, bad, withBearer(admin.bearer)); r.status != http.StatusUnprocessableEntity {
				t.Errorf("%v = %d %v", bad, r.status, r.body)
			}
		}
		r := admin.do("PUT", path, map[string]int{"monthly_data_limit": 5000, "asset_limit": 1}, withBearer(admin.bearer))
		if r.status != http.StatusOK || dig(r.body["data"], "monthly_data_limit") != float64(5000) || dig(r.body["data"], "asset_limit") != float64(1) {
			t.Fatalf("limits = %d %v", r.status, r.body)
		}
		// Only the asset limit: the monthly one stays.
		r = admin.do("PUT", path, map[string]int{"asset_limit": 0}, withBearer(admin.bearer))
		if r.status != http.StatusOK || dig(r.body["data"], "monthly_data_limit") != float64(5000) || dig(r.body["data"], "asset_limit") != float64(0) {
			t.Fatalf("asset limit lifted = %d %v", r.status, r.body)
		}
		admin.do("PUT", path, map[string]int{"asset_limit": 1}, withBearer(admin.bearer))
		org, err := s.Organization(ctx, e.acme.ID)
		if err != nil || org.MonthlyDataLimit != 5000 || org.AssetLimit != 1 {
			t.Fatalf("stored = %+v (%v)", org, err)
		}
		log, _ := s.AuditLog(ctx, org.TenantID, 50)
		var audited bool
		for _, a := range log {
			audited = audited || (a.Model == "organization" && a.PreviousValue == "asset_limit: 0" && a.NewValue == "asset_limit: 1")
		}
		if !audited {
			t.Errorf("audit = %+v", log)
		}
		// The organization's members see the new limit.
		analyst := e.signedIn("analyst@acme.test")
		if r := analyst.do("GET", "/api/v1/settings/profile/current", nil, withBearer(analyst.bearer)); dig(r.body["data"], "organization", "asset_limit") != float64(1) {
			t.Errorf("the organization's limit as its members see it = %v", r.body)
		}
		// A member of the organization is not a tenant admin.
		if r := analyst.do("PUT", path, map[string]int{"asset_limit": 99}, withBearer(analyst.bearer)); r.status != http.StatusForbidden {
			t.Errorf("a member sets limits = %d", r.status)
		}
	})
}

// A tenant admin creates a user, changes their role and access, and disables them: their
// sessions end at once, their API tokens stop, they cannot sign in; enabled, they can again.
func TestTenantUsers(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		e := newTenantEnv(t, s)
		admin := e.signedIn("tenant-admin@acme.test")
		do := func(method, path string, body any) reply {
			return admin.do(method, path, body, withBearer(admin.bearer))
		}
		r := do("POST", "/api/v1/tenant/users", map[string]any{"name": "Rita", "email": "Rita@Globex.test",
			"organizationId": e.globex.ID, "role": "admin", "acl": map[string]bool{"beacon": true, "pro": false},
			"password": testPassword})
		if r.status != http.StatusCreated || dig(r.body["data"], "email") != "rita@globex.test" ||
			dig(r.body["data"], "organization", "name") != "Globex" || dig(r.body["data"], "role") != "admin" ||
			dig(r.body["data"], "acl", "pro") != false || dig(r.body["data"], "acl", "beacon") != true {
			t.Fatalf("create = %d %v", r.status, r.body)
		}
		rita := e.signedIn("rita@globex.test")
		for _, tt := range []struct {
			name  string
			body  map[string]any
			field string
		}{
			{"a taken e-mail", map[string]any{"email": "rita@globex.test", "organizationId": e.globex.ID, "password": "first-password-42"}, "email"},
			{"a short password", map[string]any{"email": "x@globex.test", "organizationId": e.globex.ID, "password": "short"}, "password"},
			{"no organization", map[string]any{"email": "x@globex.test", "password": "first-password-42"}, "organizationId"},
			{"another tenant's organization", map[string]any{"email": "x@globex.test", "organizationId": e.umbrella.ID, "password": "first-password-42"}, "organizationId"},
			{"a bad role", map[string]any{"email": "x@globex.test", "organizationId": e.globex.ID, "role": "king", "password": "first-password-42"}, "role"},
		} {
			r := do("POST", "/api/v1/tenant/users", tt.body)
			if r.status != http.StatusUnprocessableEntity || dig(r.body, "errors", tt.field) == nil {
				t.Errorf("%s: %d %v", tt.name, r.status, r.body)
			}
		}

		ritaID := int64(dig(r.body["data"], "id").(float64))
		path := fmt.Sprintf("/api/v1/tenant/users/%d", ritaID)
		// Rita is Globex's second owner-less admin: Globex's owner stays, so she may become owner and back.
		if r := do("PUT", path, map[string]any{"role": "owner", "acl": map[string]bool{"beacon": true, "pro": true}}); r.status != http.StatusOK ||
			dig(r.body["data"], "role") != "owner" || dig(r.body["data"], "acl", "pro") != true {
			t.Fatalf("update = %d %v", r.status, r.body)
		}
		globexOwner, _ := s.UserByEmail(context.Background(), "owner@globex.test")
		if r := do("PUT", fmt.Sprintf("/api/v1/tenant/users/%d", globexOwner.ID), map[string]any{"role": "member"}); r.status != http.StatusOK {
			t.Fatalf("demote one of two owners = %d %v", r.status, r.body)
		}
		if r := do("PUT", path, map[string]any{"role": "member"}); r.status != http.StatusUnprocessableEntity {
			t.Errorf("demoting the last owner = %d %v", r.status, r.body)
		}

		value, _, err := e.auth.CreateAPIToken(context.Background(), "rita@globex.test", "script", nil)
		if err != nil {
			t.Fatal(err)
		}
		viaToken := func() int {
			return rita.do("GET", "/api/v1/settings/profile/current", nil, withBearer(value)).status
		}
		if got := viaToken(); got != http.StatusOK {
			t.Fatalf("token = %d", got)
		}
		// Ending a session closes its live sockets through the auth service's SessionEnded
		// (internal/server).
		endedBefore := len(e.ended.since(0))
		if r := do("PUT", path+"/disable", nil); r.status != http.StatusOK || dig(r.body["data"], "disabled") != true {
			t.Fatalf("disable = %d %v", r.status, r.body)
		}
		if socketsClosed := e.ended.since(endedBefore); len(socketsClosed) != 1 || socketsClosed[0] != ritaID {
			t.Errorf("sessions ended with their sockets: %v, want Rita's (%d)", socketsClosed, ritaID)
		}
		if r := rita.do("GET", "/api/v1/settings/profile/current", nil, withBearer(rita.bearer)); r.status != http.StatusUnauthorized {
			t.Errorf("the disabled user's session = %d", r.status)
		}
		if r := rita.do("GET", "/api/v1/settings/profile/current", nil); r.status != http.StatusUnauthorized {
			t.Errorf("the disabled user's cookie = %d", r.status)
		}
		if got := viaToken(); got != http.StatusUnauthorized {
			t.Errorf("the disabled user's token = %d", got)
		}
		if r := do("GET", "/api/v1/tenant/tokens", nil); dig(r.body["data"].([]any)[0], "user", "disabled") != true {
			t.Errorf("the disabled user's token = %v", r.body)
		}
		again := e.client()
		if r := again.login("rita@globex.test"); r.status != http.StatusUnauthorized {
			t.Errorf("the disabled user signs in: %d %v", r.status, r.body)
		}
		if r := do("PUT", path+"/enable", nil); r.status != http.StatusOK || dig(r.body["data"], "disabled") != false {
			t.Fatalf("enable = %d %v", r.status, r.body)
		}
		if r := again.login("rita@globex.test"); r.status != http.StatusOK {
			t.Errorf("the enabled user cannot sign in: %d %v", r.status, r.body)
		}
		if got := viaToken(); got != http.StatusOK {
			t.Errorf("the enabled user's token = %d", got)
		}
		log, _ := s.AuditLog(context.Background(), e.acme.TenantID, 100)
		seen := map[string]bool{}
		for _, a := range log {
			if a.Model == "user" {
				seen[a.Action] = true
			}
		}
		for _, action := range []string{"created", "updated", "disabled", "enabled"} {
			if !seen[action] {
				t.Errorf("no user %s in the audit log: %+v", action, log)
			}
		}
	})
}

// A token made in the portal authenticates API calls as its user, records when it was last
// used, is what the CLI lists, and stops at once when revoked in the portal.
func TestTenantTokens(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		e := newTenantEnv(t, s)
		admin := e.signedIn("tenant-admin@acme.test")
		do := func(method, path string, body any) reply {
			return admin.do(method, path, body, withBearer(admin.bearer))
		}
		if r := do("GET", "/api/v1/tenant/tokens", nil); r.status != http.StatusOK || len(r.body["data"].([]any)) != 0 {
			t.Fatalf("tokens = %d %v", r.status, r.body)
		}
		for name, body := range map[string]map[string]any{
			"no name":               {"userId": e.analyst.ID},
			"an unknown scope":      {"name": "x", "userId": e.analyst.ID, "scopes": []string{"root"}},
			"a past expiry":         {"name": "x", "userId": e.analyst.ID, "expiresAt": time.Now().Add(-time.Hour).Unix()},
			"no user":               {"name": "x"},
			"another tenant's user": {"name": "x", "userId": mustUser(t, s, "tenant-admin@umbrella.test").ID},
		} {
			if r := do("POST", "/api/v1/tenant/tokens", body); r.status != http.StatusUnprocessableEntity {
				t.Errorf("%s: %d %v", name, r.status, r.body)
			}
		}
		expires := time.Now().Add(30 * 24 * time.Hour).Unix()
		r := do("POST", "/api/v1/tenant/tokens", map[string]any{"name": "dashboards", "userId": e.analyst.ID,
			"scopes": []string{"ingest"}, "expiresAt": expires})
		secret, _ := dig(r.body["data"], "token").(string)
		if r.status != http.StatusCreated || secret == "" || dig(r.body["data"], "user", "email") != "analyst@acme.test" ||
			dig(r.body["data"], "expiresAt") != float64(expires) {
			t.Fatalf("create = %d %v", r.status, r.body)
		}
		id := int64(dig(r.body["data"], "id").(float64))
		// The token is recognised (its scope, not the lack of a user, refuses the profile).
		script := e.client()
		r = script.do("GET", "/api/v1/settings/profile/current", nil, withBearer(secret))
		if r.status != http.StatusForbidden {
			t.Fatalf("the token = %d %v", r.status, r.body)
		}
		r = do("GET", "/api/v1/tenant/tokens", nil)
		list := r.body["data"].([]any)
		if len(list) != 1 || dig(list[0], "name") != "dashboards" || dig(list[0], "lastUsedAt") == float64(0) ||
			dig(list[0], "token") != nil {
			t.Fatalf("tokens = %v", list)
		}
		// The CLI's token commands read the same records.
		cli, err := e.auth.APITokens(context.Background(), "analyst@acme.test")
		if err != nil || len(cli) != 1 || cli[0].ID != id || cli[0].LastUsedAt.IsZero() {
			t.Fatalf("the CLI's list = %+v %v", cli, err)
		}
		if r := do("DELETE", fmt.Sprintf("/api/v1/tenant/tokens/%d", id), nil); r.status != http.StatusOK || dig(r.body["data"], "revokedAt") == float64(0) {
			t.Fatalf("revoke = %d %v", r.status, r.body)
		}
		if r := script.do("GET", "/api/v1/settings/profile/current", nil, withBearer(secret)); r.status != http.StatusUnauthorized {
			t.Errorf("a revoked token = %d", r.status)
		}
		if r := do("DELETE", "/api/v1/tenant/tokens/999999", nil); r.status != http.StatusNotFound {
			t.Errorf("an unknown token = %d", r.status)
		}
		log, _ := s.AuditLog(context.Background(), e.acme.TenantID, 100)
		var created, revoked bool
		for _, a := range log {
			created = created || (a.Model == "token" && a.Action == "created")
			revoked = revoked || (a.Model == "token" && a.Action == "revoked")
		}
		if !created || !revoked {
			t.Errorf("audit = %+v", log)
		}
	})
}

// A tenant admin makes tokens for the users of their tenant only, never for another tenant
// admin, and a token for someone else carries a scope and an expiry; its user sees it among their
// own tokens, with who made it, and may revoke it. Tenant A's admin can neither make, list nor
// revoke tenant B's tokens, nor B's admin A's.
func TestTenantTokensForOthers(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		e := newTenantEnv(t, s)
		ctx := context.Background()
		if _, err := e.accounts.CreateUser(ctx, account.NewUser{Organization: "Globex", Email: "second-admin@acme.test",
			Password: testPassword, Role: account.RoleMember, TenantAdmin: true}); err != nil {
			t.Fatal(err)
		}
		if _, err := e.accounts.CreateUser(ctx, account.NewUser{Tenant: "other", Organization: "Umbrella",
			Email: "analyst@umbrella.test", Password: testPassword, Role: account.RoleMember}); err != nil {
			t.Fatal(err)
		}
		admin, other := e.signedIn("tenant-admin@acme.test"), e.signedIn("tenant-admin@umbrella.test")
		call := func(c *client, method, path string, body any) reply {
			return c.do(method, path, body, withBearer(c.bearer))
		}
		month := time.Now().Add(30 * 24 * time.Hour).Unix()
		me := mustUser(t, s, "tenant-admin@acme.test")
		tests := []struct {
			name       string
			by         *client
			body       map[string]any
			want       int
			field, msg string
		}{
			{"for another tenant admin", admin, map[string]any{"name": "x", "userId": mustUser(t, s, "second-admin@acme.test").ID,
				"scopes": []string{"ingest"}, "expiresAt": month}, 403, "", authz.MsgMintForTenantAdmin},
			{"for another tenant's admin", admin, map[string]any{"name": "x", "userId": mustUser(t, s, "tenant-admin@umbrella.test").ID,
				"scopes": []string{"ingest"}, "expiresAt": month}, 422, "userId", ""},
			{"for another tenant's user", admin, map[string]any{"name": "x", "userId": mustUser(t, s, "analyst@umbrella.test").ID,
				"scopes": []string{"ingest"}, "expiresAt": month}, 422, "userId", ""},
			{"for this tenant's user, by the other tenant's admin", other, map[string]any{"name": "x", "userId": e.analyst.ID,
				"scopes": []string{"ingest"}, "expiresAt": month}, 422, "userId", ""},
			{"without a scope", admin, map[string]any{"name": "x", "userId": e.analyst.ID, "expiresAt": month},
				422, "scopes", auth.MsgMintedNeedsScope},
			{"without an expiry", admin, map[string]any{"name": "x", "userId": e.analyst.ID, "scopes": []string{"ingest"}},
				422, "expiresAt", auth.MsgMintedNeedsExpiry},
			{"for longer than a year", admin, map[string]any{"name": "x", "userId": e.analyst.ID, "scopes": []string{"ingest"},
				"expiresAt": time.Now().Add(400 * 24 * time.Hour).Unix()}, 422, "expiresAt", auth.MsgMintedTooLong},
			{"for oneself, unscoped and unending", admin, map[string]any{"name": "mine", "userId": me.ID}, 201, "", ""},
			{"for a user, scoped and ending", admin, map[string]any{"name": "feeder", "userId": e.analyst.ID,
				"scopes": []string{"ingest"}, "expiresAt": month}, 201, "", ""},
		}
		var minted int64
		for _, tt := range tests {
			r := call(tt.by, "POST", "/api/v1/tenant/tokens", tt.body)
			if r.status != tt.want || (tt.field != "" && dig(r.body, "errors", tt.field) == nil) ||
				(tt.msg != "" && dig(r.body, "message") != tt.msg) {
				t.Errorf("%s = %d %v, want %d on %q %q", tt.name, r.status, r.body, tt.want, tt.field, tt.msg)
			}
			if tt.body["name"] == "feeder" {
				minted = int64(dig(r.body, "data", "id").(float64))
				if dig(r.body, "data", "createdBy", "id") != float64(me.ID) {
					t.Errorf("the portal's token does not name its maker: %v", r.body)
				}
			}
		}
		if minted == 0 {
			t.Fatal("no token was made for the analyst")
		}
		// The other tenant's admin neither lists nor revokes it.
		if r := call(other, "GET", "/api/v1/tenant/tokens", nil); len(r.body["data"].([]any)) != 0 {
			t.Errorf("the other tenant's admin lists %v", r.body["data"])
		}
		if r := call(other, "DELETE", fmt.Sprintf("/api/v1/tenant/tokens/%d", minted), nil); r.status != http.StatusNotFound {
			t.Errorf("the other tenant's admin revokes = %d", r.status)
		}
		// Its user sees it with who made it, and revokes it; nobody else finds it.
		analyst := e.signedIn("analyst@acme.test")
		r := call(analyst, "GET", "/api/v1/settings/tokens", nil)
		list, _ := r.body["data"].([]any)
		if r.status != http.StatusOK || len(list) != 1 || dig(list[0], "id") != float64(minted) ||
			dig(list[0], "createdBy", "name") != me.Name || dig(list[0], "expiresAt") != float64(month) {
			t.Fatalf("the analyst's tokens = %d %v", r.status, r.body)
		}
		for _, c := range []*client{e.signedIn("owner@acme.test"), other, admin} {
			if r := call(c, "DELETE", fmt.Sprintf("/api/v1/settings/tokens/%d", minted), nil); r.status != http.StatusNotFound {
				t.Errorf("someone else revokes the analyst's token from settings = %d", r.status)
			}
		}
		if r := call(analyst, "DELETE", fmt.Sprintf("/api/v1/settings/tokens/%d", minted), nil); r.status != http.StatusOK ||
			dig(r.body, "data", "revokedAt") == float64(0) {
			t.Errorf("the analyst revokes it = %d %v", r.status, r.body)
		}
		if r := call(admin, "GET", "/api/v1/settings/tokens", nil); len(r.body["data"].([]any)) != 1 {
			t.Errorf("the admin's own tokens = %v", r.body["data"])
		}
	})
}

func mustUser(t *testing.T, s *store.Store, email string) account.User {
	t.Helper()
	u, err := s.UserByEmail(context.Background(), email)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
