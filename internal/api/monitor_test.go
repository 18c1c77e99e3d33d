package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/api"
	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
	"github.com/sightline/sightline/internal/story"
)

// monitorEnv is an API with the Monitor over a real store.
func monitorEnv(t *testing.T, s *store.Store) (*env, *monitor.Service) {
	t.Helper()
	e := newEnv(t, s)
	svc := monitor.NewService(monitor.Deps{Store: s, Inbox: s})
	h := api.New(api.Deps{Accounts: e.accounts, Auth: e.auth, Monitor: svc, Stories: story.NewService(s), Health: s.Ping,
		App: api.AppHandler(nil, false), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	e.srv.Close()
	e.srv = httptest.NewServer(h)
	t.Cleanup(e.srv.Close)
	return e, svc
}

func (e *env) actor(email string) authz.Actor {
	e.t.Helper()
	u, err := e.store.UserByEmail(context.Background(), email)
	if err != nil {
		e.t.Fatal(err)
	}
	role, _ := e.store.MembershipRole(context.Background(), u.OrganizationID, u.ID)
	return auth.Identity{User: u, Role: role}.Actor()
}

func (e *env) bearerFor(email string) string {
	e.t.Helper()
	token, _, err := e.auth.CreateAPIToken(context.Background(), email, "test", nil)
	if err != nil {
		e.t.Fatal(err)
	}
	return token
}

// The access matrix: every kind of person, every group privacy, every Monitor endpoint.
func TestMonitorAccessMatrix(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		e, svc := monitorEnv(t, s)
		ctx := context.Background()
		e.createUser("Acme", "viewer@acme.test", account.RoleMember)
		e.createUser("Acme", "editor@acme.test", account.RoleMember)
		owner := e.actor("owner@acme.test")
		tokens := map[string]string{}

		type person struct {
			email  string
			share  string // role on the group
			expect func(privacy string) (authz.Level, bool)
		}
		people := []person{
			{"owner@acme.test", "", func(string) (authz.Level, bool) { return authz.LevelOwn, false }},
			{"owner@globex.test", "", func(string) (authz.Level, bool) { return authz.LevelNone, false }},
			{"analyst@acme.test", "", func(p string) (authz.Level, bool) {
				return map[string]authz.Level{"private": authz.LevelNone, "readonly": authz.LevelView, "shared": authz.LevelEdit}[p], false
			}},
			{"viewer@acme.test", authz.RoleReadOnly, func(p string) (authz.Level, bool) {
				if p == "shared" {
					return authz.LevelEdit, false
				}
				return authz.LevelView, false
			}},
			{"editor@acme.test", authz.RoleFullAccess, func(string) (authz.Level, bool) { return authz.LevelEdit, true }},
		}
		type endpoint struct {
			name   string
			method string
			path   string // {group}, {search} and {home} (the caller's Uncategorized group) are ids
			body   string
			want   func(level authz.Level, directFull bool) int
		}
		seeAll := func(l authz.Level, _ bool) int { return pick(l, 200, 200, 200) }
		edit := func(l authz.Level, _ bool) int { return pick(l, 403, 200, 200) }
		detach := func(l authz.Level, _ bool) int { return pick(l, 200, 200, 403) }
		endpoints := []endpoint{
			{"read group", "GET", "/api/v1/monitor/monitor-search-groups/{group}", "", seeAll},
			{"rename group", "PUT", "/api/v1/monitor/monitor-search-groups/{group}", `{"name":"Renamed"}`, edit},
			{"share group", "PUT", "/api/v1/monitor/monitor-search-groups/{group}", `{"sharedUsers":[{"username":"analyst@acme.test","role":"read_only"}]}`,
				func(l authz.Level, full bool) int {
					if l == authz.LevelOwn || full {
						return 200
					}
					return pick(l, 403, 403, 200)
				}},
			{"favourite group", "PUT", "/api/v1/monitor/monitor-search-groups/{group}", `{"isFavourite":true}`, seeAll},
			{"detach group", "PUT", "/api/v1/monitor/monitor-search-groups/{group}/detach", "", detach},
			{"delete group", "DELETE", "/api/v1/monitor/monitor-search-groups/{group}", "", func(l authz.Level, _ bool) int { return pick(l, 403, 403, 200) }},
			{"read search", "GET", "/api/v1/monitor/searches/{search}", "", seeAll},
			{"update search", "PUT", "/api/v1/monitor/searches/{search}",
				`{"group_id":{group},"name":"Changed","keywords":"flood","providers":["twitter"]}`, edit},
			{"pause search", "PATCH", "/api/v1/monitor/searches/settings/{search}/enable", `{"enabled":false}`, edit},
			{"favourite search", "PATCH", "/api/v1/monitor/searches/settings/{search}/favourite", `{"favourite":true}`, seeAll},
			{"hide search", "PATCH", "/api/v1/monitor/searches/settings/{search}/hidden", `{"hidden":true}`, seeAll},
			{"firehose override", "PATCH", "/api/v1/monitor/searches/settings/{search}/gnipOverride", `{"gnip_limiter_override":true}`, edit},
			{"move search", "PATCH", "/api/v1/monitor/searches/group", `{"monitorSearches":[{search}],"groupId":{home}}`, edit},
			{"detach search", "PUT", "/api/v1/monitor/searches/{search}/detach", "", detach},
			{"delete search", "DELETE", "/api/v1/monitor/searches/{search}", "", edit},
		}
		for _, privacy := range []string{"private", "readonly", "shared"} {
			for _, p := range people {
				for _, ep := range endpoints {
					t.Run(fmt.Sprintf("%s/%s/%s", privacy, p.email, ep.name), func(t *testing.T) {
						var shares []monitor.ShareInput
						if p.share != "" {
							shares = []monitor.ShareInput{{Username: p.email, Role: p.share}}
						}
						name, pr := "Team "+privacy, privacy
						g, err := svc.CreateGroup(ctx, owner, monitor.GroupInput{Name: &name, Privacy: &pr, SharedUsers: &shares})
						if err != nil {
							t.Fatal(err)
						}
						m, err := svc.CreateSearch(ctx, owner, monitor.SearchInput{GroupID: g.ID, Name: "Floods",
							Keywords: "flood OR flooding", Providers: []string{"twitter", "reddit"}})
						if err != nil {
							t.Fatal(err)
						}
						c := e.client()
						token, ok := tokens[p.email]
						if !ok {
							token = e.bearerFor(p.email)
							tokens[p.email] = token
						}
						home, err := s.UncategorizedGroup(ctx, e.actor(p.email).OrganizationID, e.actor(p.email).UserID)
						if err != nil {
							t.Fatal(err)
						}
						ids := strings.NewReplacer("{group}", fmt.Sprint(g.ID), "{search}", fmt.Sprint(m.ID), "{home}", fmt.Sprint(home.ID))
						path := ids.Replace(ep.path)
						var body any
						if ep.body != "" {
							body = rawJSON(ids.Replace(ep.body))
						}
						level, full := p.expect(privacy)
						want := ep.want(level, full)
						if level == authz.LevelNone {
							want = 404
						}
						if r := c.do(ep.method, path, body, withBearer(token)); r.status != want {
							t.Errorf("%s %s = %d %v, want %d", ep.method, path, r.status, r.body, want)
						}
					})
				}
			}
		}
	})
}

// Hidden streams (Locate's saved searches): hiding a search is one user's mark. Whoever sees the
// search may hide it; it stays visible to everyone else, the other tenant cannot touch it, and
// showing it again clears the mark.
func TestHiddenStreamsArePersonal(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		e, svc := monitorEnv(t, s)
		ctx := context.Background()
		owner := e.actor("owner@acme.test")
		name, shared := "Shared team", "shared"
		g, err := svc.CreateGroup(ctx, owner, monitor.GroupInput{Name: &name, Privacy: &shared})
		if err != nil {
			t.Fatal(err)
		}
		m, err := svc.CreateSearch(ctx, owner, monitor.SearchInput{GroupID: g.ID, Name: "Floods", Keywords: "flood",
			Providers: []string{"twitter"}})
		if err != nil {
			t.Fatal(err)
		}
		c := e.client()
		tokens := map[string]string{}
		for _, email := range []string{"owner@acme.test", "analyst@acme.test", "owner@globex.test"} {
			tokens[email] = e.bearerFor(email)
		}
		hiddenFor := func(email string) (inList, one any) {
			t.Helper()
			list := c.do("GET", "/api/v1/monitor/searches", nil, withBearer(tokens[email]))
			for _, row := range list.body["data"].([]any) {
				if r := row.(map[string]any); r["id"] == float64(m.ID) {
					inList = r["hidden"]
					// The list names each search's owner, as the search alone does (Locate's saved searches show it).
					if got := dig(r, "owner", "email"); got != "owner@acme.test" {
						t.Errorf("listed owner = %v", got)
					}
				}
			}
			got := c.do("GET", fmt.Sprintf("/api/v1/monitor/searches/%d", m.ID), nil, withBearer(tokens[email]))
			return inList, got.body["data"].(map[string]any)["hidden"]
		}
		path := fmt.Sprintf("/api/v1/monitor/searches/settings/%d/hidden", m.ID)
		steps := []struct {
			name       string
			who        string
			body       string
			wantStatus int
			// hidden as the owner and the analyst of Acme then see it, in the list and alone
			ownerHidden, analystHidden bool
		}{
			{"the analyst hides it", "analyst@acme.test", `{"hidden":true}`, 200, false, true},
			{"hiding twice is no error", "analyst@acme.test", `{"hidden":true}`, 200, false, true},
			{"the other tenant cannot hide it", "owner@globex.test", `{"hidden":true}`, 404, false, true},
			{"the other tenant cannot show it", "owner@globex.test", `{"hidden":false}`, 404, false, true},
			{"not a boolean", "owner@acme.test", `{"hidden":"yes"}`, 422, false, true},
			{"the owner hides it too", "owner@acme.test", `{"hidden":true}`, 200, true, true},
			{"the analyst shows it again", "analyst@acme.test", `{"hidden":false}`, 200, true, false},
		}
		for _, step := range steps {
			r := c.do("PATCH", path, rawJSON(step.body), withBearer(tokens[step.who]))
			if r.status != step.wantStatus {
				t.Fatalf("%s: PATCH = %d %v, want %d", step.name, r.status, r.body, step.wantStatus)
			}
			if r.status == 200 {
				if got := r.body["data"].(map[string]any)["hidden"]; got != (step.who == "owner@acme.test" && step.ownerHidden || step.who == "analyst@acme.test" && step.analystHidden) {
					t.Errorf("%s: the reply's hidden = %v", step.name, got)
				}
			}
			for email, want := range map[string]bool{"owner@acme.test": step.ownerHidden, "analyst@acme.test": step.analystHidden} {
				inList, one := hiddenFor(email)
				if inList != want || one != want {
					t.Errorf("%s: %s sees hidden %v in the list and %v alone, want %v", step.name, email, inList, one, want)
				}
			}
		}
		// A hidden search can still be deleted (its marks go with it).
		if r := c.do("DELETE", fmt.Sprintf("/api/v1/monitor/searches/%d", m.ID), nil, withBearer(tokens["owner@acme.test"])); r.status != 200 {
			t.Fatalf("delete = %d %v", r.status, r.body)
		}
	})
}

// pick is the status for a level: view, edit, own (none is always 404).
func pick(l authz.Level, view, edit, own int) int {
	switch l {
	case authz.LevelView:
		return view
	case authz.LevelEdit:
		return edit
	case authz.LevelOwn:
		return own
	}
	return 404
}

func rawJSON(s string) json.RawMessage { return json.RawMessage(s) }

func TestSavedSearchRules(t *testing.T) {
	e, svc := monitorEnv(t, storetest.Open(t, store.SQLite))
	ctx := context.Background()
	owner := e.actor("owner@acme.test")
	token := e.bearerFor("owner@acme.test")
	c := e.client()
	home, _ := e.store.UncategorizedGroup(ctx, owner.OrganizationID, owner.UserID)
	globex := e.actor("owner@globex.test")
	globexName, private := "Globex only", "private"
	theirs, err := svc.CreateGroup(ctx, globex, monitor.GroupInput{Name: &globexName, Privacy: &private})
	if err != nil {
		t.Fatal(err)
	}
	valid := map[string]any{"group_id": home.ID, "name": "Floods", "keywords": "flood", "providers": []string{"twitter"}}
	with := func(k string, v any) map[string]any {
		m := map[string]any{}
		for key, val := range valid {
			m[key] = val
		}
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
		return m
	}
	tests := []struct {
		name  string
		body  map[string]any
		field string
		msg   string
	}{
		{"no name", with("name", nil), "name", monitor.MsgNameRequired},
		{"long name", with("name", strings.Repeat("n", 256)), "name", monitor.MsgNameTooLong},
		{"no group", with("group_id", nil), "group_id", monitor.MsgSelectGroup},
		{"another organization's group", with("group_id", theirs.ID), "group_id", monitor.MsgSelectGroup},
		{"no providers", with("providers", []string{}), "providers", monitor.MsgProvidersNeeded},
		{"nothing to search", with("keywords", nil), "query", monitor.MsgQueryNeeded},
		{"lower-case or", with("keywords", "flood or fire"), "keywords", ""},
		{"end in the past", with("end_at", 1000), "end_at", monitor.MsgEndDateInvalid},
		{"bad polygon", with("address_bounds", "POLYGON((1 1"), "address_bounds", monitor.MsgBoundsInvalid},
		{"author with operators", with("author_query", "a OR b"), "author_query", monitor.MsgAuthorOperators},
		{"sharing outside the organization", with("shared_users", []map[string]string{{"username": "owner@globex.test"}}), "sharedUsers", ""},
		{"a bad alert interval", with("alerts", []map[string]any{{"type": "digest", "interval": 60}}), "alerts", ""},
		{"an AI summary without the AI feature", with("alerts", []map[string]any{{"type": "ai_summary", "interval": 86400}}), "alerts", monitor.MsgAISummaryNotOffered},
		{"a proximity alert at an unknown location", with("alerts", []map[string]any{{"type": "proximity", "interval": 0, "locationAssetIds": []string{"nowhere"}}}),
			"alerts", fmt.Sprintf(monitor.MsgUnknownLocation, "nowhere")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := c.do("POST", "/api/v1/monitor/searches", tt.body, withBearer(token))
			errs, _ := r.body["errors"].(map[string]any)
			msgs, _ := errs[tt.field].([]any)
			if r.status != 422 || len(msgs) == 0 || (tt.msg != "" && msgs[0] != tt.msg) {
				t.Errorf("= %d %v, want 422 with %q on %s", r.status, r.body, tt.msg, tt.field)
			}
		})
	}

	r := c.do("POST", "/api/v1/monitor/searches", with("keywords", "the OR flood"), withBearer(token))
	if words, _ := r.body["blacklistedKeywords"].([]any); r.status != 422 || len(words) != 1 || words[0] != "the" {
		t.Errorf("too broad = %d %v", r.status, r.body)
	}
	if r := c.do("POST", "/api/v1/monitor/searches", with("keywords", "the flood"), withBearer(token)); r.status != 201 {
		t.Errorf("a broad word beside a specific one = %d %v, want 201", r.status, r.body)
	}
	created := c.do("POST", "/api/v1/monitor/searches", with("keywords", `"river flood" OR inondation`), withBearer(token))
	if created.status != 201 || dig(created.body, "data", "status") != "active" ||
		fmt.Sprint(dig(created.body, "data", "search", "keywords")) != `["river flood" inondation]` {
		t.Errorf("create = %d %v", created.status, created.body)
	}
	// Saving a search checks its alerts as creating one does.
	edited := with("alerts", []map[string]any{{"type": "ai_summary", "interval": 86400}})
	if r := c.do("PUT", fmt.Sprintf("/api/v1/monitor/searches/%v", dig(created.body, "data", "id")), edited, withBearer(token)); r.status != 422 ||
		fmt.Sprint(dig(r.body, "errors", "alerts")) != "["+monitor.MsgAISummaryNotOffered+"]" {
		t.Errorf("saving with an AI summary = %d %v", r.status, r.body)
	}

	// The Uncategorized group is never shared, renamed or deleted.
	for _, body := range []map[string]any{{"name": "Mine"}, {"privacy": "shared"}} {
		if r := c.do("PUT", fmt.Sprintf("/api/v1/monitor/monitor-search-groups/%d", home.ID), body, withBearer(token)); r.status != 403 {
			t.Errorf("changing Uncategorized with %v = %d, want 403", body, r.status)
		}
	}
	if r := c.do("DELETE", fmt.Sprintf("/api/v1/monitor/monitor-search-groups/%d", home.ID), nil, withBearer(token)); r.status != 403 {
		t.Errorf("deleting Uncategorized = %d, want 403", r.status)
	}

	// Asset limit.
	setAssetLimit(t, e, owner.OrganizationID, 2)
	r = c.do("POST", "/api/v1/monitor/searches", valid, withBearer(token))
	if r.status != 422 || r.body["limitExceeded"] != true || r.body["title"] != "Asset Limit Reached" {
		t.Errorf("over the asset limit = %d %v", r.status, r.body)
	}
}

func setAssetLimit(t *testing.T, e *env, organizationID, limit int64) {
	t.Helper()
	if err := e.store.SetOrganizationLimits(context.Background(), organizationID, 0, limit); err != nil {
		t.Fatal(err)
	}
}

func TestSharingList(t *testing.T) {
	e, svc := monitorEnv(t, storetest.Open(t, store.SQLite))
	ctx := context.Background()
	e.createUser("Acme", "zed@acme.test", account.RoleMember)
	e.createUser("Acme", "amy@acme.test", account.RoleMember)
	owner := e.actor("owner@acme.test")
	name, privacy := "Team", "private"
	shares := []monitor.ShareInput{{Username: "zed@acme.test", Role: authz.RoleFullAccess}, {Username: "analyst@acme.test"}}
	g, err := svc.CreateGroup(ctx, owner, monitor.GroupInput{Name: &name, Privacy: &privacy, SharedUsers: &shares})
	if err != nil {
		t.Fatal(err)
	}
	m, err := svc.CreateSearch(ctx, owner, monitor.SearchInput{GroupID: g.ID, Name: "S", Keywords: "x", Providers: []string{"twitter"},
		SharedUsers: &[]monitor.ShareInput{{Username: "amy@acme.test"}}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, sh := range m.Shares {
		got = append(got, fmt.Sprintf("%s:%s:%v", sh.Email, sh.Role, sh.FromGroup))
	}
	want := "amy@acme.test:read_only:false zed@acme.test:full_access:true analyst@acme.test:read_only:true"
	if strings.Join(got, " ") != want {
		t.Errorf("sharing list\n got %s\nwant %s", strings.Join(got, " "), want)
	}
}
