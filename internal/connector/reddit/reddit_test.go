package reddit

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
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

// replay serves the recorded listings like www.reddit.com (paths ending in .json) and, for
// a bearer token, like oauth.reddit.com (the same paths without .json).
type replay struct {
	mu        sync.Mutex
	remaining string // X-Ratelimit-Remaining of every reply
	tokens    int
	paths     []string
	oauth     bool
}

func (r *replay) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if req.URL.Path == "/api/v1/access_token" {
		id, secret, ok := req.BasicAuth()
		if !ok || id != "app" || secret != "s3cret" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		r.tokens++
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"access_token":"tok-1","token_type":"bearer","expires_in":86400,"scope":"*"}`))
		return
	}
	path := req.URL.Path
	if r.oauth {
		if req.Header.Get("Authorization") != "Bearer tok-1" {
			http.Error(w, "forbidden", http.StatusForbidden)
			return
		}
	} else {
		var ok bool
		if path, ok = strings.CutSuffix(path, ".json"); !ok {
			http.NotFound(w, req)
			return
		}
	}
	if req.URL.Query().Get("raw_json") != "1" {
		http.Error(w, "raw_json missing", http.StatusBadRequest)
		return
	}
	r.paths = append(r.paths, path)
	file := map[string]string{"/r/worldnews/new": "new.json", "/r/worldnews/comments": "comments.json", "/search": "search.json"}[path]
	if file == "" || (path == "/search" && req.URL.Query().Get("q") != "ransomware breach") {
		http.NotFound(w, req)
		return
	}
	body, _ := os.ReadFile("testdata/" + file)
	w.Header().Set("X-Ratelimit-Remaining", r.remaining)
	w.Header().Set("X-Ratelimit-Used", "100")
	w.Header().Set("X-Ratelimit-Reset", "7")
	w.Header().Set("Content-Type", "application/json")
	w.Write(body)
}

func newSource(t *testing.T, cfg Config, cursors connector.CursorStore, sleeper *connectortest.Sleeper) *Source {
	t.Helper()
	src, err := New(cfg, cursors, outbound.New(outbound.Options{AllowPrivate: true}))
	if err != nil {
		t.Fatal(err)
	}
	src.sleep = sleeper.Sleep
	return src
}

func testConfig(srv *httptest.Server) Config {
	cfg := DefaultConfig()
	cfg.BaseURL, cfg.OAuthBaseURL, cfg.TokenURL = srv.URL, srv.URL, srv.URL+"/api/v1/access_token"
	cfg.Subreddits = []string{"r/worldnews"}
	cfg.Comments = true
	cfg.Searches = []string{"ransomware breach"}
	return cfg
}

func TestListingsPostsCommentsAndSearch(t *testing.T) {
	for _, oauth := range []bool{false, true} {
		t.Run(map[bool]string{false: "public", true: "oauth"}[oauth], func(t *testing.T) {
			r := &replay{remaining: "99.0", oauth: oauth}
			srv := httptest.NewServer(r)
			defer srv.Close()
			cfg := testConfig(srv)
			if oauth {
				cfg.ClientID, cfg.ClientSecret = "app", "s3cret"
			}
			var got connectortest.Collector
			src := newSource(t, cfg, &connectortest.Cursors{}, &connectortest.Sleeper{})
			stop := connectortest.Start(t, src, got.Emit)
			posts := got.WaitForPosts(t, 6)
			stop()

			byID := map[string]post.Post{}
			for _, p := range posts {
				if err := p.Normalize(time.Now()); err != nil {
					t.Errorf("%s: %v", p.NativeID, err)
				}
				byID[p.NativeID] = p
			}
			// Oldest first within each listing.
			if ids := strings.Join(got.NativeIDs()[:3], ","); ids != "1h0abc3,1h0abc5,1h0abc6" {
				t.Errorf("order %s", ids)
			}
			for _, tc := range []struct {
				id, thread, parent, board, author, title, link string
				photos                                         int
				engagement                                     int64
			}{
				{"1h0abc6", "1h0abc6", "", "r/worldnews", "newsbot_eu", "Port workers strike over automation plans",
					"https://www.reddit.com/r/worldnews/comments/1h0abc6/port_workers_strike_over_automation_plans/", 1, 3},
				{"1h0abc5", "1h0abc5", "", "r/worldnews", "worldnewsmods", "Live thread: summit day two", "", 0, 850 + 120},
				{"m1x3", "1h0abc5", "m1x2", "r/worldnews", "analyst42", "", "", 0, 12},
				{"m1x2", "1h0abc5", "1h0abc5", "r/worldnews", "worldnewsmods", "", "", 0, 0}, // voted below zero
				{"1h0zz01", "1h0zz01", "", "r/cybersecurity", "blue_team_lead", "Ransomware group claims breach of logistics firm", "", 0, 0},
			} {
				p, ok := byID[tc.id]
				if !ok {
					t.Errorf("%s not emitted", tc.id)
					continue
				}
				if p.ThreadID != tc.thread || p.ParentID != tc.parent || p.Board != tc.board || p.AuthorScreenName != tc.author ||
					p.TitleText != tc.title || len(p.Photos) != tc.photos || (tc.link != "" && p.PostLink != tc.link) || p.Provider != "reddit" ||
					p.Engagement != tc.engagement {
					t.Errorf("%s: %+v", tc.id, p)
				}
			}
			if p := byID["1h0abc6"]; p.Photos[0].Large != "https://external-preview.redd.it/strike.jpg?width=1200&s=1a2b" ||
				p.Entities.ExternalLinks[0] != "https://www.reuters.com/world/europe/port-workers-strike-2026-11-25/" {
				t.Errorf("photo or link: %+v", p)
			}
			if st := src.Stats(); st.Skipped < 1 {
				t.Errorf("skipped %d, want the thing without a time (%s)", st.Skipped, st.LastSkip)
			}
			if oauth && r.tokens != 1 {
				t.Errorf("%d tokens fetched", r.tokens)
			}
		})
	}
}

func TestCursorResumeEmitsNothingTwice(t *testing.T) {
	srv := httptest.NewServer(&replay{remaining: "99"})
	defer srv.Close()
	cursors := &connectortest.Cursors{}
	var first connectortest.Collector
	stop := connectortest.Start(t, newSource(t, testConfig(srv), cursors, &connectortest.Sleeper{}), first.Emit)
	first.WaitForPosts(t, 6)
	stop()

	saved, _ := cursors.Load(t.Context(), Name)
	var cur map[string]connector.Seen
	if err := json.Unmarshal([]byte(saved), &cur); err != nil || len(cur["r/worldnews"].Keys) != 3 {
		t.Fatalf("cursor %s (%v)", saved, err)
	}
	var second connectortest.Collector
	sleeper := &connectortest.Sleeper{}
	stop = connectortest.Start(t, newSource(t, testConfig(srv), cursors, sleeper), second.Emit)
	wait.For(t, "two polls", func() bool { return len(sleeper.Waits()) >= 2 })
	stop()
	if n := len(second.Posts()); n != 0 {
		t.Errorf("a restarted source emitted %d posts again", n)
	}
}

func TestRateLimitWaitsForTheReset(t *testing.T) {
	for _, tc := range []struct {
		remaining string
		waits     bool
	}{{"0", true}, {"0.0", true}, {"12", false}, {"", false}} {
		t.Run(tc.remaining, func(t *testing.T) {
			srv := httptest.NewServer(&replay{remaining: tc.remaining})
			defer srv.Close()
			sleeper := &connectortest.Sleeper{}
			var got connectortest.Collector
			stop := connectortest.Start(t, newSource(t, testConfig(srv), &connectortest.Cursors{}, sleeper), got.Emit)
			got.WaitForPosts(t, 6)
			stop()
			// The first reply used the limit up: the next request waited for the reset (7 s),
			// not the poll interval.
			waited := false
			for _, w := range sleeper.Waits() {
				if w > 5*time.Second && w <= 7*time.Second {
					waited = true
				}
			}
			if waited != tc.waits {
				t.Errorf("waits %v", sleeper.Waits())
			}
		})
	}
}

func TestTooManyRequestsBacksOff(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Retry-After", "30")
		w.WriteHeader(http.StatusTooManyRequests)
	}))
	defer srv.Close()
	sleeper := &connectortest.Sleeper{}
	src := newSource(t, testConfig(srv), &connectortest.Cursors{}, sleeper)
	stop := connectortest.Start(t, src, (&connectortest.Collector{}).Emit)
	wait.For(t, "a retry", func() bool { return len(sleeper.Waits()) >= 1 })
	stop()
	if w := sleeper.Waits()[0]; w != 30*time.Second {
		t.Errorf("waited %v, want Retry-After", w)
	}
	if st := src.Stats(); !strings.Contains(st.LastError, "429") {
		t.Errorf("last error %q", st.LastError)
	}
}

func TestNewRefusesBadConfig(t *testing.T) {
	for name, cfg := range map[string]Config{
		"nothing":  {BaseURL: "https://www.reddit.com"},
		"bad sub":  {BaseURL: "https://www.reddit.com", Subreddits: []string{"a/b"}},
		"bad base": {BaseURL: "reddit.com", Subreddits: []string{"news"}},
		"empty q":  {BaseURL: "https://www.reddit.com", Searches: []string{" "}},
	} {
		if _, err := New(cfg, &connectortest.Cursors{}, outbound.New(outbound.Options{})); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
