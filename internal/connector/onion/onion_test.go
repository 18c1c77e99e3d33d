package onion

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/connector/connectortest"
	"github.com/sightline/sightline/internal/connector/scrape"
	"github.com/sightline/sightline/internal/outbound/sockstest"
	"github.com/sightline/sightline/internal/post"
)

const (
	blogHost   = "leaksblogxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx.onion"
	marketHost = "marketxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx.onion"
)

func TestSitesThroughTheProxy(t *testing.T) {
	hidden := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Host + r.URL.Path {
		case blogHost + "/feed.xml":
			http.ServeFile(w, r, "testdata/feed.xml")
		case marketHost + "/listings":
			http.ServeFile(w, r, "testdata/market.html")
		default:
			http.NotFound(w, r)
		}
	}))
	defer hidden.Close()
	proxy := sockstest.Start(t, func(addr string) (string, bool) {
		if addr == blogHost+":80" || addr == marketHost+":80" {
			return strings.TrimPrefix(hidden.URL, "http://"), true
		}
		return "", false
	})
	cfg := DefaultConfig()
	cfg.SOCKS = proxy.Addr
	cfg.Sites = []Site{
		{Name: "leaksblog", URL: "http://" + blogHost + "/feed.xml", Format: "rss", Provider: "leaks"},
		{Name: "market", URL: "http://" + marketHost + "/listings", Format: "html", Provider: "marketplaces",
			CommunityKind: post.CommunityMarketplaces, Board: "Market",
			Selectors: scrape.Selectors{Item: "tr.listing", Title: "td.name", Text: "td.desc", Author: "td.vendor", Time: "td.date",
				TimeLayout: "2006-01-02 15:04", Link: "td.name a@href"}},
	}
	srcs, err := New(cfg, &connectortest.Cursors{})
	if err != nil {
		t.Fatal(err)
	}
	if len(srcs) != 2 || srcs[0].Name() != "rss:onion:leaksblog" || srcs[1].Name() != "html:onion:market" {
		t.Fatalf("sources %v", srcs)
	}
	var got connectortest.Collector
	for _, src := range srcs {
		connectortest.Start(t, src, got.Emit)
	}
	posts := got.WaitForPosts(t, 3)
	byLink := map[string]post.Post{}
	for _, p := range posts {
		if err := p.Normalize(time.Now()); err != nil {
			t.Errorf("%s: %v", p.NativeID, err)
		}
		byLink[p.PostLink] = p
	}
	if p := byLink["http://"+blogHost+"/post/example-logistics"]; p.Provider != "leaks" || p.TitleText != "New victim: Example Logistics GmbH" {
		t.Errorf("feed item: %+v", p)
	}
	if p := byLink["http://"+marketHost+"/item/9981"]; p.Provider != "marketplaces" || p.AuthorName != "shadyvendor" ||
		p.CommunityKind != post.CommunityMarketplaces || !p.PublishedAt.Equal(time.Date(2026, 11, 25, 6, 15, 0, 0, time.UTC)) {
		t.Errorf("listing: %+v", p)
	}
	for _, a := range proxy.Asked() {
		if a != blogHost+":80" && a != marketHost+":80" {
			t.Errorf("the proxy was asked for %s", a)
		}
	}
}

func TestNewRefuses(t *testing.T) {
	for name, cfg := range map[string]Config{
		"no proxy":   {Sites: []Site{{Name: "a", URL: "http://" + blogHost + "/", Format: "rss"}}},
		"not onion":  {SOCKS: "127.0.0.1:9050", Sites: []Site{{Name: "a", URL: "http://example.org/", Format: "rss"}}},
		"bad format": {SOCKS: "127.0.0.1:9050", Sites: []Site{{Name: "a", URL: "http://" + blogHost + "/", Format: "pdf"}}},
		"selectors":  {SOCKS: "127.0.0.1:9050", Sites: []Site{{Name: "a", URL: "http://" + blogHost + "/", Format: "html"}}},
	} {
		if _, err := New(cfg, &connectortest.Cursors{}); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
