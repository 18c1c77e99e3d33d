package nostr

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/sightline/sightline/internal/connector/connectortest"
	"github.com/sightline/sightline/internal/outbound"
	"github.com/sightline/sightline/internal/wait"
)

func recorded(t *testing.T) []Event {
	t.Helper()
	var evs []Event
	b, err := os.ReadFile("testdata/events.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &evs); err != nil {
		t.Fatal(err)
	}
	return evs
}

func TestVerify(t *testing.T) {
	// An event signed elsewhere (nostr-tools), as published.
	external := Event{CreatedAt: 0, Kind: 96024, Tags: [][]string{}, Content: strings.Repeat("0", 64),
		PubKey: "2e7b0e5aae374d0ed1fab6cc877a969716ea48a710176a035398635e5d660dc1",
		ID:     "54ffbfbb8a4f76991c9f2401943b9b4d4f10084863ec7ea538bad2ded3d56892",
		Sig:    "a35749d6174451de16fb286096858cb33d7b66c9583024fd2a5cd7b57a763ec85d99ddb0711044498c362be7c82e524a9845e09f634bbf11d87fccc2bcfe2202"}
	good := recorded(t)[0]
	for _, tc := range []struct {
		name   string
		ev     Event
		change func(*Event)
		ok     bool
	}{
		{"external vector", external, nil, true},
		{"recorded", good, nil, true},
		{"content changed", good, func(e *Event) { e.Content += "!" }, false},
		{"id of another event", good, func(e *Event) { e.ID = external.ID }, false},
		{"signature of another event", good, func(e *Event) { e.Sig = external.Sig }, false},
		{"pubkey not hex", good, func(e *Event) { e.PubKey = "zz" }, false},
		{"signature cut", good, func(e *Event) { e.Sig = e.Sig[:64] }, false},
	} {
		ev := tc.ev
		ev.Tags = append([][]string(nil), ev.Tags...)
		if tc.change != nil {
			tc.change(&ev)
		}
		if err := Verify(ev); (err == nil) != tc.ok {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	// The escaping NIP-01 prescribes, and no other (no \u003c for <).
	if got := string(Serialize(Event{PubKey: "ab", CreatedAt: 1, Kind: 1, Tags: [][]string{{"t", "a\"b"}}, Content: "<x>\n\t\\é"})); got != `[0,"ab",1,1,[["t","a\"b"]],"<x>\n\t\\é"]` {
		t.Errorf("serialized %s", got)
	}
}

// relay is a loopback Nostr relay that answers every REQ with its stored events, then EOSE.
type relay struct {
	mu     sync.Mutex
	events [][]byte // EVENT messages, as sent
	reqs   []map[string]any
	conns  int // connections accepted
}

func (r *relay) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	conn, err := websocket.Accept(w, req, nil)
	if err != nil {
		return
	}
	defer conn.CloseNow()
	r.mu.Lock()
	r.conns++
	r.mu.Unlock()
	ctx := req.Context()
	for {
		_, data, err := conn.Read(ctx)
		if err != nil {
			return
		}
		var msg []json.RawMessage
		json.Unmarshal(data, &msg)
		var typ, sub string
		json.Unmarshal(msg[0], &typ)
		json.Unmarshal(msg[1], &sub)
		var filter map[string]any
		json.Unmarshal(msg[2], &filter)
		r.mu.Lock()
		r.reqs = append(r.reqs, filter)
		events := r.events
		r.mu.Unlock()
		for _, ev := range events {
			conn.Write(ctx, websocket.MessageText, []byte(strings.Replace(string(ev), "SUB", sub, 1)))
		}
		conn.Write(ctx, websocket.MessageText, []byte(`["EOSE","`+sub+`"]`))
		conn.Write(ctx, websocket.MessageText, []byte(`["NOTICE","rate limited? no"]`))
	}
}

func (r *relay) connections() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.conns
}

func (r *relay) requests() []map[string]any {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]map[string]any(nil), r.reqs...)
}

func newRelay(t *testing.T, events []Event, extra ...string) (*relay, string) {
	r := &relay{}
	for _, ev := range events {
		b, _ := json.Marshal(ev)
		r.events = append(r.events, []byte(`["EVENT","SUB",`+string(b)+`]`))
	}
	for _, e := range extra {
		r.events = append(r.events, []byte(e))
	}
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	return r, "ws" + strings.TrimPrefix(srv.URL, "http")
}

func start(t *testing.T, relays []string, cursors *connectortest.Cursors) (*Source, *connectortest.Collector, func()) {
	t.Helper()
	cfg := DefaultConfig()
	cfg.Relays = relays
	src, err := New(cfg, cursors, outbound.New(outbound.Options{AllowPrivate: true, Timeout: 30 * time.Second}))
	if err != nil {
		t.Fatal(err)
	}
	src.sleep = (&connectortest.Sleeper{}).Sleep
	src.now = func() time.Time { return time.Unix(1764051000, 0) }
	var got connectortest.Collector
	return src, &got, connectortest.Start(t, src, got.Emit)
}

func TestRelaysDeduplicatedAndVerified(t *testing.T) {
	evs := recorded(t)
	forged := evs[0]
	forged.ID = "ff" + forged.ID[2:]
	forgedJSON, _ := json.Marshal(forged)
	tampered := evs[1]
	tampered.Content = "Not what was signed"
	tamperedJSON, _ := json.Marshal(tampered)
	r1, url1 := newRelay(t, evs[:3], `["EVENT","SUB",`+string(forgedJSON)+`]`, `not json`)
	r2, url2 := newRelay(t, evs, `["EVENT","SUB",`+string(tamperedJSON)+`]`)
	cursors := &connectortest.Cursors{}
	src, got, stop := start(t, []string{url1, url2}, cursors)
	posts := got.WaitForPosts(t, 3)
	wait.For(t, "the bad events skipped", func() bool { return src.Stats().Skipped >= 2 })
	stop()
	if n := len(got.Posts()); n != 3 {
		t.Fatalf("emitted %d notes, want the three kind-1 notes once each", n)
	}
	byID := map[string]int{}
	for i, p := range posts {
		if err := p.Normalize(time.Unix(1764051000, 0)); err != nil {
			t.Errorf("%d: %v", i, err)
		}
		byID[p.NativeID] = i
	}
	root, second, third := posts[byID[evs[0].ID]], posts[byID[evs[1].ID]], posts[byID[evs[2].ID]]
	if root.ThreadID != evs[0].ID || root.ParentID != "" || len(root.Tags) != 1 || root.Tags[0] != "osint" ||
		root.Entities.ExternalLinks[0] != "https://news.example.org/port-fire" || !strings.Contains(root.ContentText, `"Evacuations"`) {
		t.Errorf("root: %+v", root)
	}
	if second.ThreadID != evs[0].ID || second.ParentID != evs[0].ID || second.ContentText != "Confirmed by the harbour authority <official> & local radio." {
		t.Errorf("marked reply: %+v", second)
	}
	if third.ThreadID != evs[0].ID || third.ParentID != evs[1].ID || third.AuthorID != evs[0].PubKey || third.Provider != "nostr" ||
		!third.PublishedAt.Equal(time.Unix(1764050520, 0)) {
		t.Errorf("positional reply: %+v", third)
	}
	// The first subscription asks for kind 1 over the backfill. Each relay subscribes when it
	// connects: the later one may already ask from the cursor the first one's notes moved, or
	// not have subscribed before the notes were all in.
	fromBackfill := false
	for _, r := range []*relay{r1, r2} {
		if reqs := r.requests(); len(reqs) > 0 {
			if reqs[0]["kinds"].([]any)[0] != float64(1) {
				t.Errorf("REQ %v", reqs[0])
			}
			fromBackfill = fromBackfill || reqs[0]["since"] == float64(1764051000-600)
		}
	}
	if !fromBackfill {
		t.Errorf("no first REQ asked from the backfill: %v, %v", r1.requests(), r2.requests())
	}
	if saved, _ := cursors.Load(context.Background(), Name); saved != "1764050520" {
		t.Errorf("cursor %q", saved)
	}
}

func TestResumeFromTheCursor(t *testing.T) {
	evs := recorded(t)
	r, u := newRelay(t, evs)
	cursors := &connectortest.Cursors{}
	cursors.Save(context.Background(), Name, "1764050460")
	_, got, stop := start(t, []string{u}, cursors)
	got.WaitForPosts(t, 3)
	stop()
	// Since the cursor, less the overlap for late notes; what was emitted before the restart
	// is not remembered, which the stream's idempotency by post id absorbs.
	if req := r.requests()[0]; req["since"] != float64(1764050460-300) {
		t.Errorf("REQ %v", req)
	}
}

// A relay that closes the subscription ends the connection as a failure, and the source dials
// again after its backoff and subscribes anew.
func TestClosedSubscriptionReconnects(t *testing.T) {
	r, u := newRelay(t, nil, `["CLOSED","SUB","auth-required: we only serve paying users"]`)
	cfg := DefaultConfig()
	cfg.Relays = []string{u}
	src, err := New(cfg, &connectortest.Cursors{}, outbound.New(outbound.Options{AllowPrivate: true, Timeout: 30 * time.Second}))
	if err != nil {
		t.Fatal(err)
	}
	sleeper := &connectortest.Sleeper{}
	src.sleep = sleeper.Sleep
	stop := connectortest.Start(t, src, (&connectortest.Collector{}).Emit)
	wait.For(t, "a second connection and subscription", func() bool {
		return r.connections() >= 2 && len(r.requests()) >= 2
	})
	stop()
	if st := src.Stats(); !strings.Contains(st.LastError, "auth-required") || st.Retries == 0 {
		t.Errorf("stats %+v, want the relay's reason as the last error, and retries", st)
	}
	initial := time.Duration(cfg.Backoff.Initial)
	if waits := sleeper.Waits(); len(waits) == 0 || waits[0] < initial/2 || waits[0] > initial {
		t.Errorf("waits %v, want the backoff's first delay (%v, less its jitter) before the reconnection", waits, initial)
	}
}

func TestNewRefusesBadRelays(t *testing.T) {
	for _, relays := range [][]string{nil, {"https://relay.example"}, {"wss://"}} {
		cfg := DefaultConfig()
		cfg.Relays = relays
		if _, err := New(cfg, &connectortest.Cursors{}, outbound.New(outbound.Options{})); err == nil {
			t.Errorf("%v accepted", relays)
		}
	}
}

func TestForgedCopyDoesNotShadowTheGenuineEvent(t *testing.T) {
	evs := recorded(t)
	tampered := evs[0]
	tampered.Content = "Not what was signed"
	tamperedJSON, _ := json.Marshal(tampered)
	genuineJSON, _ := json.Marshal(evs[0])
	_, u := newRelay(t, nil, `["EVENT","SUB",`+string(tamperedJSON)+`]`, `["EVENT","SUB",`+string(genuineJSON)+`]`)
	src, got, stop := start(t, []string{u}, &connectortest.Cursors{})
	posts := got.WaitForPosts(t, 1)
	stop()
	if posts[0].ContentText != evs[0].Content || src.Stats().Skipped < 1 {
		t.Errorf("emitted %+v, stats %+v", posts[0], src.Stats())
	}
}
