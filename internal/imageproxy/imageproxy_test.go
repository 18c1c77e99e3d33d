package imageproxy

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/problem"
)

func TestParsePath(t *testing.T) {
	picture := "https://cdn.example.com/a b/photo.jpg?size=large"
	escaped := url.PathEscape(picture)
	tests := []struct {
		name      string
		path      string
		wantURL   string
		wantWidth int
		wantErr   error
	}{
		{"address only", escaped, picture, 0, nil},
		{"width and address", "320x/" + escaped, picture, 320, nil},
		{"width too small", "8x/" + escaped, "", 0, ErrBadWidth},
		{"width too large", "5000x/" + escaped, "", 0, ErrBadWidth},
		{"width without x", "320/" + escaped, "", 0, ErrBadURL},
		{"empty", "", "", 0, ErrBadURL},
		{"bad escape", "%zz", "", 0, ErrBadURL},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gotURL, gotWidth, err := ParsePath(tt.path)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("error %v, want %v", err, tt.wantErr)
			}
			if gotURL != tt.wantURL || gotWidth != tt.wantWidth {
				t.Errorf("got (%q, %d), want (%q, %d)", gotURL, gotWidth, tt.wantURL, tt.wantWidth)
			}
		})
	}
}

func encodedPNG(t *testing.T, width, height int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, width, height))
	for x := range width {
		img.Set(x, x%height, color.RGBA{R: 200, A: 255})
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func encodedJPEG(t *testing.T, width, height int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, image.NewRGBA(image.Rect(0, 0, width, height)), nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// onlyLoopbackV4 lets tests reach their httptest server on 127.0.0.1 and nothing else.
var onlyLoopbackV4 = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}

// fetched is a picture as a browser receives it.
type fetched struct {
	ContentType string
	Body        []byte
}

// fetch opens a picture for user 1 and reads it whole, as a browser that keeps reading would.
func fetch(p *Proxy, rawURL string, width int) (fetched, error) {
	pic, err := p.Open(context.Background(), 1, rawURL, width)
	if err != nil {
		return fetched{}, err
	}
	defer pic.Close()
	var b bytes.Buffer
	if err := pic.Send(&b, func(time.Time) error { return nil }); err != nil {
		return fetched{}, err
	}
	return fetched{ContentType: pic.ContentType, Body: b.Bytes()}, nil
}

func TestFetch(t *testing.T) {
	photo := encodedPNG(t, 400, 200)
	photoJPEG := encodedJPEG(t, 300, 300)
	limit := int64(len(photo) + len(photoJPEG))
	// A picture by its first bytes, so only its size can stop it once it streams.
	tooLarge := append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{0}, int(limit))...)
	mux := http.NewServeMux()
	serve := func(path, contentType string, body []byte) {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", contentType)
			w.Write(body)
		})
	}
	serve("/photo.png", "image/png", photo)
	serve("/photo.jpg", "image/jpeg", photoJPEG)
	serve("/page-called-image", "image/png", []byte("<!doctype html><html><script>alert(1)</script></html>"))
	serve("/page", "text/html", []byte("<!doctype html><p>hello</p>"))
	serve("/drawing.svg", "image/svg+xml", []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`))
	mux.HandleFunc("/huge", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Header().Set("Content-Length", strconv.Itoa(len(tooLarge)))
		w.Write(tooLarge)
	})
	mux.HandleFunc("/huge-streamed", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.(http.Flusher).Flush() // no Content-Length: the limit must hold while reading
		w.Write(tooLarge)
	})
	mux.HandleFunc("/gone", http.NotFound)
	mux.HandleFunc("/to-ipv6-loopback", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://[::1]:"+r.URL.Port()+"/photo.png", http.StatusFound)
	})
	mux.HandleFunc("/to-ftp", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "ftp://example.com/photo.png", http.StatusFound)
	})
	mux.HandleFunc("/to-photo", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/photo.png", http.StatusFound)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	proxy := New(Options{Allow: onlyLoopbackV4, MaxBytes: limit})

	tests := []struct {
		name      string
		path      string
		width     int
		wantErr   error
		wantType  string
		wantWidth int // 0: the body is passed on unchanged
	}{
		{"a picture", "/photo.png", 0, nil, "image/png", 0},
		{"through a redirect", "/to-photo", 0, nil, "image/png", 0},
		{"scaled down", "/photo.png", 100, nil, "image/png", 100},
		{"not scaled up", "/photo.png", 800, nil, "image/png", 0},
		{"jpeg scaled", "/photo.jpg", 150, nil, "image/jpeg", 150},
		{"html labelled as a picture", "/page-called-image", 0, ErrNotImage, "", 0},
		{"html", "/page", 0, ErrNotImage, "", 0},
		{"svg", "/drawing.svg", 0, ErrNotImage, "", 0},
		{"declared too large", "/huge", 0, ErrTooLarge, "", 0},
		{"streamed too large", "/huge-streamed", 0, ErrTooLarge, "", 0},
		{"missing", "/gone", 0, ErrUpstream, "", 0},
		{"redirect to a loopback address", "/to-ipv6-loopback", 0, ErrForbiddenAddress, "", 0},
		{"redirect to another scheme", "/to-ftp", 0, ErrBadURL, "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			img, err := fetch(proxy, srv.URL+tt.path, tt.width)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("error %v, want %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			if img.ContentType != tt.wantType {
				t.Errorf("content type %q, want %q", img.ContentType, tt.wantType)
			}
			cfg, _, err := image.DecodeConfig(bytes.NewReader(img.Body))
			if err != nil {
				t.Fatalf("the body is not a picture: %v", err)
			}
			if tt.wantWidth > 0 && cfg.Width != tt.wantWidth {
				t.Errorf("width %d, want %d", cfg.Width, tt.wantWidth)
			}
			if tt.wantWidth == 0 && !bytes.Equal(img.Body, photo) {
				t.Error("the picture was changed although no smaller width was asked for")
			}
		})
	}
}

func TestFetchRefusesNonPublicAddressesByDefault(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "image/png")
		w.Write(encodedPNG(t, 10, 10))
	}))
	t.Cleanup(srv.Close)
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	proxy := New(Options{})

	tests := []struct {
		name    string
		url     string
		wantErr error
	}{
		{"loopback literal", srv.URL + "/a.png", ErrForbiddenAddress},
		// A name is only checked once resolved, at dial time: the same check that defeats DNS
		// rebinding. It answers as a host that cannot be reached, so that no one learns which
		// names lead inside.
		{"name resolving to loopback", "http://localhost:" + port + "/a.png", ErrUpstream},
		{"metadata address", "http://169.254.169.254/latest/meta-data", ErrForbiddenAddress},
		{"private literal", "http://10.0.0.1/a.png", ErrForbiddenAddress},
		{"mapped loopback", "http://[::ffff:127.0.0.1]:" + port + "/a.png", ErrForbiddenAddress},
		{"file scheme", "file:///etc/passwd", ErrBadURL},
		{"credentials", "http://user:pass@example.com/a.png", ErrBadURL},
		{"relative", "/demo-media/a.svg", ErrBadURL},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := fetch(proxy, tt.url, 0); !errors.Is(err, tt.wantErr) {
				t.Fatalf("error %v, want %v", err, tt.wantErr)
			}
		})
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the loopback server was reached %d times", n)
	}
}

// declaredPNG is a PNG whose header declares width × height pixels, with no pixel data.
func declaredPNG(width, height uint32) []byte {
	b := []byte("\x89PNG\r\n\x1a\n")
	chunk := func(kind string, data []byte) {
		b = binary.BigEndian.AppendUint32(b, uint32(len(data)))
		typed := append([]byte(kind), data...)
		b = append(b, typed...)
		b = binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(typed))
	}
	ihdr := binary.BigEndian.AppendUint32(nil, width)
	ihdr = binary.BigEndian.AppendUint32(ihdr, height)
	chunk("IHDR", append(ihdr, 8, 6, 0, 0, 0)) // 8-bit RGBA
	chunk("IEND", nil)
	return b
}

// declaredGIF is a GIF whose logical screen is width × height pixels.
func declaredGIF(width, height uint16) []byte {
	b := []byte("GIF89a")
	b = binary.LittleEndian.AppendUint16(b, width)
	b = binary.LittleEndian.AppendUint16(b, height)
	return append(b, 0, 0, 0, ';')
}

func pictureServer(t *testing.T, pictures map[string][]byte) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := pictures[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "image/png")
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestResizingIsBoundedByDeclaredPixels(t *testing.T) {
	photo := encodedPNG(t, 400, 200) // 80,000 pixels
	pictures := map[string][]byte{
		"/photo.png": photo,
		// Decoding either would need gigabytes: only the header may be read.
		"/huge.png": declaredPNG(100_000, 100_000),
		"/huge.gif": declaredGIF(65_535, 65_535),
	}
	srv := pictureServer(t, pictures)
	tests := []struct {
		name      string
		path      string
		maxPixels int
		wantWidth int // 0: passed on unchanged
	}{
		{"within the bound", "/photo.png", 80_000, 100},
		{"one pixel over", "/photo.png", 79_999, 0},
		{"a huge PNG header", "/huge.png", 0, 0},
		{"a huge GIF screen", "/huge.gif", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			proxy := New(Options{Allow: onlyLoopbackV4, MaxPixels: tt.maxPixels})
			img, err := fetch(proxy, srv.URL+tt.path, 100)
			if err != nil {
				t.Fatal(err)
			}
			if tt.wantWidth == 0 {
				if !bytes.Equal(img.Body, pictures[tt.path]) {
					t.Fatal("the picture was changed")
				}
				return
			}
			cfg, _, err := image.DecodeConfig(bytes.NewReader(img.Body))
			if err != nil || cfg.Width != tt.wantWidth {
				t.Fatalf("width %d (%v), want %d", cfg.Width, err, tt.wantWidth)
			}
		})
	}
}

func TestResizingWaitsForAFreeDecode(t *testing.T) {
	photo := encodedPNG(t, 400, 200)
	srv := pictureServer(t, map[string][]byte{"/photo.png": photo})
	proxy := New(Options{Allow: onlyLoopbackV4, MaxDecodes: 1, DecodeWait: 50 * time.Millisecond})

	proxy.decodes <- struct{}{} // the one decode is taken
	start := time.Now()
	img, err := fetch(proxy, srv.URL+"/photo.png", 100)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(img.Body, photo) {
		t.Fatal("a picture was decoded while every decode was taken")
	}
	if waited := time.Since(start); waited < 50*time.Millisecond {
		t.Fatalf("passed on after %v, before the wait was over", waited)
	}

	<-proxy.decodes // the decode is free again
	img, err = fetch(proxy, srv.URL+"/photo.png", 100)
	if err != nil {
		t.Fatal(err)
	}
	if cfg, _, err := image.DecodeConfig(bytes.NewReader(img.Body)); err != nil || cfg.Width != 100 {
		t.Fatalf("width %d (%v), want 100", cfg.Width, err)
	}
	if len(proxy.decodes) != 0 {
		t.Fatal("the decode was not given back")
	}
}

// Every refusal is the internal/problem error the API answers with, its status and message.
func TestRefusalsAreProblems(t *testing.T) {
	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "gone", http.StatusInternalServerError)
	}))
	t.Cleanup(broken.Close)
	open := func(proxy *Proxy, target string) func() error {
		return func() error { _, err := proxy.Open(context.Background(), 1, target, 0); return err }
	}
	parse := func(path string) func() error {
		return func() error { _, _, err := ParsePath(path); return err }
	}
	for _, tt := range []struct {
		name    string
		call    func() error
		kind    problem.Kind
		field   string
		message string
	}{
		{"width", parse("9x/" + url.PathEscape("https://example.com/a.png")), problem.KindInvalid, "width",
			"The width must be between 16 and 4096 pixels."},
		{"address", parse("wide/x"), problem.KindInvalid, "url", "The picture's address must be an http or https address."},
		{"scheme", open(New(Options{}), "file:///etc/passwd"), problem.KindInvalid, "url",
			"The picture's address must be an http or https address."},
		{"private", open(New(Options{}), "http://10.0.0.1/a.png"), problem.KindForbidden, "",
			"Pictures are only fetched from public addresses."},
		{"host fails", open(New(Options{Allow: onlyLoopbackV4}), broken.URL+"/a.png"), problem.KindBadGateway, "",
			"The picture could not be loaded from its host."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			p, ok := problem.As(err)
			if !ok || p.Kind != tt.kind || p.Message != tt.message {
				t.Fatalf("error %v, want a problem of kind %v saying %q", err, tt.kind, tt.message)
			}
			if tt.field != "" && len(p.Fields[tt.field]) != 1 {
				t.Errorf("fields %v, want %s", p.Fields, tt.field)
			}
		})
	}
}
