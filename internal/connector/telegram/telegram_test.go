package telegram

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
	"github.com/sightline/sightline/internal/wait"
)

type replay struct {
	mu       sync.Mutex
	requests []string
}

func (r *replay) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.requests = append(r.requests, req.URL.RequestURI())
	switch req.URL.RequestURI() {
	case "/s/osintdesk":
		serve(w, "osintdesk.html")
	case "/s/osintdesk?before=140":
		serve(w, "osintdesk-before-140.html")
	case "/s/privatechan":
		http.Redirect(w, req, "/privatechan", http.StatusFound)
	case "/privatechan":
		w.Write([]byte("<html><body>private</body></html>"))
	default:
		http.NotFound(w, req)
	}
}

func serve(w http.ResponseWriter, file string) {
	body, _ := os.ReadFile("testdata/" + file)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(body)
}

func (r *replay) seen() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.requests...)
}

func start(t *testing.T, srv *httptest.Server, channels []string, cursors *connectortest.Cursors, sleeper *connectortest.Sleeper) (*Source, *connectortest.Collector, func()) {
	t.Helper()
	cfg := DefaultConfig()
	cfg.BaseURL, cfg.Channels = srv.URL, channels
	src, err := New(cfg, cursors, outbound.New(outbound.Options{AllowPrivate: true}))
	if err != nil {
		t.Fatal(err)
	}
	src.sleep = sleeper.Sleep
	var got connectortest.Collector
	return src, &got, connectortest.Start(t, src, got.Emit)
}

func TestMessages(t *testing.T) {
	srv := httptest.NewServer(&replay{})
	defer srv.Close()
	src, got, stop := start(t, srv, []string{"@osintdesk"}, &connectortest.Cursors{}, &connectortest.Sleeper{})
	posts := got.WaitForPosts(t, 5)
	stop()
	if ids := strings.Join(got.NativeIDs(), ","); ids != "osintdesk/140,osintdesk/141,osintdesk/142,osintdesk/144,osintdesk/145" {
		t.Fatalf("emitted %s (a first round reads the newest page only)", ids)
	}
	for _, tc := range []struct {
		i                     int
		thread, parent, text  string
		photos, videos, links int
	}{
		{0, "osintdesk/140", "", "Reports of an explosion near the port. Map: maps.example.org/p/1", 0, 0, 1},
		{1, "osintdesk/140", "osintdesk/140", "Update: fire brigade on site.", 0, 0, 0},
		{2, "osintdesk/142", "", "", 1, 0, 0},
		{3, "osintdesk/140", "osintdesk/141", "Second update:\ncasualties unconfirmed.", 0, 0, 0},
		{4, "osintdesk/145", "", "Drone footage", 0, 1, 0},
	} {
		p := posts[tc.i]
		if err := p.Normalize(time.Now()); err != nil {
			t.Errorf("%d: %v", tc.i, err)
		}
		if p.ThreadID != tc.thread || p.ParentID != tc.parent || p.ContentText != tc.text || len(p.Photos) != tc.photos ||
			len(p.Videos) != tc.videos || len(p.Entities.ExternalLinks) != tc.links || p.Provider != "telegram" ||
			p.AuthorName != "OSINT Desk" || p.AuthorScreenName != "osintdesk" || p.Board != "osintdesk" {
			t.Errorf("%d: %+v", tc.i, p)
		}
	}
	p := posts[4]
	if p.Videos[0].Large != "https://cdn4.cdn-telegram.org/file/video145.mp4" || p.Videos[0].Normal != "https://cdn4.cdn-telegram.org/file/thumb145.jpg" ||
		p.TitleText != "Forwarded from Harbour Watch" || p.PostLink != "https://t.me/osintdesk/145" {
		t.Errorf("video message: %+v", p)
	}
	if posts[2].Photos[0].Large != "https://cdn4.cdn-telegram.org/file/photo142.jpg" || !posts[0].PublishedAt.Equal(time.Date(2026, 11, 25, 6, 0, 0, 0, time.UTC)) ||
		posts[0].AuthorThumbnail != "https://cdn4.cdn-telegram.org/file/avatar-osintdesk.jpg" {
		t.Errorf("photo message: %+v", posts[2])
	}
	if st := src.Stats(); st.Skipped < 1 || !strings.Contains(st.LastSkip, "soon") {
		t.Errorf("stats %+v: the message with a broken date is skipped", st)
	}
}

func TestResumePagesBackToTheCursor(t *testing.T) {
	r := &replay{}
	srv := httptest.NewServer(r)
	defer srv.Close()
	cursors := &connectortest.Cursors{}
	cursors.Save(t.Context(), Name, `{"osintdesk":136}`)
	sleeper := &connectortest.Sleeper{}
	_, got, stop := start(t, srv, []string{"osintdesk"}, cursors, sleeper)
	got.WaitForPosts(t, 8)
	wait.For(t, "a second round", func() bool { return len(r.seen()) >= 3 })
	stop()
	if ids := strings.Join(got.NativeIDs(), ","); ids != "osintdesk/137,osintdesk/138,osintdesk/139,osintdesk/140,osintdesk/141,osintdesk/142,osintdesk/144,osintdesk/145" {
		t.Errorf("emitted %s", ids)
	}
	if req := r.seen(); req[0] != "/s/osintdesk" || req[1] != "/s/osintdesk?before=140" || req[2] != "/s/osintdesk" {
		t.Errorf("requests %v: older pages until the cursor, then the newest page only", req)
	}
	if got.Posts()[2].ThreadID != "osintdesk/138" {
		t.Errorf("reply on an older page: %+v", got.Posts()[2])
	}
	if saved, _ := cursors.Load(t.Context(), Name); saved != `{"osintdesk":145}` {
		t.Errorf("cursor %s", saved)
	}
	if w := sleeper.Waits(); w[0] != 2*time.Second {
		t.Errorf("waits %v", w)
	}
}

func TestPrivateChannelFails(t *testing.T) {
	srv := httptest.NewServer(&replay{})
	defer srv.Close()
	sleeper := &connectortest.Sleeper{}
	src, _, stop := start(t, srv, []string{"privatechan"}, &connectortest.Cursors{}, sleeper)
	wait.For(t, "a retry", func() bool { return len(sleeper.Waits()) >= 2 })
	stop()
	if st := src.Stats(); !strings.Contains(st.LastError, "no public preview") {
		t.Errorf("last error %q", st.LastError)
	}
}

func TestNewRefusesBadChannels(t *testing.T) {
	for _, chans := range [][]string{nil, {"a/b"}, {"x"}} {
		cfg := DefaultConfig()
		cfg.Channels = chans
		if _, err := New(cfg, &connectortest.Cursors{}, outbound.New(outbound.Options{})); err == nil {
			t.Errorf("%v accepted", chans)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, file := range []string{"osintdesk.html", "osintdesk-before-140.html"} {
		b, _ := os.ReadFile("testdata/" + file)
		f.Add(b)
	}
	f.Add([]byte(`<div class="tgme_widget_message" data-post="osintdesk/"><time datetime="x"></time></div>`))
	f.Fuzz(func(t *testing.T, body []byte) {
		msgs, _, err := parse(body, "osintdesk")
		if err != nil {
			return
		}
		for _, m := range msgs {
			if m.id <= 0 || m.published.IsZero() {
				t.Errorf("message without an id or a date: %+v", m)
			}
		}
	})
}
