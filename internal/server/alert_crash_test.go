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
// requests it answered 200.
type heldHooks struct {
	mu      sync.Mutex
	hold    chan struct{}
	held    chan struct{}
	dropped chan struct{}
	got     []hookRequest
}

// hookRequest is a webhook request the receiver answered 200.
type hookRequest struct {
	id   string // webhook-id: the same on every attempt of one delivery
	body []byte
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
	h.got = append(h.got, hookRequest{id: r.Header.Get("webhook-id"), body: body})
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

func (h *heldHooks) requests() []hookRequest {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]hookRequest(nil), h.got...)
}

// A node killed with SIGKILL while it sends an alert's e-mail and webhook (a delivery to each
// claimed, its message on the wire) loses neither: after a restart each delivery is sent again,
// once, and every match reaches each destination exactly once, however many deliveries the
// burst was split into.
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

	// A delivery to each destination is claimed and on the wire: the mail server has the
	// recipient, the receiver the request. Then the node dies. The burst's matches may be split
	// between several deliveries to one destination (they are stored in batches); every one is
	// pending, since nothing was answered.
	for _, held := range []<-chan struct{}{mailHeld, hooks.held} {
		wait.Receive(t, "the node sending the alerts", held)
	}
	deliveries, err := s.Deliveries(ctx, searchID, 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"email", "webhook"} {
		leased := false
		for _, d := range deliveries {
			if d.Destination.Type != kind {
				continue
			}
			if d.Status != alerts.StatusPending {
				t.Fatalf("%s delivery at the kill = %+v, want pending: nothing was answered", kind, d)
			}
			leased = leased || d.LeaseUntil.After(time.Now())
		}
		if !leased {
			t.Fatalf("no %s delivery claimed at the kill: %+v", kind, deliveries)
		}
	}
	first.cmd.Process.Signal(syscall.SIGKILL)
	first.cmd.Wait()
	releaseMail()
	wait.Receive(t, "the receiver seeing the killed node's request go", hooks.dropped)
	hooks.release()
	if n := len(smtp.Messages()) + len(hooks.requests()); n != 0 {
		t.Fatalf("%d messages arrived from the killed node", n)
	}

	// After the restart, every match is covered by a delivery to each destination, and every
	// delivery is sent.
	restarted := time.Now()
	startChild(t, dir, env...)
	wait.ForNil(t, "every match sent to both destinations after the restart", func() error {
		deliveries, err = s.Deliveries(ctx, searchID, 100)
		if err != nil {
			t.Fatal(err)
		}
		covered := map[string]int{}
		for _, d := range deliveries {
			if d.Status != alerts.StatusSent {
				return fmt.Errorf("deliveries %+v", deliveries)
			}
			covered[d.Destination.Type] += d.MatchCount
		}
		if covered["email"] != posts || covered["webhook"] != posts {
			return fmt.Errorf("deliveries cover %v matches, want %d to each destination", covered, posts)
		}
		return nil
	})
	t.Logf("%d deliveries sent %s after the restart", len(deliveries), time.Since(restarted).Round(time.Second))

	// Each delivery arrived once, whichever node sent it, and together they carry each match
	// once to each destination.
	sent := map[string]int{}
	for _, d := range deliveries {
		sent[d.Destination.Type]++
	}
	mails, hooked := smtp.Messages(), hooks.requests()
	if len(mails) != sent["email"] || len(hooked) != sent["webhook"] {
		t.Fatalf("%d e-mails and %d webhooks arrived, want one for each of the %v deliveries", len(mails), len(hooked), sent)
	}
	mailed := make([]int, posts)
	for _, d := range deliveries {
		switch d.Destination.Type {
		case "email":
			id := fmt.Sprintf("Message-ID: <delivery-%d@sightline.test>", d.ID)
			n := 0
			for _, m := range mails {
				if strings.Contains(string(m.Data), id) {
					n++
				}
			}
			if n != 1 {
				t.Errorf("%d e-mails carry %q, the id every attempt of delivery %d sends; want 1", n, id, d.ID)
			}
		case "webhook":
			id, n := fmt.Sprintf("msg_%d", d.ID), 0
			for _, r := range hooked {
				if r.id == id {
					n++
				}
			}
			if n != 1 {
				t.Errorf("%d webhooks carry webhook-id %s; want 1", n, id)
			}
		}
	}
	for _, m := range mails {
		text, err := m.Text()
		if err != nil {
			t.Fatal(err)
		}
		for i := range posts {
			if strings.Contains(text, fmt.Sprintf("Zebracorn sighting number %d confirmed", i)) {
				mailed[i]++
			}
		}
	}
	for i, n := range mailed {
		if n != 1 {
			t.Errorf("post %d is in %d e-mails, want 1", i, n)
		}
	}
	seen := map[int64]int{}
	for _, r := range hooked {
		var hook struct {
			Matches []struct {
				MatchID int64 `json:"matchId"`
			} `json:"matches"`
		}
		if err := json.Unmarshal(r.body, &hook); err != nil {
			t.Fatal(err)
		}
		for _, m := range hook.Matches {
			seen[m.MatchID]++
		}
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("match %d is in %d webhooks, want 1", id, n)
		}
	}
	if len(seen) != posts {
		t.Errorf("the webhooks carry %d distinct matches, want %d", len(seen), posts)
	}
}
