package hackernews

import (
	"context"
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
	"github.com/sightline/sightline/internal/wait"
)

// replay serves the recorded items in testdata/item, like the Firebase API: an unknown item is
// null. It can answer 429 and drop connections on demand.
type replay struct {
	mu          sync.Mutex
	maxItem     int
	rateLimited int         // the next n maxitem requests get 429
	drop        map[int]int // items whose next n requests lose their connection
	itemHits    map[int]int
}

func newReplay(t *testing.T, maxItem int) (*replay, *httptest.Server) {
	r := &replay{maxItem: maxItem, drop: map[int]int{}, itemHits: map[int]int{}}
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	return r, srv
}

func (r *replay) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if req.URL.Path == "/v0/maxitem.json" {
		if r.rateLimited > 0 {
			r.rateLimited--
			w.Header().Set("Retry-After", "3")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		fmt.Fprint(w, r.maxItem)
		return
	}
	idText, ok := strings.CutPrefix(req.URL.Path, "/v0/item/")
	id, err := strconv.Atoi(strings.TrimSuffix(idText, ".json"))
	if !ok || err != nil {
		http.NotFound(w, req)
		return
	}
	r.itemHits[id]++
	if r.drop[id] > 0 {
		r.drop[id]--
		conn, _, _ := w.(http.Hijacker).Hijack()
		conn.Close()
		return
	}
	body, err := os.ReadFile(fmt.Sprintf("testdata/item/%d.json", id))
	if errors.Is(err, os.ErrNotExist) {
		body = []byte("null")
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(body)
}

func (r *replay) setMaxItem(n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.maxItem = n
}

func (r *replay) hits(id int) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.itemHits[id]
}

func newSource(srv *httptest.Server, cursors connector.CursorStore, sleeper *connectortest.Sleeper) *Source {
	cfg := DefaultConfig()
	cfg.BaseURL = srv.URL + "/v0"
	cfg.Backfill = 8
	s := New(cfg, cursors, outbound.New(outbound.Options{AllowPrivate: true}))
	s.sleep = sleeper.Sleep
	return s
}

func ids(from, to int, except ...int) []string {
	var out []string
	for id := from; id <= to; id++ {
		if !slices.Contains(except, id) {
			out = append(out, strconv.Itoa(id))
		}
	}
	return out
}

func waitForCursor(t *testing.T, cursors *connectortest.Cursors, want string) {
	t.Helper()
	wait.For(t, "the cursor to reach "+want, func() bool {
		c, _ := cursors.Load(context.Background(), Name)
		return c == want
	})
}

func TestNormalPage(t *testing.T) {
	_, srv := newReplay(t, 43000107)
	cursors := &connectortest.Cursors{}
	src := newSource(srv, cursors, &connectortest.Sleeper{})
	got := &connectortest.Collector{}
	stop := connectortest.Start(t, src, got.Emit)
	waitForCursor(t, cursors, "43000107")
	stop()

	// 103 is deleted and 104 is malformed: neither is emitted.
	if want := ids(43000100, 43000107, 43000103, 43000104); !slices.Equal(got.NativeIDs(), want) {
		t.Fatalf("emitted %v, want %v", got.NativeIDs(), want)
	}
	byID := map[string]int{}
	posts := got.Posts()
	for i, p := range posts {
		byID[p.NativeID] = i
	}
	story := posts[byID["43000100"]]
	if story.TitleText != "Show HN: An open-source tool for tracking ship positions from AIS feeds" || story.Board != "show" ||
		story.ThreadID != "43000100" || !slices.Equal(story.Entities.ExternalLinks, []string{"https://github.com/example/ais-tracker"}) ||
		story.PostLink != "https://news.ycombinator.com/item?id=43000100" || story.AuthorScreenName != "mkrieger" ||
		!story.PublishedAt.Equal(time.Unix(1741953601, 0)) || story.Type != "thread_post" || story.ID == "" ||
		story.Engagement != 214+2 {
		t.Errorf("story: %+v", story)
	}
	reply := posts[byID["43000102"]]
	if reply.ThreadID != "43000100" || reply.ParentID != "43000101" ||
		reply.ContentText != "We flag jumps faster than 50 knots and keep the track. There's a write-up here: https://example.org/ais-spoofing" {
		t.Errorf("nested reply: thread %q parent %q text %q", reply.ThreadID, reply.ParentID, reply.ContentText)
	}
	if c := posts[byID["43000101"]].ContentText; !strings.Contains(c, `"teleporting"`) || !strings.Contains(c, "\nSome operators") {
		t.Errorf("comment text %q", c)
	}
	// 106 answers a story from before the backfill window: its thread is found by walking up.
	if p := posts[byID["43000106"]]; p.ThreadID != "43000099" {
		t.Errorf("comment on an older story has thread %q", p.ThreadID)
	}
	if b := posts[byID["43000105"]].Board; b != "ask" {
		t.Errorf("Ask HN board %q", b)
	}
	if b := posts[byID["43000107"]].Board; b != "jobs" {
		t.Errorf("job board %q", b)
	}
	st := src.Stats()
	if st.Count != 6 || st.Skipped != 1 || !strings.Contains(st.LastSkip, "malformed") || st.LastSuccess.IsZero() {
		t.Errorf("stats %+v", st)
	}
}

func TestEmptyPageThenNewItems(t *testing.T) {
	r, srv := newReplay(t, 43000107)
	cursors := &connectortest.Cursors{}
	cursors.Save(context.Background(), Name, "43000107")
	src := newSource(srv, cursors, &connectortest.Sleeper{})
	got := &connectortest.Collector{}
	connectortest.Start(t, src, got.Emit)

	wait.For(t, "a successful empty poll", func() bool { return !src.Stats().LastSuccess.IsZero() })
	if n := len(got.Posts()); n != 0 {
		t.Fatalf("an empty page emitted %d posts", n)
	}
	r.setMaxItem(43000109)
	got.WaitForPosts(t, 2)
	if want := ids(43000108, 43000109); !slices.Equal(got.NativeIDs(), want) {
		t.Fatalf("emitted %v, want %v", got.NativeIDs(), want)
	}
	posts := got.Posts()
	if posts[0].ThreadID != "43000105" || posts[1].ThreadID != "43000099" || posts[1].ParentID != "43000106" {
		t.Fatalf("threads %q %q", posts[0].ThreadID, posts[1].ThreadID)
	}
}

func TestItemNotYetAvailableIsRetried(t *testing.T) {
	// maxitem already says 110, but item 110 is still null: the source waits for it rather
	// than skipping it.
	_, srv := newReplay(t, 43000110)
	cursors := &connectortest.Cursors{}
	cursors.Save(context.Background(), Name, "43000107")
	src := newSource(srv, cursors, &connectortest.Sleeper{})
	got := &connectortest.Collector{}
	connectortest.Start(t, src, got.Emit)
	got.WaitForPosts(t, 2)
	wait.For(t, "a second poll", func() bool { return srvHits(srv, 43000110) >= 2 })
	c, _ := cursors.Load(context.Background(), Name)
	if c != "43000109" {
		t.Fatalf("cursor %q moved past an item that is not there yet", c)
	}
	if st := src.Stats(); st.Skipped != 0 {
		t.Fatalf("a null item was counted as malformed: %+v", st)
	}
}

// srvHits asks the replay behind srv how often it served item id.
func srvHits(srv *httptest.Server, id int) int {
	return srv.Config.Handler.(*replay).hits(id)
}

func TestRateLimitHonoursRetryAfter(t *testing.T) {
	r, srv := newReplay(t, 43000107)
	r.rateLimited = 2
	sleeper := &connectortest.Sleeper{}
	src := newSource(srv, &connectortest.Cursors{}, sleeper)
	got := &connectortest.Collector{}
	connectortest.Start(t, src, got.Emit)
	got.WaitForPosts(t, 6)
	waits := sleeper.Waits()
	if len(waits) < 2 || waits[0] != 3*time.Second || waits[1] != 3*time.Second {
		t.Fatalf("waits %v, want two Retry-After waits of 3s first", waits)
	}
	if st := src.Stats(); !strings.Contains(st.LastError, "429") {
		t.Fatalf("last error %q does not mention the rate limit", st.LastError)
	}
}

func TestReconnectResumesWithoutDuplicates(t *testing.T) {
	r, srv := newReplay(t, 43000107)
	// Two drops in a row: Go's transport quietly retries a GET once on a reused connection,
	// so only the second reaches the source.
	r.drop[43000105] = 2
	sleeper := &connectortest.Sleeper{}
	cursors := &connectortest.Cursors{}
	src := newSource(srv, cursors, sleeper)
	got := &connectortest.Collector{}
	stop := connectortest.Start(t, src, got.Emit)
	waitForCursor(t, cursors, "43000107")
	stop()
	if want := ids(43000100, 43000107, 43000103, 43000104); !slices.Equal(got.NativeIDs(), want) {
		t.Fatalf("emitted %v, want each item once: %v", got.NativeIDs(), want)
	}
	if r.hits(43000105) < 3 {
		t.Fatalf("item 105 fetched %d times, want the two dropped tries and the retry", r.hits(43000105))
	}
	if w := sleeper.Waits(); len(w) == 0 || w[0] > time.Second {
		t.Fatalf("waits %v, want a first backoff step after the drop", w)
	}
}

func TestRestartResumesFromSavedCursor(t *testing.T) {
	r, srv := newReplay(t, 43000107)
	cursors := &connectortest.Cursors{}
	first := &connectortest.Collector{}
	stop := connectortest.Start(t, newSource(srv, cursors, &connectortest.Sleeper{}), first.Emit)
	first.WaitForPosts(t, 6)
	waitForCursor(t, cursors, "43000107")
	stop()

	r.setMaxItem(43000109)
	second := &connectortest.Collector{}
	connectortest.Start(t, newSource(srv, cursors, &connectortest.Sleeper{}), second.Emit)
	second.WaitForPosts(t, 2)
	if want := ids(43000108, 43000109); !slices.Equal(second.NativeIDs(), want) {
		t.Fatalf("after restart emitted %v, want only %v", second.NativeIDs(), want)
	}
}

func TestBadCursorStopsTheSource(t *testing.T) {
	_, srv := newReplay(t, 43000107)
	cursors := &connectortest.Cursors{}
	cursors.Save(context.Background(), Name, "not-a-number")
	src := newSource(srv, cursors, &connectortest.Sleeper{})
	if err := src.Run(context.Background(), (&connectortest.Collector{}).Emit); err == nil {
		t.Fatal("Run accepted a cursor that is not an item id")
	}
}
