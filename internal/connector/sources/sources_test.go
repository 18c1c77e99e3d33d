package sources

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/connector"
	"github.com/sightline/sightline/internal/connector/connectortest"
	"github.com/sightline/sightline/internal/connector/rss"
	"github.com/sightline/sightline/internal/outbound"
	"github.com/sightline/sightline/internal/wait"
)

func names(srcs []connector.Source) []string {
	var out []string
	for _, s := range srcs {
		out = append(out, s.Name())
	}
	return out
}

func TestDefaultRunsOnlyTheSimulator(t *testing.T) {
	srcs, err := Builder{}.Build(Default(), &connectortest.Cursors{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(names(srcs), ","); got != "simulator" {
		t.Fatalf("default sources %q, want just the simulator", got)
	}
}

func TestLoad(t *testing.T) {
	tests := []struct {
		name    string
		json    string
		want    string // the sources built, joined by commas
		wantErr string
	}{
		{"empty object keeps the defaults", `{}`, "simulator", ""},
		{"simulator off", `{"simulator": {"enabled": false}}`, "", ""},
		{"every connector", `{
			"simulator": {"enabled": true, "rate": 20},
			"rss": {"enabled": true, "interval": "10m", "feeds": [
				{"name": "gazette", "url": "https://news.example.org/rss.xml"},
				{"name": "maps", "url": "https://www.youtube.com/feeds/videos.xml?channel_id=UC1", "provider": "youtube", "interval": "1h"}]},
			"bluesky": {"enabled": true},
			"mastodon": {"enabled": true, "baseURL": "https://social.example.org", "token": "t", "stream": true, "timelines": ["public", "tag:osint"]},
			"hackernews": {"enabled": true, "interval": "1m"}
		}`, "simulator,rss:gazette,rss:maps,bluesky,mastodon:social.example.org:public,mastodon:social.example.org:tag:osint,hackernews", ""},
		{"misspelt key", `{"simulater": {}}`, "", `unknown field "simulater"`},
		{"bad duration", `{"rss": {"interval": "often"}}`, "", "often"},
		{"bad feed", `{"rss": {"enabled": true, "feeds": [{"name": "x", "url": "https://x", "provider": "myspace"}]}}`, "", "myspace"},
		{"streaming without a token", `{"mastodon": {"enabled": true, "stream": true}}`, "", "access token"},
		{"bluesky over https", `{"bluesky": {"enabled": true, "url": "https://jetstream.example/subscribe"}}`, "", "ws://"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := Load(strings.NewReader(tt.json))
			var srcs []connector.Source
			if err == nil {
				srcs, err = Builder{}.Build(cfg, &connectortest.Cursors{})
			}
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one mentioning %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(names(srcs), ","); got != tt.want {
				t.Fatalf("sources %q, want %q", got, tt.want)
			}
		})
	}
}

func TestLoadKeepsDefaultsOfOmittedFields(t *testing.T) {
	cfg, err := Load(strings.NewReader(`{"hackernews": {"enabled": true}, "simulator": {"rate": 50}}`))
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.Simulator.Enabled || cfg.Simulator.Rate != 50 {
		t.Errorf("simulator %+v", cfg.Simulator)
	}
	if cfg.HackerNews.BaseURL != "https://hacker-news.firebaseio.com/v0" || time.Duration(cfg.HackerNews.Interval) != 30*time.Second {
		t.Errorf("hackernews %+v lost its defaults", cfg.HackerNews)
	}
}

func TestRunAndStats(t *testing.T) {
	feed := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`<rss version="2.0"><channel><title>T</title><item><guid>1</guid><title>Hello</title>` +
			`<pubDate>Fri, 14 Mar 2025 09:40:00 GMT</pubDate></item></channel></rss>`))
	}))
	defer feed.Close()
	cfg := Default()
	cfg.Simulator.Rate = 100
	cfg.RSS.Enabled = true
	cfg.RSS.Feeds = []rss.Feed{{Name: "local", URL: feed.URL}}
	srcs, err := Builder{Allow: outbound.Everywhere}.Build(cfg, &connectortest.Cursors{})
	if err != nil {
		t.Fatal(err)
	}
	got := &connectortest.Collector{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- Run(ctx, srcs, got.Emit) }()
	wait.For(t, "posts from both sources", func() bool {
		st := Stats(srcs)
		return st[0].Count >= 3 && st[1].Count == 1
	})
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run = %v", err)
	}
	st := Stats(srcs)
	if st[0].Source != "simulator" || st[1].Source != "rss:local" || st[1].LastSuccess.IsZero() {
		t.Fatalf("stats %+v", st)
	}
}

func TestSourcesRefuseLoopbackUnlessAllowed(t *testing.T) {
	var hits atomic.Int64
	feed := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
	}))
	defer feed.Close()
	cfg := Default()
	cfg.Simulator.Enabled = false
	cfg.RSS.Enabled = true
	cfg.RSS.Feeds = []rss.Feed{{Name: "local", URL: feed.URL + "/feed?token=secret"}}
	srcs, err := Builder{}.Build(cfg, &connectortest.Cursors{})
	if err != nil {
		t.Fatal(err)
	}
	connectortest.Start(t, srcs[0], (&connectortest.Collector{}).Emit)
	wait.For(t, "a refused poll", func() bool { return Stats(srcs)[0].LastError != "" })
	st := Stats(srcs)[0]
	if !strings.Contains(st.LastError, "not a public one") || strings.Contains(st.LastError, "secret") {
		t.Fatalf("last error %q, want a refusal that does not name the token", st.LastError)
	}
	if n := hits.Load(); n != 0 {
		t.Fatalf("the loopback feed was fetched %d times", n)
	}
}

// Every default row and every row a --sources file seeds builds, and a row's cursor keys are
// its own.
func TestRowsBuild(t *testing.T) {
	for _, seed := range DefaultSeeds() {
		srcs, err := Builder{}.BuildRow(seed.Type, seed.Name, seed.Config, MemoryCursors{}, "source:1:")
		if err != nil || len(srcs) != 1 {
			t.Errorf("default %s %q: %v (%d sources)", seed.Type, seed.Name, err, len(srcs))
		}
	}
	cfg, err := Load(strings.NewReader(`{"rss": {"enabled": true, "interval": "10m", "feeds": [{"name": "gazette", "url": "https://news.example.org/rss.xml"}]},
		"mastodon": {"enabled": true, "baseURL": "https://social.example.org", "timelines": ["public", "tag:osint"]},
		"hackernews": {"enabled": false}}`))
	if err != nil {
		t.Fatal(err)
	}
	seeds, err := Seeds(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range seeds {
		srcs, err := Builder{}.BuildRow(s.Type, s.Name, s.Config, MemoryCursors{}, "x:")
		if err != nil {
			t.Fatalf("seed %+v: %v", s, err)
		}
		got = append(got, s.Type+"="+strings.Join(names(srcs), "+"))
	}
	if want := "rss=rss:gazette,mastodon=mastodon:social.example.org:public+mastodon:social.example.org:tag:osint"; strings.Join(got, ",") != want {
		t.Fatalf("seeded %q, want %q", strings.Join(got, ","), want)
	}
	if d := (Builder{}).Interval("rss", seeds[0].Config); d != 10*time.Minute {
		t.Errorf("interval %v", d)
	}
}

func TestRowSettingsErrors(t *testing.T) {
	tests := []struct{ typ, config, field, msg string }{
		{"myspace", `{}`, "type", "The type must be one of"},
		{"rss", `{}`, "config.url", "feed's address"},
		{"rss", `{"url": "ftp://x"}`, "config", "not an absolute http or https URL"},
		{"rss", `{"url": "https://x", "colour": "red"}`, "config.colour", `no setting "colour"`},
		{"mastodon", `{"baseURL": 3}`, "config.baseURL", "must be a string"},
		{"mastodon", `{"enabled": false}`, "config.enabled", "enabled field"},
		{"hackernews", `[1]`, "config", "JSON object"},
	}
	for _, tt := range tests {
		_, err := Builder{}.BuildRow(tt.typ, "n", json.RawMessage(tt.config), MemoryCursors{}, "")
		var se *SettingsError
		if !errors.As(err, &se) || se.Field != tt.field || !strings.Contains(se.Message, tt.msg) {
			t.Errorf("%s %s: %v (%+v), want %s: %s", tt.typ, tt.config, err, se, tt.field, tt.msg)
		}
	}
}
