package lemmy

import (
	"net/http"
	"net/http/httptest"
	"net/url"
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

type replay struct {
	mu      sync.Mutex
	queries []url.Values
	status  int
}

func (r *replay) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.queries = append(r.queries, req.URL.Query())
	if r.status != 0 {
		w.WriteHeader(r.status)
		return
	}
	file := map[string]string{"/api/v3/post/list": "posts.json", "/api/v3/comment/list": "comments.json"}[req.URL.Path]
	if file == "" || req.URL.Query().Get("sort") != "New" {
		http.NotFound(w, req)
		return
	}
	body, _ := os.ReadFile("testdata/" + file)
	w.Header().Set("Content-Type", "application/json")
	w.Write(body)
}

func start(t *testing.T, cfg Config, cursors *connectortest.Cursors, sleeper *connectortest.Sleeper) (*Source, *connectortest.Collector, func()) {
	t.Helper()
	src, err := New(cfg, cursors, outbound.New(outbound.Options{AllowPrivate: true}))
	if err != nil {
		t.Fatal(err)
	}
	src.sleep = sleeper.Sleep
	var got connectortest.Collector
	stop := connectortest.Start(t, src, got.Emit)
	return src, &got, stop
}

func TestPostsAndComments(t *testing.T) {
	r := &replay{}
	srv := httptest.NewServer(r)
	defer srv.Close()
	cfg := DefaultConfig()
	cfg.BaseURL = srv.URL
	src, got, stop := start(t, cfg, &connectortest.Cursors{}, &connectortest.Sleeper{})
	posts := got.WaitForPosts(t, 4)
	stop()
	host := strings.TrimPrefix(srv.URL, "http://")
	byID := map[string]post.Post{}
	for _, p := range posts {
		if err := p.Normalize(time.Now()); err != nil {
			t.Errorf("%s: %v", p.NativeID, err)
		}
		byID[strings.TrimPrefix(p.NativeID, host+"/")] = p
	}
	for _, tc := range []struct {
		id, thread, parent, board, author, name string
	}{
		{"post/22871503", "post/22871503", "", "worldnews", "gridwatch@lemmy.world", "Grid Watch"},
		{"post/22871490", "post/22871490", "", "europe@feddit.org", "rivermouth@lemmy.ml", "rivermouth"},
		{"comment/13700002", "post/22871503", "comment/13700001", "worldnews", "sparky@lemmy.world", "sparky"},
		{"comment/13700000", "post/22871503", "post/22871503", "worldnews", "gridwatch@lemmy.world", "Grid Watch"},
	} {
		p, ok := byID[tc.id]
		if !ok {
			t.Errorf("%s not emitted", tc.id)
			continue
		}
		if p.ThreadID != host+"/"+tc.thread || (tc.parent != "" && p.ParentID != host+"/"+tc.parent) || (tc.parent == "" && p.ParentID != "") ||
			p.Board != tc.board || p.AuthorScreenName != tc.author || p.AuthorName != tc.name || p.Provider != "lemmy" {
			t.Errorf("%s: %+v", tc.id, p)
		}
	}
	// Score and comments (a comment's replies): 5 + 2 and 6 + 2; a view without counts has 0.
	for id, want := range map[string]int64{"post/22871503": 7, "comment/13700002": 8, "post/22871490": 0, "comment/13700000": 0} {
		if got := byID[id].Engagement; got != want {
			t.Errorf("%s: engagement %d, want %d", id, got, want)
		}
	}
	if p := byID["post/22871490"]; !p.PublishedAt.Equal(time.Date(2026, 11, 25, 6, 0, 0, 0, time.UTC)) {
		t.Errorf("a time without a zone is UTC: %v", p.PublishedAt)
	}
	if p := byID["post/22871503"]; len(p.Photos) != 1 || p.Entities.ExternalLinks[0] != "https://news.example.org/outage" || p.PostLink != "https://lemmy.world/post/22871503" {
		t.Errorf("post: %+v", p)
	}
	if st := src.Stats(); st.Skipped < 2 {
		t.Errorf("skipped %d, want the post without an id and the comment without a time", st.Skipped)
	}
	if q := r.queries[0]; q.Get("type_") != "All" || q.Get("limit") != "50" {
		t.Errorf("query %v", q)
	}
}

func TestCommunitiesAndResume(t *testing.T) {
	r := &replay{}
	srv := httptest.NewServer(r)
	defer srv.Close()
	cfg := DefaultConfig()
	cfg.BaseURL, cfg.Communities, cfg.Comments = srv.URL, []string{"!worldnews"}, false
	cursors := &connectortest.Cursors{}
	_, got, stop := start(t, cfg, cursors, &connectortest.Sleeper{})
	got.WaitForPosts(t, 2)
	stop()
	if q := r.queries[0]; q.Get("community_name") != "worldnews" || q.Has("type_") {
		t.Errorf("query %v", q)
	}
	sleeper := &connectortest.Sleeper{}
	_, again, stop := start(t, cfg, cursors, sleeper)
	wait.For(t, "two polls", func() bool { return len(sleeper.Waits()) >= 2 })
	stop()
	if n := len(again.Posts()); n != 0 {
		t.Errorf("emitted %d posts again after a restart", n)
	}
}

func TestServerErrorBacksOff(t *testing.T) {
	srv := httptest.NewServer(&replay{status: http.StatusBadGateway})
	defer srv.Close()
	cfg := DefaultConfig()
	cfg.BaseURL = srv.URL
	sleeper := &connectortest.Sleeper{}
	src, _, stop := start(t, cfg, &connectortest.Cursors{}, sleeper)
	wait.For(t, "retries", func() bool { return len(sleeper.Waits()) >= 3 })
	stop()
	w := sleeper.Waits()
	if w[0] > time.Second || w[2] < w[0] || !strings.Contains(src.Stats().LastError, "502") {
		t.Errorf("waits %v, last error %q", w, src.Stats().LastError)
	}
}

func TestNewRefusesBadConfig(t *testing.T) {
	for _, cfg := range []Config{{BaseURL: "lemmy.world"}, {BaseURL: "https://lemmy.world", Communities: []string{""}}} {
		if _, err := New(cfg, &connectortest.Cursors{}, outbound.New(outbound.Options{})); err == nil {
			t.Errorf("%+v accepted", cfg)
		}
	}
}
