package api_test

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/api"
	"github.com/sightline/sightline/internal/imageproxy"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
	"github.com/sightline/sightline/internal/wait"
)

func TestImageProxy(t *testing.T) {
	picture := image.NewRGBA(image.Rect(0, 0, 64, 32))
	picture.Set(1, 1, color.White)
	var encoded bytes.Buffer
	png.Encode(&encoded, picture)
	host := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write(encoded.Bytes())
	}))
	t.Cleanup(host.Close)
	pictureURL := host.URL + "/photo.png"

	// The default proxy refuses the loopback host; a second API over the same accounts may reach it.
	e := newEnv(t, storetest.Open(t, store.SQLite))
	permissive := httptest.NewServer(api.New(api.Deps{Accounts: e.accounts, Auth: e.auth, Health: e.store.Ping,
		App: api.AppHandler(nil, false), Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		ImageProxy: imageproxy.New(imageproxy.Options{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}})}))
	t.Cleanup(permissive.Close)
	reaching := &env{t: t, srv: permissive, store: e.store, accounts: e.accounts, auth: e.auth}

	signedIn := reaching.client()
	if r := signedIn.login("analyst@acme.test"); r.status != http.StatusOK {
		t.Fatalf("sign-in: %d", r.status)
	}
	refusing := e.client()
	refusing.login("analyst@acme.test")

	tests := []struct {
		name       string
		c          *client
		path       string
		wantStatus int
		wantWidth  int
	}{
		{"a picture", signedIn, "/proxy/images/" + url.PathEscape(pictureURL), http.StatusOK, 64},
		{"a narrower picture", signedIn, "/proxy/images/32x/" + url.PathEscape(pictureURL), http.StatusOK, 32},
		{"signed out", reaching.client(), "/proxy/images/" + url.PathEscape(pictureURL), http.StatusUnauthorized, 0},
		{"a loopback host by default", refusing, "/proxy/images/" + url.PathEscape(pictureURL), http.StatusForbidden, 0},
		{"a bad width", signedIn, "/proxy/images/1x/" + url.PathEscape(pictureURL), http.StatusUnprocessableEntity, 0},
		{"not http", signedIn, "/proxy/images/" + url.PathEscape("file:///etc/passwd"), http.StatusUnprocessableEntity, 0},
		{"a missing picture", signedIn, "/proxy/images/" + url.PathEscape("http://127.0.0.1:1/none.png"), http.StatusBadGateway, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest("GET", tt.c.e.srv.URL+tt.path, nil)
			resp, err := tt.c.http.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != tt.wantStatus {
				t.Fatalf("status %d, want %d", resp.StatusCode, tt.wantStatus)
			}
			if tt.wantWidth == 0 {
				return
			}
			if got := resp.Header.Get("X-Content-Type-Options"); got != "nosniff" {
				t.Errorf("X-Content-Type-Options %q", got)
			}
			cfg, err := png.DecodeConfig(resp.Body)
			if err != nil || cfg.Width != tt.wantWidth {
				t.Errorf("got width %d (%v), want %d", cfg.Width, err, tt.wantWidth)
			}
		})
	}
}

// A user past their pictures in flight is told to come back (429 with Retry-After), not queued
// without end.
func TestImageProxyBusy(t *testing.T) {
	release := make(chan struct{})
	host := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write(append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 1024)...))
		w.(http.Flusher).Flush()
		select { // the picture stalls, its fetch in flight
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(host.Close)
	defer close(release) // before the servers close, which wait for their requests
	proxy := imageproxy.New(imageproxy.Options{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")},
		MaxFetchesPerUser: 1, FetchWait: 10 * time.Millisecond})
	e := newEnv(t, storetest.Open(t, store.SQLite))
	srv := httptest.NewServer(api.New(api.Deps{Accounts: e.accounts, Auth: e.auth, Health: e.store.Ping,
		App: api.AppHandler(nil, false), Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), ImageProxy: proxy}))
	t.Cleanup(srv.Close)
	c := (&env{t: t, srv: srv, store: e.store, accounts: e.accounts, auth: e.auth}).client()
	c.login("analyst@acme.test")
	path := srv.URL + "/proxy/images/" + url.PathEscape(host.URL+"/stalled.png")

	go func() {
		if resp, err := c.http.Get(path); err == nil {
			resp.Body.Close()
		}
	}()
	wait.For(t, "the first fetch in flight", func() bool { return proxy.InFlight() > 0 })
	resp, err := c.http.Get(path)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("second picture: %d, Retry-After %q; want 429 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
}
