package bluesky

import (
	"bufio"
	"context"
	"encoding/json"
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

	"github.com/coder/websocket"

	"github.com/sightline/sightline/internal/connector"
	"github.com/sightline/sightline/internal/connector/connectortest"
	"github.com/sightline/sightline/internal/outbound"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/wait"
)

// jetstream replays recorded events the way Jetstream does: from the cursor on, inclusive.
type jetstream struct {
	mu          sync.Mutex
	lines       []string
	times       []int64 // each line's time_us; a broken line takes its predecessor's
	queries     []url.Values
	dropAfter   int // the next connection is cut after this many events (0: never)
	silent      bool
	rateLimited int
}

func newJetstream(t *testing.T) (*jetstream, *httptest.Server) {
	t.Helper()
	f, err := os.Open("testdata/jetstream.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	js := &jetstream{}
	lines := bufio.NewScanner(f)
	var last int64
	for lines.Scan() {
		var ev struct {
			TimeUS int64 `json:"time_us"`
		}
		if json.Unmarshal(lines.Bytes(), &ev) == nil {
			last = ev.TimeUS
		}
		js.lines = append(js.lines, lines.Text())
		js.times = append(js.times, last)
	}
	srv := httptest.NewServer(js)
	t.Cleanup(srv.Close)
	return js, srv
}

func (js *jetstream) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	js.mu.Lock()
	js.queries = append(js.queries, r.URL.Query())
	if js.rateLimited > 0 {
		js.rateLimited--
		js.mu.Unlock()
		w.Header().Set("Retry-After", "30")
		http.Error(w, "slow down", http.StatusTooManyRequests)
		return
	}
	dropAfter, silent := js.dropAfter, js.silent
	js.dropAfter = 0
	js.mu.Unlock()

	conn, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer conn.CloseNow()
	cursor, _ := strconv.ParseInt(r.URL.Query().Get("cursor"), 10, 64)
	sent := 0
	for i, line := range js.lines {
		if silent || js.times[i] < cursor {
			continue
		}
		if conn.Write(r.Context(), websocket.MessageText, []byte(line)) != nil {
			return
		}
		sent++
		if sent == dropAfter {
			return // the deferred CloseNow cuts the connection without a close handshake
		}
	}
	<-conn.CloseRead(r.Context()).Done()
}

func (js *jetstream) connections() []url.Values {
	js.mu.Lock()
	defer js.mu.Unlock()
	return slices.Clone(js.queries)
}

func newSource(t *testing.T, srv *httptest.Server, cursors connector.CursorStore, sleeper *connectortest.Sleeper) *Source {
	t.Helper()
	cfg := DefaultConfig()
	cfg.URL = "ws" + strings.TrimPrefix(srv.URL, "http") + "/subscribe"
	cfg.ProfileURL, cfg.ProfileLookupEvery = newAppView(t).URL, 0
	s, err := New(cfg, cursors, outbound.New(outbound.Options{AllowPrivate: true}))
	if err != nil {
		t.Fatal(err)
	}
	s.sleep = sleeper.Sleep
	return s
}

// newAppView serves the recorded profiles at app.bsky.actor.getProfiles, leaving out the
// actors it has none of, as Bluesky does.
func newAppView(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/xrpc/app.bsky.actor.getProfiles" {
			http.Error(w, `{"error":"MethodNotImplemented"}`, http.StatusNotImplemented)
			return
		}
		var profiles []json.RawMessage
		for _, actor := range r.URL.Query()["actors"] {
			if body, err := os.ReadFile("testdata/profiles/" + filepath.Base(actor) + ".json"); err == nil {
				profiles = append(profiles, body)
			}
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"profiles": profiles})
	}))
	t.Cleanup(srv.Close)
	return srv
}

var wantRKeys = []string{"3lkbq2u7kbc2c", "3lkbq2v2dgs2d", "3lkbq2x4v3c2f", "3lkbq2ztr4s2h"}

func rkeys(posts []post.Post) []string {
	var out []string
	for _, p := range posts {
		out = append(out, p.NativeID[strings.LastIndex(p.NativeID, "/")+1:])
	}
	return out
}

func TestStream(t *testing.T) {
	js, srv := newJetstream(t)
	// The recording ends with a like, neither a post nor skipped: cutting the connection after
	// it makes the source save its cursor, which then tells that every event was read.
	const lastEvent = "1741946410000000"
	js.dropAfter = len(js.lines)
	cursors := &connectortest.Cursors{}
	src := newSource(t, srv, cursors, &connectortest.Sleeper{})
	got := &connectortest.Collector{}
	stop := connectortest.Start(t, src, got.Emit)
	wait.For(t, "every event", func() bool {
		c, _ := cursors.Load(context.Background(), Name)
		return c == lastEvent
	})
	stop()

	// Identity, delete, account and like events are not posts; the cut line and the record
	// whose text is a number are malformed.
	if keys := rkeys(got.Posts()); !slices.Equal(keys, wantRKeys) {
		t.Fatalf("emitted %v, want %v", keys, wantRKeys)
	}
	if st := src.Stats(); st.Skipped != 2 {
		t.Fatalf("skipped %d, want 2: %+v", st.Skipped, st)
	}
	q := js.connections()[0]
	if q.Get("wantedCollections") != "app.bsky.feed.post" || q.Has("cursor") {
		t.Fatalf("first subscription asked %v", q)
	}
	if c, _ := cursors.Load(context.Background(), Name); c != lastEvent {
		t.Fatalf("saved cursor %q, want the last event's time", c)
	}

	posts := got.Posts()
	alice := posts[0]
	if alice.NativeID != "at://did:plc:4alicexq7ovc3s2ttkzqbcqd/app.bsky.feed.post/3lkbq2u7kbc2c" ||
		alice.PostLink != "https://bsky.app/profile/did:plc:4alicexq7ovc3s2ttkzqbcqd/post/3lkbq2u7kbc2c" ||
		alice.AuthorScreenName != "alice-osint.bsky.social" || alice.AuthorID != "did:plc:4alicexq7ovc3s2ttkzqbcqd" ||
		alice.AuthorName != "Alice (OSINT)" || alice.AuthorFollowers != 1520 || alice.AuthorURL != "https://bsky.app/profile/alice-osint.bsky.social" ||
		alice.AuthorThumbnail != "https://cdn.bsky.app/img/avatar/plain/did:plc:4alicexq7ovc3s2ttkzqbcqd/bafkreialiceavatar@jpeg" ||
		alice.Language != "en" || !slices.Equal(alice.Tags, []string{"osint"}) ||
		!slices.Equal(alice.Entities.ExternalLinks, []string{"https://harbour.example.org/live"}) ||
		alice.ThreadID != alice.NativeID || len(alice.Photos) != 1 ||
		alice.Photos[0].Large != "https://cdn.bsky.app/img/feed_fullsize/plain/did:plc:4alicexq7ovc3s2ttkzqbcqd/bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku@jpeg" ||
		!alice.PublishedAt.Equal(time.Date(2025, 3, 14, 10, 0, 1, 512_000_000, time.UTC)) {
		t.Errorf("alice's post: %+v", alice)
	}
	bob := posts[1]
	if bob.ParentID != alice.NativeID || bob.ThreadID != alice.NativeID || bob.Language != "pt" || bob.AuthorScreenName != "bob.jornal.example" ||
		bob.AuthorName != "Bob Jornalista" {
		t.Errorf("bob's reply: %+v", bob)
	}
	carol := posts[2]
	if carol.AuthorScreenName != "did:plc:2carolz6d6d2w5qfhn4x2v5j" || carol.AuthorName != "" {
		t.Errorf("an author without a profile stays a DID: %+v", carol)
	}
	if len(carol.Videos) != 1 || carol.Videos[0].Large != "https://video.bsky.app/watch/did:plc:2carolz6d6d2w5qfhn4x2v5j/bafkreiaxq6v5gfeqmw3xlhb4vbc6mzxvwqzq7f2vc4jnzd6ytm2xq3lq7e/playlist.m3u8" {
		t.Errorf("carol's video: %+v", carol.Videos)
	}
	dave := posts[3]
	if len(dave.Photos) != 1 || !slices.Equal(dave.Tags, []string{"breaking"}) ||
		!dave.PublishedAt.Equal(time.UnixMicro(1741946409000000)) {
		t.Errorf("quote with media, dated in the future: photos %v tags %v published %v", dave.Photos, dave.Tags, dave.PublishedAt)
	}
}

// The recording's delete commit of a post is reported under the native id a post of that
// record key is emitted with, at the relay's time.
func TestDeleteCommitsAreReported(t *testing.T) {
	js, srv := newJetstream(t)
	const lastEvent = "1741946410000000"
	js.dropAfter = len(js.lines)
	cursors := &connectortest.Cursors{}
	src := newSource(t, srv, cursors, &connectortest.Sleeper{})
	deletions := &connectortest.Deletions{}
	src.OnDelete(deletions.Delete)
	got := &connectortest.Collector{}
	stop := connectortest.Start(t, src, got.Emit)
	wait.For(t, "every event", func() bool {
		c, _ := cursors.Load(context.Background(), Name)
		return c == lastEvent
	})
	stop()
	want := []connectortest.Deletion{{Provider: "bluesky",
		NativeID: "at://did:plc:7bobxe2lq3h5hvqkkwjv3bms/app.bsky.feed.post/3lkbpzzzz7s2x", At: time.UnixMicro(1741946405000000).UTC()}}
	if list := deletions.List(); !slices.Equal(list, want) {
		t.Fatalf("deletions %+v, want %+v", list, want)
	}
	if keys := rkeys(got.Posts()); !slices.Equal(keys, wantRKeys) {
		t.Fatalf("emitted %v, want %v", keys, wantRKeys)
	}
}

func TestReconnectResumesFromCursorWithoutDuplicates(t *testing.T) {
	js, srv := newJetstream(t)
	js.dropAfter = 3 // identity, alice's post, bob's reply; then the connection is cut
	sleeper := &connectortest.Sleeper{}
	src := newSource(t, srv, &connectortest.Cursors{}, sleeper)
	got := &connectortest.Collector{}
	connectortest.Start(t, src, got.Emit)
	// The recording's last post is the sentinel: the stream is ordered, so a replayed post
	// would arrive before it and take one of the four places.
	got.WaitForPosts(t, 4)
	if keys := rkeys(got.Posts()); !slices.Equal(keys, wantRKeys) {
		t.Fatalf("emitted %v, want each post once: %v", keys, wantRKeys)
	}
	conns := js.connections()
	if len(conns) != 2 || conns[1].Get("cursor") != "1741946403000000" {
		t.Fatalf("connections %v, want a second one from bob's reply's time", conns)
	}
	if w := sleeper.Waits(); len(w) == 0 || w[0] > time.Second {
		t.Fatalf("waits %v, want a first backoff step after the cut", w)
	}
	if st := src.Stats(); !strings.Contains(st.LastError, "reading the stream") {
		t.Fatalf("last error %q", st.LastError)
	}
}

func TestRestartResumesFromSavedCursor(t *testing.T) {
	js, srv := newJetstream(t)
	cursors := &connectortest.Cursors{}
	cursors.Save(context.Background(), Name, "1741946406000000")
	src := newSource(t, srv, cursors, &connectortest.Sleeper{})
	got := &connectortest.Collector{}
	connectortest.Start(t, src, got.Emit)
	// Only the recording's last post is after the cursor; any earlier one would arrive first.
	got.WaitForPosts(t, 1)
	if keys := rkeys(got.Posts()); !slices.Equal(keys, wantRKeys[3:]) {
		t.Fatalf("emitted %v, want only what came after the saved cursor", keys)
	}
	if c := js.connections()[0].Get("cursor"); c != "1741946406000000" {
		t.Fatalf("subscribed with cursor %q", c)
	}
}

func TestSilentStreamIsReconnected(t *testing.T) {
	js, srv := newJetstream(t)
	js.silent = true
	src := newSource(t, srv, &connectortest.Cursors{}, &connectortest.Sleeper{})
	src.idleTimeout = 20 * time.Millisecond
	got := &connectortest.Collector{}
	connectortest.Start(t, src, got.Emit)
	wait.For(t, "a reconnection", func() bool { return len(js.connections()) >= 2 })
	if st := src.Stats(); !strings.Contains(st.LastError, "no messages for") || len(got.Posts()) != 0 {
		t.Fatalf("stats %+v, posts %d", st, len(got.Posts()))
	}
}

func TestRateLimitedHandshakeHonoursRetryAfter(t *testing.T) {
	js, srv := newJetstream(t)
	js.rateLimited = 1
	sleeper := &connectortest.Sleeper{}
	src := newSource(t, srv, &connectortest.Cursors{}, sleeper)
	got := &connectortest.Collector{}
	connectortest.Start(t, src, got.Emit)
	got.WaitForPosts(t, 4)
	if w := sleeper.Waits(); w[0] != 30*time.Second {
		t.Fatalf("waits %v, want Retry-After's 30s first", w)
	}
}

func TestNewRefusesNonWebsocketURL(t *testing.T) {
	for _, u := range []string{"https://jetstream.example/subscribe", "not a url", ""} {
		if _, err := New(Config{URL: u}, &connectortest.Cursors{}, outbound.New(outbound.Options{})); err == nil {
			t.Errorf("New accepted %q", u)
		}
	}
}

func TestProfileLookupsCachedPacedAndBatched(t *testing.T) {
	var mu sync.Mutex
	var requests [][]string
	appView := newAppView(t)
	counting := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		requests = append(requests, r.URL.Query()["actors"])
		mu.Unlock()
		http.Redirect(w, r, appView.URL+r.URL.RequestURI(), http.StatusTemporaryRedirect)
	}))
	defer counting.Close()
	const alice, bob, carol = "did:plc:4alicexq7ovc3s2ttkzqbcqd", "did:plc:7bobxe2lq3h5hvqkkwjv3bms", "did:plc:2carolz6d6d2w5qfhn4x2v5j"
	for _, tc := range []struct {
		name     string
		every    time.Duration
		dids     []string
		due      []bool // a lookup is made due before this author's post
		names    []string
		requests [][]string
	}{
		{"each author once", 0, []string{alice, alice, carol, carol, bob}, nil,
			[]string{"Alice (OSINT)", "Alice (OSINT)", "", "", "Bob Jornalista"}, [][]string{{alice}, {carol}, {bob}}},
		{"paced: authors not due wait for the next lookup", time.Hour, []string{alice, bob, carol, bob}, []bool{false, false, true, false},
			[]string{"Alice (OSINT)", "", "", "Bob Jornalista"}, [][]string{{alice}, {carol, bob}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			requests = nil
			cfg := DefaultConfig()
			cfg.ProfileURL, cfg.ProfileLookupEvery = counting.URL, connector.Duration(tc.every)
			s, err := New(cfg, &connectortest.Cursors{}, outbound.New(outbound.Options{AllowPrivate: true}))
			if err != nil {
				t.Fatal(err)
			}
			for i, did := range tc.dids {
				if tc.due != nil && tc.due[i] {
					s.lastLookup = time.Time{}
				}
				if got := s.author(t.Context(), did).DisplayName; got != tc.names[i] {
					t.Errorf("%d: %s named %q", i, did, got)
				}
			}
			mu.Lock()
			defer mu.Unlock()
			if !slices.EqualFunc(requests, tc.requests, slices.Equal) {
				t.Errorf("requests %v, want %v", requests, tc.requests)
			}
		})
	}
}
