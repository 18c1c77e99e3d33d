// Package outbound is the one HTTP client for every address that content or a user chose:
// connectors, the image proxy, webhooks. It dials public addresses only, checked after name
// resolution on every connection (which defeats DNS rebinding) and again on every redirect;
// it never goes through an environment proxy, so the check sees the address actually dialled;
// it bounds time and size; and its errors name no credentials or query strings.
//
// Operator-configured backends (database, NATS, SMTP, model, translation and geocoding servers)
// are trusted and do not use it.
package outbound

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// Defaults for Options left at zero.
const (
	DefaultTimeout      = 30 * time.Second
	DefaultMaxBytes     = 32 << 20
	DefaultMaxRedirects = 5
)

// Errors the client reports, wrapped; test them with errors.Is.
var (
	ErrForbiddenAddress = errors.New("outbound: the address is not a public one")
	ErrBadURL           = errors.New("outbound: not an absolute http or https address")
	ErrTooManyRedirects = errors.New("outbound: too many redirects")
	ErrTooLarge         = errors.New("outbound: the reply is too large")
	ErrOnionWithoutTor  = errors.New("outbound: a .onion address needs a Tor SOCKS proxy (--tor-socks)")
)

// Options configure a Client.
type Options struct {
	// AllowPrivate lifts the address rule: any address may be dialled (on-premises feeds, tests).
	AllowPrivate bool
	// Permit, when set, decides alone which resolved addresses may be dialled.
	Permit func(netip.Addr) bool
	// Timeout bounds one exchange, redirects and reading the body included (DefaultTimeout when 0).
	Timeout time.Duration
	// MaxBytes bounds a reply's body (DefaultMaxBytes when 0): reading past it fails with
	// ErrTooLarge.
	MaxBytes int64
	// MaxRedirects bounds the redirects followed (DefaultMaxRedirects when 0; negative follows
	// none: a redirect is an error).
	MaxRedirects int
	// TorSOCKS is the address of a Tor SOCKS5 proxy ("127.0.0.1:9050"). With it, .onion
	// addresses are dialled through the proxy, which resolves them; without it they are
	// refused. A .onion name is never resolved locally either way, and other addresses are
	// dialled directly, under the rules above.
	TorSOCKS string
	// Budget, when set, is asked before every request, redirects included, with the request's
	// context and host name (no port): it may hold the request back, or refuse it with an error
	// (sources share a request budget per host this way).
	Budget func(ctx context.Context, host string) error
	// Stream is for replies that stay open (server-sent events): neither Timeout nor MaxBytes
	// applies, and the reader bounds each message and watches for silence. Dialling, the TLS
	// handshake and the wait for the reply's header stay bounded.
	Stream bool
}

// Client is the guarded client. Its zero value is not usable; make one with New.
type Client struct {
	http *http.Client
}

// New returns a guarded client. Each Client has its own connection pool.
func New(o Options) *Client {
	if o.Timeout == 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxBytes == 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.MaxRedirects == 0 {
		o.MaxRedirects = DefaultMaxRedirects
	}
	if o.Stream {
		o.Timeout, o.MaxBytes = 0, 0
	}
	permit := o.Permit
	if permit == nil {
		permit = IsPublic
		if o.AllowPrivate {
			permit = func(netip.Addr) bool { return true }
		}
	}
	dialer := &net.Dialer{
		Timeout: 10 * time.Second,
		// Control runs for every address tried, after resolution: a name that resolves to a
		// forbidden address, now or on a later lookup, is refused here.
		Control: func(_, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil || !permit(ap.Addr().Unmap()) {
				return ErrForbiddenAddress
			}
			return nil
		},
	}
	dial := dialer.DialContext
	if o.TorSOCKS != "" {
		dial = torDial(o.TorSOCKS, dialer.DialContext)
	}
	transport := &http.Transport{
		Proxy:                  nil,
		DialContext:            dial,
		TLSHandshakeTimeout:    10 * time.Second,
		ResponseHeaderTimeout:  30 * time.Second,
		MaxResponseHeaderBytes: 64 << 10,
		MaxIdleConns:           64,
		IdleConnTimeout:        90 * time.Second,
		ForceAttemptHTTP2:      true,
	}
	check := func(u *url.URL) error {
		if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return ErrBadURL
		}
		if IsOnion(u.Hostname()) && o.TorSOCKS == "" {
			return ErrOnionWithoutTor
		}
		// An address written in the URL is refused before any dial, with a clear error.
		if addr, err := netip.ParseAddr(u.Hostname()); err == nil && !permit(addr.Unmap()) {
			return ErrForbiddenAddress
		}
		return nil
	}
	return &Client{http: &http.Client{
		Transport: &guard{next: transport, check: check, maxBytes: o.MaxBytes, budget: o.Budget},
		Timeout:   o.Timeout,
		// The transport checks the address of every request, redirects included; here only
		// their number.
		CheckRedirect: func(_ *http.Request, via []*http.Request) error {
			if len(via) > o.MaxRedirects {
				return ErrTooManyRedirects
			}
			return nil
		},
	}}
}

// Do sends req. Its errors carry the address without credentials or query string.
func (c *Client) Do(req *http.Request) (*http.Response, error) {
	resp, err := c.http.Do(req)
	return resp, RedactError(err)
}

// HTTP returns the guarded *http.Client for libraries that need one (a websocket dial). Its
// errors are not redacted: pass them through RedactError.
func (c *Client) HTTP() *http.Client { return c.http }

// guard checks every request's address and bounds every reply's body.
type guard struct {
	next     http.RoundTripper
	check    func(*url.URL) error
	maxBytes int64
	budget   func(ctx context.Context, host string) error
}

func (g *guard) RoundTrip(req *http.Request) (*http.Response, error) {
	err := g.check(req.URL)
	if err == nil && g.budget != nil {
		err = g.budget(req.Context(), req.URL.Hostname())
	}
	if err != nil {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, err
	}
	resp, err := g.next.RoundTrip(req)
	// A websocket's 101 reply hands its body over as the connection: it is not bounded.
	if err != nil || g.maxBytes <= 0 || resp.StatusCode == http.StatusSwitchingProtocols {
		return resp, err
	}
	if resp.ContentLength > g.maxBytes {
		resp.Body.Close()
		return nil, ErrTooLarge
	}
	resp.Body = &limitedBody{ReadCloser: resp.Body, left: g.maxBytes}
	return resp, nil
}

// limitedBody fails with ErrTooLarge once more than its limit has been read.
type limitedBody struct {
	io.ReadCloser
	left int64
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, ErrTooLarge
	}
	// One byte past the limit tells a reply that ends exactly there from a longer one.
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.ReadCloser.Read(p)
	if int64(n) > b.left {
		n, b.left = int(b.left), -1
		return n, ErrTooLarge
	}
	b.left -= int64(n)
	return n, err
}

// ReadAll reads r to its end, failing with ErrTooLarge when it holds more than max bytes.
func ReadAll(r io.Reader, max int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, ErrTooLarge
	}
	return b, nil
}

// RedactURL returns raw without its credentials, query string and fragment, for errors and
// logs. A query string is replaced by "?…" so that the reader knows there was one.
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return redactUnparsed(raw)
	}
	hadQuery := u.RawQuery != "" || u.ForceQuery
	u.User, u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = nil, "", false, "", ""
	if u.Opaque != "" {
		// "mailto:a@b?x" and the like: nothing past the scheme is safe to show.
		return u.Scheme + ":…"
	}
	s := u.String()
	if hadQuery {
		s += "?…"
	}
	return s
}

// redactUnparsed cuts what may be secret out of text that is not a valid URL: everything from
// the first '?' or '#', and the user information before an '@' in the authority.
func redactUnparsed(raw string) string {
	if i := strings.IndexAny(raw, "?#"); i >= 0 {
		raw = raw[:i] + "?…"
	}
	scheme, rest, ok := strings.Cut(raw, "://")
	if !ok {
		return raw
	}
	authority, path, _ := strings.Cut(rest, "/")
	if at := strings.LastIndex(authority, "@"); at >= 0 {
		authority = authority[at+1:]
	}
	if path != "" || strings.Contains(rest, "/") {
		return scheme + "://" + authority + "/" + path
	}
	return scheme + "://" + authority
}

// RedactError returns err with the address of every *url.Error in its chain redacted, and the
// text of a URL parse error (which quotes the whole address) replaced. It returns nil for nil.
func RedactError(err error) error {
	if err == nil {
		return nil
	}
	var uerr *url.Error
	if !errors.As(err, &uerr) {
		return err
	}
	return &redacted{err: err, text: redactText(err)}
}

// redacted keeps the chain of the original error for errors.Is and errors.As, with a redacted
// text.
type redacted struct {
	err  error
	text string
}

func (r *redacted) Error() string { return r.text }
func (r *redacted) Unwrap() error { return r.err }

// redactText renders err with each *url.Error's address redacted.
func redactText(err error) string {
	text := err.Error()
	for e := err; e != nil; e = errors.Unwrap(e) {
		if uerr, ok := e.(*url.Error); ok {
			// url.Error quotes the address with %q, which escapes some characters.
			text = strings.ReplaceAll(text, fmt.Sprintf("%q", uerr.URL), fmt.Sprintf("%q", RedactURL(uerr.URL)))
			text = strings.ReplaceAll(text, uerr.URL, RedactURL(uerr.URL))
		}
	}
	return text
}

// nonPublic are ranges that are neither private nor loopback by netip's reckoning but still do
// not lead to the public internet, or can be used to reach addresses that do not.
var nonPublic = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),       // "this network"
	netip.MustParsePrefix("100.64.0.0/10"),   // carrier-grade NAT
	netip.MustParsePrefix("192.0.0.0/24"),    // IETF protocol assignments
	netip.MustParsePrefix("192.0.2.0/24"),    // documentation
	netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking
	netip.MustParsePrefix("198.51.100.0/24"), // documentation
	netip.MustParsePrefix("203.0.113.0/24"),  // documentation
	netip.MustParsePrefix("240.0.0.0/4"),     // reserved, and the broadcast address
	netip.MustParsePrefix("64:ff9b::/96"),    // NAT64, which can embed any IPv4 address
	netip.MustParsePrefix("64:ff9b:1::/48"),  // local-use NAT64
	netip.MustParsePrefix("2001::/32"),       // Teredo
	netip.MustParsePrefix("2001:db8::/32"),   // documentation
	netip.MustParsePrefix("2002::/16"),       // 6to4, which can embed any IPv4 address
}

// IsPublic reports whether addr is a public unicast address: not loopback, private (fc00::/7
// included), link-local, multicast, unspecified or one of the special ranges above. An
// IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
func IsPublic(addr netip.Addr) bool {
	addr = addr.Unmap()
	if !addr.IsValid() || !addr.IsGlobalUnicast() || addr.IsPrivate() {
		return false
	}
	for _, p := range nonPublic {
		if p.Contains(addr) {
			return false
		}
	}
	return true
}
