package gdelt

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
	file    string
	queries []url.Values
}

func (r *replay) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.queries = append(r.queries, req.URL.Query())
	body, _ := os.ReadFile("testdata/" + r.file)
	if strings.HasSuffix(r.file, ".txt") {
		w.Header().Set("Content-Type", "text/html")
	} else {
		w.Header().Set("Content-Type", "application/json")
	}
	w.Write(body)
}

func start(t *testing.T, srv *httptest.Server, queries []string, cursors *connectortest.Cursors, sleeper *connectortest.Sleeper) (*Source, *connectortest.Collector, func()) {
	t.Helper()
	cfg := DefaultConfig()
	cfg.BaseURL = srv.URL + "/api/v2/doc/doc"
	cfg.Queries = queries
	src, err := New(cfg, cursors, outbound.New(outbound.Options{AllowPrivate: true}))
	if err != nil {
		t.Fatal(err)
	}
	src.sleep = sleeper.Sleep
	var got connectortest.Collector
	return src, &got, connectortest.Start(t, src, got.Emit)
}

func TestArticles(t *testing.T) {
	r := &replay{file: "artlist.json"}
	srv := httptest.NewServer(r)
	defer srv.Close()
	sleeper := &connectortest.Sleeper{}
	src, got, stop := start(t, srv, []string{"strike sourcelang:french", "dockworkers"}, &connectortest.Cursors{}, sleeper)
	posts := got.WaitForPosts(t, 3)
	wait.For(t, "a round", func() bool { return len(sleeper.Waits()) >= 2 })
	stop()
	if ids := got.NativeIDs(); len(ids) != 6 || ids[0] != "https://www.spiegel.de/ausland/streik-a-123.html" {
		// Both queries list the three articles: each query keeps its own cursor.
		t.Errorf("emitted %v", ids)
	}
	for _, tc := range []struct {
		i                         int
		lang, country, board, img string
	}{
		{0, "de", "Germany", "spiegel.de", "https://cdn.prod.www.spiegel.de/images/streik.jpg"},
		{1, "en", "United Kingdom", "reuters.com", ""},
		{2, "fr", "France", "lemonde.fr", "https://img.lemde.fr/2026/11/25/0/0/1200/800/1440/960/60/0/greve.jpg"},
	} {
		p := posts[tc.i]
		if err := p.Normalize(time.Now()); err != nil {
			t.Errorf("%d: %v", tc.i, err)
		}
		img := ""
		if len(p.Photos) > 0 {
			img = p.Photos[0].Large
		}
		if p.Language != tc.lang || p.PlaceName != tc.country || p.Board != tc.board || img != tc.img ||
			p.Provider != "news" || p.Type != post.TypeNewsPost || p.PostLink != p.NativeID {
			t.Errorf("%d: %+v", tc.i, p)
		}
	}
	if want := time.Date(2026, 11, 25, 6, 15, 0, 0, time.UTC); !posts[2].PublishedAt.Equal(want) {
		t.Errorf("published %v", posts[2].PublishedAt)
	}
	if st := src.Stats(); st.Skipped < 2 {
		t.Errorf("skipped %d, want the article without a url and the one without a date", st.Skipped)
	}
	q := r.queries[0]
	if q.Get("query") != "strike sourcelang:french" || q.Get("mode") != "artlist" || q.Get("format") != "json" || q.Get("timespan") != "15min" || q.Get("maxrecords") != "250" {
		t.Errorf("query %v", q)
	}
	// The second query waited GDELT's five seconds after the first.
	if w := sleeper.Waits(); w[0] != 5*time.Second {
		t.Errorf("waits %v", w)
	}
}

func TestResumeAndRefusal(t *testing.T) {
	r := &replay{file: "artlist.json"}
	srv := httptest.NewServer(r)
	defer srv.Close()
	cursors := &connectortest.Cursors{}
	_, got, stop := start(t, srv, []string{"strike"}, cursors, &connectortest.Sleeper{})
	got.WaitForPosts(t, 3)
	stop()

	sleeper := &connectortest.Sleeper{}
	_, again, stop := start(t, srv, []string{"strike"}, cursors, sleeper)
	wait.For(t, "two polls", func() bool { return len(sleeper.Waits()) >= 2 })
	stop()
	if n := len(again.Posts()); n != 0 {
		t.Errorf("emitted %d again", n)
	}

	r.mu.Lock()
	r.file = "refused.txt"
	r.mu.Unlock()
	sleeper = &connectortest.Sleeper{}
	src, _, stop := start(t, srv, []string{"strike"}, cursors, sleeper)
	wait.For(t, "a retry", func() bool { return len(sleeper.Waits()) >= 1 })
	stop()
	if st := src.Stats(); !strings.Contains(st.LastError, "malformed") || sleeper.Waits()[0] > time.Second {
		t.Errorf("a refusal is a failed round retried with backoff: %q %v", st.LastError, sleeper.Waits())
	}
}

func TestNewRefusesBadConfig(t *testing.T) {
	for _, cfg := range []Config{{BaseURL: "api.gdeltproject.org", Queries: []string{"x"}}, {BaseURL: "https://api.gdeltproject.org"}, {BaseURL: "https://api.gdeltproject.org", Queries: []string{""}}} {
		if _, err := New(cfg, &connectortest.Cursors{}, outbound.New(outbound.Options{})); err == nil {
			t.Errorf("%+v accepted", cfg)
		}
	}
}
