package api_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/api"
	"github.com/sightline/sightline/internal/export"
	"github.com/sightline/sightline/internal/live"
	"github.com/sightline/sightline/internal/mail"
	"github.com/sightline/sightline/internal/mail/mailtest"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/search"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
	"github.com/sightline/sightline/internal/translate"
	"github.com/sightline/sightline/internal/wait"
)

// clock is a test clock the export service reads.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// exportEnv is the API with the Monitor, Beacon search, the live channel and exports.
type exportEnv struct {
	*env
	hub     *live.Hub
	monitor *monitor.Service
	exports *export.Service
	deps    export.Deps
	clock   *clock
}

func newExportEnv(t *testing.T, s *store.Store, sender mail.Sender) *exportEnv {
	t.Helper()
	e, hub := liveEnv(t, s)
	svc := monitor.NewService(monitor.Deps{Store: s, Inbox: s})
	c := &clock{now: time.Now().UTC()}
	deps := export.Deps{Store: s, Users: s, Matches: svc, Beacon: search.NewService(s, search.Options{}), Live: hub, Mail: sender,
		Dir: filepath.Join(t.TempDir(), "exports"), PublicURL: "https://sightline.example", Now: c.Now}
	exports, err := export.NewService(deps)
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	h := api.New(api.Deps{Accounts: e.accounts, Auth: e.auth, Monitor: svc, Live: hub, Exports: exports, Health: s.Ping,
		App: api.AppHandler(nil, false), Logger: log, SearchLimiter: stillSearchLimiter()})
	e.srv.Close()
	e.srv = httptest.NewServer(h)
	t.Cleanup(e.srv.Close)
	return &exportEnv{env: e, hub: hub, monitor: svc, exports: exports, deps: deps, clock: c}
}

// stillSearchLimiter is the per-user search limiter on a clock that stands still: a test's
// requests all fall in one minute's window, however slow the machine.
func stillSearchLimiter() *search.Limiter {
	l := search.NewLimiter()
	at := time.Now()
	l.Now = func() time.Time { return at }
	return l
}

// seed gives the user a saved search "Floods" with n matching posts and returns the match ids.
func (x *exportEnv) seed(email string, n int) []int64 {
	x.t.Helper()
	ctx := context.Background()
	a := x.actor(email)
	home, err := x.store.UncategorizedGroup(ctx, a.OrganizationID, a.UserID)
	if err != nil {
		x.t.Fatal(err)
	}
	m, err := x.monitor.CreateSearch(ctx, a, monitor.SearchInput{GroupID: home.ID, Name: "Floods",
		Keywords: "flood", Providers: []string{"reddit"}})
	if err != nil {
		x.t.Fatal(err)
	}
	now := time.Now().UTC().Truncate(time.Millisecond)
	var posts []post.Post
	var matches []monitor.Match
	for i := range n {
		id := fmt.Sprintf("%s-%d", email, i)
		at := now.Add(-time.Duration(i) * time.Minute)
		posts = append(posts, post.Post{ID: id, Provider: "reddit", NativeID: id, Type: post.TypeThreadPost,
			AuthorName: "Ana " + email, ContentText: fmt.Sprintf("=flood number %d, \"quoted\"", i), Tags: []string{"a", "b"},
			Location: &post.Point{Lat: 48.5, Lon: 2.25}, PublishedAt: at, DiscoveredAt: at})
		matches = append(matches, monitor.Match{SearchID: m.ID, OrganizationID: a.OrganizationID, PostID: id,
			PublishedAt: at, DiscoveredAt: at, Provider: "reddit", HasLocation: true})
	}
	if _, err := x.store.InsertPosts(ctx, posts); err != nil {
		x.t.Fatal(err)
	}
	created, err := x.store.InsertMatches(ctx, matches)
	if err != nil {
		x.t.Fatal(err)
	}
	ids := make([]int64, len(created))
	for i, c := range created {
		ids[i] = c.ID
	}
	return ids
}

// work runs the worker until no export waits.
func (x *exportEnv) work() {
	x.t.Helper()
	for {
		worked, err := x.exports.RunOnce(context.Background())
		if err != nil {
			x.t.Fatal(err)
		}
		if !worked {
			return
		}
	}
}

// listen subscribes a socket to the user's private channel.
func (x *exportEnv) listen(c *client, email string) (*live.Client, string) {
	x.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait.Deadline)
	defer cancel()
	u, _ := url.Parse(x.srv.URL)
	socket, err := live.Dial(ctx, "ws://"+u.Host+live.SocketPath(x.hub.Credentials().Key))
	if err != nil {
		x.t.Fatal(err)
	}
	x.t.Cleanup(func() { socket.Close() })
	channel := live.UserChannel(x.userID(email))
	signed := c.postForm("/broadcasting/auth", url.Values{"socket_id": {socket.SocketID}, "channel_name": {channel}}, withBearer(c.bearer))
	auth, _ := signed.body["auth"].(string)
	if err := socket.Subscribe(ctx, channel, auth); err != nil {
		x.t.Fatal(err)
	}
	return socket, channel
}

// requestExport posts an export request with the client's bearer token.
func (c *client) requestExport(body map[string]any) reply {
	c.e.t.Helper()
	return c.do("POST", "/api/v1/exports", body, withBearer(c.bearer))
}

// download fetches an export's file.
func (c *client) download(id string) (int, http.Header, []byte) {
	c.e.t.Helper()
	req, _ := http.NewRequest("GET", c.e.srv.URL+"/api/v1/exports/"+id+"/download", nil)
	req.Header.Set("Authorization", "Bearer "+c.bearer)
	resp, err := c.http.Do(req)
	if err != nil {
		c.e.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, body
}

func (x *exportEnv) signedIn(email string) *client {
	x.t.Helper()
	c := x.client()
	if r := c.login(email); r.status != http.StatusOK {
		x.t.Fatalf("login %s = %d", email, r.status)
	}
	return c
}

func exportOf(t *testing.T, r reply) map[string]any {
	t.Helper()
	if r.status != http.StatusAccepted {
		t.Fatalf("POST /api/v1/exports = %d %v, want 202", r.status, r.body)
	}
	data, _ := r.body["data"].(map[string]any)
	return data
}

// The whole flow: a request answers 202, the worker writes the file, the owner's channel gets
// export.ready with the link and its time to live, the history says ready and the file holds
// the chosen columns, in CSV and in JSON, of matches and of a Beacon search.
func TestExportFlow(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		x := newExportEnv(t, s, nil)
		ids := x.seed("owner@acme.test", 3)
		owner := x.signedIn("owner@acme.test")
		socket, channel := x.listen(owner, "owner@acme.test")

		r := owner.requestExport(map[string]any{"source": "matches", "filters": map[string]any{},
			"columns": []string{"id", "contentText", "searchName", "matchedTerms", "location", "tags"}, "format": "csv"})
		created := exportOf(t, r)
		if created["status"] != "pending" || created["postCount"] != float64(3) || created["downloadUrl"] != nil || created["finishedAt"] != nil {
			t.Errorf("created = %v", created)
		}
		id := created["id"].(string)
		x.work()

		ctx, cancel := context.WithTimeout(context.Background(), wait.Deadline)
		defer cancel()
		f, err := socket.Next(ctx)
		var ready live.ExportReady
		if err != nil || f.Event != live.EventExportReady || f.Channel != channel || f.Decode(&ready) != nil {
			t.Fatalf("live frame %+v, %v", f, err)
		}
		if ready.Link != "https://sightline.example/api/v1/exports/"+id+"/download" || ready.TTL < int(export.Retention.Seconds())-60 {
			t.Errorf("ready = %+v", ready)
		}

		list := owner.do("GET", "/api/v1/exports", nil, withBearer(owner.bearer))
		items, _ := list.body["data"].([]any)
		if len(items) != 1 || dig(items[0], "status") != "ready" || dig(items[0], "postCount") != float64(3) ||
			dig(items[0], "downloadUrl") != "/api/v1/exports/"+id+"/download" || dig(items[0], "emailStatus") != "" {
			t.Fatalf("history = %v", list.body)
		}

		status, header, body := owner.download(id)
		if status != http.StatusOK || !strings.HasPrefix(header.Get("Content-Type"), "text/csv") ||
			header.Get("Content-Disposition") != `attachment; filename=sightline-export-`+id+`.csv` {
			t.Fatalf("download = %d %v", status, header)
		}
		records, err := csv.NewReader(bytes.NewReader(body)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		want := [][]string{{"id", "contentText", "searchName", "matchedTerms", "location", "tags"}}
		for i := range 3 {
			// Newest first, as the inbox sorts; a cell starting with = is defused for spreadsheets.
			want = append(want, []string{fmt.Sprintf("owner@acme.test-%d", i), fmt.Sprintf("'=flood number %d, \"quoted\"", i),
				"Floods", "flood", "48.5,2.25", "a; b"})
		}
		if fmt.Sprint(records) != fmt.Sprint(want) {
			t.Errorf("csv =\n%v\nwant\n%v", records, want)
		}

		// Chosen matches to JSON.
		r = owner.requestExport(map[string]any{"source": "matches", "matchIds": []int64{ids[2], ids[0]},
			"columns": []string{"id", "location", "tags", "matchedTerms"}, "format": "json"})
		id = exportOf(t, r)["id"].(string)
		x.work()
		status, header, body = owner.download(id)
		var rows []map[string]any
		if status != http.StatusOK || !strings.HasPrefix(header.Get("Content-Type"), "application/json") || json.Unmarshal(body, &rows) != nil {
			t.Fatalf("json download = %d %s", status, body)
		}
		if len(rows) != 2 || rows[0]["id"] != "owner@acme.test-0" || rows[1]["id"] != "owner@acme.test-2" || len(rows[0]) != 4 ||
			dig(rows[0], "location", "lat") != 48.5 || fmt.Sprint(rows[0]["tags"]) != "[a b]" ||
			dig(rows[0]["matchedTerms"].([]any)[0], "term") != "flood" {
			t.Errorf("json rows = %s", body)
		}

		// A Beacon search to CSV.
		r = owner.requestExport(map[string]any{"source": "beacon", "category": "all",
			"search": map[string]any{"query": "flood", "sort": "published_asc"}, "columns": []string{"id", "provider", "authorName"}})
		created = exportOf(t, r)
		if created["format"] != "csv" || created["postCount"] != float64(3) {
			t.Errorf("beacon export = %v", created)
		}
		x.work()
		_, _, body = owner.download(created["id"].(string))
		records, _ = csv.NewReader(bytes.NewReader(body)).ReadAll()
		if len(records) != 4 || records[1][0] != "owner@acme.test-2" || records[1][1] != "reddit" || records[1][2] != "Ana owner@acme.test" {
			t.Errorf("beacon csv = %v", records)
		}
	})
}

// Only the owner downloads an export: another member of the organization and another
// organization get 404, and neither sees it in their history; nor can another organization
// export the owner's matches by id.
func TestExportOwnerOnly(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		x := newExportEnv(t, s, nil)
		ids := x.seed("owner@acme.test", 2)
		owner := x.signedIn("owner@acme.test")
		id := exportOf(t, owner.requestExport(map[string]any{"source": "matches", "matchIds": ids,
			"columns": []string{"id"}, "format": "csv"}))["id"].(string)

		if status, _, _ := owner.download(id); status != http.StatusNotFound {
			t.Errorf("download before the worker ran = %d, want 404", status)
		}
		x.work()
		if status, _, _ := owner.download(id); status != http.StatusOK {
			t.Errorf("owner download = %d", status)
		}
		for _, email := range []string{"analyst@acme.test", "owner@globex.test"} {
			c := x.signedIn(email)
			if status, _, body := c.download(id); status != http.StatusNotFound || bytes.Contains(body, []byte("owner@acme")) {
				t.Errorf("%s download = %d %s, want 404", email, status, body)
			}
			if r := c.do("GET", "/api/v1/exports", nil, withBearer(c.bearer)); len(r.body["data"].([]any)) != 0 {
				t.Errorf("%s history = %v", email, r.body)
			}
		}
		globex := x.signedIn("owner@globex.test")
		r := globex.requestExport(map[string]any{"source": "matches", "matchIds": ids, "columns": []string{"id"}})
		if r.status != http.StatusUnprocessableEntity || r.body["message"] != export.MsgEmpty {
			t.Errorf("another organization's matches = %d %v", r.status, r.body)
		}
		if r := x.client().do("GET", "/api/v1/exports/"+id+"/download", nil); r.status != http.StatusUnauthorized {
			t.Errorf("anonymous download = %d", r.status)
		}
	})
}

// Validation, the empty case, the subscriptions of a Beacon export and the daily quota.
func TestExportRefusals(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		x := newExportEnv(t, s, nil)
		x.seed("owner@acme.test", 3)
		owner := x.signedIn("owner@acme.test")
		for _, tc := range []struct {
			name string
			body map[string]any
			want string
		}{
			{"bad e-mail", map[string]any{"source": "matches", "columns": []string{"id"}, "email": "not-an-address"}, export.MsgInvalidEmail},
			{"nothing selected", map[string]any{"source": "matches", "filters": map[string]any{"providers": []string{"twitter"}},
				"columns": []string{"id"}}, export.MsgEmpty},
			{"beacon with nothing found", map[string]any{"source": "beacon", "search": map[string]any{"query": "volcano"},
				"columns": []string{"id"}}, export.MsgEmpty},
			{"unknown column", map[string]any{"source": "matches", "columns": []string{"password"}}, "There is no column password."},
			{"match column for beacon", map[string]any{"source": "beacon", "search": map[string]any{"query": "flood"},
				"columns": []string{"searchName"}}, "The searchName column is only for inbox matches."},
			{"no column", map[string]any{"source": "matches"}, "Choose at least one column."},
			{"unknown format", map[string]any{"source": "matches", "columns": []string{"id"}, "format": "xlsx"}, "The format must be csv or json."},
			{"unknown source", map[string]any{"source": "files", "columns": []string{"id"}}, "The source must be matches or beacon."},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := owner.requestExport(tc.body)
				if r.status != http.StatusUnprocessableEntity || r.body["message"] != tc.want {
					t.Errorf("= %d %v, want 422 %q", r.status, r.body, tc.want)
				}
			})
		}

		// A Beacon export needs Beacon, as Beacon's search does; with it, dark-web posts are in.
		at := time.Now().UTC().Truncate(time.Millisecond)
		if _, err := s.InsertPosts(context.Background(), []post.Post{{ID: "tor-1", Provider: "tor", NativeID: "1",
			Type: post.TypeThreadPost, ContentText: "flood on the dark web", PublishedAt: at, DiscoveredAt: at}}); err != nil {
			t.Fatal(err)
		}
		u, _ := s.UserByEmail(context.Background(), "analyst@acme.test")
		if err := s.UpdateUserAccess(context.Background(), u.ID, account.ACL{Pro: true}); err != nil {
			t.Fatal(err)
		}
		analyst := x.signedIn("analyst@acme.test")
		beacon := func(c *client, providers ...string) reply {
			return c.requestExport(map[string]any{"source": "beacon", "search": map[string]any{"query": "flood", "providers": providers},
				"columns": []string{"id"}})
		}
		if r := beacon(analyst); r.status != http.StatusForbidden {
			t.Errorf("a Beacon export without a Beacon subscription = %d %v", r.status, r.body)
		}
		if got := exportOf(t, beacon(owner))["postCount"]; got != float64(4) {
			t.Errorf("owner's Beacon export counts %v posts, want 4", got)
		}
		x.work()

		// The quota: 49,995 posts already exported today and the 4 above leave 1; three are refused.
		a := x.actor("owner@acme.test")
		now := x.clock.Now()
		if _, err := s.CreateExport(context.Background(), export.Export{OrganizationID: a.OrganizationID, UserID: a.UserID,
			Source: "matches", Format: "csv", Columns: []string{"id"}, Request: json.RawMessage(`{}`), Status: export.StatusReady,
			PostCount: export.DailyLimit - 1 - 4, CreatedAt: now, ExpiresAt: now.Add(export.Retention)},
			export.Quota{Limit: export.DailyLimit, Since: now.Truncate(24 * time.Hour), Until: now.Add(24 * time.Hour)}); err != nil {
			t.Fatal(err)
		}
		r := owner.requestExport(map[string]any{"source": "matches", "columns": []string{"id"}})
		want := "You can export up to 50,000 posts a day. This export has 3 posts and you have 1 left today: narrow it down, or export the rest after 00:00 UTC."
		if r.status != http.StatusUnprocessableEntity || r.body["message"] != want {
			t.Errorf("past the quota = %d %v", r.status, r.body)
		}
		if r := owner.do("GET", "/api/v1/exports", nil, withBearer(owner.bearer)); len(r.body["data"].([]any)) != 2 {
			t.Errorf("a refused export was stored: %v", r.body)
		}
	})
}

// A server without e-mail refuses an address rather than take one it will not write to; the
// export without it is taken.
func TestExportEmailOff(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		x := newExportEnv(t, s, nil)
		x.seed("owner@acme.test", 1)
		owner := x.signedIn("owner@acme.test")
		r := owner.requestExport(map[string]any{"source": "matches", "columns": []string{"id"}, "email": "ana@acme.test"})
		if r.status != http.StatusUnprocessableEntity || r.body["message"] != export.MsgEmailOff {
			t.Errorf("with an address = %d %v, want 422 %q", r.status, r.body, export.MsgEmailOff)
		}
		created := exportOf(t, owner.requestExport(map[string]any{"source": "matches", "columns": []string{"id"}}))
		if created["email"] != "" && created["email"] != nil {
			t.Errorf("created = %v", created)
		}
	})
}

// With e-mail on, the link reaches the address given, through a real SMTP server; a server that
// refuses the message leaves the export ready and says the mail failed.
func TestExportEmailed(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		smtp := mailtest.Start(t)
		sender, err := mail.NewSMTP(smtp.URL(), "Sightline <exports@sightline.test>")
		if err != nil {
			t.Fatal(err)
		}
		x := newExportEnv(t, s, sender)
		x.seed("owner@acme.test", 2)
		owner := x.signedIn("owner@acme.test")
		id := exportOf(t, owner.requestExport(map[string]any{"source": "matches", "columns": []string{"id"},
			"email": "analyst@acme.test"}))["id"].(string)
		x.work()
		got := smtp.WaitFor(t, 1)[0]
		raw := string(got.Data)
		if strings.Join(got.To, ",") != "analyst@acme.test" || !strings.Contains(raw, "/api/v1/exports/"+id+"/download") ||
			!strings.Contains(raw, "Your Sightline export is ready") || !strings.Contains(raw, "2 posts as CSV") {
			t.Errorf("mail to %v:\n%s", got.To, raw)
		}
		r := owner.do("GET", "/api/v1/exports", nil, withBearer(owner.bearer))
		if dig(r.body["data"].([]any)[0], "emailStatus") != export.EmailSent {
			t.Errorf("history = %v", r.body)
		}

		smtp.Refuse(errors.New("mailbox full"))
		exportOf(t, owner.requestExport(map[string]any{"source": "matches", "columns": []string{"id"}, "email": "analyst@acme.test"}))
		x.work()
		r = owner.do("GET", "/api/v1/exports", nil, withBearer(owner.bearer))
		if first := r.body["data"].([]any)[0]; dig(first, "status") != "ready" || dig(first, "emailStatus") != export.EmailFailed {
			t.Errorf("refused mail: history = %v", r.body)
		}
	})
}

// A node that claimed an export and stopped leaves it to the next worker once its lease ends;
// after 30 days the sweeper deletes the file and the history row.
func TestExportResumeAndExpiry(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		x := newExportEnv(t, s, nil)
		x.seed("owner@acme.test", 2)
		owner := x.signedIn("owner@acme.test")
		id := exportOf(t, owner.requestExport(map[string]any{"source": "matches", "columns": []string{"id"}}))["id"].(string)

		now := x.clock.Now()
		if _, found, err := s.ClaimExport(context.Background(), "stopped-node", now, now.Add(time.Minute)); err != nil || !found {
			t.Fatalf("claim = %v %v", found, err)
		}
		if worked, err := x.exports.RunOnce(context.Background()); worked || err != nil {
			t.Fatalf("a claim under lease was taken: %v %v", worked, err)
		}
		x.clock.Add(2 * time.Minute)
		if worked, err := x.exports.RunOnce(context.Background()); !worked || err != nil {
			t.Fatalf("the stopped node's export was not resumed: %v %v", worked, err)
		}
		if status, _, body := owner.download(id); status != http.StatusOK || strings.Count(string(body), "\n") != 3 {
			t.Fatalf("resumed download = %d %q", status, body)
		}

		files, _ := os.ReadDir(x.deps.Dir)
		if len(files) != 1 {
			t.Errorf("files = %v", files)
		}
		// The link lives the spec's 30 days of export history from the request, to the second.
		r := owner.do("GET", "/api/v1/exports", nil, withBearer(owner.bearer))
		row := r.body["data"].([]any)[0]
		if life := dig(row, "expiresAt").(float64) - dig(row, "createdAt").(float64); life != 30*24*60*60 {
			t.Errorf("the link lives %v s, want 30 days", life)
		}
		n, _ := strconv.ParseInt(id, 10, 64)
		stored, _, err := s.Export(context.Background(), n)
		if err != nil {
			t.Fatal(err)
		}
		x.clock.Add(stored.ExpiresAt.Sub(x.clock.Now()) - time.Second)
		if status, _, _ := owner.download(id); status != http.StatusOK {
			t.Errorf("download a second before expiry = %d", status)
		}
		x.clock.Add(time.Second)
		if status, _, body := owner.download(id); status != http.StatusNotFound || !strings.Contains(string(body), export.MsgExpired) {
			t.Errorf("download at expiry = %d %s, want 404 %q", status, body, export.MsgExpired)
		}
		if n, err := x.exports.Sweep(context.Background()); n != 1 || err != nil {
			t.Errorf("swept %d, %v", n, err)
		}
		if files, _ := os.ReadDir(x.deps.Dir); len(files) != 0 {
			t.Errorf("files left = %v", files)
		}
		if status, _, _ := owner.download(id); status != http.StatusNotFound {
			t.Errorf("expired download = %d", status)
		}
		if r := owner.do("GET", "/api/v1/exports", nil, withBearer(owner.bearer)); len(r.body["data"].([]any)) != 0 {
			t.Errorf("expired history = %v", r.body)
		}
	})
}

// The walk behind exports gives every match once, in the inbox's order, whatever the sort,
// across pages (ties in time broken by id).
func TestEachMatchWalksInInboxOrder(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		x := newExportEnv(t, s, nil)
		x.seed("owner@acme.test", 7)
		a := x.actor("owner@acme.test")
		for _, sort := range post.TimeSorts {
			t.Run(sort, func(t *testing.T) {
				page, _, err := x.monitor.Inbox(context.Background(), a, monitor.MatchQuery{Sort: sort, Limit: 100})
				if err != nil {
					t.Fatal(err)
				}
				var want, got []int64
				for _, e := range page {
					want = append(want, e.ID)
				}
				err = x.monitor.EachMatch(context.Background(), a, monitor.MatchQuery{Sort: sort}, 2, func(entries []monitor.InboxEntry) error {
					for _, e := range entries {
						got = append(got, e.ID)
					}
					return nil
				})
				if err != nil || len(want) != 7 || fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("walk = %v, %v; inbox = %v", got, err, want)
				}
			})
		}
	})
}

// calledBackend is a translation server an export must never call.
type calledBackend struct{ t *testing.T }

func (b calledBackend) Translate(context.Context, string, string, string, string) (string, error) {
	b.t.Error("an export called the translation server")
	return "", errors.New("called")
}

// The translatedText column holds what was translated before into the export's language (the
// cards' text and key), empty for posts nobody translated, without calling the server.
func TestExportTranslatedText(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		x := newExportEnv(t, s, nil)
		x.exports.Translations = translate.NewService(calledBackend{t}, s)
		x.seed("owner@acme.test", 3)
		owner := x.signedIn("owner@acme.test")
		ctx := context.Background()
		for _, i := range []int{0, 2} {
			text := translate.PostText("", fmt.Sprintf("=flood number %d, \"quoted\"", i))
			if err := s.SaveTranslation(ctx, translate.KeyOf(text, translate.Auto, "fr", translate.FormatText), fmt.Sprintf("crue numéro %d", i)); err != nil {
				t.Fatal(err)
			}
		}

		id := exportOf(t, owner.requestExport(map[string]any{"source": "matches", "filters": map[string]any{},
			"columns": []string{"id", "translatedText"}, "format": "csv", "translateTo": "fr-FR"}))["id"].(string)
		x.work()
		_, _, body := owner.download(id)
		records, err := csv.NewReader(bytes.NewReader(body)).ReadAll()
		want := [][]string{{"id", "translatedText"}, {"owner@acme.test-0", "crue numéro 0"}, {"owner@acme.test-1", ""},
			{"owner@acme.test-2", "crue numéro 2"}}
		if err != nil || fmt.Sprint(records) != fmt.Sprint(want) {
			t.Errorf("csv = %v %v, want %v", records, err, want)
		}

		// Without a language, English, the spec's default target: nothing was translated into it.
		id = exportOf(t, owner.requestExport(map[string]any{"source": "beacon", "search": map[string]any{"query": "flood"},
			"columns": []string{"id", "translatedText"}, "format": "json"}))["id"].(string)
		x.work()
		_, _, body = owner.download(id)
		var rows []map[string]any
		if err := json.Unmarshal(body, &rows); err != nil || len(rows) != 3 || rows[0]["translatedText"] != "" {
			t.Errorf("json = %s %v", body, err)
		}

		if r := owner.requestExport(map[string]any{"source": "matches", "columns": []string{"translatedText"}, "translateTo": "français"}); r.status != http.StatusUnprocessableEntity ||
			dig(r.body, "errors", "translateTo") == nil {
			t.Errorf("bad language = %d %v", r.status, r.body)
		}
	})
}

// An export runs a search to count what it selects, so it takes a place in the caller's search
// limit: past it, 429 and nothing queued; other users keep theirs.
func TestExportTakesFromTheSearchLimit(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		x := newExportEnv(t, s, nil)
		x.seed("owner@acme.test", 1)
		owner := x.signedIn("owner@acme.test")
		body := map[string]any{"source": "matches", "columns": []string{"id"}}
		for i := range search.PerMinute {
			if r := owner.requestExport(body); r.status != http.StatusAccepted {
				t.Fatalf("export %d = %d %v", i+1, r.status, r.body)
			}
		}
		r := owner.requestExport(body)
		if r.status != http.StatusTooManyRequests || r.header.Get("Retry-After") == "" || r.body["message"] != search.MsgRateLimited {
			t.Errorf("past the search limit = %d (Retry-After %q) %v, want 429", r.status, r.header.Get("Retry-After"), r.body)
		}
		if r := owner.do("GET", "/api/v1/exports", nil, withBearer(owner.bearer)); len(r.body["data"].([]any)) != search.PerMinute {
			t.Errorf("%d exports stored, want %d", len(r.body["data"].([]any)), search.PerMinute)
		}
		x.seed("analyst@acme.test", 1)
		analyst := x.signedIn("analyst@acme.test")
		exportOf(t, analyst.requestExport(body))
	})
}

// Matches of a provider the viewer's subscriptions no longer reach leave whatever shows or
// exports matches: the inbox page and its total, the counts, matches by id, both export walks,
// the count of an export by id and the dashboard's lists. The search keeps them: they come back with the subscription.
func TestMatchesKeepToTheViewersSubscriptions(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		x := newExportEnv(t, s, nil)
		ids := x.seed("owner@acme.test", 3) // reddit
		searchOf, err := s.MatchSearches(ctx, ids[:1])
		if err != nil {
			t.Fatal(err)
		}
		a := x.actor("owner@acme.test")
		now := time.Now().UTC().Truncate(time.Millisecond)
		var posts []post.Post
		var matches []monitor.Match
		for i := range 2 {
			id := fmt.Sprint("hidden-", i)
			at := now.Add(-time.Duration(i) * time.Second)
			posts = append(posts, post.Post{ID: id, Provider: "tor", NativeID: id, Type: post.TypeThreadPost,
				AuthorName: "hidden author", ContentText: "flood on a hidden forum", Threat: post.Threat{Score: 90},
				PublishedAt: at, DiscoveredAt: at})
			matches = append(matches, monitor.Match{SearchID: searchOf[ids[0]], OrganizationID: a.OrganizationID,
				PostID: id, PublishedAt: at, DiscoveredAt: at, Provider: "tor", ThreatScore: 90})
		}
		if _, err := s.InsertPosts(ctx, posts); err != nil {
			t.Fatal(err)
		}
		created, err := s.InsertMatches(ctx, matches)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range created {
			ids = append(ids, c.ID)
		}
		for _, tt := range []struct {
			name string
			acl  account.ACL
			want int
		}{
			{"with Beacon", account.ACL{Beacon: true, Pro: true, Enterprise: true}, 5},
			{"without Beacon", account.ACL{Pro: true, Enterprise: true}, 3},
			{"with Beacon again", account.ACL{Beacon: true}, 5},
		} {
			t.Run(tt.name, func(t *testing.T) {
				if err := s.UpdateUserAccess(ctx, a.UserID, tt.acl); err != nil {
					t.Fatal(err)
				}
				a := x.actor("owner@acme.test")
				seen := map[string]int{}
				count := func(what string, entries []monitor.InboxEntry) {
					for _, e := range entries {
						seen[what]++
						if e.Provider == "tor" && !tt.acl.Beacon {
							t.Errorf("%s shows a tor match without Beacon", what)
						}
					}
				}
				page, total, err := x.monitor.Inbox(ctx, a, monitor.MatchQuery{Limit: 100})
				if err != nil || total != int64(tt.want) {
					t.Fatalf("inbox total %d, %v; want %d", total, err, tt.want)
				}
				count("inbox", page)
				if page, _, _ = x.monitor.Inbox(ctx, a, monitor.MatchQuery{Limit: 100, Providers: []string{"tor"}}); !tt.acl.Beacon && len(page) != 0 {
					t.Errorf("the inbox filtered to tor lists %d without Beacon", len(page))
				}
				byID, err := x.monitor.InboxByIDs(ctx, a, ids)
				if err != nil {
					t.Fatal(err)
				}
				count("by id", byID)
				for what, walk := range map[string]func(func([]monitor.InboxEntry) error) error{
					"export walk": func(fn func([]monitor.InboxEntry) error) error {
						return x.monitor.EachMatch(ctx, a, monitor.MatchQuery{}, 2, fn)
					},
					"export by id": func(fn func([]monitor.InboxEntry) error) error {
						return x.monitor.EachMatchByID(ctx, a, ids, 2, fn)
					},
				} {
					if err := walk(func(entries []monitor.InboxEntry) error { count(what, entries); return nil }); err != nil {
						t.Fatal(err)
					}
				}
				if n, err := x.monitor.CountVisible(ctx, a, ids); err != nil || n != tt.want {
					t.Errorf("CountVisible = %d, %v; want %d", n, err, tt.want)
				}
				counts, err := x.monitor.Counts(ctx, a, nil)
				if err != nil || counts.TotalCount != int64(tt.want) || counts.UnreadCount != int64(tt.want) {
					t.Errorf("counts %+v, %v; want %d", counts, err, tt.want)
				}
				d, err := x.monitor.Dashboard(ctx, a, nil)
				if err != nil {
					t.Fatal(err)
				}
				var shown []string
				for _, p := range d.TopProviders {
					shown = append(shown, "provider "+p.Provider)
				}
				for _, au := range d.TopAuthors {
					shown = append(shown, "author of "+au.Provider)
				}
				for _, tp := range d.Threat.Top {
					shown = append(shown, "threat post of "+tp.Post.Provider)
				}
				for _, what := range []string{"provider tor", "author of tor", "threat post of tor"} {
					if slices.Contains(shown, what) != tt.acl.Beacon {
						t.Errorf("the dashboard shows %v; want %q shown: %v", shown, what, tt.acl.Beacon)
					}
				}
				for _, what := range []string{"inbox", "by id", "export walk", "export by id"} {
					if seen[what] != tt.want {
						t.Errorf("%s shows %d matches, want %d", what, seen[what], tt.want)
					}
				}
			})
		}
	})
}
