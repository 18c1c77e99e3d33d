package scrape

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

var forumPage = Page{
	Name: "exploits", Provider: "hacking", Board: "Exploits & Leaks", CommunityKind: post.CommunityBreachedData,
	Selectors: Selectors{Item: "article.thread", Title: "h3.subject", Text: "div.body", Author: "span.user",
		Time: "time@datetime", Link: "h3.subject a@href", Image: "img.thumb@src"},
}

var pastePage = Page{
	Name: "pastes", Provider: "pastebin",
	Selectors: Selectors{Item: "li.paste", Title: "span.t", Time: "span.d", TimeLayout: "02.01.2006 15:04", TimeZone: "Europe/Berlin"},
}

func TestParse(t *testing.T) {
	now := time.Date(2026, 11, 25, 7, 0, 0, 0, time.UTC)
	base, _ := url.Parse("http://forum.example/board/7")
	for _, tc := range []struct {
		name, file, contentType string
		page                    Page
		want                    []post.Post
		skipped                 int
	}{
		{"forum", "forum.html", "text/html; charset=utf-8", forumPage, []post.Post{
			{NativeID: "http://forum.example/t/48213-fresh-combolist", TitleText: "Fresh combolist 2026 — 1.2M lines",
				ContentText: "Combo list from a retail breach.\n\nContact on jabber.", AuthorName: "d4rkseller",
				PublishedAt: time.Date(2026, 11, 25, 6, 20, 0, 0, time.UTC), Photos: []post.Media{{Large: "http://forum.example/img/48213.png"}}},
			{NativeID: "http://forum.example/t/48212-access-sale", TitleText: "Initial access for sale: EU logistics",
				ContentText: "RDP + VPN creds, domain admin.", AuthorName: "brokerx", PublishedAt: time.Date(2026, 11, 25, 4, 55, 0, 0, time.UTC)},
		}, 2},
		{"paste site in latin-1, local times", "pastes-latin1.html", "text/html", pastePage, []post.Post{
			{TitleText: "Café résumé dump", PublishedAt: time.Date(2026, 11, 25, 5, 30, 0, 0, time.UTC)},
			{TitleText: "Second paste", PublishedAt: time.Date(2026, 11, 25, 5, 10, 0, 0, time.UTC)},
		}, 0},
		{"no time selector: stamped now", "forum.html", "", Page{Name: "x", Provider: "forum",
			Selectors: Selectors{Item: "article.thread", Title: "h3.subject"}}, []post.Post{
			{TitleText: "Fresh combolist 2026 — 1.2M lines", PublishedAt: now},
			{TitleText: "Initial access for sale: EU logistics", PublishedAt: now},
			{TitleText: "Bad date", PublishedAt: now},
		}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body, err := os.ReadFile("testdata/" + tc.file)
			if err != nil {
				t.Fatal(err)
			}
			src, err := New(withURL(tc.page, base.String()), DefaultConfig(), &connectortest.Cursors{}, outbound.New(outbound.Options{}))
			if err != nil {
				t.Fatal(err)
			}
			posts, skipped, err := parse(body, tc.contentType, base, src.page, src.zone, now)
			if err != nil {
				t.Fatal(err)
			}
			if len(skipped) != tc.skipped {
				t.Errorf("skipped %v", skipped)
			}
			if len(posts) != len(tc.want) {
				t.Fatalf("%d posts: %+v", len(posts), posts)
			}
			for i, want := range tc.want {
				p := posts[i]
				if err := p.Normalize(now); err != nil {
					t.Errorf("%d: %v", i, err)
				}
				if p.TitleText != want.TitleText || (want.ContentText != "" && p.ContentText != want.ContentText) ||
					(want.NativeID != "" && (p.NativeID != want.NativeID || p.PostLink != want.NativeID)) ||
					p.AuthorName != want.AuthorName || !p.PublishedAt.Equal(want.PublishedAt) || len(p.Photos) != len(want.Photos) ||
					(len(want.Photos) > 0 && p.Photos[0] != want.Photos[0]) || p.Provider != tc.page.Provider || p.ThreadID != p.NativeID {
					t.Errorf("%d: %+v", i, p)
				}
			}
			if tc.name == "forum" && (posts[0].Board != "Exploits & Leaks" || posts[0].CommunityKind != post.CommunityBreachedData) {
				t.Errorf("board %+v", posts[0])
			}
		})
	}
}

func withURL(p Page, u string) Page {
	p.URL = u
	return p
}

type replay struct {
	mu   sync.Mutex
	file string
	hits int
}

func (r *replay) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.hits++
	body, _ := os.ReadFile("testdata/" + r.file)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(body)
}

func TestPollAndResume(t *testing.T) {
	r := &replay{file: "forum.html"}
	srv := httptest.NewServer(r)
	defer srv.Close()
	cursors := &connectortest.Cursors{}
	run := func() (*Source, *connectortest.Collector, *connectortest.Sleeper, func()) {
		src, err := New(withURL(forumPage, srv.URL+"/board/7"), DefaultConfig(), cursors, outbound.New(outbound.Options{AllowPrivate: true}))
		if err != nil {
			t.Fatal(err)
		}
		sleeper := &connectortest.Sleeper{}
		src.sleep = sleeper.Sleep
		var got connectortest.Collector
		return src, &got, sleeper, connectortest.Start(t, src, got.Emit)
	}
	src, got, sleeper, stop := run()
	got.WaitForPosts(t, 2)
	wait.For(t, "two polls", func() bool { return len(sleeper.Waits()) >= 2 })
	stop()
	// Oldest (lowest on the page) first; the second poll emits nothing again.
	if ids := got.NativeIDs(); len(ids) != 2 || !strings.HasSuffix(ids[0], "/t/48212-access-sale") {
		t.Errorf("emitted %v", ids)
	}
	if st := src.Stats(); st.Skipped < 2 || st.Count != 2 || src.Name() != "html:exploits" {
		t.Errorf("stats %+v", st)
	}
	_, again, sleeper, stop := run()
	wait.For(t, "a poll", func() bool { return len(sleeper.Waits()) >= 1 })
	stop()
	if n := len(again.Posts()); n != 0 {
		t.Errorf("emitted %d again after a restart", n)
	}
}

func TestNewRefusesBadPages(t *testing.T) {
	for _, p := range []Page{
		{Name: "x", URL: "http://a.example/", Selectors: Selectors{}},
		{Name: "x", URL: "a.example", Selectors: Selectors{Item: "li"}},
		{Name: "x", URL: "http://a.example/", Selectors: Selectors{Item: "li[", Title: "a"}},
		{Name: "x", URL: "http://a.example/", Provider: "nope", Selectors: Selectors{Item: "li"}},
		{Name: "x", URL: "http://a.example/", Selectors: Selectors{Item: "li", TimeZone: "Mars/Olympus"}},
	} {
		if _, err := New(p, DefaultConfig(), &connectortest.Cursors{}, outbound.New(outbound.Options{})); err == nil {
			t.Errorf("%+v accepted", p)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, file := range []string{"forum.html", "pastes-latin1.html"} {
		b, _ := os.ReadFile("testdata/" + file)
		f.Add(b)
	}
	base, _ := url.Parse("http://forum.example/board/7")
	now := time.Date(2026, 11, 25, 7, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, body []byte) {
		posts, _, err := parse(body, "text/html", base, forumPage, time.UTC, now)
		if err != nil {
			return
		}
		for _, p := range posts {
			if p.NativeID == "" || (p.TitleText == "" && p.ContentText == "") || p.PublishedAt.IsZero() {
				t.Errorf("post without an id, a text or a time: %+v", p)
			}
		}
	})
}
