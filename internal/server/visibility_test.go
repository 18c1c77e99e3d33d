package server_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/outbound"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/server"
	"github.com/sightline/sightline/internal/wait"
)

// serveFeeds serves one RSS item per path: /shared for the operator's source, /beta for a
// tenant's own. Each text is an English sentence of more than ten words, so it can be analysed.
func serveFeeds(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/")
		w.Header().Set("Content-Type", "application/rss+xml")
		fmt.Fprintf(w, `<?xml version="1.0"?><rss version="2.0"><channel><title>%[1]s</title>
			<item><title>Zephyr report from the %[1]s feed</title><guid>%[1]s-1</guid><link>https://news.example.org/%[1]s</link>
			<description>The zephyr warehouse fire was reported by several witnesses near the old harbour docks this morning.</description>
			<pubDate>%[2]s</pubDate></item></channel></rss>`, name, time.Now().Add(-time.Minute).UTC().Format(time.RFC1123Z))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// A tenant's own sources and ingest reach that tenant only: tenant beta's feed and pushed post
// are found by beta's search, analytics, export, assistant, inbox and post reads, and by none of
// alpha's, whose saved search with the same words matches only the operator's shared post,
// which both see. Beta's feed may not claim a platform's provider, and a post of beta's with a
// shared connector's provider and native id neither replaces nor drops the shared post.
func TestTenantPostsStayWithTheirTenant(t *testing.T) {
	node, srv := startNodeWith(t, func(c *server.Config) { c.AllowPrivateNetworks = outbound.Everywhere })
	feeds := serveFeeds(t)
	ctx := context.Background()
	users := map[string]account.User{}
	for _, u := range []struct{ tenant, email string }{{"alpha", "alpha@alpha.test"}, {"beta", "beta@beta.test"}} {
		created, err := node.Accounts.CreateUser(ctx, account.NewUser{Tenant: u.tenant, Organization: u.tenant,
			Email: u.email, Password: "password-123", Role: account.RoleOwner, TenantAdmin: true})
		if err != nil {
			t.Fatal(err)
		}
		users[u.tenant] = created
	}
	token := func(email, name string) string {
		v, _, err := node.Auth.CreateAPIToken(ctx, email, name, nil)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	operator, alpha, beta := token("admin@example.test", "ops"), token("alpha@alpha.test", "a"), token("beta@beta.test", "beta-push")

	// Each tenant watches for the same words before anything arrives.
	watch := map[string]string{}
	for _, tok := range []string{alpha, beta} {
		status, reply := call(t, "POST", srv.URL+"/api/v1/monitor/monitor-search-groups", tok, `{"name":"Watch","privacy":"private"}`)
		if status != 201 {
			t.Fatalf("create group = %d %v", status, reply)
		}
		watch[tok] = fmt.Sprintf(`{"group_id":%v,"name":"Zephyr","keywords":"zephyr","providers":["news","reddit"]}`,
			reply["data"].(map[string]any)["id"])
		if status, reply := call(t, "POST", srv.URL+"/api/v1/monitor/searches", tok, watch[tok]); status != 201 {
			t.Fatalf("create search = %d %v", status, reply)
		}
	}

	// A tenant's feed may not pass itself off as a platform.
	status, reply := call(t, "POST", srv.URL+"/api/v1/sources", beta,
		`{"type":"rss","name":"fake-hn","config":{"url":"`+feeds.URL+`/beta","provider":"hackernews"}}`)
	if errs, _ := reply["errors"].(map[string]any); status != 422 || errs["config.provider"] == nil {
		t.Fatalf("a tenant's feed claiming hackernews = %d %v, want 422 on config.provider", status, reply)
	}
	for _, s := range []struct{ token, name, path string }{{operator, "gazette", "/shared"}, {beta, "beta-wire", "/beta"}} {
		if status, reply := call(t, "POST", srv.URL+"/api/v1/sources", s.token,
			`{"type":"rss","name":"`+s.name+`","config":{"url":"`+feeds.URL+s.path+`","interval":"1h"}}`); status != 201 {
			t.Fatalf("create source %s = %d %v", s.name, status, reply)
		}
	}
	fresh := time.Now().Add(-time.Minute).UTC().Format(time.RFC3339)
	ingestLines(t, srv.URL, beta, `{"provider":"reddit","native_id":"b1","content_text":"Zephyr pushed by beta through the ingest API today","published_at":"`+fresh+`"}`)

	inbox := func(tok string) []any {
		_, reply := call(t, "GET", srv.URL+"/api/v1/monitor/matches", tok, "")
		data, _ := reply["data"].([]any)
		return data
	}
	// Beta's three matches are stored once every post was percolated, alpha's search included.
	wait.For(t, "beta's three matches", func() bool { return len(inbox(beta)) == 3 })
	if got := inbox(alpha); len(got) != 1 {
		t.Errorf("alpha's inbox holds %d matches, want only the shared post's: %v", len(got), got)
	}

	search := func(tok string) map[string]string { // origin kind and name by post id
		status, reply := call(t, "POST", srv.URL+"/beacon/v1/all", tok, `{"query":"zephyr"}`)
		if status != 200 {
			t.Fatalf("search = %d %v", status, reply)
		}
		found := map[string]string{}
		for _, d := range reply["data"].(map[string]any)["documents"].([]any) {
			doc := d.(map[string]any)
			origin, _ := doc["origin"].(map[string]any)
			found[doc["id"].(string)] = fmt.Sprint(origin["kind"], ":", origin["name"])
		}
		if total := reply["data"].(map[string]any)["totalCount"].(float64); int(total) != len(found) {
			t.Errorf("totalCount %v for %d documents", total, len(found))
		}
		return found
	}
	seenByBeta, seenByAlpha := search(beta), search(alpha)
	var sharedID, feedID, pushedID string
	for id, origin := range seenByBeta {
		switch origin {
		case "shared:gazette":
			sharedID = id
		case "source:beta-wire":
			feedID = id
		case "ingest:beta-push":
			pushedID = id
		}
	}
	if sharedID == "" || feedID == "" || pushedID == "" {
		t.Fatalf("beta's search found %v, want the shared, its feed's and its pushed post, each with its origin", seenByBeta)
	}
	if len(seenByAlpha) != 1 || seenByAlpha[sharedID] != "shared:gazette" {
		t.Errorf("alpha's search found %v, want only the shared post %s", seenByAlpha, sharedID)
	}

	// Analytics count what each may see.
	for tok, want := range map[string]float64{alpha: 1, beta: 3} {
		status, reply := call(t, "POST", srv.URL+"/beacon/v1/analytics", tok, `{"category":"all","query":"zephyr"}`)
		if got := countOf(reply); status != 200 || got != want {
			t.Errorf("analytics = %d, %v posts, want %v: %v", status, got, want, reply)
		}
	}
	// A saved search's preview over the stored posts finds what each may see.
	for tok, want := range map[string]float64{alpha: 1, beta: 3} {
		status, reply := call(t, "POST", srv.URL+"/api/v1/monitor/searches/backtest", tok, watch[tok])
		if status != 200 || reply["data"].(map[string]any)["count"] != want {
			t.Errorf("backtest = %d %v, want %v posts", status, reply, want)
		}
	}
	// An export of the search holds what each may see.
	for tok, want := range map[string]float64{alpha: 1, beta: 3} {
		status, reply := call(t, "POST", srv.URL+"/api/v1/exports", tok,
			`{"source":"beacon","category":"all","search":{"query":"zephyr"},"columns":["id","provider"],"format":"csv"}`)
		if status != 202 || reply["data"].(map[string]any)["postCount"] != want {
			t.Errorf("export = %d %v, want %v posts", status, reply, want)
		}
	}
	// The assistant cites only what the asker may see.
	status, reply = call(t, "POST", srv.URL+"/api/v1/ai-insights/conversation", alpha, `{"input":"What happened with the zephyr fire?","sessionId":"5f0c6a44-9a53-4c1e-8d7e-2b1f3f5a7c10"}`)
	if status != 200 {
		t.Fatalf("ask = %d %v", status, reply)
	}
	cited := reply["data"].(map[string]any)["relevant_documents"].([]any)
	if len(cited) == 0 {
		t.Errorf("the assistant cited nothing: %v", reply)
	}
	for _, d := range cited {
		if id := d.(map[string]any)["id"]; id != sharedID {
			t.Errorf("the assistant gave alpha the post %v", id)
		}
	}
	// Its related searches are drawn from those posts only: beta's own feed is named in its posts'
	// titles alone.
	related := reply["data"].(map[string]any)["related_searches"].([]any)
	if len(related) == 0 {
		t.Errorf("no related searches: %v", reply)
	}
	for _, r := range related {
		if strings.Contains(r.(string), "beta") {
			t.Errorf("alpha's related search %q comes from beta's post", r)
		}
	}
	// Reading one post by its id: another tenant's does not exist.
	for _, tt := range []struct {
		token, id string
		want      int
	}{{alpha, feedID, 404}, {alpha, pushedID, 404}, {alpha, sharedID, 200}, {beta, feedID, 200}} {
		if status, reply := call(t, "POST", srv.URL+"/api/v1/ai-insights/analyze", tt.token, `{"postId":"`+tt.id+`"}`); status != tt.want {
			t.Errorf("analyze %s = %d %v, want %d", tt.id, status, reply, tt.want)
		}
		if status, _ := call(t, "GET", srv.URL+"/api/v1/monitor/matches/thread-context/"+tt.id, tt.token, ""); status != tt.want {
			t.Errorf("thread context of %s = %d, want %d", tt.id, status, tt.want)
		}
		if status, reply := call(t, "POST", srv.URL+"/beacon/v1/flags", tt.token, `{"postIds":["`+tt.id+`"]}`); status != tt.want {
			t.Errorf("flag %s = %d %v, want %d", tt.id, status, reply, tt.want)
		}
	}

	// A flag alpha's user set on beta's post before posts had owners is not listed.
	betaPost, err := node.Store.Post(ctx, feedID, users["beta"].TenantID)
	if err != nil {
		t.Fatal(err)
	}
	if err := node.Store.FlagPost(ctx, users["alpha"].ID, betaPost); err != nil {
		t.Fatal(err)
	}
	_, reply = call(t, "GET", srv.URL+"/beacon/v1/flags", alpha, "")
	if docs := reply["data"].(map[string]any)["documents"].([]any); len(docs) != 1 || docs[0].(map[string]any)["id"] != sharedID {
		t.Errorf("alpha's flagged posts: %v, want only the shared post", docs)
	}

	// Beta's post with the provider and native id of a shared connector's post, first: the
	// shared post still arrives and keeps its id, and neither tenant's copy replaces the other.
	forged := post.Post{Provider: "hackernews", NativeID: "4242", ContentText: "forged by beta", PublishedAt: time.Now().Add(-time.Minute)}
	if err := node.Ingest.EmitFrom(users["beta"].TenantID, post.Origin{Kind: post.OriginSource, Name: "beta-hn"})(ctx, forged); err != nil {
		t.Fatal(err)
	}
	forgedID := post.NewTenantID(users["beta"].TenantID, "hackernews", "4242")
	wait.For(t, "beta's post stored", func() bool {
		_, err := node.Store.Post(ctx, forgedID, users["beta"].TenantID)
		return err == nil
	})
	real := forged
	real.ContentText = "the real story"
	if err := node.Ingest.Emit(ctx, real); err != nil {
		t.Fatal(err)
	}
	realID := post.NewID("hackernews", "4242")
	wait.For(t, "the shared post stored", func() bool {
		_, err := node.Store.Post(ctx, realID, users["alpha"].TenantID)
		return err == nil
	})
	for _, tt := range []struct {
		id     string
		tenant int64
		want   string
	}{{realID, users["alpha"].TenantID, "the real story"}, {realID, users["beta"].TenantID, "the real story"},
		{forgedID, users["beta"].TenantID, "forged by beta"}, {forgedID, users["alpha"].TenantID, ""}} {
		p, err := node.Store.Post(ctx, tt.id, tt.tenant)
		if p.ContentText != tt.want || (tt.want == "") != (err != nil) {
			t.Errorf("post %s read by tenant %d = %q, %v; want %q", tt.id, tt.tenant, p.ContentText, err, tt.want)
		}
	}
}

// countOf is how many posts Beacon's analytics read.
func countOf(reply map[string]any) float64 {
	data, _ := reply["data"].(map[string]any)
	n, _ := data["analyzed"].(float64)
	return n
}
