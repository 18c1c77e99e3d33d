package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"sync"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/alerts"
	"github.com/sightline/sightline/internal/server"
	"github.com/sightline/sightline/internal/wait"
)

// runNode starts a node of cfg and returns it with a function that stops it (and is safe to
// call again at cleanup).
func runNode(t *testing.T, cfg server.Config) (*server.Node, *httptest.Server, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	node, err := server.New(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		node.Serve(ctx, "127.0.0.1:0", nil)
		close(done)
	}()
	srv := httptest.NewServer(node.Handler)
	var once sync.Once
	stop := func() {
		once.Do(func() {
			srv.Close()
			cancel()
			<-done
			node.Close()
		})
	}
	t.Cleanup(stop)
	return node, srv, stop
}

// An immediate webhook leaves as soon as the percolator stores its match, with the scan (the
// safety net) an hour away; after a restart the next match is sent alone, and no delivery is
// made or sent twice.
func TestImmediateWebhookNeedsNoScan(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a node twice")
	}
	bodies := make(chan []byte, 8)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		bodies <- body
	}))
	t.Cleanup(receiver.Close)
	cfg := server.Config{DataDir: t.TempDir(), AdminEmail: "admin@example.test", AdminPassword: "admin-password",
		AllowPrivateWebhooks: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}, AlertScanInterval: time.Hour}
	ctx := context.Background()

	node, srv, stop := runNode(t, cfg)
	token, _, err := node.Auth.CreateAPIToken(ctx, "admin@example.test", "t", nil)
	if err != nil {
		t.Fatal(err)
	}
	user, err := node.Store.UserByEmail(ctx, "admin@example.test")
	if err != nil {
		t.Fatal(err)
	}
	api := func(url, method, path, body string) map[string]any {
		t.Helper()
		status, reply := call(t, method, url+path, token, body)
		if status/100 != 2 {
			t.Fatalf("%s %s = %d %v", method, path, status, reply)
		}
		return reply
	}
	api(srv.URL, "PUT", fmt.Sprintf("/api/v1/settings/organizations/%d/webhook", user.OrganizationID), "")
	group := api(srv.URL, "POST", "/api/v1/monitor/monitor-search-groups", `{"name":"Signal","privacy":"private"}`)["data"].(map[string]any)
	search := api(srv.URL, "POST", "/api/v1/monitor/searches", fmt.Sprintf(
		`{"group_id":%v,"name":"Zebracorn","keywords":"zebracorn","providers":["reddit"]}`, group["id"]))["data"].(map[string]any)
	searchID := int64(search["id"].(float64))
	// Grouped by post: the second sighting joins the first one's story, which a story-grouped
	// webhook would tell of once.
	api(srv.URL, "PUT", fmt.Sprintf("/api/v1/monitor/searches/%d/notification-settings", searchID),
		fmt.Sprintf(`[{"type":"webhook","interval":0,"grouping":"post","destinations":[{"type":"webhook","address":%q}]}]`, receiver.URL+"/hook"))

	// The tests' one deadline (wait.Deadline) is far below the scan's hour: only the
	// percolator's word can send in time.
	webhook := func(want string) int64 {
		t.Helper()
		body := wait.Receive(t, fmt.Sprintf("the webhook of the match %q", want), bodies)
		var hook alerts.WebhookBody
		if err := json.Unmarshal(body, &hook); err != nil {
			t.Fatal(err)
		}
		if len(hook.Matches) != 1 || hook.Matches[0].Text != want {
			t.Fatalf("webhook matches = %+v, want the one post %q", hook.Matches, want)
		}
		return hook.Matches[0].MatchID
	}
	ingestLines(t, srv.URL, token, postLine("z-1", "First zebracorn sighting"))
	first := webhook("First zebracorn sighting")
	sent := func(n int) func() bool {
		return func() bool {
			ds, err := node.Store.Deliveries(ctx, searchID, 10)
			if err != nil {
				t.Fatal(err)
			}
			done := 0
			for _, d := range ds {
				if d.Status == alerts.StatusSent {
					done++
				}
			}
			return done == n
		}
	}
	wait.For(t, "the first delivery recorded sent", sent(1))

	stop()
	node, srv, _ = runNode(t, cfg)
	ingestLines(t, srv.URL, token, postLine("z-2", "Second zebracorn sighting"))
	if second := webhook("Second zebracorn sighting"); second == first {
		t.Fatalf("the second webhook carries match %d again", first)
	}
	// The node sent the second webhook after its start-up scan: every delivery there will be is
	// written, and each was sent once.
	wait.For(t, "the second delivery recorded sent", sent(2))
	deliveries, err := node.Store.Deliveries(ctx, searchID, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(deliveries) != 2 {
		t.Fatalf("deliveries = %+v, want the 2 webhooks", deliveries)
	}
	for _, d := range deliveries {
		if d.Status != alerts.StatusSent || d.Attempts != 1 || d.MatchCount != 1 {
			t.Errorf("delivery = %+v, want sent at the first attempt, with its one match", d)
		}
	}
	if n := len(bodies); n != 0 {
		t.Errorf("%d more webhooks arrived", n)
	}
}
