package mastodon

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/connector"
	"github.com/sightline/sightline/internal/connector/connectortest"
	"github.com/sightline/sightline/internal/outbound"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/wait"
)

const token = "test-token"

// instance replays recorded statuses the way a Mastodon server pages them (newest first,
// min_id for the statuses immediately newer) and streams pushed ones as server-sent events.
type instance struct {
	mu          sync.Mutex
	statuses    []json.RawMessage // ascending by id
	rateLimited int
	requests    []string
	live        chan json.RawMessage // pushed to the open stream
	recorded    chan []byte          // server-sent events written to the open stream as they are
	dropStream  chan struct{}        // ends the open stream
	streams     int
}

func load(t *testing.T, file string) []json.RawMessage {
	t.Helper()
	b, err := os.ReadFile("testdata/" + file)
	if err != nil {
		t.Fatal(err)
	}
	var list []json.RawMessage
	if err := json.Unmarshal(b, &list); err != nil {
		t.Fatal(err)
	}
	return list
}

func newInstance(t *testing.T, statuses []json.RawMessage) (*instance, *httptest.Server) {
	in := &instance{statuses: statuses, live: make(chan json.RawMessage, 10), recorded: make(chan []byte, 1),
		dropStream: make(chan struct{}, 1)}
	srv := httptest.NewServer(in)
	t.Cleanup(srv.Close)
	return in, srv
}

func idOf(raw json.RawMessage) string {
	var v struct{ ID string }
	json.Unmarshal(raw, &v)
	return v.ID
}

func hasTag(raw json.RawMessage, tag string) bool {
	var v struct{ Tags []struct{ Name string } }
	json.Unmarshal(raw, &v)
	return slices.ContainsFunc(v.Tags, func(t struct{ Name string }) bool { return t.Name == tag })
}

func (in *instance) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	in.mu.Lock()
	in.requests = append(in.requests, r.URL.RequestURI())
	if r.Header.Get("Authorization") != "Bearer "+token {
		in.mu.Unlock()
		http.Error(w, `{"error":"The access token is invalid"}`, http.StatusUnauthorized)
		return
	}
	if strings.HasPrefix(r.URL.Path, "/api/v1/streaming/") {
		in.streams++
		in.mu.Unlock()
		in.serveStream(w, r)
		return
	}
	defer in.mu.Unlock()
	if in.rateLimited > 0 {
		in.rateLimited--
		w.Header().Set("X-RateLimit-Limit", "300")
		w.Header().Set("X-RateLimit-Remaining", "0")
		w.Header().Set("X-RateLimit-Reset", time.Now().Add(90*time.Second).UTC().Format(time.RFC3339Nano))
		http.Error(w, `{"error":"Too many requests"}`, http.StatusTooManyRequests)
		return
	}
	var pool []json.RawMessage
	switch {
	case r.URL.Path == "/api/v1/timelines/public":
		pool = in.statuses
	case strings.HasPrefix(r.URL.Path, "/api/v1/timelines/tag/"):
		tag := strings.TrimPrefix(r.URL.Path, "/api/v1/timelines/tag/")
		for _, s := range in.statuses {
			if hasTag(s, tag) {
				pool = append(pool, s)
			}
		}
	default:
		http.NotFound(w, r)
		return
	}
	limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
	var page []json.RawMessage
	if minID := r.URL.Query().Get("min_id"); minID != "" {
		for _, s := range pool {
			if newer(idOf(s), minID) && len(page) < limit {
				page = append(page, s)
			}
		}
	} else {
		page = pool[max(0, len(pool)-limit):]
	}
	page = slices.Clone(page)
	slices.Reverse(page)
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(page)
}

func (in *instance) serveStream(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/event-stream")
	fmt.Fprint(w, ":)\n")
	w.(http.Flusher).Flush()
	for {
		select {
		case raw := <-in.live:
			var compact bytes.Buffer
			json.Compact(&compact, raw)
			fmt.Fprintf(w, "event: update\ndata: %s\n\n:thump\n", compact.String())
			w.(http.Flusher).Flush()
		case events := <-in.recorded:
			w.Write(events)
			w.(http.Flusher).Flush()
		case <-in.dropStream:
			return
		case <-r.Context().Done():
			return
		}
	}
}

func (in *instance) publish(raw json.RawMessage) {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.statuses = append(in.statuses, raw)
}

func (in *instance) requestCount() int {
	in.mu.Lock()
	defer in.mu.Unlock()
	return len(in.requests)
}

func (in *instance) streamCount() int {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.streams
}

func newSource(t *testing.T, srv *httptest.Server, cfg Config, timeline string, cursors connector.CursorStore, sleeper *connectortest.Sleeper) *Source {
	t.Helper()
	cfg.BaseURL = srv.URL
	if cfg.Token == "" {
		cfg.Token = token
	}
	s, err := New(cfg, timeline, cursors, outbound.New(outbound.Options{AllowPrivate: true, Stream: cfg.Stream}))
	if err != nil {
		t.Fatal(err)
	}
	s.sleep = sleeper.Sleep
	return s
}

func suffixes(ids []string) []string {
	var out []string
	for _, id := range ids {
		out = append(out, id[len(id)-2:])
	}
	return out
}

func TestPollingTimeline(t *testing.T) {
	in, srv := newInstance(t, load(t, "statuses.json"))
	cursors := &connectortest.Cursors{}
	src := newSource(t, srv, DefaultConfig(), "public", cursors, &connectortest.Sleeper{})
	got := &connectortest.Collector{}
	connectortest.Start(t, src, got.Emit)
	got.WaitForPosts(t, 4)
	wait.For(t, "an empty second page", func() bool { return in.requestCount() >= 2 && !src.Stats().LastSuccess.IsZero() })

	if ids := suffixes(got.NativeIDs()); !slices.Equal(ids, []string{"01", "02", "04", "05"}) {
		t.Fatalf("emitted statuses ending %v, want 01 02 04 05 (03 is malformed)", ids)
	}
	if st := src.Stats(); st.Skipped != 1 || !strings.Contains(st.LastSkip, "malformed") {
		t.Fatalf("stats %+v, want the malformed status skipped", st)
	}
	host := strings.TrimPrefix(srv.URL, "http://")
	posts := got.Posts()
	first := posts[0]
	if first.NativeID != host+"/113912345678900001" || first.ThreadID != first.NativeID ||
		first.AuthorScreenName != "kestrel@"+host || first.AuthorName != "Kestrel Research" ||
		first.PostLink != "https://social.example.org/@kestrel/113912345678900001" ||
		!slices.Equal(first.Tags, []string{"osint"}) || len(first.Photos) != 1 ||
		first.Photos[0].Normal != "https://files.social.example.org/media_attachments/files/113/912/345/670/000/010/small/graph.png" ||
		first.ContentText != "New write-up: tracing a disinformation network across three platforms using only public data. #OSINT" ||
		first.Engagement != 9+4+1 || first.AuthorFollowers != 5120 ||
		!first.PublishedAt.Equal(time.Date(2025, 3, 14, 9, 1, 12, 0, time.UTC)) {
		t.Errorf("first status: %+v", first)
	}
	reply := posts[1]
	if reply.ParentID != host+"/113912345678900001" || reply.Language != "de" || reply.AuthorScreenName != "lena@bonn.example.de" {
		t.Errorf("reply: parent %q language %q handle %q", reply.ParentID, reply.Language, reply.AuthorScreenName)
	}
	video := posts[2]
	if video.TitleText != "Graphic footage" || len(video.Videos) != 1 || video.Language != "uk" || video.Type != post.TypeSocialMediaPost {
		t.Errorf("sensitive video status: %+v", video)
	}
	// The second poll asked for what follows the newest status emitted.
	in.mu.Lock()
	last := in.requests[len(in.requests)-1]
	in.mu.Unlock()
	if !strings.Contains(last, "min_id=113912345678900005") {
		t.Errorf("second poll %q does not page from the cursor", last)
	}
	if c, _ := cursors.Load(context.Background(), src.Name()); c != "113912345678900005" {
		t.Errorf("cursor %q", c)
	}
}

func TestCatchUpPagesForwardWithoutGaps(t *testing.T) {
	statuses := load(t, "statuses.json")
	template := statuses[4]
	// 45 more statuses than a page holds, made from a recorded one.
	for i := range 45 {
		id := fmt.Sprintf("1139123456789%05d", 100+i)
		statuses = append(statuses, json.RawMessage(strings.Replace(string(template), "113912345678900005", id, -1)))
	}
	in, srv := newInstance(t, statuses)
	cursors := &connectortest.Cursors{}
	src := newSource(t, srv, DefaultConfig(), "public", cursors, &connectortest.Sleeper{})
	cursors.Save(context.Background(), src.Name(), "113912345678900002")
	got := &connectortest.Collector{}
	connectortest.Start(t, src, got.Emit)
	got.WaitForPosts(t, 47)
	// A status published now is a sentinel: the polls before the one that brings it may not
	// have repeated anything.
	in.publish(json.RawMessage(strings.Replace(string(template), "113912345678900005", "113912345678900399", -1)))
	posts := got.WaitForPosts(t, 48)
	if n, last := len(posts), posts[len(posts)-1].NativeID; n != 48 || !strings.HasSuffix(last, "399") {
		t.Fatalf("emitted %d posts ending with %s, want 48 (04, 05, the 45 new ones and then the sentinel)", n, last)
	}
	seen := map[string]bool{}
	for _, p := range posts {
		if seen[p.NativeID] {
			t.Fatalf("%s emitted twice", p.NativeID)
		}
		seen[p.NativeID] = true
	}
}

func TestHashtagTimeline(t *testing.T) {
	in, srv := newInstance(t, load(t, "statuses.json"))
	src := newSource(t, srv, DefaultConfig(), "tag:osint", &connectortest.Cursors{}, &connectortest.Sleeper{})
	got := &connectortest.Collector{}
	connectortest.Start(t, src, got.Emit)
	got.WaitForPosts(t, 2)
	if ids := suffixes(got.NativeIDs()); !slices.Equal(ids, []string{"01", "05"}) {
		t.Fatalf("emitted %v, want the two #osint statuses", ids)
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if !strings.HasPrefix(in.requests[0], "/api/v1/timelines/tag/osint?") {
		t.Fatalf("request %q", in.requests[0])
	}
}

func TestRateLimitHonoursRateLimitReset(t *testing.T) {
	in, srv := newInstance(t, load(t, "statuses.json"))
	in.rateLimited = 1
	sleeper := &connectortest.Sleeper{}
	src := newSource(t, srv, DefaultConfig(), "public", &connectortest.Cursors{}, sleeper)
	got := &connectortest.Collector{}
	connectortest.Start(t, src, got.Emit)
	got.WaitForPosts(t, 4)
	if w := sleeper.Waits()[0]; w < 80*time.Second || w > 90*time.Second {
		t.Fatalf("first wait %v, want about 90s as X-RateLimit-Reset says", w)
	}
}

func TestBadTokenIsReported(t *testing.T) {
	_, srv := newInstance(t, load(t, "statuses.json"))
	cfg := DefaultConfig()
	cfg.Token = "wrong"
	src := newSource(t, srv, cfg, "public", &connectortest.Cursors{}, &connectortest.Sleeper{})
	connectortest.Start(t, src, (&connectortest.Collector{}).Emit)
	wait.For(t, "an error", func() bool { return strings.Contains(src.Stats().LastError, "401") })
}

func TestStreamingReconnectsWithoutGapsOrDuplicates(t *testing.T) {
	in, srv := newInstance(t, load(t, "statuses.json"))
	live := load(t, "live.json")
	cfg := DefaultConfig()
	cfg.Stream = true
	sleeper := &connectortest.Sleeper{}
	src := newSource(t, srv, cfg, "public", &connectortest.Cursors{}, sleeper)
	got := &connectortest.Collector{}
	connectortest.Start(t, src, got.Emit)

	// Catch-up over REST, then a status pushed on the stream.
	got.WaitForPosts(t, 4)
	in.publish(live[0])
	in.live <- live[0]
	got.WaitForPosts(t, 5)

	// The stream drops; while it is down a boost is published. The reconnection catches it up
	// over REST, and the new stream replays an old status, which must not be emitted again.
	in.dropStream <- struct{}{}
	in.publish(live[1])
	wait.For(t, "a second stream", func() bool { return in.streamCount() >= 2 })
	in.live <- live[0]
	got.WaitForPosts(t, 6)
	// A new status streamed last is a sentinel: the replay before it may not be emitted.
	in.live <- json.RawMessage(strings.Replace(string(live[0]), "113912345678900006", "113912345678900399", -1))
	got.WaitForPosts(t, 7)

	if ids := suffixes(got.NativeIDs()); !slices.Equal(ids, []string{"01", "02", "04", "05", "06", "00", "99"}) {
		t.Fatalf("emitted %v, want 01 02 04 05, the streamed one, the boosted status and the sentinel, each once", ids)
	}
	boosted := got.Posts()[5]
	if boosted.AuthorScreenName != "wire@news.example.net" || !strings.HasPrefix(boosted.ContentText, "Breaking: power restored") {
		t.Errorf("a boost should become the boosted status: %+v", boosted)
	}
	if !strings.Contains(src.Stats().LastError, "closed the stream") {
		t.Errorf("last error %q", src.Stats().LastError)
	}
	if w := sleeper.Waits(); len(w) == 0 || w[0] > time.Second {
		t.Errorf("waits %v, want a first backoff step after the drop", w)
	}
}

// The stream's delete events (testdata/stream_delete.sse, written after Mastodon's streaming
// API: the data is the status id) are reported with the native id the status was emitted
// under; one without an id is skipped; without a place to report them they are ignored.
func TestStreamedDeletionsAreReported(t *testing.T) {
	recorded, err := os.ReadFile("testdata/stream_delete.sse")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		report    bool
		fail      error
		wantIDs   []string
		wantSkips int64
	}{
		{"reported", true, nil, []string{"/113912345678900002", "/113912345678999999"}, 1},
		{"a failed report is skipped and the stream goes on", true, errors.New("store down"),
			[]string{"/113912345678900002", "/113912345678999999"}, 3},
		{"ignored without a place to report", false, nil, nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in, srv := newInstance(t, load(t, "statuses.json"))
			live := load(t, "live.json")
			cfg := DefaultConfig()
			cfg.Stream = true
			src := newSource(t, srv, cfg, "public", &connectortest.Cursors{}, &connectortest.Sleeper{})
			deletions := &connectortest.Deletions{Fail: tc.fail}
			if tc.report {
				src.OnDelete(deletions.Delete)
			}
			got := &connectortest.Collector{}
			connectortest.Start(t, src, got.Emit)
			got.WaitForPosts(t, 4)
			in.recorded <- recorded
			// A status streamed after the deletions: once it is emitted, they were read.
			in.live <- live[0]
			got.WaitForPosts(t, 5)

			host := strings.TrimPrefix(srv.URL, "http://")
			var ids []string
			for _, d := range deletions.List() {
				if d.Provider != "mastodon" || time.Since(d.At) > time.Minute {
					t.Errorf("deletion %+v", d)
				}
				ids = append(ids, strings.TrimPrefix(d.NativeID, host))
			}
			if !slices.Equal(ids, tc.wantIDs) {
				t.Errorf("deleted %v, want %v", ids, tc.wantIDs)
			}
			// The deleted status was emitted under the native id reported.
			if tc.report && !slices.Contains(got.NativeIDs(), host+"/113912345678900002") {
				t.Errorf("emitted %v: the deletion names a status never emitted", got.NativeIDs())
			}
			if st := src.Stats(); st.Skipped-1 != tc.wantSkips { // statuses.json holds one malformed status
				t.Errorf("skipped %d (%q), want %d besides the malformed status", st.Skipped, st.LastSkip, tc.wantSkips)
			}
			if in.streamCount() != 1 {
				t.Errorf("%d streams: a deletion should not end the stream", in.streamCount())
			}
		})
	}
}

func TestNewRefusesBadConfiguration(t *testing.T) {
	tests := []struct {
		name     string
		cfg      Config
		timeline string
	}{
		{"unknown timeline", DefaultConfig(), "home"},
		{"empty tag", DefaultConfig(), "tag:"},
		{"relative base URL", Config{BaseURL: "mastodon.social"}, "public"},
		{"stream without token", Config{BaseURL: "https://mastodon.social", Stream: true}, "public"},
	}
	for _, tt := range tests {
		if _, err := New(tt.cfg, tt.timeline, &connectortest.Cursors{}, outbound.New(outbound.Options{})); err == nil {
			t.Errorf("%s: accepted", tt.name)
		}
	}
}

func TestNewer(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"2", "1", true}, {"10", "9", true}, {"9", "10", false}, {"5", "5", false}, {"1", "", true}, {"", "1", false},
		{"113912345678900002", "113912345678900001", true},
	}
	for _, tt := range tests {
		if got := newer(tt.a, tt.b); got != tt.want {
			t.Errorf("newer(%q, %q) = %v", tt.a, tt.b, got)
		}
	}
}
