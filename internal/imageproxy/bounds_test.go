package imageproxy

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/wait"
)

// pngBytes is n bytes that sniff as a PNG: what is passed on as it streams.
func pngBytes(n int) []byte {
	b := make([]byte, n)
	copy(b, "\x89PNG\r\n\x1a\n")
	return b
}

// A user has at most MaxFetchesPerUser fetches in flight and the node MaxFetches; past either a
// request waits FetchWait, then is told the proxy is busy.
func TestFetchesInFlightAreBounded(t *testing.T) {
	release := make(chan struct{})
	var asked atomic.Int64
	host := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		w.Header().Set("Content-Type", "image/png")
		w.Write(pngBytes(1024)) // enough to sniff, then the picture stalls
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(host.Close)
	t.Cleanup(func() { close(release) })
	proxy := New(Options{Allow: onlyLoopbackV4, MaxFetches: 3, MaxFetchesPerUser: 2, FetchWait: 20 * time.Millisecond})
	open := func(user int64) (*Picture, error) {
		return proxy.Open(context.Background(), user, host.URL+"/p.png", 0)
	}
	mustOpen := func(user int64) *Picture {
		t.Helper()
		pic, err := open(user)
		if err != nil {
			t.Fatalf("user %d: %v", user, err)
		}
		return pic
	}

	first, second := mustOpen(1), mustOpen(1)
	if _, err := open(1); !errors.Is(err, ErrBusy) {
		t.Fatalf("a user's third fetch: %v, want ErrBusy", err)
	}
	other := mustOpen(2)
	if _, err := open(3); !errors.Is(err, ErrBusy) {
		t.Fatalf("a fetch past the node's bound: %v, want ErrBusy", err)
	}
	if n := proxy.InFlight(); n != 3 {
		t.Fatalf("%d fetches in flight, want 3", n)
	}
	if n := asked.Load(); n != 3 {
		t.Fatalf("the host was asked %d times, want 3: a refused request fetched", n)
	}
	first.Close()
	first.Close() // closing twice gives back nothing twice
	third := mustOpen(3)
	if _, err := open(2); !errors.Is(err, ErrBusy) {
		t.Fatalf("a fetch past the node's bound after one ended: %v, want ErrBusy", err)
	}
	for _, pic := range []*Picture{second, other, third} {
		pic.Close()
	}
	if n := proxy.InFlight(); n != 0 {
		t.Fatalf("%d fetches in flight after every picture was closed", n)
	}
	proxy.mu.Lock()
	defer proxy.mu.Unlock()
	if len(proxy.users) != 0 {
		t.Fatalf("users kept after their fetches ended: %v", proxy.users)
	}
}

// stalledBrowser asks server for path and never reads the answer, with a receive buffer as
// small as the system allows, so that the server's writes stall soon.
func stalledBrowser(t *testing.T, server, path string, header string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(server, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	conn.(*net.TCPConn).SetReadBuffer(4096)
	t.Cleanup(func() { conn.Close() })
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: sightline.test\r\n%s\r\n", path, header)
	return conn
}

// proxyServer serves the proxy as the API does: each request is a user's (X-User), a busy
// proxy answers 429, and a send that fails cuts the connection. sent receives each send's end.
func proxyServer(t *testing.T, proxy *Proxy, picture string, busy *atomic.Int64, sent chan<- error) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		user, _ := strconv.ParseInt(r.Header.Get("X-User"), 10, 64)
		pic, err := proxy.Open(r.Context(), user, picture, 0)
		if errors.Is(err, ErrBusy) {
			busy.Add(1)
			w.Header().Set("Retry-After", "2")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		if err != nil {
			t.Errorf("open: %v", err)
			return
		}
		defer pic.Close()
		w.Header().Set("Content-Type", pic.ContentType)
		err = pic.Send(w, http.NewResponseController(w).SetWriteDeadline)
		if sent != nil {
			sent <- err
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// A browser that stops reading is dropped once a write has stalled for SendStall, and its
// fetch ends: the host is not read to the end for it.
func TestAStalledBrowserIsDropped(t *testing.T) {
	const size = 24 << 20 // more than the sockets' buffers between the proxy and the browser
	picture := pngBytes(size)
	var written atomic.Int64
	host := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		for rest := picture; len(rest) > 0; rest = rest[min(len(rest), 64<<10):] {
			n, err := w.Write(rest[:min(len(rest), 64<<10)])
			written.Add(int64(n))
			if err != nil {
				return
			}
		}
	}))
	t.Cleanup(host.Close)
	proxy := New(Options{Allow: onlyLoopbackV4, MaxBytes: 32 << 20, SendStall: 100 * time.Millisecond})
	sent := make(chan error, 1)
	srv := proxyServer(t, proxy, host.URL+"/big.png", new(atomic.Int64), sent)

	stalledBrowser(t, srv.URL, "/", "X-User: 1\r\n")
	if err := wait.Receive(t, "a browser that never reads dropped", sent); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("the send ended with %v, want its write deadline", err)
	}
	wait.For(t, "the fetch ends", func() bool { return proxy.InFlight() == 0 })
	if n := written.Load(); n >= size {
		t.Fatalf("the host was read to the end (%d bytes) for a browser that read nothing", n)
	}
}

// residentBytes is the process's resident set, from /proc (0 where there is none).
func residentBytes() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	fields := strings.Fields(string(b))
	pages, _ := strconv.ParseInt(fields[1], 10, 64)
	return pages * int64(os.Getpagesize())
}

// 300 browsers ask for a 10 MiB picture and never read (the attack that took a node from
// 160 MB to 4.7 GB): the fetches in flight stay at the node's bound, the others are told to
// come back, and what the proxy holds stays small. The heap and the resident set are measured
// with every request in flight or answered.
func TestStalledBrowsersHoldLittleMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("opens 300 connections")
	}
	const clients, users = 300, 100
	picture := pngBytes(DefaultMaxBytes)
	host := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Header().Set("Content-Length", strconv.Itoa(len(picture)))
		w.Write(picture)
	}))
	t.Cleanup(host.Close)
	// The browsers stay stalled while memory is measured: SendStall outlasts the test.
	proxy := New(Options{Allow: onlyLoopbackV4, FetchWait: 50 * time.Millisecond, SendStall: time.Minute})
	var busy atomic.Int64
	srv := proxyServer(t, proxy, host.URL+"/big.png", &busy, nil)

	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	residentBefore := residentBytes()
	for i := range clients {
		stalledBrowser(t, srv.URL, "/", fmt.Sprintf("X-User: %d\r\n", i%users))
	}
	wait.For(t, "every request is in flight or told to come back", func() bool {
		return int64(proxy.InFlight())+busy.Load() == clients
	})
	if n := proxy.InFlight(); n != DefaultMaxFetches {
		t.Fatalf("%d fetches in flight, want the node's bound, %d", n, DefaultMaxFetches)
	}
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	heapGrowth := int64(after.HeapInuse) - int64(before.HeapInuse)
	residentGrowth := residentBytes() - residentBefore
	t.Logf("%d stalled browsers: %d fetches in flight, %d told to come back; heap +%.1f MiB, resident +%.1f MiB",
		clients, proxy.InFlight(), busy.Load(), float64(heapGrowth)/(1<<20), float64(residentGrowth)/(1<<20))
	// Each fetch in flight holds its buffers (about 40 KiB), never its picture.
	if limit := int64(DefaultMaxFetches) * 256 << 10; heapGrowth > limit {
		t.Errorf("the heap grew %d bytes, more than %d", heapGrowth, limit)
	}
	if residentGrowth > 256<<20 {
		t.Errorf("the resident set grew %d bytes, more than 256 MiB", residentGrowth)
	}
	// The test server and its 600 connections would otherwise be closed while the fetches wait
	// on their minute-long write deadlines.
	srv.CloseClientConnections()
}

// A host that does not answer, or drips a picture that was asked resized, is given up after
// Timeout: it holds no fetch and no decode slot longer.
func TestSlowHostsAreGivenUp(t *testing.T) {
	release := make(chan struct{})
	header := encodedPNGHeader(t)
	host := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/drip.png" {
			w.Header().Set("Content-Type", "image/png")
			w.Write(header) // the dimensions, then nothing
			w.(http.Flusher).Flush()
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(host.Close)
	t.Cleanup(func() { close(release) })
	proxy := New(Options{Allow: onlyLoopbackV4, Timeout: 100 * time.Millisecond})
	for _, path := range []string{"/silent.png", "/drip.png"} {
		t.Run(path, func(t *testing.T) {
			if _, err := proxy.Open(context.Background(), 1, host.URL+path, 100); !errors.Is(err, ErrUpstream) {
				t.Fatalf("error %v, want ErrUpstream", err)
			}
			if proxy.InFlight() != 0 || len(proxy.decodes) != 0 {
				t.Fatalf("%d fetches and %d decodes held after giving up", proxy.InFlight(), len(proxy.decodes))
			}
		})
	}
}

// encodedPNGHeader is the beginning of a 400 × 200 PNG: enough to read its dimensions, then cut.
func encodedPNGHeader(t *testing.T) []byte {
	full := encodedPNG(t, 400, 200)
	return full[:min(len(full), 1024)]
}
