package server_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/live"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/query"
	"github.com/sightline/sightline/internal/server"
	"github.com/sightline/sightline/internal/wait"
)

func ingestLines(t *testing.T, url, token string, lines ...string) {
	t.Helper()
	if status, reply := call(t, "POST", url+"/api/v1/ingest/posts", token, strings.Join(lines, "\n")); status != 200 ||
		reply["data"].(map[string]any)["accepted"] != float64(len(lines)) {
		t.Fatalf("ingest = %d %v", status, reply)
	}
}

func postLine(native, text string) string {
	fresh := time.Now().Add(-time.Minute).UTC().Format(time.RFC3339)
	return `{"provider":"reddit","native_id":"` + native + `","content_text":"` + text + `","published_at":"` + fresh +
		`","thread_id":"thread-1"}`
}

// streamInbox turns on the user's inbox streaming, without which their socket gets no match
// events, and returns the user.
func streamInbox(t *testing.T, node *server.Node, email string) account.User {
	t.Helper()
	ctx := context.Background()
	u, err := node.Store.UserByEmail(ctx, email)
	if err != nil {
		t.Fatal(err)
	}
	u.IsInboxStreamingEnabled = true
	if err := node.Store.UpdateUserSettings(ctx, u); err != nil {
		t.Fatal(err)
	}
	return u
}

// adminSearch saves a search in the admin's Uncategorized group, fields being its name,
// keywords and providers in JSON, and returns the admin's API token and user.
func adminSearch(t *testing.T, node *server.Node, url, fields string) (string, account.User) {
	t.Helper()
	ctx := context.Background()
	token, _, err := node.Auth.CreateAPIToken(ctx, "admin@example.test", "t", nil)
	if err != nil {
		t.Fatal(err)
	}
	admin, err := node.Store.UserByEmail(ctx, "admin@example.test")
	if err != nil {
		t.Fatal(err)
	}
	home, err := node.Store.UncategorizedGroup(ctx, admin.OrganizationID, admin.ID)
	if err != nil {
		t.Fatal(err)
	}
	if status, reply := call(t, "POST", url+"/api/v1/monitor/searches", token,
		fmt.Sprintf(`{"group_id":%d,%s}`, home.ID, fields)); status != 201 {
		t.Fatalf("create the search = %d %v", status, reply)
	}
	return token, admin
}

// userSocket opens a live socket to the node at url, subscribed to the user's channel; it
// closes when the test ends.
func userSocket(t *testing.T, node *server.Node, url string, userID int64) *live.Client {
	t.Helper()
	ctx := context.Background()
	client, err := live.Dial(ctx, "ws"+strings.TrimPrefix(url, "http")+live.SocketPath(node.Live.Credentials().Key))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close() })
	channel := live.UserChannel(userID)
	if err := client.Subscribe(ctx, channel, node.Live.Credentials().Sign(client.SocketID, channel)); err != nil {
		t.Fatal(err)
	}
	return client
}

// Saved searches collect matches from the stream: new and changed searches take effect at
// once, a post arriving twice is matched once, and each viewer keeps their own state.
func TestMatchesEndToEnd(t *testing.T) {
	node, srv := startNode(t)
	ctx := context.Background()
	for _, u := range []struct{ org, email string }{{"Default", "viewer@example.test"}, {"Elsewhere", "outsider@example.test"},
		{"Sentry", "sentry@example.test"}} {
		if _, err := node.Accounts.CreateUser(ctx, account.NewUser{Organization: u.org, Email: u.email, Password: "password-123"}); err != nil {
			t.Fatal(err)
		}
	}
	token := func(email string) string {
		v, _, err := node.Auth.CreateAPIToken(ctx, email, "t", nil)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	admin, viewer, outsider := token("admin@example.test"), token("viewer@example.test"), token("outsider@example.test")
	sentry := token("sentry@example.test")

	status, reply := call(t, "POST", srv.URL+"/api/v1/monitor/monitor-search-groups", admin, `{"name":"Watch","privacy":"readonly"}`)
	if status != 201 {
		t.Fatalf("create group = %d %v", status, reply)
	}
	groupID := reply["data"].(map[string]any)["id"].(float64)
	status, reply = call(t, "POST", srv.URL+"/api/v1/monitor/searches", admin,
		fmt.Sprintf(`{"group_id":%v,"name":"Floods","keywords":"flood OR flooding","providers":["reddit"]}`, groupID))
	if status != 201 {
		t.Fatalf("create search = %d %v", status, reply)
	}
	searchID := reply["data"].(map[string]any)["id"].(float64)

	ingestLines(t, srv.URL, admin, postLine("m1", "Flooding on the river road"), postLine("m2", "sunny day"),
		postLine("m3", "flood warning issued"))
	inbox := func(token, query string) (int, []any, map[string]any) {
		status, reply := call(t, "GET", srv.URL+"/api/v1/monitor/matches"+query, token, "")
		data, _ := reply["data"].([]any)
		meta, _ := reply["meta"].(map[string]any)
		return status, data, meta
	}
	wait.For(t, "two matches", func() bool { _, data, _ := inbox(admin, ""); return len(data) == 2 })
	// A sentinel search in an organization of its own shows when every post sent before its
	// post was matched: the pipeline takes batches in order and stores a batch's matches at once.
	_, reply = call(t, "POST", srv.URL+"/api/v1/monitor/monitor-search-groups", sentry, `{"name":"Sentinels","privacy":"private"}`)
	if status, reply := call(t, "POST", srv.URL+"/api/v1/monitor/searches", sentry, fmt.Sprintf(
		`{"group_id":%v,"name":"Sentinel","keywords":"sentinel","providers":["reddit"]}`, reply["data"].(map[string]any)["id"])); status != 201 {
		t.Fatalf("create the sentinel search = %d %v", status, reply)
	}
	sentinels := 0
	allMatched := func() {
		t.Helper()
		sentinels++
		ingestLines(t, srv.URL, admin, postLine(fmt.Sprint("sentinel-", sentinels), "sentinel"))
		wait.For(t, "the sentinel's match", func() bool { _, data, _ := inbox(sentry, ""); return len(data) == sentinels })
	}

	// The same post again: matched once.
	ingestLines(t, srv.URL, admin, postLine("m1", "Flooding on the river road"))
	allMatched()
	if _, data, _ := inbox(admin, ""); len(data) != 2 {
		t.Errorf("after a redelivery the inbox has %d matches, want 2", len(data))
	}

	// An edit takes effect for the next post.
	if status, reply := call(t, "PUT", srv.URL+fmt.Sprintf("/api/v1/monitor/searches/%v", searchID), admin,
		fmt.Sprintf(`{"group_id":%v,"name":"Floods","keywords":"flood OR flooding OR storm","providers":["reddit"]}`, groupID)); status != 200 {
		t.Fatalf("update = %d %v", status, reply)
	}
	ingestLines(t, srv.URL, admin, postLine("m4", "storm surge tonight"))
	wait.For(t, "the edited search to match", func() bool { _, data, _ := inbox(admin, ""); return len(data) == 3 })

	// Pausing stops collection.
	call(t, "PATCH", srv.URL+fmt.Sprintf("/api/v1/monitor/searches/settings/%v/enable", searchID), admin, `{"enabled":false}`)
	ingestLines(t, srv.URL, admin, postLine("m5", "another flood"))
	allMatched()
	if _, data, _ := inbox(admin, ""); len(data) != 3 {
		t.Errorf("a paused search collected: %d matches", len(data))
	}

	// The viewer (read only through the group) sees the matches; flagging needs edit access.
	_, data, meta := inbox(viewer, "?perPage=2")
	if len(data) != 2 || meta["total"] != float64(3) || meta["last_page"] != float64(2) {
		t.Fatalf("viewer's inbox = %v %v", data, meta)
	}
	first := data[0].(map[string]any)["matchMeta"].(map[string]any)
	if first["canEdit"] != false {
		t.Errorf("the viewer can edit: %v", first)
	}
	// The data-source filter narrows to the named providers.
	for query, want := range map[string]int{"?providers=reddit": 3, "?providers=telegram,x": 0, "?providers=x,reddit": 3} {
		if _, data, _ := inbox(admin, query); len(data) != want {
			t.Errorf("inbox%s has %d matches, want %d", query, len(data), want)
		}
	}
	// Each match says which of the search's terms it holds, as the search reads now.
	for _, d := range data {
		terms := fmt.Sprint(d.(map[string]any)["matchMeta"].(map[string]any)["matchedTerms"])
		text := d.(map[string]any)["post"].(map[string]any)["content_text"]
		if want := map[any]string{"storm surge tonight": "[map[field:text kind:word term:storm]]",
			"flood warning issued":       "[map[field:text kind:word term:flood]]",
			"Flooding on the river road": "[map[field:text kind:word term:flooding]]"}[text]; terms != want {
			t.Errorf("%q matched for %s, want %s", text, terms, want)
		}
	}
	ids := []string{}
	for _, d := range data {
		ids = append(ids, fmt.Sprint(d.(map[string]any)["matchMeta"].(map[string]any)["matchId"]))
	}
	idList := strings.Join(ids, ",")
	if status, reply := call(t, "PATCH", srv.URL+"/api/v1/monitor/matches/update/is-flagged", viewer,
		`{"matchResultDocuments":[`+idList+`],"setIsFlagged":true}`); status != 200 ||
		reply["data"].(map[string]any)["updatedCount"] != float64(0) || reply["data"].(map[string]any)["expectedCount"] != float64(2) {
		t.Errorf("viewer flags = %d %v, want 0 of 2 updated", status, reply)
	}
	if status, reply := call(t, "PATCH", srv.URL+"/api/v1/monitor/matches/update/is-read", viewer,
		`{"matchResultDocuments":[`+idList+`],"setMarkedAsRead":true}`); status != 200 || reply["data"].(map[string]any)["updatedCount"] != float64(2) {
		t.Errorf("viewer reads = %d %v", status, reply)
	}
	_, counts := call(t, "GET", srv.URL+"/api/v1/monitor/matches/counts", viewer, "")
	if c := counts["data"].(map[string]any); c["totalCount"] != float64(3) || c["unreadCount"] != float64(1) {
		t.Errorf("viewer counts = %v", c)
	}
	_, counts = call(t, "GET", srv.URL+"/api/v1/monitor/matches/counts", admin, "")
	if c := counts["data"].(map[string]any); c["unreadCount"] != float64(3) {
		t.Errorf("read state leaked to the owner: %v", c)
	}
	if _, data, _ := inbox(viewer, "?unread=true"); len(data) != 1 {
		t.Errorf("viewer's unread filter = %d, want 1", len(data))
	}

	// The owner flags everything, then deletes one; deleted matches leave the inbox.
	if status, reply := call(t, "PATCH", srv.URL+"/api/v1/monitor/matches/update-all/is-flagged", admin,
		`{"setIsFlagged":true}`); status != 200 || reply["data"].(map[string]any)["updatedCount"] != float64(3) {
		t.Errorf("flag all = %d %v", status, reply)
	}
	if _, data, _ := inbox(admin, "?flagged=true&searchText=storm&searchIn=titleText"); len(data) != 1 {
		t.Errorf("flagged storm = %d, want 1", len(data))
	}
	call(t, "PATCH", srv.URL+"/api/v1/monitor/matches/update/is-deleted", admin, `{"matchResultDocuments":[`+ids[0]+`],"setIsDeleted":true}`)
	_, counts = call(t, "GET", srv.URL+fmt.Sprintf("/api/v1/monitor/matches/counts/list?monitorSearchIds=%v", searchID), admin, "")
	if c := counts["data"].([]any)[0].(map[string]any); c["totalCount"] != float64(2) || c["deletedCount"] != float64(1) {
		t.Errorf("counts after delete = %v", c)
	}

	// Thread context, and another organization sees nothing.
	postID := data[0].(map[string]any)["post"].(map[string]any)["id"].(string)
	if status, reply := call(t, "GET", srv.URL+"/api/v1/monitor/matches/thread-context/"+postID, viewer, ""); status != 200 ||
		len(reply["data"].(map[string]any)["thread"].([]any)) < 3 {
		t.Errorf("thread = %d %v", status, reply)
	}
	if _, data, meta := inbox(outsider, ""); len(data) != 0 || meta["total"] != float64(0) {
		t.Errorf("another organization sees matches: %v", data)
	}
	if status, reply := call(t, "GET", srv.URL+"/api/v1/monitor/matches/list?matchIds="+idList, outsider, ""); status != 200 || len(reply["data"].([]any)) != 0 {
		t.Errorf("another organization lists matches: %d %v", status, reply)
	}
	if status, reply := call(t, "PATCH", srv.URL+"/api/v1/monitor/matches/update/is-read", outsider,
		`{"matchResultDocuments":[`+idList+`],"setMarkedAsRead":true}`); reply["data"].(map[string]any)["updatedCount"] != float64(0) {
		t.Errorf("another organization marks matches read: %d %v", status, reply)
	}
}

// A new match reaches its owner's open app: the counts event always, the match itself when the
// owner streams the inbox.
func TestMatchEventsReachTheOwnersSocket(t *testing.T) {
	node, srv := startNode(t)
	ctx := context.Background()
	streamInbox(t, node, "admin@example.test")
	admin, owner := adminSearch(t, node, srv.URL, `"name":"Quakes","keywords":"earthquake","providers":["reddit"]`)
	client := userSocket(t, node, srv.URL, owner.ID)
	ingestLines(t, srv.URL, admin, postLine("q1", "earthquake felt downtown"))

	seen := map[string]bool{}
	deadline, cancel := context.WithTimeout(ctx, wait.Deadline)
	defer cancel()
	for !seen[monitor.EventMatchCreated] || !seen[monitor.EventMatchesUpdated] {
		f, err := client.Next(deadline)
		if err != nil {
			t.Fatalf("waiting for events (seen %v): %v", seen, err)
		}
		switch f.Event {
		case monitor.EventMatchCreated:
			var got monitor.MatchCreated
			if err := f.Decode(&got); err != nil || got.More != 0 || got.Match.MonitorSearchName != "Quakes" ||
				!got.Match.MatchMeta.CanEdit {
				t.Errorf("match event %+v, %v", got, err)
			}
			if want := []query.Hit{{Term: "earthquake", Kind: "word", Field: "text"}}; !slices.Equal(got.Match.MatchMeta.MatchedTerms, want) {
				t.Errorf("the event says it matched for %v, want %v", got.Match.MatchMeta.MatchedTerms, want)
			}
		case monitor.EventMatchesUpdated:
			var got monitor.MatchesUpdated
			if err := f.Decode(&got); err != nil || got.UpdatedCount != 1 || got.TotalCount != 1 || got.UnreadCount != 1 {
				t.Errorf("counts event %+v, %v", got, err)
			}
		}
		seen[f.Event] = true
	}

	// One batch of 50 matching posts, stored and matched as the pipeline does, brings
	// StreamedPerBatch match events; the last says how many more matched.
	now := time.Now()
	var batch []post.Post
	for i := range 50 {
		p := post.Post{Provider: "reddit", NativeID: fmt.Sprint("burst", i), ContentText: "another earthquake felt",
			PublishedAt: now.Add(-time.Minute), ThreadID: "thread-1"}
		if err := p.Normalize(now); err != nil {
			t.Fatal(err)
		}
		batch = append(batch, p)
	}
	if _, err := node.Store.InsertPosts(ctx, batch); err != nil {
		t.Fatal(err)
	}
	if err := node.Percolator.Stage(ctx, batch); err != nil {
		t.Fatal(err)
	}
	var events []monitor.MatchCreated
	for len(events) < monitor.StreamedPerBatch {
		f, err := client.Next(deadline)
		if err != nil {
			t.Fatalf("waiting for the batch's events (%d so far): %v", len(events), err)
		}
		if f.Event != monitor.EventMatchCreated {
			continue
		}
		var got monitor.MatchCreated
		if err := f.Decode(&got); err != nil || got.Match.MatchMeta.MatchID == 0 {
			t.Fatalf("batch event %+v, %v", got, err)
		}
		events = append(events, got)
	}
	for i, ev := range events {
		want := 0
		if i == len(events)-1 {
			want = len(batch) - monitor.StreamedPerBatch
		}
		if ev.More != want {
			t.Errorf("event %d says %d more, want %d", i, ev.More, want)
		}
	}
}

// Deleting a group moves its searches to their owners' Uncategorized groups; people who saw
// them through the group stop getting their matches at once.
func TestDeletedGroupStopsItsAudience(t *testing.T) {
	node, srv := startNode(t)
	ctx := context.Background()
	if _, err := node.Accounts.CreateUser(ctx, account.NewUser{Organization: "Default", Email: "viewer@example.test",
		Password: "password-123"}); err != nil {
		t.Fatal(err)
	}
	admin, _, _ := node.Auth.CreateAPIToken(ctx, "admin@example.test", "t", nil)
	viewer := streamInbox(t, node, "viewer@example.test")
	_, reply := call(t, "POST", srv.URL+"/api/v1/monitor/monitor-search-groups", admin, `{"name":"Team","privacy":"readonly"}`)
	groupID := reply["data"].(map[string]any)["id"].(float64)
	if status, reply := call(t, "POST", srv.URL+"/api/v1/monitor/searches", admin,
		fmt.Sprintf(`{"group_id":%v,"name":"Fires","keywords":"wildfire","providers":["reddit"]}`, groupID)); status != 201 {
		t.Fatalf("create = %d %v", status, reply)
	}

	client := userSocket(t, node, srv.URL, viewer.ID)
	// The viewer's own sentinel search: its match, sent last, must be the next one they get.
	own, _, _ := node.Auth.CreateAPIToken(ctx, "viewer@example.test", "t", nil)
	_, reply = call(t, "POST", srv.URL+"/api/v1/monitor/monitor-search-groups", own, `{"name":"Mine","privacy":"private"}`)
	if status, reply := call(t, "POST", srv.URL+"/api/v1/monitor/searches", own, fmt.Sprintf(
		`{"group_id":%v,"name":"Sentinel","keywords":"sentinel","providers":["reddit"]}`, reply["data"].(map[string]any)["id"])); status != 201 {
		t.Fatalf("create the sentinel search = %d %v", status, reply)
	}
	nextMatch := func() string {
		deadline, cancel := context.WithTimeout(ctx, wait.Deadline)
		defer cancel()
		for {
			f, err := client.Next(deadline)
			if err != nil {
				t.Fatalf("no match event: %v", err)
			}
			var got monitor.MatchCreated
			if f.Event == monitor.EventMatchCreated && f.Decode(&got) == nil {
				return got.Match.MonitorSearchName
			}
		}
	}
	ingestLines(t, srv.URL, admin, postLine("w1", "wildfire near the ridge"))
	if got := nextMatch(); got != "Fires" {
		t.Fatalf("the viewer got a match of %q while the group was shared with them, want Fires", got)
	}
	if status, reply := call(t, "DELETE", srv.URL+fmt.Sprintf("/api/v1/monitor/monitor-search-groups/%v", groupID), admin, ""); status != 200 {
		t.Fatalf("delete group = %d %v", status, reply)
	}
	ingestLines(t, srv.URL, admin, postLine("w2", "second wildfire report"), postLine("s1", "sentinel"))
	if got := nextMatch(); got != "Sentinel" {
		t.Errorf("the viewer got a match of %q after its group was deleted; want the sentinel's first", got)
	}
	wait.For(t, "the owner's match", func() bool {
		_, reply := call(t, "GET", srv.URL+"/api/v1/monitor/matches", admin, "")
		return len(reply["data"].([]any)) == 2
	})
}

// A thread id is only text a source sent, so posts of providers the viewer's subscriptions do
// not reach can share it: the thread leaves them out, and their own thread is not found.
func TestThreadContextKeepsToEntitledProviders(t *testing.T) {
	node, srv := startNode(t)
	ctx := context.Background()
	viewer, err := node.Accounts.CreateUser(ctx, account.NewUser{Organization: "Default", Email: "viewer@example.test",
		Password: "password-123"})
	if err != nil {
		t.Fatal(err)
	}
	if err := node.Store.UpdateUserAccess(ctx, viewer.ID, account.ACL{Pro: true}); err != nil {
		t.Fatal(err)
	}
	admin, _, _ := node.Auth.CreateAPIToken(ctx, "admin@example.test", "t", nil)
	token, _, _ := node.Auth.CreateAPIToken(ctx, "viewer@example.test", "t", nil)
	now := time.Now()
	var posts []post.Post
	for _, p := range []post.Post{
		{Provider: "reddit", NativeID: "open-1", ContentText: "a public post"},
		{Provider: "tor", NativeID: "hidden-1", ContentText: "a post behind the Beacon subscription"},
		{Provider: "reddit", NativeID: "open-2", ContentText: "a public reply"},
	} {
		p.PublishedAt, p.ThreadID = now.Add(-time.Minute), "shared-thread"
		if err := p.Normalize(now); err != nil {
			t.Fatal(err)
		}
		posts = append(posts, p)
	}
	if _, err := node.Store.InsertPosts(ctx, posts); err != nil {
		t.Fatal(err)
	}
	threadOf := func(token, postID string) (int, []string) {
		status, reply := call(t, "GET", srv.URL+"/api/v1/monitor/matches/thread-context/"+postID, token, "")
		var providers []string
		if data, ok := reply["data"].(map[string]any); ok {
			for _, p := range data["thread"].([]any) {
				providers = append(providers, p.(map[string]any)["provider"].(string))
			}
		}
		return status, providers
	}
	for _, c := range []struct {
		name, token, postID string
		status              int
		providers           int // posts in the thread
		tor                 bool
	}{
		{"entitled to every provider", admin, posts[0].ID, 200, 3, true},
		{"without Beacon", token, posts[0].ID, 200, 2, false},
		{"without Beacon, from the hidden post", token, posts[1].ID, 404, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			status, providers := threadOf(c.token, c.postID)
			if status != c.status || len(providers) != c.providers || slices.Contains(providers, "tor") != c.tor {
				t.Errorf("thread = %d %v, want %d with %d posts (tor: %v)", status, providers, c.status, c.providers, c.tor)
			}
		})
	}
}

// A user whose subscription is taken away stops seeing the providers it covered at once: the
// inbox no longer lists, counts or returns their matches (the searches keep them, should the
// subscription come back), and the live socket no longer gets their new matches, nor counts
// that include them.
func TestLostProviderAccessLeavesInboxAndSocket(t *testing.T) {
	node, srv := startNode(t)
	ctx := context.Background()
	streamInbox(t, node, "admin@example.test")
	admin, owner := adminSearch(t, node, srv.URL, `"name":"Leaks","keywords":"leak","providers":["reddit","tor"]`)
	client := userSocket(t, node, srv.URL, owner.ID)
	deadline, cancel := context.WithTimeout(ctx, wait.Deadline)
	defer cancel()
	// percolate stores one post and matches it as the pipeline does.
	percolate := func(provider, native, text string) {
		t.Helper()
		now := time.Now()
		p := post.Post{Provider: provider, NativeID: native, ContentText: text, PublishedAt: now.Add(-time.Minute)}
		if err := p.Normalize(now); err != nil {
			t.Fatal(err)
		}
		if _, err := node.Store.InsertPosts(ctx, []post.Post{p}); err != nil {
			t.Fatal(err)
		}
		if err := node.Percolator.Stage(ctx, []post.Post{p}); err != nil {
			t.Fatal(err)
		}
	}
	// until reads the socket until the match of the post with this native id arrives, and then
	// a counts event of at least total; it returns every match that arrived on the way, by
	// native id and provider. Counts are sent apart from matches, so one counted before the
	// match was stored can arrive after it; only a count past total would be wrong.
	until := func(native string, total int64) (map[string]string, monitor.MatchesUpdated) {
		t.Helper()
		got := map[string]string{}
		for {
			f, err := client.Next(deadline)
			if err != nil {
				t.Fatalf("waiting for the match of %s (got %v): %v", native, got, err)
			}
			switch f.Event {
			case monitor.EventMatchCreated:
				var created monitor.MatchCreated
				if err := f.Decode(&created); err != nil {
					t.Fatal(err)
				}
				got[created.Match.Post.NativeID] = created.Match.Post.Provider
			case monitor.EventMatchesUpdated:
				var counts monitor.MatchesUpdated
				if err := f.Decode(&counts); err != nil {
					t.Fatal(err)
				}
				if got[native] != "" && counts.TotalCount >= total {
					return got, counts
				}
			}
		}
	}
	inbox := func() ([]any, map[string]any) {
		t.Helper()
		status, reply := call(t, "GET", srv.URL+"/api/v1/monitor/matches", admin, "")
		if status != 200 {
			t.Fatalf("inbox = %d %v", status, reply)
		}
		return reply["data"].([]any), reply["meta"].(map[string]any)
	}
	total := func() float64 {
		t.Helper()
		_, reply := call(t, "GET", srv.URL+"/api/v1/monitor/matches/counts", admin, "")
		return reply["data"].(map[string]any)["totalCount"].(float64)
	}

	percolate("reddit", "r1", "a leak of the plans")
	percolate("tor", "t1", "a leak on a hidden forum")
	got, counts := until("t1", 2)
	if got["r1"] != "reddit" || got["t1"] != "tor" || counts.TotalCount != 2 {
		t.Fatalf("with Beacon the socket got %v, counts %+v; want r1 and t1, of 2", got, counts)
	}
	data, _ := inbox()
	if len(data) != 2 || total() != 2 {
		t.Fatalf("with Beacon the inbox lists %d, counts %v; want 2", len(data), total())
	}
	var ids []string
	for _, m := range data {
		ids = append(ids, fmt.Sprint(m.(map[string]any)["matchMeta"].(map[string]any)["matchId"]))
	}
	both := strings.Join(ids, ",")

	if err := node.Store.UpdateUserAccess(ctx, owner.ID, account.ACL{Pro: true, Enterprise: true, LocateAPI: true}); err != nil {
		t.Fatal(err)
	}
	data, meta := inbox()
	if len(data) != 1 || meta["total"] != float64(1) ||
		data[0].(map[string]any)["post"].(map[string]any)["provider"] != "reddit" {
		t.Errorf("without Beacon the inbox lists %v (total %v); want the reddit match alone", data, meta["total"])
	}
	if n := total(); n != 1 {
		t.Errorf("without Beacon the inbox counts %v, want 1", n)
	}
	status, reply := call(t, "GET", srv.URL+"/api/v1/monitor/matches/list?matchIds="+both, admin, "")
	if status != 200 || len(reply["data"].([]any)) != 1 {
		t.Errorf("matches %s by id = %d %v, want the reddit one alone", both, status, reply)
	}

	// A tor match made now is not sent; the reddit one after it is, with counts that leave tor out.
	percolate("tor", "t2", "another leak on a hidden forum")
	percolate("reddit", "r2", "another leak of the plans")
	got, counts = until("r2", 2)
	if len(got) != 1 || got["r2"] != "reddit" || counts.TotalCount != 2 {
		t.Fatalf("without Beacon the socket got %v, counts %+v; want r2 alone, of 2", got, counts)
	}
}

// Marking a whole story read (update-all with storyId) tells the owner's open apps the new
// counts, as marking one match does; the copies ingested are one story by the pipeline's stage.
func TestStoryActionReachesTheOwnersSocket(t *testing.T) {
	node, srv := startNode(t)
	ctx := context.Background()
	admin, owner := adminSearch(t, node, srv.URL, `"name":"Quakes","keywords":"earthquake OR flood","providers":["reddit"]`)
	client := userSocket(t, node, srv.URL, owner.ID)
	deadline, cancel := context.WithTimeout(ctx, wait.Deadline)
	defer cancel()
	// nextCounts reads the socket up to its next counts event.
	nextCounts := func() monitor.MatchesUpdated {
		t.Helper()
		for {
			f, err := client.Next(deadline)
			if err != nil {
				t.Fatalf("waiting for counts: %v", err)
			}
			var got monitor.MatchesUpdated
			if f.Event == monitor.EventMatchesUpdated && f.Decode(&got) == nil {
				return got
			}
		}
	}
	ingestLines(t, srv.URL, admin, postLine("s1", "Earthquake felt downtown near the old station"),
		postLine("s2", "Earthquake felt downtown near the old station"), postLine("s3", "Flood warning for the river valley tonight"))
	// The new matches' counts go out after they are stored, counted as they are when sent: all
	// are read before the story is, so that the next counts are the story action's.
	for added := int64(0); added < 3; {
		added += nextCounts().UpdatedCount
	}
	_, reply := call(t, "GET", srv.URL+"/api/v1/monitor/matches", admin, "")
	stories := map[string]int{}
	data, _ := reply["data"].([]any)
	for _, d := range data {
		stories[d.(map[string]any)["post"].(map[string]any)["storyId"].(string)]++
	}
	story := ""
	for id, n := range stories {
		if n == 2 {
			story = id
		}
	}
	if len(data) != 3 || story == "" {
		t.Fatalf("the copies are not one story of the three matches: %v", stories)
	}

	if status, reply := call(t, "PATCH", srv.URL+"/api/v1/monitor/matches/update-all/is-read", admin,
		`{"storyId":"`+story+`","setMarkedAsRead":true}`); status != 200 || reply["data"].(map[string]any)["updatedCount"] != float64(2) {
		t.Fatalf("read the story = %d %v", status, reply)
	}
	if got := nextCounts(); got.UpdatedCount != 2 || got.TotalCount != 3 || got.UnreadCount != 1 {
		t.Errorf("counts after reading the story: %+v, want 2 updated, 3 matches, 1 unread", got)
	}
}
