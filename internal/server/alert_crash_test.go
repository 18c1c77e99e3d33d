package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/alerts"
	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/mail/mailtest"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/server"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
	"github.com/sightline/sightline/internal/wait"
)

// heldHooks is a webhook receiver that, while held, keeps each request open without answering;
// a request whose sender goes away was never received (dropped hears of it). It keeps the
// bodies it answered 200.
type heldHooks struct {
	mu      sync.Mutex
	hold    chan struct{}
	held    chan struct{}
	dropped chan struct{}
	got     [][]byte
}

func (h *heldHooks) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	h.mu.Lock()
	hold := h.hold
	h.mu.Unlock()
	if hold != nil {
		h.held <- struct{}{}
		select {
		case <-hold:
		case <-r.Context().Done():
		}
		if r.Context().Err() != nil {
			h.dropped <- struct{}{}
			return // the sender died waiting: nothing was received
		}
	}
	h.mu.Lock()
	h.got = append(h.got, body)
	h.mu.Unlock()
}

func (h *heldHooks) release() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.hold != nil {
		close(h.hold)
		h.hold = nil
	}
}

func (h *heldHooks) bodies() [][]byte {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([][]byte(nil), h.got...)
}

// A node killed with SIGKILL while it sends an alert's e-mail and webhook (each delivery
// claimed, its message on the wire) loses neither: after a restart each is sent again, and
// every match reaches each destination exactly once.
func TestAlertCrashSendsEachMatchOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills real node processes")
	}
	ctx := context.Background()
	dir, dsn := t.TempDir(), storetest.DSN(t, store.Postgres)
	smtp := mailtest.Start(t)
	mailHeld, releaseMail := smtp.Hold()
	hooks := &heldHooks{hold: make(chan struct{}), held: make(chan struct{}, 16), dropped: make(chan struct{}, 16)}
	receiver := httptest.NewServer(hooks)
	t.Cleanup(func() { hooks.release(); receiver.Close() })
	env := []string{"SIGHTLINE_TEST_NODE_DB=" + dsn, "SIGHTLINE_TEST_NODE_SMTP=" + smtp.URL()}
	first := startChild(t, dir, env...)

	s, err := server.OpenStore(ctx, server.Config{DataDir: dir, DB: dsn})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	a, err := auth.New(ctx, s, auth.Options{})
	if err != nil {
		t.Fatal(err)
	}
	token, _, err := a.CreateAPIToken(ctx, "admin@example.test", "crash", nil)
	if err != nil {
		t.Fatal(err)
	}
	api := func(method, path, body string) map[string]any {
		t.Helper()
		status, reply := call(t, method, "http://"+first.addr+path, token, body)
		if status/100 != 2 {
			t.Fatalf("%s %s = %d %v", method, path, status, reply)
		}
		data, _ := reply["data"].(map[string]any)
		return data
	}
	me := api("GET", "/api/v1/settings/profile/current", "")
	orgID := int64(me["organization"].(map[string]any)["id"].(float64))
	api("PUT", fmt.Sprintf("/api/v1/settings/organizations/%d/webhook", orgID), "")
	group := api("POST", "/api/v1/monitor/monitor-search-groups", `{"name":"Crash","privacy":"private"}`)
	search := api("POST", "/api/v1/monitor/searches", fmt.Sprintf(
		`{"group_id":%v,"name":"Zebracorn","keywords":"zebracorn","providers":["reddit"]}`, group["id"]))
	searchID := int64(search["id"].(float64))
	// Grouped by post: one delivery of the 30 matches per alert, as the crash is about.
	settings, _ := json.Marshal([]map[string]any{
		{"type": "batch", "interval": 60, "grouping": "post", "destinations": []map[string]string{{"type": "email", "address": "desk@example.test"}}},
		{"type": "webhook", "interval": 0, "grouping": "post", "destinations": []map[string]string{{"type": "webhook", "address": receiver.URL + "/hook"}}},
	})
	api("PUT", fmt.Sprintf("/api/v1/monitor/searches/%d/notification-settings", searchID), string(settings))
	// An alert sends what matched after it was set up, to the second.
	time.Sleep(1100 * time.Millisecond)

	const posts = 30
	var batch bytes.Buffer
	for i := range posts {
		json.NewEncoder(&batch).Encode(post.Post{Provider: "reddit", NativeID: fmt.Sprintf("z-%d", i),
			ContentText: fmt.Sprintf("Zebracorn sighting number %d confirmed", i), PublishedAt: time.Now().Add(-time.Minute)})
	}
	if status, reply := call(t, "POST", "http://"+first.addr+"/api/v1/ingest/posts", token, batch.String()); status != 200 {
		t.Fatalf("ingest = %d %v", status, reply)
	}

	// Both deliveries are claimed and on the wire: the mail server has the recipient, the
	// receiver the request. Then the node dies.
	for _, held := range []<-chan struct{}{mailHeld, hooks.held} {
		wait.Receive(t, "the node sending the alerts", held)
	}
	deliveries, err := s.Deliveries(ctx, searchID, 10)
	if err != nil || len(deliveries) != 2 {
		t.Fatalf("deliveries at the kill = %v, %v; want 2", deliveries, err)
	}
	for _, d := range deliveries {
		if d.Status != alerts.StatusPending || !d.LeaseUntil.After(time.Now()) || d.MatchCount != posts {
			t.Fatalf("delivery at the kill = %+v, want pending, leased, covering %d matches", d, posts)
		}
	}
	first.cmd.Process.Signal(syscall.SIGKILL)
	first.cmd.Wait()
	releaseMail()
	wait.Receive(t, "the receiver seeing the killed node's request go", hooks.dropped)
	hooks.release()
	if n := len(smtp.Messages()) + len(hooks.bodies()); n != 0 {
		t.Fatalf("%d messages arrived from the killed node", n)
	}

	restarted := time.Now()
	startChild(t, dir, env...)
	wait.ForNil(t, "both alerts sent after the restart", func() error {
		deliveries, err = s.Deliveries(ctx, searchID, 10)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range deliveries {
			if d.Status != alerts.StatusSent {
				return fmt.Errorf("deliveries %+v", deliveries)
			}
		}
		return nil
	})
	t.Logf("both alerts sent %s after the restart", time.Since(restarted).Round(time.Second))
	if len(deliveries) != 2 {
		t.Fatalf("%d deliveries, want the 2 made before the kill", len(deliveries))
	}

	mails, bodies := smtp.Messages(), hooks.bodies()
	if len(mails) != 1 || len(bodies) != 1 {
		t.Fatalf("%d e-mails and %d webhooks arrived, want one of each", len(mails), len(bodies))
	}
	text, err := mails[0].Text()
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("Message-ID: <delivery-%d@sightline.test>", emailDelivery(deliveries).ID); !strings.Contains(string(mails[0].Data), want) {
		t.Errorf("the e-mail lacks %q, the id every attempt of its delivery sends:\n%s", want, mails[0].Data[:400])
	}
	var hook struct {
		Matches []struct {
			MatchID int64 `json:"matchId"`
		} `json:"matches"`
	}
	if err := json.Unmarshal(bodies[0], &hook); err != nil {
		t.Fatal(err)
	}
	seen := map[int64]int{}
	for _, m := range hook.Matches {
		seen[m.MatchID]++
	}
	if len(seen) != posts || len(hook.Matches) != posts {
		t.Errorf("the webhook carries %d matches (%d distinct), want %d once each", len(hook.Matches), len(seen), posts)
	}
	for i := range posts {
		if n := strings.Count(text, fmt.Sprintf("Zebracorn sighting number %d confirmed", i)); n < 1 {
			t.Errorf("the e-mail lacks post %d", i)
		}
	}
}

func emailDelivery(ds []alerts.Delivery) alerts.Delivery {
	for _, d := range ds {
		if d.Destination.Type == "email" {
			return d
		}
	}
	return alerts.Delivery{}
}
