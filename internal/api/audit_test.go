package api_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/announce"
	"github.com/sightline/sightline/internal/api"
	"github.com/sightline/sightline/internal/audit"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// auditEnv is newEnv's people (default tenant) plus a tenant admin of the default tenant and a
// tenant admin of another tenant, with the Monitor, the audit log and announcements.
type auditEnv struct {
	*env
	monitor *monitor.Service
}

func newAuditEnv(t *testing.T, s *store.Store) *auditEnv {
	t.Helper()
	te := &auditEnv{env: newEnv(t, s), monitor: monitor.NewService(monitor.Deps{Store: s, Inbox: s})}
	h := api.New(api.Deps{Accounts: te.accounts, Auth: te.auth, Health: s.Ping, Monitor: te.monitor,
		AuditLog: audit.NewLog(s), Announcements: announce.NewService(s),
		App: api.AppHandler(nil, false), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	te.srv.Close()
	te.srv = httptest.NewServer(h)
	t.Cleanup(te.srv.Close)
	for _, n := range []account.NewUser{
		{Organization: "Acme", Email: "admin@acme.test", Role: account.RoleAdmin, TenantAdmin: true},
		{Tenant: "other", Organization: "Initech", Email: "admin@initech.test", Role: account.RoleOwner, TenantAdmin: true},
		{Tenant: "other", Organization: "Initech", Email: "user@initech.test", Role: account.RoleMember},
	} {
		n.Password = testPassword
		if _, err := te.accounts.CreateUser(context.Background(), n); err != nil {
			t.Fatal(err)
		}
	}
	return te
}

func (te *auditEnv) signedIn(email string) *client {
	te.t.Helper()
	c := te.client()
	if r := c.login(email); r.status != http.StatusOK {
		te.t.Fatalf("login %s = %d", email, r.status)
	}
	return c
}

// raw sends a GET and returns the status, content type and body as they are.
func (c *client) raw(path string) (int, string, string) {
	c.e.t.Helper()
	resp, err := c.http.Get(c.e.srv.URL + path)
	if err != nil {
		c.e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(b)
}

func TestAuditLogAPI(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		te := newAuditEnv(t, s)
		ctx := context.Background()
		owner := te.actor("owner@acme.test")
		groups, err := te.monitor.Groups(ctx, owner)
		if err != nil || len(groups) == 0 {
			t.Fatal(groups, err)
		}
		sv, err := te.monitor.CreateSearch(ctx, owner, monitor.SearchInput{GroupID: groups[0].ID, Name: "River",
			Keywords: "flood", Providers: []string{"twitter"}})
		if err != nil {
			t.Fatal(err)
		}
		oc := te.signedIn("owner@acme.test")
		if r := oc.do("PUT", fmt.Sprintf("/api/v1/monitor/searches/%d", sv.ID), map[string]any{"group_id": groups[0].ID,
			"name": "River", "keywords": "flood OR inondation", "providers": []string{"twitter"}}, withXSRF(oc)); r.status != 200 {
			t.Fatalf("edit search = %d %v", r.status, r.body)
		}

		admin := te.signedIn("admin@acme.test")
		r := admin.do("GET", "/api/v1/tenant/audit-logs?model=search&action=updated", nil)
		rows, _ := dig(r.body, "data", "data").([]any)
		if r.status != 200 || len(rows) != 1 {
			t.Fatalf("audit logs = %d %v", r.status, r.body)
		}
		row := rows[0]
		if dig(row, "previous_value", "keywords") != "flood" || dig(row, "new_value", "keywords") != "flood OR inondation" ||
			dig(row, "actor", "email") != "owner@acme.test" || dig(row, "organization", "name") != "Acme" ||
			dig(row, "model") != "search" || dig(row, "created_at") == "" {
			t.Errorf("row = %v", row)
		}

		// Access: members are refused; another tenant's admin sees only their own tenant (nothing).
		analyst := te.signedIn("analyst@acme.test")
		for _, path := range []string{"/api/v1/tenant/audit-logs", "/api/v1/tenant/audit-logs.csv", "/api/v1/tenant/audit-logs?format=csv"} {
			if status, _, _ := analyst.raw(path); status != http.StatusForbidden {
				t.Errorf("member GET %s = %d, want 403", path, status)
			}
		}
		other := te.signedIn("admin@initech.test")
		r = other.do("GET", "/api/v1/tenant/audit-logs?model=search", nil)
		if rows, _ := dig(r.body, "data", "data").([]any); r.status != 200 || len(rows) != 0 || dig(r.body, "data", "meta", "total") != 0.0 {
			t.Errorf("other tenant's admin = %d %v", r.status, r.body)
		}

		// Paging: 50 a page, newest first.
		tenantID := te.actor("admin@acme.test").TenantID
		for i := range 60 {
			s.AddAudit(ctx, account.AuditEntry{TenantID: tenantID, Model: "group", Action: "created", NewValue: fmt.Sprintf(`{"n":%d}`, i)})
		}
		r = admin.do("GET", "/api/v1/tenant/audit-logs?model=group&page=2", nil)
		rows, _ = dig(r.body, "data", "data").([]any)
		if len(rows) != 10 || dig(r.body, "data", "meta", "total") != 60.0 || dig(r.body, "data", "meta", "last_page") != 2.0 ||
			dig(rows[0], "new_value", "n") != 9.0 {
			t.Errorf("page 2 = %d rows, meta %v, first %v", len(rows), dig(r.body, "data", "meta"), rows[0])
		}
		for _, bad := range []string{"from=yesterday", "userId=abc", "from=2026-03-02&to=2026-03-01"} {
			if r := admin.do("GET", "/api/v1/tenant/audit-logs?"+bad, nil); r.status != 422 {
				t.Errorf("%s = %d, want 422", bad, r.status)
			}
		}
		if r := admin.do("GET", "/api/v1/tenant/audit-logs?from=2000-01-01&to=2000-01-02", nil); dig(r.body, "data", "meta", "total") != 0.0 {
			t.Errorf("a day long ago = %v", r.body)
		}

		// The CSV download: same filters, every row, no formula cells.
		for _, path := range []string{"/api/v1/tenant/audit-logs.csv?model=search", "/api/v1/tenant/audit-logs?model=search&format=csv"} {
			status, ctype, body := admin.raw(path)
			lines := strings.Split(strings.TrimSpace(body), "\n")
			if status != 200 || !strings.HasPrefix(ctype, "text/csv") || !strings.HasPrefix(lines[0], "date,model,model_id,action") ||
				len(lines) != 3 || !strings.Contains(body, `""keywords"":""flood OR inondation""`) {
				t.Errorf("%s = %d %s\n%s", path, status, ctype, body)
			}
		}
		if status, _, body := other.raw("/api/v1/tenant/audit-logs.csv"); status != 200 || strings.Contains(body, "acme") ||
			!strings.Contains(body, "initech") {
			t.Errorf("other tenant's CSV = %d\n%s", status, body)
		}
	})
}

func TestAnnouncementsAPI(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		te := newAuditEnv(t, s)
		admin, analyst, owner := te.signedIn("admin@acme.test"), te.signedIn("analyst@acme.test"), te.signedIn("owner@acme.test")
		otherAdmin, otherUser := te.signedIn("admin@initech.test"), te.signedIn("user@initech.test")

		if r := analyst.do("POST", "/api/v1/tenant/announcements", map[string]string{"title": "Hi", "body": "x"}, withXSRF(analyst)); r.status != 403 {
			t.Errorf("member publishes = %d, want 403", r.status)
		}
		for _, bad := range []map[string]string{{"title": "", "body": "x"}, {"title": "x", "body": ""},
			{"title": "x", "body": strings.Repeat("a", 501)}, {"title": strings.Repeat("t", 121), "body": "x"}} {
			if r := admin.do("POST", "/api/v1/tenant/announcements", bad, withXSRF(admin)); r.status != 422 {
				t.Errorf("publish %v = %d, want 422", bad, r.status)
			}
		}
		r := admin.do("POST", "/api/v1/tenant/announcements", map[string]string{"title": "Maintenance",
			"body": strings.Repeat("b", 500)}, withXSRF(admin))
		if r.status != 201 || dig(r.body, "data", "title") != "Maintenance" {
			t.Fatalf("publish = %d %v", r.status, r.body)
		}
		id := dig(r.body, "data", "id").(float64)
		otherAdmin.do("POST", "/api/v1/tenant/announcements", map[string]string{"title": "Initech news", "body": "Hello"}, withXSRF(otherAdmin))

		unread := func(c *client) (float64, int) {
			t.Helper()
			r := c.do("GET", "/api/v1/announcements", nil)
			list, _ := dig(r.body, "data", "announcements").([]any)
			n, _ := dig(r.body, "data", "unread").(float64)
			return n, len(list)
		}
		if n, l := unread(admin); n != 0 || l != 1 {
			t.Errorf("author: unread %v of %d, want their own read", n, l)
		}
		if n, l := unread(analyst); n != 1 || l != 1 {
			t.Errorf("analyst before reading: unread %v of %d", n, l)
		}
		if r := analyst.do("POST", "/api/v1/announcements/read", nil, withXSRF(analyst)); r.status != 200 || dig(r.body, "data", "unread") != 0.0 {
			t.Errorf("read all = %d %v", r.status, r.body)
		}
		if n, l := unread(analyst); n != 0 || l != 1 {
			t.Errorf("analyst after reading: unread %v of %d", n, l)
		}
		if n, _ := unread(owner); n != 1 {
			t.Errorf("owner's unread = %v: read state is per user", n)
		}
		if n, l := unread(otherUser); n != 1 || l != 1 {
			t.Errorf("other tenant's user sees %v unread of %d, want only their own tenant's", n, l)
		}
		// Marking another tenant's announcement read does nothing.
		otherUser.do("POST", "/api/v1/announcements/read", map[string]any{"ids": []float64{id}}, withXSRF(otherUser))
		if n, _ := unread(otherUser); n != 1 {
			t.Errorf("other tenant's user unread = %v after marking a foreign id", n)
		}
		path := fmt.Sprintf("/api/v1/tenant/announcements/%d", int64(id))
		if r := otherAdmin.do("DELETE", path, nil, withXSRF(otherAdmin)); r.status != 404 {
			t.Errorf("other tenant's admin deletes = %d, want 404", r.status)
		}
		if r := admin.do("DELETE", path, nil, withXSRF(admin)); r.status != 200 {
			t.Errorf("delete = %d %v", r.status, r.body)
		}
		if n, l := unread(owner); n != 0 || l != 0 {
			t.Errorf("after delete: unread %v of %d", n, l)
		}
		r = admin.do("GET", "/api/v1/tenant/audit-logs?model=announcement", nil)
		rows, _ := dig(r.body, "data", "data").([]any)
		if len(rows) != 2 || dig(rows[0], "action") != "deleted" || dig(rows[1], "new_value", "title") != "Maintenance" {
			t.Errorf("announcement audit rows = %v", rows)
		}
	})
}
