package outbound

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

func TestIsPublic(t *testing.T) {
	tests := []struct {
		addr   string
		public bool
	}{
		{"93.184.216.34", true},
		{"2606:2800:220:1:248:1893:25c8:1946", true},
		{"::ffff:93.184.216.34", true},
		{"127.0.0.1", false},
		{"127.255.0.9", false},
		{"::1", false},
		{"10.1.2.3", false},
		{"172.16.0.1", false},
		{"192.168.1.1", false},
		{"169.254.169.254", false}, // cloud metadata
		{"fe80::1", false},
		{"fc00::1", false},
		{"fd12:3456::1", false},
		{"0.0.0.0", false},
		{"0.1.2.3", false},
		{"::", false},
		{"100.64.0.1", false},
		{"100.127.255.254", false},
		{"224.0.0.1", false},
		{"ff02::1", false},
		{"255.255.255.255", false},
		{"::ffff:127.0.0.1", false},
		{"::ffff:10.0.0.1", false},
		{"::ffff:169.254.169.254", false},
		{"64:ff9b::a00:1", false},
		{"2002:a00:1::", false},
		{"198.51.100.7", false},
		// IPv6 forms that carry or lead to addresses that are not public.
		{"::10.0.0.1", false},              // IPv4-compatible
		{"::127.0.0.1", false},             // IPv4-compatible loopback
		{"::93.184.216.34", false},         // IPv4-compatible, deprecated whatever it carries
		{"::ffff:0:10.0.0.1", false},       // IPv4-translated
		{"::ffff:0:127.0.0.1", false},      // IPv4-translated loopback
		{"fec0::1", false},                 // site-local
		{"feff:ffff::1", false},            // site-local, its last address
		{"100::1", false},                  // discard-only
		{"2001:10::1", false},              // ORCHID
		{"2001:20::1", false},              // ORCHIDv2
		{"2001:2::1", false},               // benchmarking
		{"2001:0:4136:e378::1", false},     // Teredo
		{"64:ff9b::7f00:1", false},         // NAT64 of 127.0.0.1
		{"64:ff9b:1::a00:1", false},        // local-use NAT64
		{"2002:7f00:1::1", false},          // 6to4 of 127.0.0.1
		{"2002:5db8:d822::1", false},       // 6to4 of a public address: still a relay's business
		{"3fff::1", false},                 // documentation
		{"5f00::1", false},                 // SRv6
		{"192.88.99.1", false},             // 6to4 relay anycast
		{"fe80::1%eth0", false},            // link-local with a zone
		{"2a00:1450:4001:81b::200e", true}, // a real public IPv6 address
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			if got := IsPublic(netip.MustParseAddr(tt.addr)); got != tt.public {
				t.Errorf("IsPublic(%s) = %v, want %v", tt.addr, got, tt.public)
			}
		})
	}
}

func get(ctx context.Context, c *Client, url string) (*http.Response, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, nil, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp, body, err
}

// onlyLoopbackV4 lets a test reach its httptest server on 127.0.0.1 and nothing else, so that
// what a redirect leads to is checked.
var onlyLoopbackV4 = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}

func TestRefusesWhatIsNotPublic(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
	}))
	t.Cleanup(srv.Close)
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	client := New(Options{})

	tests := []struct {
		name    string
		url     string
		wantErr error
	}{
		{"loopback literal", srv.URL + "/", ErrForbiddenAddress},
		// A name is checked once resolved, at dial time: the same check that defeats DNS rebinding.
		{"name resolving to loopback", "http://localhost:" + port + "/", ErrForbiddenAddress},
		{"mapped loopback", "http://[::ffff:127.0.0.1]:" + port + "/", ErrForbiddenAddress},
		{"IPv6 loopback", "http://[::1]:" + port + "/", ErrForbiddenAddress},
		{"unspecified", "http://0.0.0.0:" + port + "/", ErrForbiddenAddress},
		{"metadata address", "http://169.254.169.254/latest/meta-data", ErrForbiddenAddress},
		{"private", "http://10.0.0.1/", ErrForbiddenAddress},
		{"carrier-grade NAT", "http://100.64.0.1/", ErrForbiddenAddress},
		{"unique local IPv6", "http://[fd00::1]/", ErrForbiddenAddress},
		{"link-local IPv6", "http://[fe80::1]/", ErrForbiddenAddress},
		{"multicast", "http://224.0.0.1/", ErrForbiddenAddress},
		{"file scheme", "file:///etc/passwd", ErrBadURL},
		{"ftp scheme", "ftp://example.com/a", ErrBadURL},
		{"gopher scheme", "gopher://127.0.0.1:" + port + "/", ErrBadURL},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, _, err := get(context.Background(), client, tt.url); !errors.Is(err, tt.wantErr) {
				t.Fatalf("error %v, want %v", err, tt.wantErr)
			}
		})
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the loopback server was reached %d times", n)
	}
}

func TestAllowPrivateReachesLoopback(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("on premises"))
	}))
	t.Cleanup(srv.Close)
	_, body, err := get(context.Background(), New(Options{AllowPrivate: true}), srv.URL+"/")
	if err != nil || string(body) != "on premises" {
		t.Fatalf("got %q, %v", body, err)
	}
}

func TestRedirects(t *testing.T) {
	mux := http.NewServeMux()
	redirect := func(path string, to func(r *http.Request) string) {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, to(r), http.StatusFound)
		})
	}
	port := func(r *http.Request) string { return r.Host[strings.LastIndex(r.Host, ":")+1:] }
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })
	redirect("/to-ok", func(*http.Request) string { return "/ok" })
	redirect("/to-ipv6-loopback", func(r *http.Request) string { return "http://[::1]:" + port(r) + "/ok" })
	redirect("/to-private", func(*http.Request) string { return "http://10.0.0.1/ok" })
	redirect("/to-metadata", func(*http.Request) string { return "http://169.254.169.254/latest/meta-data" })
	redirect("/to-ftp", func(*http.Request) string { return "ftp://example.com/ok" })
	redirect("/to-javascript", func(*http.Request) string { return "javascript:alert(1)" })
	redirect("/loop/", func(r *http.Request) string {
		n, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/loop/"))
		return "/loop/" + strconv.Itoa(n+1)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	client := New(Options{Allow: onlyLoopbackV4, MaxRedirects: 3})

	tests := []struct {
		name    string
		path    string
		wantErr error
	}{
		{"to a public page", "/to-ok", nil},
		{"to IPv6 loopback", "/to-ipv6-loopback", ErrForbiddenAddress},
		{"to a private address", "/to-private", ErrForbiddenAddress},
		{"to the metadata address", "/to-metadata", ErrForbiddenAddress},
		{"to ftp", "/to-ftp", ErrBadURL},
		{"to javascript", "/to-javascript", ErrBadURL},
		{"in a loop", "/loop/0", ErrTooManyRedirects},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, body, err := get(context.Background(), client, srv.URL+tt.path)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("error %v, want %v", err, tt.wantErr)
			}
			if err == nil && string(body) != "ok" {
				t.Fatalf("body %q", body)
			}
		})
	}
}

func TestBoundsSize(t *testing.T) {
	const limit = 1000
	mux := http.NewServeMux()
	mux.HandleFunc("/exact", func(w http.ResponseWriter, r *http.Request) { w.Write(bytes.Repeat([]byte("a"), limit)) })
	mux.HandleFunc("/declared", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(limit+1))
		w.Write(bytes.Repeat([]byte("a"), limit+1))
	})
	mux.HandleFunc("/streamed", func(w http.ResponseWriter, r *http.Request) {
		w.(http.Flusher).Flush() // no Content-Length: the bound must hold while reading
		for range 10 {
			w.Write(bytes.Repeat([]byte("a"), limit/2))
		}
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	client := New(Options{AllowPrivate: true, MaxBytes: limit})

	tests := []struct {
		path    string
		wantErr error
	}{
		{"/exact", nil},
		{"/declared", ErrTooLarge},
		{"/streamed", ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			_, body, err := get(context.Background(), client, srv.URL+tt.path)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("error %v, want %v", err, tt.wantErr)
			}
			if err == nil && len(body) != limit {
				t.Fatalf("read %d bytes, want %d", len(body), limit)
			}
		})
	}
}

func TestReadAll(t *testing.T) {
	for _, tt := range []struct {
		size    int
		wantErr error
	}{{0, nil}, {10, nil}, {11, ErrTooLarge}, {1 << 20, ErrTooLarge}} {
		b, err := ReadAll(bytes.NewReader(make([]byte, tt.size)), 10)
		if !errors.Is(err, tt.wantErr) || (err == nil && len(b) != tt.size) {
			t.Errorf("ReadAll of %d bytes = %d bytes, %v; want %v", tt.size, len(b), err, tt.wantErr)
		}
	}
}

func TestBoundsTime(t *testing.T) {
	release := make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("/no-header", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	mux.HandleFunc("/slow-body", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("first bytes"))
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })
	client := New(Options{AllowPrivate: true, Timeout: 200 * time.Millisecond})

	for _, path := range []string{"/no-header", "/slow-body"} {
		t.Run(path, func(t *testing.T) {
			start := time.Now()
			_, _, err := get(context.Background(), client, srv.URL+path)
			if err == nil {
				t.Fatal("a server that never finishes answered")
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Fatalf("gave up after %v", d)
			}
		})
	}
}

func TestStreamHasNoOverallBound(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for range 4 {
			w.Write(bytes.Repeat([]byte("a"), 600))
			w.(http.Flusher).Flush()
		}
	}))
	t.Cleanup(srv.Close)
	_, body, err := get(context.Background(), New(Options{AllowPrivate: true, MaxBytes: 1000, Stream: true}), srv.URL)
	if err != nil || len(body) != 2400 {
		t.Fatalf("read %d bytes, %v", len(body), err)
	}
}

func TestErrorsNameNoSecrets(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://user:pass@10.0.0.1/next?token=x", http.StatusFound)
	}))
	t.Cleanup(srv.Close)
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	// A port nothing listens on: the listener is closed before the request.
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()

	tests := []struct {
		name   string
		client *Client
		url    string
	}{
		{"refused address", New(Options{}), "http://user:pass@127.0.0.1:" + port + "/feed?token=x"},
		{"refused redirect", New(Options{Allow: onlyLoopbackV4}), "http://user:pass@127.0.0.1:" + port + "/feed?token=x"},
		{"nobody listening", New(Options{AllowPrivate: true}), strings.Replace(closed.URL, "://", "://user:pass@", 1) + "/feed?token=x#frag"},
		{"bad scheme", New(Options{}), "ftp://user:pass@example.com/feed?token=x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := get(context.Background(), tt.client, tt.url)
			if err == nil {
				t.Fatal("no error")
			}
			for _, secret := range []string{"user", "pass", "token", "frag"} {
				if strings.Contains(err.Error(), secret) {
					t.Errorf("error %q names %q", err, secret)
				}
			}
		})
	}
}

func TestRedactURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://feeds.example.com/rss.xml", "https://feeds.example.com/rss.xml"},
		{"https://user:pass@feeds.example.com/rss.xml?token=x&a=b#top", "https://feeds.example.com/rss.xml?…"},
		{"https://user@feeds.example.com/", "https://feeds.example.com/"},
		{"http://[::1]:8080/a?", "http://[::1]:8080/a?…"},
		{"mailto:someone@example.com?subject=x", "mailto:…"},
		{"http://user:pass@exa mple.com/a?token=x", "http://exa mple.com/a?…"},
		{"http://user:pass@exa mple.com?token=x", "http://exa mple.com?…"},
		{"%zz?token=x", "%zz?…"},
	}
	for _, tt := range tests {
		if got := RedactURL(tt.in); got != tt.want {
			t.Errorf("RedactURL(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestRedactErrorOfAMalformedURL(t *testing.T) {
	_, err := http.NewRequest(http.MethodGet, "http://user:pass@exa mple.com/?token=x", nil)
	err = RedactError(err)
	if err == nil || strings.Contains(err.Error(), "pass") || strings.Contains(err.Error(), "token") {
		t.Fatalf("error %v", err)
	}
	if RedactError(nil) != nil {
		t.Fatal("RedactError(nil) is not nil")
	}
}

// Every non-public form is refused unless the operator's allowlist names its range; metadata
// addresses are refused even then, however they are written.
func TestPermitted(t *testing.T) {
	prefixes := func(s ...string) []netip.Prefix {
		var out []netip.Prefix
		for _, p := range s {
			out = append(out, netip.MustParsePrefix(p))
		}
		return out
	}
	tests := []struct {
		addr  string
		allow []netip.Prefix // allowlisted: the address is then permitted
	}{
		{"127.0.0.1", prefixes("127.0.0.1/32")},
		{"10.1.2.3", prefixes("10.1.2.0/24")},
		{"::ffff:10.1.2.3", prefixes("10.1.2.0/24")},
		{"::10.1.2.3", prefixes("::/96")},
		{"::ffff:0:10.1.2.3", prefixes("::ffff:0:0:0/96")},
		{"fec0::1", prefixes("fec0::/10")},
		{"100::1", prefixes("100::/64")},
		{"2001:10::1", prefixes("2001:10::/28")},
		{"64:ff9b::a01:203", prefixes("64:ff9b::/96")},
		{"2002:a01:203::1", prefixes("2002::/16")},
		{"2001:0:4136:e378::1", prefixes("2001::/32")},
		{"fd12::1", prefixes("fd00::/8")},
		{"fe80::1%eth0", prefixes("fe80::/10")},
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			addr := netip.MustParseAddr(tt.addr)
			if Permitted(addr, nil) {
				t.Errorf("%s is permitted without an allowlist", addr)
			}
			if Permitted(addr, prefixes("10.9.0.0/16", "fc00::/64")) {
				t.Errorf("%s is permitted by an allowlist of other ranges", addr)
			}
			if !Permitted(addr, tt.allow) {
				t.Errorf("%s is refused although %v is allowlisted", addr, tt.allow)
			}
		})
	}
	for _, addr := range []string{
		"169.254.169.254", "::ffff:169.254.169.254", "169.254.170.2", "169.254.170.23", "169.254.0.23",
		"169.254.42.42", "100.100.100.200", "192.0.0.192", "168.63.129.16", "fd00:ec2::254", "fd00:ec2::23",
		"::169.254.169.254",              // IPv4-compatible
		"::ffff:0:169.254.169.254",       // IPv4-translated
		"64:ff9b::a9fe:a9fe",             // NAT64
		"64:ff9b:1::a9fe:a9fe",           // local-use NAT64
		"2002:a9fe:a9fe::1",              // 6to4
		"2001:0:a9fe:a9fe::1",            // Teredo server
		"2001:0:4136:e378:0:0:5601:5601", // Teredo client (inverted bits)
	} {
		t.Run("metadata "+addr, func(t *testing.T) {
			if Permitted(netip.MustParseAddr(addr), Everywhere) {
				t.Errorf("%s is permitted", addr)
			}
		})
	}
}

func TestParseAllowlist(t *testing.T) {
	tests := []struct {
		in      string
		want    string
		wantErr string
	}{
		{"", "[]", ""},
		{"off", "[]", ""},
		{"127.0.0.1/32,10.1.2.0/24", "[127.0.0.1/32 10.1.2.0/24]", ""},
		{" 10.1.2.3 , fd00::1 ", "[10.1.2.3/32 fd00::1/128]", ""},
		{"10.1.2.3/24", "[10.1.2.0/24]", ""},
		{"::ffff:10.0.0.0/104", "[10.0.0.0/8]", ""},
		{"169.254.169.254", "", "metadata"},
		{"fd00:ec2::254/128", "", "metadata"},
		{"on", "", "neither an address nor a CIDR range"},
		{"10.0.0.0/8,intranet", "", `"intranet"`},
		{"10.0.0.0/33", "", "neither"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseAllowlist(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one saying %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s := fmt.Sprint(got); s != tt.want {
				t.Errorf("got %s, want %s", s, tt.want)
			}
		})
	}
}

// An allowlist opens its own ranges only, and no allowlist opens the metadata address.
func TestAllowlistReachesItsRangesOnly(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("on premises"))
	}))
	t.Cleanup(srv.Close)
	tests := []struct {
		name    string
		options Options
		url     string
		wantErr error
	}{
		{"allowlisted loopback", Options{Allow: onlyLoopbackV4}, srv.URL, nil},
		{"another range allowlisted", Options{Allow: []netip.Prefix{netip.MustParsePrefix("10.1.2.0/24")}}, srv.URL, ErrForbiddenAddress},
		{"metadata, everything allowed", Options{AllowPrivate: true}, "http://169.254.169.254/latest/meta-data/", ErrForbiddenAddress},
		{"metadata, its range allowlisted", Options{Allow: []netip.Prefix{netip.MustParsePrefix("169.254.0.0/16")}},
			"http://169.254.169.254/latest/meta-data/", ErrForbiddenAddress},
		{"Alibaba metadata, everything allowed", Options{AllowPrivate: true}, "http://100.100.100.200/latest/meta-data/", ErrForbiddenAddress},
		{"AWS IPv6 metadata, everything allowed", Options{AllowPrivate: true}, "http://[fd00:ec2::254]/latest/meta-data/", ErrForbiddenAddress},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, body, err := get(context.Background(), New(tt.options), tt.url)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("error %v, want %v", err, tt.wantErr)
			}
			if err == nil && string(body) != "on premises" {
				t.Fatalf("body %q", body)
			}
		})
	}
}

// What the network said (the addresses a name resolved to, a refused or reset connection) goes
// to the log; the error names only the host as the request wrote it.
func TestErrorsNameNoInternalDetail(t *testing.T) {
	reset := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		conn.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\npart of it"))
		conn.(*net.TCPConn).SetLinger(0) // closing sends a reset
		conn.Close()
	}))
	t.Cleanup(reset.Close)
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	viaLocalhost := func(u string) string { return strings.Replace(u, "127.0.0.1", "localhost", 1) }

	tests := []struct {
		name      string
		options   Options
		url       string
		wantIs    error
		wantInLog string
	}{
		{"a name resolving to a refused address", Options{}, viaLocalhost(reset.URL) + "/", ErrForbiddenAddress, "not a public one"},
		{"nobody listening", Options{AllowPrivate: true}, viaLocalhost(closed.URL) + "/", syscall.ECONNREFUSED, "connection refused"},
		{"a reply reset", Options{AllowPrivate: true}, viaLocalhost(reset.URL) + "/", syscall.ECONNRESET, "reset"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var logged bytes.Buffer
			tt.options.Logger = slog.New(slog.NewTextHandler(&logged, nil))
			_, _, err := get(context.Background(), New(tt.options), tt.url)
			var exchange *ExchangeError
			if !errors.As(err, &exchange) || !errors.Is(err, tt.wantIs) {
				t.Fatalf("error %v, want an ExchangeError that is %v", err, tt.wantIs)
			}
			host := strings.TrimPrefix(viaLocalhost(tt.url), "http://")
			host = host[:strings.Index(host, "/")]
			if !strings.Contains(err.Error(), host) {
				t.Errorf("error %q does not name the host %s", err, host)
			}
			for _, detail := range []string{"127.0.0.1", "::1", "dial", "tcp", "refused", "reset", "public"} {
				if strings.Contains(err.Error(), detail) {
					t.Errorf("error %q says %q", err, detail)
				}
			}
			if !strings.Contains(logged.String(), tt.wantInLog) {
				t.Errorf("the log %q does not say %q", logged.String(), tt.wantInLog)
			}
		})
	}
}
