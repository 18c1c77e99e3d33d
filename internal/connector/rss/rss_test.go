package rss

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
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

// replay serves one recorded feed file at a time, with an ETag derived from its name, and can
// answer 429 or drop connections on demand.
type replay struct {
	mu          sync.Mutex
	file        string
	rateLimited int
	drops       int
	hits        int
	notModified int
}

func newReplay(t *testing.T, file string) (*replay, *httptest.Server) {
	r := &replay{file: file}
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	return r, srv
}

func (r *replay) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.hits++
	switch {
	case r.drops > 0:
		r.drops--
		conn, _, _ := w.(http.Hijacker).Hijack()
		conn.Close()
		return
	case r.rateLimited > 0:
		r.rateLimited--
		w.Header().Set("Retry-After", "120")
		w.WriteHeader(http.StatusTooManyRequests)
		return
	}
	etag := fmt.Sprintf("%q", r.file)
	if req.Header.Get("If-None-Match") == etag {
		r.notModified++
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body, err := os.ReadFile("testdata/" + r.file)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("ETag", etag)
	w.Header().Set("Content-Type", "application/rss+xml")
	w.Write(body)
}

func (r *replay) set(file string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.file = file
}

func (r *replay) counts() (hits, notModified int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.hits, r.notModified
}

func newSource(t *testing.T, srv *httptest.Server, providerKey string, cursors connector.CursorStore, sleeper *connectortest.Sleeper) *Source {
	t.Helper()
	s, err := New(Feed{Name: "test", URL: srv.URL + "/feed", Provider: providerKey}, DefaultConfig(), cursors, outbound.New(outbound.Options{AllowPrivate: true}))
	if err != nil {
		t.Fatal(err)
	}
	s.sleep = sleeper.Sleep
	return s
}

func byNativeID(posts []post.Post) map[string]post.Post {
	m := map[string]post.Post{}
	for _, p := range posts {
		m[p.NativeID] = p
	}
	return m
}

func TestNewsFeed(t *testing.T) {
	_, srv := newReplay(t, "news.xml")
	src := newSource(t, srv, "news", &connectortest.Cursors{}, &connectortest.Sleeper{})
	got := &connectortest.Collector{}
	connectortest.Start(t, src, got.Emit)
	wait.For(t, "a poll", func() bool { return src.Stats().Count+src.Stats().Skipped >= 5 })

	// Oldest first; the item with a broken date and the empty item are skipped.
	want := []string{"hg-2025-0314-0377", "https://news.example.org/world/2025/03/14/porto-alegre-floods", "hg-2025-0314-0412"}
	if !slices.Equal(got.NativeIDs(), want) {
		t.Fatalf("emitted %v, want %v", got.NativeIDs(), want)
	}
	if st := src.Stats(); st.Skipped != 2 {
		t.Fatalf("skipped %d, want 2: %+v", st.Skipped, st)
	}
	posts := byNativeID(got.Posts())

	rotterdam := posts["hg-2025-0314-0412"]
	if rotterdam.Location == nil || *rotterdam.Location != (post.Point{Lat: 51.9225, Lon: 4.47917}) || rotterdam.PlaceName != "Rotterdam" {
		t.Errorf("georss:point: location %v place %q", rotterdam.Location, rotterdam.PlaceName)
	}
	if rotterdam.ContentText != "Container traffic at Europe’s largest port has slowed to a crawl as the strike enters its third day." {
		t.Errorf("description %q", rotterdam.ContentText)
	}
	if rotterdam.Type != post.TypeNewsPost || rotterdam.Provider != "news" || rotterdam.Language != "en" ||
		rotterdam.Board != "Harbour Gazette - World" || rotterdam.AuthorName != "Anneke de Vries" ||
		!slices.Equal(rotterdam.Tags, []string{"Europe", "Labour"}) ||
		len(rotterdam.Photos) != 1 || rotterdam.Photos[0].Large != "https://news.example.org/img/rotterdam-cranes.jpg" ||
		!rotterdam.PublishedAt.Equal(time.Date(2025, 3, 14, 9, 40, 0, 0, time.UTC)) {
		t.Errorf("rotterdam: %+v", rotterdam)
	}

	porto := posts["https://news.example.org/world/2025/03/14/porto-alegre-floods"]
	if porto.Location == nil || *porto.Location != (post.Point{Lat: -30.0346, Lon: -51.2177}) {
		t.Errorf("geo:lat/long: location %v", porto.Location)
	}
	if porto.AuthorName != "Mariana Costa" || len(porto.Videos) != 1 || !strings.Contains(porto.ContentText, "Civil defence") {
		t.Errorf("porto alegre: author %q videos %v text %q", porto.AuthorName, porto.Videos, porto.ContentText)
	}
}

func TestFeedFormats(t *testing.T) {
	tests := []struct {
		file, provider string
		wantIDs        []string
		wantSkipped    int64
		check          func(t *testing.T, posts map[string]post.Post)
	}{
		{"blog-atom.xml", "blogs", []string{"urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a"}, 1, func(t *testing.T, posts map[string]post.Post) {
			p := posts["urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a"]
			if p.TitleText != "Marseille : le port sous tension" ||
				p.ContentText != "Les dockers ont bloqué l'accès au terminal nord depuis l'aube.\n\nLa préfecture appelle au calme." {
				t.Errorf("title %q content %q", p.TitleText, p.ContentText)
			}
			if p.Language != "fr" || p.AuthorName != "Claire Martin" || p.AuthorURL != "https://carnets.example.fr/a-propos" ||
				p.PostLink != "https://carnets.example.fr/2025/03/marseille-port" || p.Board != "Carnets de terrain" ||
				p.Location == nil || p.Location.Lat != 43.2965 || !slices.Equal(p.Tags, []string{"reportage", "Marseille"}) ||
				!p.PublishedAt.Equal(time.Date(2025, 3, 13, 17, 30, 2, 0, time.UTC)) {
				t.Errorf("atom entry: %+v", p)
			}
		}},
		{"youtube.xml", "youtube", []string{"yt:video:dQ4w9WgXcQ1"}, 0, func(t *testing.T, posts map[string]post.Post) {
			p := posts["yt:video:dQ4w9WgXcQ1"]
			want := post.Media{Large: "https://www.youtube.com/watch?v=dQ4w9WgXcQ1", Normal: "https://i3.ytimg.com/vi/dQ4w9WgXcQ1/hqdefault.jpg"}
			if len(p.Videos) != 1 || p.Videos[0] != want || len(p.Photos) != 0 {
				t.Errorf("videos %v photos %v", p.Videos, p.Photos)
			}
			if p.AuthorID != "UCx7Y8k2Jb3nQ0pQwHqZ1a2A" || p.AuthorName != "Open Maps Daily" || p.Type != post.TypeSocialMediaPost ||
				!strings.HasPrefix(p.ContentText, "We match ridgelines") {
				t.Errorf("youtube entry: %+v", p)
			}
		}},
		{"latin1.xml", "news", []string{"ds-77"}, 0, func(t *testing.T, posts map[string]post.Post) {
			if c := posts["ds-77"].ContentText; c != "Vecinos de Triana sin electricidad durante la mañana." {
				t.Errorf("ISO-8859-1 text decoded as %q", c)
			}
		}},
		{"empty.xml", "blogs", nil, 0, func(*testing.T, map[string]post.Post) {}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			_, srv := newReplay(t, tt.file)
			src := newSource(t, srv, tt.provider, &connectortest.Cursors{}, &connectortest.Sleeper{})
			got := &connectortest.Collector{}
			stop := connectortest.Start(t, src, got.Emit)
			wait.For(t, "a successful poll", func() bool { return !src.Stats().LastSuccess.IsZero() })
			stop()
			if !slices.Equal(got.NativeIDs(), tt.wantIDs) {
				t.Fatalf("emitted %v, want %v", got.NativeIDs(), tt.wantIDs)
			}
			if st := src.Stats(); st.Skipped != tt.wantSkipped || st.LastError != "" {
				t.Fatalf("stats %+v, want %d skipped and no error", st, tt.wantSkipped)
			}
			tt.check(t, byNativeID(got.Posts()))
		})
	}
}

func TestNextPollEmitsOnlyNewItems(t *testing.T) {
	r, srv := newReplay(t, "news.xml")
	src := newSource(t, srv, "news", &connectortest.Cursors{}, &connectortest.Sleeper{})
	got := &connectortest.Collector{}
	connectortest.Start(t, src, got.Emit)
	got.WaitForPosts(t, 3)

	// Unchanged feed: a conditional request answered 304, nothing emitted.
	wait.For(t, "a 304", func() bool { _, nm := r.counts(); return nm > 0 })
	if n := len(got.Posts()); n != 3 {
		t.Fatalf("an unchanged feed emitted again: %d posts", n)
	}

	r.set("news-updated.xml")
	got.WaitForPosts(t, 4)
	wait.For(t, "a 304 on the new version", func() bool { _, nm := r.counts(); return nm > 1 })
	ids := got.NativeIDs()
	if len(ids) != 4 || ids[3] != "hg-2025-0314-0501" {
		t.Fatalf("emitted %v, want the three first items then only the new one", ids)
	}
}

func TestBrokenFeedIsAnErrorAndRetried(t *testing.T) {
	r, srv := newReplay(t, "broken.txt")
	sleeper := &connectortest.Sleeper{}
	src := newSource(t, srv, "news", &connectortest.Cursors{}, sleeper)
	got := &connectortest.Collector{}
	connectortest.Start(t, src, got.Emit)
	wait.For(t, "an error", func() bool { return src.Stats().LastError != "" })
	if !strings.Contains(src.Stats().LastError, "not a feed") {
		t.Fatalf("last error %q", src.Stats().LastError)
	}
	r.set("news.xml")
	got.WaitForPosts(t, 3)
	if w := sleeper.Waits(); w[0] > time.Second {
		t.Fatalf("first wait after a failure %v, want a backoff step", w[0])
	}
}

func TestRateLimitHonoursRetryAfter(t *testing.T) {
	r, srv := newReplay(t, "news.xml")
	r.rateLimited = 1
	sleeper := &connectortest.Sleeper{}
	src := newSource(t, srv, "news", &connectortest.Cursors{}, sleeper)
	got := &connectortest.Collector{}
	connectortest.Start(t, src, got.Emit)
	got.WaitForPosts(t, 3)
	if w := sleeper.Waits(); w[0] != 2*time.Minute {
		t.Fatalf("waits %v, want Retry-After's 2m first", w)
	}
}

func TestReconnectAndRestartWithoutDuplicates(t *testing.T) {
	r, srv := newReplay(t, "news.xml")
	r.drops = 2
	cursors := &connectortest.Cursors{}
	first := &connectortest.Collector{}
	src := newSource(t, srv, "news", cursors, &connectortest.Sleeper{})
	stop := connectortest.Start(t, src, first.Emit)
	first.WaitForPosts(t, 3)
	wait.For(t, "the cursor", func() bool { c, _ := cursors.Load(context.Background(), src.Name()); return c != "" })
	stop()
	if len(first.Posts()) != 3 || !strings.Contains(src.Stats().LastError, "EOF") {
		t.Fatalf("after dropped connections: %d posts, last error %q", len(first.Posts()), src.Stats().LastError)
	}

	// A new process with the saved cursor, and a server that forgot its ETag: the items already
	// emitted are recognised and not emitted again.
	r.set("news-updated.xml")
	second := &connectortest.Collector{}
	restarted := newSource(t, srv, "news", cursors, &connectortest.Sleeper{})
	connectortest.Start(t, restarted, second.Emit)
	second.WaitForPosts(t, 1)
	wait.For(t, "another poll", func() bool { _, nm := r.counts(); return nm > 0 })
	if ids := second.NativeIDs(); !slices.Equal(ids, []string{"hg-2025-0314-0501"}) {
		t.Fatalf("after restart emitted %v, want only the new item", ids)
	}
}

func TestNewRefusesBadFeeds(t *testing.T) {
	tests := []Feed{
		{URL: "https://x.example/rss"},
		{Name: "x"},
		{Name: "x", URL: "https://x.example/rss", Provider: "geocities"},
	}
	for _, f := range tests {
		if _, err := New(f, DefaultConfig(), &connectortest.Cursors{}, outbound.New(outbound.Options{})); err == nil {
			t.Errorf("New(%+v) accepted it", f)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, name := range []string{"news.xml", "blog-atom.xml", "youtube.xml", "empty.xml"} {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	now := time.Date(2025, 3, 14, 12, 0, 0, 0, time.UTC)
	feedURL, _ := url.Parse("https://news.example.org/rss.xml")
	f.Fuzz(func(t *testing.T, body []byte) {
		entries, err := parse(body, feedURL, "news", now)
		if err != nil {
			return
		}
		for _, e := range entries {
			if e.key == "" || e.key != e.post.NativeID {
				t.Fatalf("entry without a stable key: %+v", e)
			}
		}
	})
}

func TestLinksResolvedAgainstTheFeed(t *testing.T) {
	feedURL, _ := url.Parse("https://news.example.org/world/feed.xml?edition=intl")
	now := time.Date(2025, 3, 14, 12, 0, 0, 0, time.UTC)
	rssFeed := func(item string) string {
		return `<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><title>T</title><item>` +
			`<guid>1</guid><title>Hello</title>` + item + `</item></channel></rss>`
	}
	atomFeed := func(entry string) string {
		return `<feed xmlns="http://www.w3.org/2005/Atom"><title>T</title><entry><id>1</id><title>Hello</title>` +
			entry + `</entry></feed>`
	}
	tests := []struct {
		name       string
		feed       string
		wantLink   string
		wantAuthor string
		wantPhotos []string
	}{
		{"absolute stays", rssFeed(`<link>https://other.example/a</link>`), "https://other.example/a", "", nil},
		{"root-relative link", rssFeed(`<link>/world/a</link>`), "https://news.example.org/world/a", "", nil},
		{"path-relative link", rssFeed(`<link>a?b=1</link>`), "https://news.example.org/world/a?b=1", "", nil},
		{"protocol-relative picture", rssFeed(`<media:thumbnail url="//cdn.example.net/t.jpg"/>`), "", "",
			[]string{"https://cdn.example.net/t.jpg"}},
		{"relative enclosure", rssFeed(`<enclosure url="img/a.jpg" type="image/jpeg"/>`), "", "",
			[]string{"https://news.example.org/world/img/a.jpg"}},
		{"javascript link dropped", rssFeed(`<link>javascript:alert(1)</link>`), "", "", nil},
		{"data picture dropped", rssFeed(`<enclosure url="data:image/png;base64,AAAA" type="image/png"/>`), "", "", nil},
		{"atom relative link and author", atomFeed(`<link href="posts/1"/><author><name>A</name><uri>/about</uri></author>`),
			"https://news.example.org/world/posts/1", "https://news.example.org/about", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			entries, err := parse([]byte(tt.feed), feedURL, "news", now)
			if err != nil || len(entries) != 1 {
				t.Fatalf("parse = %d entries, %v", len(entries), err)
			}
			p := entries[0].post
			if err := p.Normalize(now); err != nil {
				t.Fatal(err)
			}
			var photos []string
			for _, m := range p.Photos {
				photos = append(photos, m.Large)
			}
			if p.PostLink != tt.wantLink || p.AuthorURL != tt.wantAuthor || !slices.Equal(photos, tt.wantPhotos) {
				t.Errorf("link %q author %q photos %q; want %q %q %q", p.PostLink, p.AuthorURL, photos,
					tt.wantLink, tt.wantAuthor, tt.wantPhotos)
			}
		})
	}
}
