package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/api"
	"github.com/sightline/sightline/internal/connector"
	"github.com/sightline/sightline/internal/connector/sources"
	"github.com/sightline/sightline/internal/outbound"
	"github.com/sightline/sightline/internal/sourcing"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// feedXML is an RSS feed of n items published a minute apart, the newest a minute ago.
func feedXML(n int) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0"?><rss version="2.0"><channel><title>Loopback news</title>`)
	for i := range n {
		at := time.Now().Add(-time.Duration(i+1) * time.Minute).UTC().Format(time.RFC1123Z)
		fmt.Fprintf(&b, `<item><title>Protest in the square, report %d</title><link>https://news.example.org/%d</link><guid>item-%d</guid><pubDate>%s</pubDate><description>Thousands gathered.</description></item>`, i, i, i, at)
	}
	b.WriteString(`</channel></rss>`)
	return b.String()
}

func sourcesService(s *store.Store) *sourcing.Service {
	builder := sources.Builder{Allow: outbound.Everywhere}
	build := func(r sourcing.Source, cursors connector.CursorStore, prefix string) ([]connector.Source, error) {
		return builder.BuildRow(r.Type, r.Name, r.Config, cursors, prefix)
	}
	return sourcing.NewService(sourcing.Deps{Store: s, Build: build, Interval: builder.Interval, Check: sources.CheckFloors,
		TestTimeout: 5 * time.Second})
}

// Tenant admins add, list, test, edit, switch off and delete their tenant's sources; members
// may not, another tenant's sources do not exist for them, and bad settings are refused with
// the field at fault.
func TestSources(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		feed := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/broken" {
				http.Error(w, "down", http.StatusInternalServerError)
				return
			}
			w.Header().Set("Content-Type", "application/rss+xml")
			io.WriteString(w, feedXML(3))
		}))
		defer feed.Close()
		e := newEnvWith(t, s, func(d *api.Deps) { d.Sources = sourcesService(s); d.SourceTypes = sources.Types() })
		ctx := context.Background()
		for _, u := range []account.NewUser{
			{Organization: "Acme", Email: "admin@acme.test", Password: testPassword, TenantAdmin: true, Role: account.RoleOwner},
			{Tenant: "initech", Organization: "Initech", Email: "admin@initech.test", Password: testPassword, TenantAdmin: true, Role: account.RoleOwner},
		} {
			if _, err := e.accounts.CreateUser(ctx, u); err != nil {
				t.Fatal(err)
			}
		}
		admin, member, other := e.client(), e.client(), e.client()
		admin.login("admin@acme.test")
		member.login("analyst@acme.test")
		other.login("admin@initech.test")
		as := func(c *client) opt { return withBearer(c.bearer) }

		r := admin.do("POST", "/api/v1/sources", map[string]any{"type": "rss", "name": "Loopback", "config": map[string]any{"url": feed.URL + "/rss"}}, as(admin))
		if r.status != http.StatusCreated {
			t.Fatalf("create: %d %v", r.status, r.body)
		}
		id := int64(dig(r.body, "data", "id").(float64))
		if dig(r.body, "data", "enabled") != true || dig(r.body, "data", "health", "state") != "pending" {
			t.Fatalf("created %v", r.body)
		}
		path := fmt.Sprintf("/api/v1/sources/%d", id)

		if r := admin.do("GET", "/api/v1/sources", nil, as(admin)); r.status != 200 || len(r.body["data"].([]any)) != 1 {
			t.Fatalf("list: %d %v", r.status, r.body)
		}
		if r := other.do("GET", "/api/v1/sources", nil, as(other)); r.status != 200 || len(r.body["data"].([]any)) != 0 {
			t.Fatalf("another tenant's list: %d %v", r.status, r.body)
		}
		for _, req := range []struct{ method, path string }{{"GET", path}, {"PATCH", path}, {"DELETE", path}, {"POST", path + "/test"}} {
			if r := other.do(req.method, req.path, map[string]any{}, as(other)); r.status != http.StatusNotFound {
				t.Errorf("another tenant's %s %s: %d", req.method, req.path, r.status)
			}
		}
		for _, req := range []struct{ method, path string }{{"GET", "/api/v1/sources"}, {"POST", "/api/v1/sources"}, {"GET", "/api/v1/sources/health"},
			{"POST", "/api/v1/sources/test"}, {"PATCH", path}, {"DELETE", path}} {
			if r := member.do(req.method, req.path, map[string]any{"type": "rss"}, as(member)); r.status != http.StatusForbidden {
				t.Errorf("member's %s %s: %d", req.method, req.path, r.status)
			}
		}

		for _, tt := range []struct {
			body  map[string]any
			field string
			msg   string
		}{
			{map[string]any{"name": "x", "config": map[string]any{}}, "type", "Choose the type"},
			{map[string]any{"type": "myspace", "name": "x"}, "type", "must be one of"},
			{map[string]any{"type": "rss", "config": map[string]any{"url": "https://x.example/rss"}}, "name", "Give the source a name"},
			{map[string]any{"type": "rss", "name": "x", "config": map[string]any{}}, "config.url", "feed's address"},
			{map[string]any{"type": "rss", "name": "x", "config": map[string]any{"url": "gopher://x"}}, "config", "absolute http or https"},
			{map[string]any{"type": "mastodon", "name": "x", "config": map[string]any{"timeline": "public"}}, "config.timeline", "no setting"},
			{map[string]any{"type": "rss", "name": "Loopback", "config": map[string]any{"url": feed.URL}}, "name", "exists already"},
		} {
			r := admin.do("POST", "/api/v1/sources", tt.body, as(admin))
			msgs, _ := dig(r.body, "errors", tt.field).([]any)
			if r.status != http.StatusUnprocessableEntity || len(msgs) == 0 || !strings.Contains(msgs[0].(string), tt.msg) {
				t.Errorf("%v: %d %v, want 422 on %s: %s", tt.body, r.status, r.body, tt.field, tt.msg)
			}
		}

		// A test fetch previews the items and stores nothing; a failing one says why.
		r = admin.do("POST", "/api/v1/sources/test", map[string]any{"type": "rss", "config": map[string]any{"url": feed.URL + "/rss"}}, as(admin))
		items, _ := dig(r.body, "data", "items").([]any)
		if r.status != 200 || dig(r.body, "data", "ok") != true || len(items) != 3 || !strings.Contains(dig(items[0], "title_text").(string), "Protest") {
			t.Fatalf("test: %d %v", r.status, r.body)
		}
		r = admin.do("POST", path+"/test", map[string]any{"config": map[string]any{"url": feed.URL + "/broken"}}, as(admin))
		if r.status != 200 || dig(r.body, "data", "ok") != false || !strings.Contains(dig(r.body, "data", "error").(string), "500") {
			t.Fatalf("failing test: %d %v", r.status, r.body)
		}
		if n, _, _ := s.CountPosts(ctx); n != 0 {
			t.Fatalf("a test fetch stored %d posts", n)
		}

		r = admin.do("PATCH", path, map[string]any{"enabled": false}, as(admin))
		if r.status != 200 || dig(r.body, "data", "enabled") != false || dig(r.body, "data", "health", "state") != "disabled" {
			t.Fatalf("disable: %d %v", r.status, r.body)
		}
		r = admin.do("PATCH", path, map[string]any{"name": "Loopback news", "config": map[string]any{"url": feed.URL + "/rss", "interval": "1m"}}, as(admin))
		if r.status != 200 || dig(r.body, "data", "name") != "Loopback news" || dig(r.body, "data", "config", "interval") != "1m" {
			t.Fatalf("edit: %d %v", r.status, r.body)
		}
		r = admin.do("GET", "/api/v1/sources/health", nil, as(admin))
		if r.status != 200 || dig(r.body, "data", "failing") != float64(0) || len(dig(r.body, "data", "sources").([]any)) != 1 {
			t.Fatalf("health: %d %v", r.status, r.body)
		}
		tenant, _ := s.TenantByName(ctx, account.DefaultTenant)
		audit, err := s.AuditLog(ctx, tenant.ID, 10)
		var actions []string
		for _, a := range audit {
			if a.Model == "source" {
				actions = append(actions, a.Action)
			}
		}
		if err != nil || strings.Join(actions, ",") != "updated,disabled,created" && strings.Join(actions, ",") != "created,disabled,updated" {
			t.Fatalf("audit: %v %v", actions, err)
		}
		if r := admin.do("DELETE", path, nil, as(admin)); r.status != 200 {
			t.Fatalf("delete: %d %v", r.status, r.body)
		}
		if r := admin.do("GET", path, nil, as(admin)); r.status != http.StatusNotFound {
			t.Fatalf("deleted source: %d", r.status)
		}
	})
}

// The post format's contract is public.
func TestIngestSchema(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		e := newEnv(t, s)
		r := e.client().do("GET", "/api/v1/ingest/schema", nil)
		if r.status != 200 || r.header.Get("Content-Type") != "application/schema+json" || dig(r.body, "title") != "Sightline post" {
			t.Fatalf("%d %v", r.status, r.body)
		}
	})
}

// A wait below its type's floor is refused with 422 naming the setting, on creation and on an
// edit; a tenant holding as many sources as the cap allows is refused another with the Source
// Limit dialog, while another tenant still adds its own.
func TestSourceFloorsAndCap(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		s.SetCaps(account.Caps{SourcesPerTenant: 2})
		e := newEnvWith(t, s, func(d *api.Deps) { d.Sources = sourcesService(s); d.SourceTypes = sources.Types() })
		ctx := context.Background()
		for _, u := range []account.NewUser{
			{Organization: "Acme", Email: "admin@acme.test", Password: testPassword, TenantAdmin: true, Role: account.RoleOwner},
			{Tenant: "initech", Organization: "Initech", Email: "admin@initech.test", Password: testPassword, TenantAdmin: true, Role: account.RoleOwner},
		} {
			if _, err := e.accounts.CreateUser(ctx, u); err != nil {
				t.Fatal(err)
			}
		}
		a, b := e.client(), e.client()
		a.login("admin@acme.test")
		b.login("admin@initech.test")
		rss := func(name, interval string) map[string]any {
			config := map[string]any{"url": "https://news.example.org/" + name}
			if interval != "" {
				config["interval"] = interval
			}
			return map[string]any{"type": "rss", "name": name, "config": config}
		}
		for _, tt := range []struct {
			body  map[string]any
			field string
		}{
			{rss("hammer", "1ms"), "config.interval"},
			{map[string]any{"type": "hackernews", "name": "hn", "config": map[string]any{"interval": "1s"}}, "config.interval"},
			{map[string]any{"type": "rss", "name": "retry", "config": map[string]any{"url": "https://x.example/rss", "backoff": map[string]any{"initial": "1ms"}}}, "config.backoff.initial"},
		} {
			r := a.do("POST", "/api/v1/sources", tt.body, withBearer(a.bearer))
			msgs, _ := dig(r.body, "errors", tt.field).([]any)
			if r.status != http.StatusUnprocessableEntity || len(msgs) == 0 || !strings.Contains(msgs[0].(string), "at least") {
				t.Errorf("%v: %d %v, want 422 on %s", tt.body, r.status, r.body, tt.field)
			}
		}
		r := a.do("POST", "/api/v1/sources", rss("wire", "1m"), withBearer(a.bearer))
		if r.status != http.StatusCreated {
			t.Fatalf("create at the floor: %d %v", r.status, r.body)
		}
		path := fmt.Sprintf("/api/v1/sources/%d", int64(dig(r.body, "data", "id").(float64)))
		r = a.do("PATCH", path, map[string]any{"config": map[string]any{"url": "https://news.example.org/wire", "interval": "10s"}}, withBearer(a.bearer))
		if msgs, _ := dig(r.body, "errors", "config.interval").([]any); r.status != http.StatusUnprocessableEntity || len(msgs) == 0 {
			t.Errorf("edit under the floor: %d %v", r.status, r.body)
		}

		if r := a.do("POST", "/api/v1/sources", rss("second", ""), withBearer(a.bearer)); r.status != http.StatusCreated {
			t.Fatalf("second source: %d %v", r.status, r.body)
		}
		r = a.do("POST", "/api/v1/sources", rss("third", ""), withBearer(a.bearer))
		if r.status != http.StatusUnprocessableEntity || r.body["limitExceeded"] != true || r.body["title"] != "Source Limit Reached" ||
			!strings.Contains(r.body["description"].(string), "ask the operator") {
			t.Errorf("beyond the cap: %d %v", r.status, r.body)
		}
		if r := b.do("POST", "/api/v1/sources", rss("theirs", ""), withBearer(b.bearer)); r.status != http.StatusCreated {
			t.Errorf("another tenant's first source: %d %v", r.status, r.body)
		}
	})
}

// A source's credentials never reach the browser in full: the replies show that one is set
// (masked), an edit that sends the mask back keeps the stored credential and one that sends a new
// value replaces it; the audit log holds none (the row's sealing is internal/store's
// TestSourceCredentialsAreSealedAtRest).
func TestSourceCredentialsNeverShown(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		e := newEnvWith(t, s, func(d *api.Deps) { d.Sources = sourcesService(s); d.SourceTypes = sources.Types() })
		ctx := context.Background()
		if _, err := e.accounts.CreateUser(ctx, account.NewUser{Organization: "Acme", Email: "admin@acme.test",
			Password: testPassword, TenantAdmin: true, Role: account.RoleOwner}); err != nil {
			t.Fatal(err)
		}
		a := e.client()
		a.login("admin@acme.test")
		as := withBearer(a.bearer)
		r := a.do("POST", "/api/v1/sources", map[string]any{"type": "mastodon", "name": "Social",
			"config": map[string]any{"baseURL": "https://social.example.org", "token": "tok-s3cr3t", "timelines": []string{"public"}}}, as)
		if r.status != http.StatusCreated || dig(r.body, "data", "config", "token") != sourcing.Mask {
			t.Fatalf("create: %d %v", r.status, r.body)
		}
		id := int64(dig(r.body, "data", "id").(float64))
		path := fmt.Sprintf("/api/v1/sources/%d", id)
		stored := func() string {
			src, err := s.Source(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			var c struct{ Token string }
			_ = json.Unmarshal(src.Config, &c)
			return c.Token
		}

		// The form sends back what it was shown, with another timeline.
		r = a.do("PATCH", path, map[string]any{"config": map[string]any{"baseURL": "https://social.example.org", "token": sourcing.Mask,
			"timelines": []string{"public:local"}}}, as)
		if r.status != 200 || stored() != "tok-s3cr3t" || dig(r.body, "data", "config", "timelines").([]any)[0] != "public:local" {
			t.Fatalf("edit keeping the token: %d %v, stored %q", r.status, r.body, stored())
		}
		r = a.do("PATCH", path, map[string]any{"config": map[string]any{"baseURL": "https://social.example.org", "token": "tok2-s3cr3t"}}, as)
		if r.status != 200 || stored() != "tok2-s3cr3t" || dig(r.body, "data", "config", "token") != sourcing.Mask {
			t.Fatalf("edit changing the token: %d %v, stored %q", r.status, r.body, stored())
		}
		for _, p := range []string{"/api/v1/sources", path} {
			r := a.do("GET", p, nil, as)
			raw, _ := json.Marshal(r.body)
			if r.status != 200 || strings.Contains(string(raw), "s3cr3t") || !strings.Contains(string(raw), sourcing.Mask) {
				t.Errorf("GET %s: %d %s", p, r.status, raw)
			}
		}
		tenant, _ := s.TenantByName(ctx, account.DefaultTenant)
		audit, err := s.AuditLog(ctx, tenant.ID, 10)
		if err != nil || len(audit) < 3 {
			t.Fatalf("audit %v, %v", audit, err)
		}
		for _, entry := range audit {
			if strings.Contains(entry.PreviousValue+entry.NewValue, "s3cr3t") {
				t.Errorf("the audit log holds a credential: %+v", entry)
			}
		}
	})
}

// Two tenants, each with a source: neither tenant's admin can list, read, edit, switch off,
// test or delete the other's source, whose ids answer 404 as if they did not exist (not 403),
// nor see it in the sources' health or the ingest stats; the other's source is left as it was.
func TestSourcesTwoTenants(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		e := newIngestEnv(t, s, 0)
		ctx := context.Background()
		for _, u := range []account.NewUser{
			{Organization: "Acme", Email: "admin@acme.test", Password: testPassword, TenantAdmin: true, Role: account.RoleOwner},
			{Tenant: "initech", Organization: "Initech", Email: "admin@initech.test", Password: testPassword, TenantAdmin: true, Role: account.RoleOwner},
		} {
			if _, err := e.accounts.CreateUser(ctx, u); err != nil {
				t.Fatal(err)
			}
		}
		type side struct {
			token, source string
			id            int64
		}
		a := &side{token: e.token("admin@acme.test", "admin"), source: "acme-wire"}
		b := &side{token: e.token("admin@initech.test", "admin"), source: "initech-private"}
		c := e.client()
		for _, sd := range []*side{a, b} {
			r := c.do("POST", "/api/v1/sources", map[string]any{"type": "rss", "name": sd.source,
				"config": map[string]any{"url": "https://feeds.example.org/" + sd.source}}, withBearer(sd.token))
			if r.status != http.StatusCreated {
				t.Fatalf("create %s: %d %v", sd.source, r.status, r.body)
			}
			sd.id = int64(dig(r.body, "data", "id").(float64))
			if _, err := s.ClaimSources(ctx, "node", time.Now(), time.Now().Add(time.Minute)); err != nil {
				t.Fatal(err)
			}
			if err := s.SaveSourceReport(ctx, sd.id, "node", sourcing.Report{ReportedAt: time.Now().UTC(),
				Stats: connector.Stats{Source: "rss:" + sd.source, LastSuccess: time.Now().UTC()}}); err != nil {
				t.Fatal(err)
			}
		}
		for _, pair := range []struct{ me, them *side }{{a, b}, {b, a}} {
			me, them := pair.me, pair.them
			t.Run(me.source+" against "+them.source, func(t *testing.T) {
				theirs := fmt.Sprintf("/api/v1/sources/%d", them.id)
				for _, req := range []struct {
					method, path string
					body         any
				}{
					{"GET", theirs, nil},
					{"PATCH", theirs, map[string]any{"name": "taken over", "enabled": false}},
					{"PATCH", theirs, map[string]any{"config": map[string]any{"url": "https://attacker.example/rss"}}},
					{"POST", theirs + "/test", map[string]any{}},
					{"DELETE", theirs, nil},
				} {
					if r := c.do(req.method, req.path, req.body, withBearer(me.token)); r.status != http.StatusNotFound {
						t.Errorf("%s %s: %d %v, want 404", req.method, req.path, r.status, r.body)
					}
				}
				for _, path := range []string{"/api/v1/sources", "/api/v1/sources/health", "/api/v1/ingest/stats"} {
					r := c.do("GET", path, nil, withBearer(me.token))
					raw, _ := json.Marshal(r.body)
					if r.status != 200 || !strings.Contains(string(raw), me.source) || strings.Contains(string(raw), them.source) {
						t.Errorf("GET %s: %d %s, want %s's source only", path, r.status, raw, me.source)
					}
				}
				// Their source is as they left it.
				got, err := s.Source(ctx, them.id)
				if err != nil || got.Name != them.source || !got.Enabled || !strings.Contains(string(got.Config), them.source) {
					t.Errorf("their source became %+v, %v", got, err)
				}
			})
		}
	})
}

// A server without internet: the sources that never reached their addresses are not the top
// bar's warning, and the health reply says once that the server is offline. A source that worked
// and stopped is the warning.
func TestSourcesHealthOffline(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		e := newEnvWith(t, s, func(d *api.Deps) { d.Sources = sourcesService(s); d.SourceTypes = sources.Types() })
		ctx := context.Background()
		if _, err := e.accounts.CreateUser(ctx, account.NewUser{Organization: "Acme", Email: "admin@acme.test",
			Password: testPassword, TenantAdmin: true, Role: account.RoleOwner}); err != nil {
			t.Fatal(err)
		}
		admin := e.client()
		admin.login("admin@acme.test")
		for i := range 3 {
			r := admin.do("POST", "/api/v1/sources", map[string]any{"type": "rss", "name": fmt.Sprint("Feed ", i),
				"config": map[string]any{"url": fmt.Sprintf("https://feed%d.example/rss", i)}}, withBearer(admin.bearer))
			if r.status != http.StatusCreated && r.status != http.StatusOK {
				t.Fatalf("create: %d %v", r.status, r.body)
			}
		}
		now := time.Now()
		held, err := s.ClaimSources(ctx, "node", now, now.Add(time.Minute))
		if err != nil || len(held) != 3 {
			t.Fatalf("claimed %d sources (%v), want 3", len(held), err)
		}
		report := func(src sourcing.Source, st connector.Stats) {
			if err := s.SaveSourceReport(ctx, src.ID, "node", sourcing.Report{ReportedAt: time.Now(), Stats: st}); err != nil {
				t.Fatal(err)
			}
		}
		noAnswer := connector.Stats{Failures: 5, Unreachable: true, LastError: "lookup feed.example: no such host"}
		for _, src := range held {
			report(src, noAnswer)
		}
		r := admin.do("GET", "/api/v1/sources/health", nil, withBearer(admin.bearer))
		if r.status != 200 || dig(r.body, "data", "offline") != true || dig(r.body, "data", "failing") != float64(0) ||
			dig(r.body, "data", "message") != sourcing.OfflineMessage {
			t.Fatalf("offline: %d %v", r.status, r.body)
		}

		stopped := noAnswer
		stopped.LastSuccess = now.Add(-time.Hour)
		report(held[0], stopped)
		r = admin.do("GET", "/api/v1/sources/health", nil, withBearer(admin.bearer))
		if r.status != 200 || dig(r.body, "data", "offline") != false || dig(r.body, "data", "failing") != float64(1) {
			t.Fatalf("one worked before: %d %v", r.status, r.body)
		}
	})
}
