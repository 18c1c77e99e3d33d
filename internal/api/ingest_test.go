package api_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/api"
	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/connector"
	"github.com/sightline/sightline/internal/connector/sources"
	"github.com/sightline/sightline/internal/ingest"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/sourcing"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
	"github.com/sightline/sightline/internal/story"
	"github.com/sightline/sightline/internal/stream"
	"github.com/sightline/sightline/internal/wait"
)

// testSimulator is the node's own source as the environment's node runs it: shared by every tenant.
var testSimulator = ingest.NodeSource{Stats: connector.Stats{Source: "simulator", Count: 120}, Rate: 2}

// newIngestEnv is a running API with the ingest service, the embedded stream and the storage
// stage (stories, then the store) over a real store, and the given body read timeout.
func newIngestEnv(t *testing.T, s *store.Store, bodyTimeout time.Duration) *env {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	st, err := stream.Open(ctx, stream.Config{DataDir: t.TempDir(), Consumers: []string{ingest.StoreDurable}}, log)
	if err != nil {
		t.Fatal(err)
	}
	pipeline := ingest.NewPipeline(st, s, log)
	pipeline.AssignStories(story.NewStage())
	done := make(chan error, 1)
	go func() { done <- pipeline.Run(ctx) }()
	accounts := account.NewService(s)
	a, err := auth.New(ctx, s, auth.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rows := sourcesService(s)
	h := api.New(api.Deps{Accounts: accounts, Auth: a, Health: s.Ping, App: api.AppHandler(nil, false), Logger: log,
		Ingest: ingest.NewService(st, nil, 0).WithDeletions(s), BodyReadTimeout: bodyTimeout, Sources: rows, SourceTypes: sources.Types(),
		Stories: story.NewService(s),
		IngestStats: func(ctx context.Context, scope ingest.Scope) (ingest.Stats, error) {
			return ingest.CollectStats(ctx, s, scope, ingest.StatsSources{Managed: rows.ConnectorStats, Health: st.Health})
		},
		BuiltInSources: func(ctx context.Context, tenantID int64) ([]ingest.BuiltInSource, error) {
			return ingest.BuiltInSources(ctx, s, tenantID, []ingest.NodeSource{testSimulator}, time.Now())
		}})
	srv := httptest.NewServer(h)
	t.Cleanup(func() { srv.Close(); cancel(); <-done; st.Close() })
	e := &env{t: t, srv: srv, store: s, accounts: accounts, auth: a}
	return e
}

func (e *env) token(email, name string, scopes ...string) string {
	e.t.Helper()
	v, _, err := e.auth.CreateAPIToken(context.Background(), email, name, scopes)
	if err != nil {
		e.t.Fatal(err)
	}
	return v
}

func (c *client) ingest(token, body string) reply {
	c.e.t.Helper()
	req, _ := http.NewRequest("POST", c.e.srv.URL+"/api/v1/ingest/posts", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/x-ndjson")
	return c.send(req, withBearer(token))
}

// Copies of one report pushed through the ingest API land in one story, stored with the posts;
// a post about something else is a story of its own.
func TestIngestedCopiesShareAStory(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		e := newIngestEnv(t, s, 0)
		e.createUser("Acme", "ops@acme.test", account.RoleMember)
		feed, reader := e.token("ops@acme.test", "feed", "ingest"), e.token("ops@acme.test", "reader")
		at := time.Now().Add(-time.Hour).UTC()
		line := func(native string, minutes int, text string) string {
			return fmt.Sprintf(`{"provider":"news","native_id":%q,"content_text":%q,"published_at":%q}`,
				native, text, at.Add(time.Duration(minutes)*time.Minute).Format(time.RFC3339))
		}
		wire := "Firefighters battled a large blaze at a warehouse in Rotterdam on Tuesday night, sending thick smoke over the port."
		body := strings.Join([]string{line("a", 0, wire), line("b", 5, strings.ToUpper(wire)),
			line("c", 6, "Tram fares in Lisbon go up by ten cents from January.")}, "\n")
		c := e.client()
		if r := c.ingest(feed, body); r.status != 200 || dig(r.body, "data", "accepted") != 3.0 {
			t.Fatalf("ingest = %d %v", r.status, r.body)
		}
		ns := fmt.Sprintf("ingest:%d", tokenID(t, e, feed))
		first := post.NewIngestID(ns, "news", "a")
		wait.For(t, "the posts stored", func() bool {
			_, err := s.Post(context.Background(), post.NewIngestID(ns, "news", "c"), e.actor("ops@acme.test").TenantID)
			return err == nil
		})
		r := c.do("GET", "/api/v1/stories/"+first, nil, withBearer(reader))
		if r.status != 200 || dig(r.body, "data", "postCount") != 2.0 {
			t.Fatalf("story = %d %v, want the two copies", r.status, r.body)
		}
		lisbon := post.NewIngestID(ns, "news", "c")
		r = c.do("GET", "/api/v1/stories/"+lisbon, nil, withBearer(reader))
		if r.status != 200 || dig(r.body, "data", "postCount") != 1.0 || dig(r.body, "data", "posts") == nil {
			t.Fatalf("the other post's story = %d %v, want itself alone", r.status, r.body)
		}
		if got := dig(r.body, "data", "posts").([]any)[0]; dig(got, "storyId") != lisbon {
			t.Errorf("stored post carries storyId %v, want %s", dig(got, "storyId"), lisbon)
		}
	})
}

// Posts pushed through the ingest API carry their source (the token's name), whatever the body
// claims; their ids belong to their token, so they neither take the id a connector derives nor
// overwrite another token's post; an operator's stats hold only their own sources, a tenant
// admin's every figure.
func TestIngestProvenance(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		e := newIngestEnv(t, s, 0)
		e.createUser("Acme", "ops-a@acme.test", account.RoleMember)
		e.createUser("Acme", "ops-b@acme.test", account.RoleMember)
		if _, err := e.accounts.CreateUser(context.Background(), account.NewUser{Organization: "Acme",
			Email: "admin@acme.test", Password: testPassword, TenantAdmin: true}); err != nil {
			t.Fatal(err)
		}
		feedA, feedB := e.token("ops-a@acme.test", "feed-a", "ingest"), e.token("ops-b@acme.test", "feed-b", "ingest")
		admin, member := e.token("admin@acme.test", "admin"), e.token("ops-a@acme.test", "own")
		// What a connector stored for the same provider and native id.
		fresh := time.Now().Add(-time.Hour).UTC()
		connectorPost := post.Post{Provider: "reddit", NativeID: "n1", ContentText: "from the connector", PublishedAt: fresh}
		if err := connectorPost.Normalize(time.Now()); err != nil {
			t.Fatal(err)
		}
		if _, err := s.InsertPosts(context.Background(), []post.Post{connectorPost}); err != nil {
			t.Fatal(err)
		}
		line := func(text string) string {
			return fmt.Sprintf(`{"id":%q,"provider":"reddit","native_id":"n1","content_text":%q,"published_at":%q,"source":"spoofed","source_user_id":1}`,
				connectorPost.ID, text, fresh.Format(time.RFC3339))
		}
		c := e.client()
		for token, text := range map[string]string{feedA: "from feed a", feedB: "from feed b"} {
			if r := c.ingest(token, line(text)); r.status != 200 || dig(r.body, "data", "accepted") != 1.0 {
				t.Fatalf("ingest = %d %v", r.status, r.body)
			}
		}
		wait.For(t, "both ingested posts stored", func() bool {
			r := c.do("GET", "/api/v1/ingest/stats", nil, withBearer(admin))
			return dig(r.body, "data", "totalPosts") == 3.0
		})
		tenant := e.actor("ops-a@acme.test").TenantID
		stored, err := s.Post(context.Background(), connectorPost.ID, tenant)
		if err != nil || stored.ContentText != "from the connector" || stored.Source != "" {
			t.Errorf("the connector's post became %+v, %v", stored, err)
		}
		tokens := map[string]int64{}
		for _, name := range []string{"feed-a", "feed-b"} {
			tokens[name] = tokenID(t, e, map[string]string{"feed-a": feedA, "feed-b": feedB}[name])
			p, err := s.Post(context.Background(), post.NewIngestID(fmt.Sprintf("ingest:%d", tokens[name]), "reddit", "n1"), tenant)
			if err != nil || p.Source != name || p.ContentText != "from "+strings.ReplaceAll(name, "-", " ") {
				t.Errorf("%s's post: %+v, %v", name, p, err)
			}
		}

		tests := []struct {
			name     string
			token    string
			status   int
			total    float64
			sources  []string
			platform bool // connectors, pipeline lag, consumers and dead letters shown
		}{
			{"operator a", feedA, 200, 1, []string{"feed-a"}, false},
			{"operator b", feedB, 200, 1, []string{"feed-b"}, false},
			{"tenant admin", admin, 200, 3, []string{"feed-a", "feed-b"}, true},
			{"a member's own token", member, 403, 0, nil, false},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				r := c.do("GET", "/api/v1/ingest/stats", nil, withBearer(tt.token))
				if r.status != tt.status {
					t.Fatalf("stats = %d %v, want %d", r.status, r.body, tt.status)
				}
				if r.status != 200 {
					return
				}
				data := r.body["data"].(map[string]any)
				var sources []string
				for _, s := range data["sources"].([]any) {
					sources = append(sources, s.(map[string]any)["source"].(string))
				}
				slices.Sort(sources)
				if data["totalPosts"] != tt.total || !slices.Equal(sources, tt.sources) {
					t.Errorf("stats %v, want %v posts from %v", data, tt.total, tt.sources)
				}
				for _, key := range []string{"connectors", "pipelineLag", "consumers", "deadLettered"} {
					if _, shown := data[key]; shown != tt.platform {
						t.Errorf("%s shown: %v, want %v", key, shown, tt.platform)
					}
				}
			})
		}
	})
}

// A tenant admin's ingest stats name and count only their tenant's sources (managed sources and
// ingest tokens) beside the shared pipeline's figures; another tenant's names, addresses and
// errors appear nowhere. Every error shown keeps of an address its scheme and host only, in the
// stats and in the sources' health, even one reported by an older release.
func TestIngestStatsTwoTenants(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		e := newIngestEnv(t, s, 0)
		ctx := context.Background()
		for _, u := range []account.NewUser{
			{Organization: "Acme", Email: "admin@acme.test", Password: testPassword, TenantAdmin: true, Role: account.RoleOwner},
			{Organization: "Acme", Email: "ops@acme.test", Password: testPassword, Role: account.RoleMember},
			{Tenant: "initech", Organization: "Initech", Email: "admin@initech.test", Password: testPassword, TenantAdmin: true, Role: account.RoleOwner},
			{Tenant: "initech", Organization: "Initech", Email: "ops@initech.test", Password: testPassword, Role: account.RoleMember},
		} {
			if _, err := e.accounts.CreateUser(ctx, u); err != nil {
				t.Fatal(err)
			}
		}
		adminA, adminB := e.token("admin@acme.test", "admin"), e.token("admin@initech.test", "admin")
		feedA, feedB := e.token("ops@acme.test", "acme-feed", "ingest"), e.token("ops@initech.test", "initech-secret-feed", "ingest")
		c := e.client()

		// Each tenant has a source that failed; the error was stored whole, as an older release did.
		report := func(as, name, failure string) {
			r := c.do("POST", "/api/v1/sources", map[string]any{"type": "rss", "name": name,
				"config": map[string]any{"url": "https://feeds.example.org/" + name}}, withBearer(as))
			if r.status != http.StatusCreated {
				t.Fatalf("create %s: %d %v", name, r.status, r.body)
			}
			id := int64(dig(r.body, "data", "id").(float64))
			if _, err := s.ClaimSources(ctx, "node-"+name, time.Now(), time.Now().Add(time.Minute)); err != nil {
				t.Fatal(err)
			}
			if err := s.SaveSourceReport(ctx, id, "node-"+name, sourcing.Report{ReportedAt: time.Now().UTC(),
				Stats: connector.Stats{Source: "rss:" + name, LastError: failure, LastErrorAt: time.Now().UTC(), Failures: 1, Retries: 1}}); err != nil {
				t.Fatal(err)
			}
		}
		report(adminA, "acme-wire", "GET https://wire.acme.example/feeds/k3y-acme.rss: 500 Internal Server Error")
		report(adminB, "initech-private", "GET https://user:pa55@intel.initech.example/private/tok3n.rss?key=tok3n: 500 Internal Server Error")

		line := func(id string) string {
			return fmt.Sprintf(`{"provider":"reddit","native_id":%q,"content_text":"x","published_at":%q}`, id, time.Now().Add(-time.Hour).UTC().Format(time.RFC3339))
		}
		for token, id := range map[string]string{feedA: "a1", feedB: "b1"} {
			if r := c.ingest(token, line(id)); r.status != 200 || dig(r.body, "data", "accepted") != 1.0 {
				t.Fatalf("ingest = %d %v", r.status, r.body)
			}
		}
		wait.For(t, "both ingested posts stored", func() bool {
			n, _, _ := s.CountPosts(ctx)
			return n == 2
		})

		for _, tt := range []struct {
			name       string
			token      string
			total      float64
			sources    []string
			connectors map[string]string // name -> last error shown
			hidden     []string          // text that must not appear anywhere in the reply
		}{
			{"tenant A's admin", adminA, 1, []string{"acme-feed"},
				map[string]string{"rss:acme-wire": "GET https://wire.acme.example: 500 Internal Server Error"},
				[]string{"initech", "tok3n", "pa55", "k3y-acme"}},
			{"tenant B's admin", adminB, 1, []string{"initech-secret-feed"},
				map[string]string{"rss:initech-private": "GET https://intel.initech.example: 500 Internal Server Error"},
				[]string{"acme", "tok3n", "pa55"}},
			{"tenant B's ingest token", feedB, 1, []string{"initech-secret-feed"}, nil, []string{"acme", "tok3n"}},
		} {
			t.Run(tt.name, func(t *testing.T) {
				r := c.do("GET", "/api/v1/ingest/stats", nil, withBearer(tt.token))
				if r.status != 200 {
					t.Fatalf("stats = %d %v", r.status, r.body)
				}
				data := r.body["data"].(map[string]any)
				var names []string
				for _, s := range data["sources"].([]any) {
					names = append(names, s.(map[string]any)["source"].(string))
				}
				if data["totalPosts"] != tt.total || !slices.Equal(names, tt.sources) {
					t.Errorf("stats %v, want %v posts from %v", data, tt.total, tt.sources)
				}
				shown := map[string]string{}
				connectors, _ := data["connectors"].([]any)
				for _, c := range connectors {
					shown[c.(map[string]any)["source"].(string)] = c.(map[string]any)["lastError"].(string)
				}
				if len(shown) != len(tt.connectors) || (tt.connectors != nil && !maps.Equal(shown, tt.connectors)) {
					t.Errorf("connectors %v, want %v", shown, tt.connectors)
				}
				raw, _ := json.Marshal(r.body)
				for _, h := range tt.hidden {
					if strings.Contains(strings.ToLower(string(raw)), h) {
						t.Errorf("the reply shows %q: %s", h, raw)
					}
				}
			})
		}
		r := c.do("GET", "/api/v1/sources/health", nil, withBearer(adminB))
		raw, _ := json.Marshal(r.body)
		if r.status != 200 || dig(r.body, "data", "sources").([]any)[0].(map[string]any)["lastError"].(map[string]any)["message"] !=
			"GET https://intel.initech.example: 500 Internal Server Error" || strings.Contains(string(raw), "tok3n") {
			t.Errorf("tenant B's sources' health: %d %s", r.status, raw)
		}
	})
}

func tokenID(t *testing.T, e *env, token string) int64 {
	t.Helper()
	id, err := e.auth.BearerIdentity(context.Background(), token)
	if err != nil {
		t.Fatal(err)
	}
	return id.TokenID
}

// A client that sends the headers and then stops sending the body has its connection cut once
// the body read timeout passes, on every endpoint that reads a body; the ingest stream's
// deadline is extended while data keeps arriving.
func TestSlowBodies(t *testing.T) {
	// The read deadline is the kernel's, in real time: the stream's pauses (half the timeout)
	// leave a slow machine half a second to read each part (issue 26: with 300 ms and a third of
	// it, a machine twenty times slower cut the stream), and four parts outlast the timeout.
	const timeout = time.Second
	s := storetest.Open(t, store.SQLite)
	e := newIngestEnv(t, s, timeout)
	e.createUser("Acme", "admin@acme.test", account.RoleOwner)
	token := e.token("admin@acme.test", "feed", "ingest")
	fresh := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	post := func(i int) string {
		return fmt.Sprintf(`{"provider":"reddit","native_id":"slow-%d","content_text":"x","published_at":%q}`+"\n", i, fresh)
	}
	var trickled strings.Builder
	for i := range 8 {
		trickled.WriteString(post(i))
	}
	tests := []struct {
		name   string
		path   string
		auth   string
		body   []string // sent one part at a time, half the timeout apart
		length int      // the Content-Length announced
		status int      // 0: the connection is cut without a reply
	}{
		{"login body stops", "/api/v1/auth/login", "", []string{`{"email":"adm`}, 200, -1},
		{"ingest body stops", "/api/v1/ingest/posts", token, []string{post(1)}, 10_000, -1},
		{"ingest body trickles past the timeout", "/api/v1/ingest/posts", token,
			pairs(strings.SplitAfter(strings.TrimSuffix(trickled.String(), "\n"), "\n")), trickled.Len() - 1, 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", strings.TrimPrefix(e.srv.URL, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			head := fmt.Sprintf("POST %s HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: %d\r\n", tt.path, tt.length)
			if tt.auth != "" {
				head += "Authorization: Bearer " + tt.auth + "\r\n"
			}
			start := time.Now()
			fmt.Fprint(conn, head+"\r\n")
			for i, part := range tt.body {
				if i > 0 {
					time.Sleep(timeout / 2) // the client's pace
				}
				fmt.Fprint(conn, part)
			}
			// However the server answers, it must close the connection: a read that reaches the
			// end of the stream within the bound proves it (the bound is only a safety net).
			conn.SetReadDeadline(time.Now().Add(wait.Deadline))
			rd := bufio.NewReader(conn)
			resp, err := http.ReadResponse(rd, nil)
			if tt.status > 0 {
				if err != nil || resp.StatusCode != tt.status {
					t.Fatalf("reply %v, %v; want %d", resp, err, tt.status)
				}
				body, _ := io.ReadAll(resp.Body)
				if !strings.Contains(string(body), `"accepted":8`) {
					t.Errorf("reply %s, want all 8 posts accepted", body)
				}
				return
			}
			if err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
			if _, err := rd.ReadByte(); err != io.EOF {
				t.Fatalf("after the reply: %v, want the connection closed", err)
			}
			if elapsed := time.Since(start); elapsed > timeout+2*time.Second {
				t.Errorf("cut after %v, want about %v", elapsed, timeout)
			}
		})
	}
}

// pairs joins the lines two by two.
func pairs(lines []string) []string {
	var out []string
	for pair := range slices.Chunk(lines, 2) {
		out = append(out, strings.Join(pair, ""))
	}
	return out
}

// The sources' health lists the built-in sources read-only: the simulator, shared, for every
// tenant with its rate, and each tenant's own ingest tokens only, with their posts of the last
// hour; a member, who does not manage sources, sees none.
func TestBuiltInSourcesTwoTenants(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		e := newIngestEnv(t, s, 0)
		ctx := context.Background()
		for _, u := range []account.NewUser{
			{Organization: "Acme", Email: "admin@acme.test", Password: testPassword, TenantAdmin: true, Role: account.RoleOwner},
			{Organization: "Acme", Email: "ops@acme.test", Password: testPassword, Role: account.RoleMember},
			{Tenant: "initech", Organization: "Initech", Email: "admin@initech.test", Password: testPassword, TenantAdmin: true, Role: account.RoleOwner},
			{Tenant: "initech", Organization: "Initech", Email: "ops@initech.test", Password: testPassword, Role: account.RoleMember},
		} {
			if _, err := e.accounts.CreateUser(ctx, u); err != nil {
				t.Fatal(err)
			}
		}
		adminA, adminB := e.token("admin@acme.test", "admin"), e.token("admin@initech.test", "admin")
		member := e.token("ops@acme.test", "own")
		feedA, feedB := e.token("ops@acme.test", "acme-feed", "ingest"), e.token("ops@initech.test", "initech-feed", "ingest")
		c := e.client()
		pushed := map[string][]string{feedA: {"a1", "a2"}, feedB: {"b1"}}
		for token, ids := range pushed {
			var body strings.Builder
			for _, id := range ids {
				fmt.Fprintf(&body, `{"provider":"reddit","native_id":%q,"content_text":"x","published_at":%q}`+"\n",
					id, time.Now().Add(-time.Hour).UTC().Format(time.RFC3339))
			}
			if r := c.ingest(token, body.String()); r.status != 200 {
				t.Fatalf("ingest = %d %v", r.status, r.body)
			}
		}
		wait.For(t, "the ingested posts stored", func() bool {
			n, _, _ := s.CountPosts(ctx)
			return n == 3
		})
		// A token that pushed nothing in the last hour is idle.
		old := post.Post{Provider: "reddit", NativeID: "old1", ContentText: "x", PublishedAt: time.Now().Add(-3 * time.Hour),
			Source: "old-feed", SourceUserID: e.actor("ops@acme.test").UserID}
		if err := old.Normalize(time.Now()); err != nil {
			t.Fatal(err)
		}
		old.ID = post.NewIngestID("ingest:old", old.Provider, old.NativeID)
		old.DiscoveredAt = time.Now().Add(-2 * time.Hour)
		if _, err := s.InsertPosts(ctx, []post.Post{old}); err != nil {
			t.Fatal(err)
		}

		simulator := "node simulator running 2/s count 120 last hour <nil>"
		for _, tt := range []struct {
			name   string
			token  string
			status int
			want   []string
		}{
			{"tenant A's admin", adminA, 200, []string{simulator, "ingest acme-feed running count 2 last hour 2",
				"ingest old-feed idle count 1 last hour 0"}},
			{"tenant B's admin", adminB, 200, []string{simulator, "ingest initech-feed running count 1 last hour 1"}},
			{"a member", member, 403, nil},
		} {
			t.Run(tt.name, func(t *testing.T) {
				r := c.do("GET", "/api/v1/sources/health", nil, withBearer(tt.token))
				if r.status != tt.status {
					t.Fatalf("health = %d %v, want %d", r.status, r.body, tt.status)
				}
				if r.status != 200 {
					return
				}
				var got []string
				for _, b := range dig(r.body, "data", "builtIn").([]any) {
					src := b.(map[string]any)
					line := fmt.Sprintf("%s %s %s", src["kind"], src["name"], src["state"])
					if rate, ok := src["ratePerSecond"].(float64); ok {
						line += fmt.Sprintf(" %g/s", rate)
					}
					got = append(got, line+fmt.Sprintf(" count %v last hour %v", src["count"], src["itemsLastHour"]))
				}
				if !slices.Equal(got, tt.want) {
					t.Errorf("built in = %q, want %q", got, tt.want)
				}
			})
		}
	})
}
