package imageboard

import (
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/connector/connectortest"
	"github.com/sightline/sightline/internal/outbound"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/wait"
)

// replay serves the recorded catalog and threads of /po/; thread 570399 is gone (404).
type replay struct {
	mu          sync.Mutex
	hits        map[string]int
	notModified int
}

func (r *replay) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.hits[req.URL.Path]++
	file := map[string]string{
		"/po/catalog.json": "catalog.json", "/po/thread/570368.json": "thread-570368.json", "/po/thread/570400.json": "thread-570400.json",
	}[req.URL.Path]
	if file == "" {
		http.NotFound(w, req)
		return
	}
	body, _ := os.ReadFile("testdata/" + file)
	if file == "catalog.json" {
		const modified = "Wed, 25 Nov 2026 06:05:00 GMT"
		if req.Header.Get("If-Modified-Since") == modified {
			r.notModified++
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("Last-Modified", modified)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(body)
}

func (r *replay) count(path string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.hits[path]
}

func start(t *testing.T, srv *httptest.Server, cursors *connectortest.Cursors, sleeper *connectortest.Sleeper) (*Source, *connectortest.Collector, func()) {
	t.Helper()
	site := Site{Name: "4chan", Provider: "4chan", APIURL: srv.URL, MediaURL: "https://i.4cdn.org", SiteURL: "https://boards.4chan.org", Boards: []string{"po"}}
	src, err := New(site, DefaultConfig(), cursors, outbound.New(outbound.Options{AllowPrivate: true}))
	if err != nil {
		t.Fatal(err)
	}
	src.sleep = sleeper.Sleep
	var got connectortest.Collector
	return src, &got, connectortest.Start(t, src, got.Emit)
}

func TestCatalogAndThreads(t *testing.T) {
	r := &replay{hits: map[string]int{}}
	srv := httptest.NewServer(r)
	defer srv.Close()
	sleeper := &connectortest.Sleeper{}
	src, got, stop := start(t, srv, &connectortest.Cursors{}, sleeper)
	posts := got.WaitForPosts(t, 4)
	wait.For(t, "a second round", func() bool { return r.count("/po/catalog.json") >= 2 })
	stop()
	// Least recently modified thread first; each thread's posts in order.
	if ids := strings.Join(got.NativeIDs(), ","); ids != "po/570368,po/570370,po/570400,po/570405" {
		t.Errorf("emitted %s", ids)
	}
	for _, tc := range []struct {
		i                      int
		thread, parent, author string
		photo, video, title    string
	}{
		{0, "po/570368", "", "Anonymous", "https://i.4cdn.org/po/1546293948883.png", "", "Welcome to /po/!"},
		{1, "po/570368", "po/570368", "Anonymous !Ep8pui8Vw2", "", "https://i.4cdn.org/po/1546294200000.webm", ""},
		{3, "po/570400", "po/570400", "Anonymous", "", "", ""},
	} {
		p := posts[tc.i]
		if err := p.Normalize(time.Now()); err != nil {
			t.Errorf("%d: %v", tc.i, err)
		}
		photo, video := "", ""
		if len(p.Photos) > 0 {
			photo = p.Photos[0].Large
		}
		if len(p.Videos) > 0 {
			video = p.Videos[0].Large
		}
		if p.ThreadID != tc.thread || p.ParentID != tc.parent || p.AuthorName != tc.author || photo != tc.photo || video != tc.video ||
			p.TitleText != tc.title || p.Provider != "4chan" || p.Board != "po" || p.Type != post.TypeThreadPost {
			t.Errorf("%d: %+v", tc.i, p)
		}
	}
	if p := posts[0]; p.PostLink != "https://boards.4chan.org/po/thread/570368#p570368" || !strings.Contains(p.ContentText, "that's relevant") ||
		p.Photos[0].Normal != "https://i.4cdn.org/po/1546293948883s.jpg" {
		t.Errorf("op: %+v", p)
	}
	if posts[1].PlaceName != "Canada" || posts[1].AuthorID != "!Ep8pui8Vw2" {
		t.Errorf("reply: %+v", posts[1])
	}
	if st := src.Stats(); st.Skipped != 1 || st.LastError != "" {
		t.Errorf("stats %+v: one post without a number skipped; the thread gone is no error", st)
	}
	// The second round asked for the catalog with If-Modified-Since, and it had not changed.
	r.mu.Lock()
	if r.notModified < 1 {
		t.Errorf("no conditional request for the catalog")
	}
	r.mu.Unlock()
	// Unchanged threads are not read again in the second round.
	if n := r.count("/po/thread/570368.json"); n != 1 {
		t.Errorf("thread read %d times", n)
	}
	// One second between requests (the API's rule).
	if w := sleeper.Waits(); w[0] != time.Second {
		t.Errorf("waits %v", w)
	}
}

func TestResume(t *testing.T) {
	r := &replay{hits: map[string]int{}}
	srv := httptest.NewServer(r)
	defer srv.Close()
	cursors := &connectortest.Cursors{}
	_, got, stop := start(t, srv, cursors, &connectortest.Sleeper{})
	got.WaitForPosts(t, 4)
	stop()
	_, again, stop := start(t, srv, cursors, &connectortest.Sleeper{})
	wait.For(t, "two rounds", func() bool { return r.count("/po/catalog.json") >= 4 })
	stop()
	if n := len(again.Posts()); n != 0 {
		t.Errorf("emitted %d again", n)
	}
}

func TestNewRefusesBadSites(t *testing.T) {
	for _, site := range []Site{
		{Name: "x", APIURL: "https://a", MediaURL: "https://i", SiteURL: "https://b"},
		{Name: "x", APIURL: "a.4cdn.org", MediaURL: "https://i", SiteURL: "https://b", Boards: []string{"g"}},
		{Name: "x", APIURL: "https://a", MediaURL: "https://i", SiteURL: "https://b", Boards: []string{"g/x"}},
		{Name: "x", Provider: "myspace", APIURL: "https://a", MediaURL: "https://i", SiteURL: "https://b", Boards: []string{"g"}},
	} {
		if _, err := New(site, DefaultConfig(), &connectortest.Cursors{}, outbound.New(outbound.Options{})); err == nil {
			t.Errorf("%+v accepted", site)
		}
	}
}
