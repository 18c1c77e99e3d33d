// Package outbound is the one HTTP client for every address that content or a user chose:
// connectors, the image proxy, webhooks. It dials public addresses, and those its kind of
// caller was allowlisted by the operator, only (cloud metadata addresses never), checked after
// name resolution on every connection (which defeats DNS rebinding) and again on every
// redirect; it never goes through an environment proxy, so the check sees the address actually
// dialled; it bounds time and size; and its errors name no credentials or query strings, nor
// what the network said about internal addresses (that goes to the log).
//
// Operator-configured backends (database, NATS, SMTP, model, translation and geocoding servers)
// are trusted and do not use it.
package outbound

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
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
	// Allow is the operator's allowlist for this kind of caller: addresses that are not public
	// and may still be dialled (an on-premises feed, a SIEM's webhook). Public addresses are
	// always allowed; cloud metadata addresses never are, whatever the list says.
	Allow []netip.Prefix
	// AllowPrivate allows every address but cloud metadata: for the operator's own backends,
	// and tests. It is Allow set to Everywhere.
	AllowPrivate bool
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
	// Logger receives what an ExchangeError leaves out of its text (slog.Default() when nil), at
	// DetailLevel (Info when 0; the image proxy, whose hosts fail often, logs at Debug).
	Logger      *slog.Logger
	DetailLevel slog.Level
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
	if o.AllowPrivate {
		o.Allow = Everywhere
	}
	permit := func(addr netip.Addr) bool { return Permitted(addr, o.Allow) }
	dialer := &net.Dialer{
		Timeout: 10 * time.Second,
		// Control runs for every address tried, after resolution: a name that resolves to a
		// forbidden address, now or on a later lookup, is refused here.
		Control: func(_, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil || !permit(ap.Addr()) {
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
		if addr, err := netip.ParseAddr(u.Hostname()); err == nil && !permit(addr) {
			return ErrForbiddenAddress
		}
		return nil
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return &Client{http: &http.Client{
		Transport: &guard{next: transport, check: check, maxBytes: o.MaxBytes, log: o.Logger, level: o.DetailLevel, budget: o.Budget},
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

// ExchangeError is a request that got no reply, or a reply cut short: a name that did not
// resolve, an address refused once resolved, a connection refused, reset or timed out, a TLS
// handshake that failed. Its text names only the host as the request wrote it: the resolver's
// address, search domains, the addresses a name resolved to and certificate names map the
// inside of a network, so they go to the log, and stay in the chain for errors.Is and
// errors.As (a refused address is still ErrForbiddenAddress).
type ExchangeError struct {
	Host string
	// Cut is a reply that began and was cut short, not a request that got none.
	Cut bool
	err error
}

func (e *ExchangeError) Error() string {
	text := "outbound: " + e.Host + " could not be reached"
	if e.Cut {
		text = "outbound: the reply from " + e.Host + " was cut short"
	} else if host, _, err := net.SplitHostPort(e.Host); IsOnion(e.Host) || (err == nil && IsOnion(host)) {
		text += " through the Tor SOCKS proxy"
	}
	// Reasons that name nothing of the network are worth keeping.
	var timeout interface{ Timeout() bool }
	switch {
	case errors.Is(e.err, io.EOF) || errors.Is(e.err, io.ErrUnexpectedEOF):
		text += ": the connection was closed (EOF)"
	case errors.Is(e.err, context.DeadlineExceeded) || (errors.As(e.err, &timeout) && timeout.Timeout()):
		text += ": no answer in time"
	}
	return text
}

func (e *ExchangeError) Unwrap() error { return e.err }

// guard checks every request's address, bounds every reply's body, and keeps what the network
// said about internal addresses out of the errors it returns.
type guard struct {
	next     http.RoundTripper
	check    func(*url.URL) error
	maxBytes int64
	log      *slog.Logger
	level    slog.Level
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
	if err != nil {
		return nil, g.exchangeError(req, err, false)
	}
	// A websocket's 101 reply hands its body over as the connection: it is not bounded.
	if resp.StatusCode == http.StatusSwitchingProtocols {
		return resp, nil
	}
	if g.maxBytes > 0 && resp.ContentLength > g.maxBytes {
		resp.Body.Close()
		return nil, ErrTooLarge
	}
	resp.Body = &guardedBody{ReadCloser: resp.Body, left: g.maxBytes, limited: g.maxBytes > 0, req: req, guard: g}
	return resp, nil
}

// exchangeError logs err in full and returns it as an *ExchangeError naming req's host only.
// The caller giving up (its context cancelled) is not the host's failure and is returned as is.
func (g *guard) exchangeError(req *http.Request, err error, cut bool) error {
	if errors.Is(err, context.Canceled) && req.Context().Err() != nil {
		return err
	}
	g.log.Log(req.Context(), g.level, "outbound: exchange failed", "url", RedactURL(req.URL.String()), "detail", err.Error())
	return &ExchangeError{Host: req.URL.Host, Cut: cut, err: err}
}

// guardedBody fails with ErrTooLarge once more than its limit has been read (when limited),
// and with an *ExchangeError when the connection fails.
type guardedBody struct {
	io.ReadCloser
	left    int64
	limited bool
	req     *http.Request
	guard   *guard
}

func (b *guardedBody) Read(p []byte) (int, error) {
	if !b.limited {
		n, err := b.ReadCloser.Read(p)
		return n, b.readError(err)
	}
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
	return n, b.readError(err)
}

func (b *guardedBody) readError(err error) error {
	if err == nil || err == io.EOF {
		return err
	}
	return b.guard.exchangeError(b.req, err, true)
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
// not lead to the public internet, or can be used to reach addresses that do not (the IANA
// special-purpose registries, less what a web server may sit on).
var nonPublic = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),       // "this network"
	netip.MustParsePrefix("100.64.0.0/10"),   // carrier-grade NAT
	netip.MustParsePrefix("192.0.0.0/24"),    // IETF protocol assignments
	netip.MustParsePrefix("192.0.2.0/24"),    // documentation
	netip.MustParsePrefix("192.88.99.0/24"),  // 6to4 relay anycast (deprecated)
	netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking
	netip.MustParsePrefix("198.51.100.0/24"), // documentation
	netip.MustParsePrefix("203.0.113.0/24"),  // documentation
	netip.MustParsePrefix("240.0.0.0/4"),     // reserved, and the broadcast address
	// IPv4-compatible (::a.b.c.d, deprecated): on a host with automatic tunnels it reaches the
	// IPv4 address it carries.
	netip.MustParsePrefix("::/96"),
	netip.MustParsePrefix("::ffff:0:0:0/96"), // IPv4-translated (::ffff:0:a.b.c.d, SIIT)
	netip.MustParsePrefix("64:ff9b::/96"),    // NAT64, which can embed any IPv4 address
	netip.MustParsePrefix("64:ff9b:1::/48"),  // local-use NAT64
	netip.MustParsePrefix("100::/64"),        // discard-only
	// IETF protocol assignments: Teredo (2001::/32, which carries IPv4 addresses), benchmarking,
	// ORCHID (2001:10::/28) and ORCHIDv2 (2001:20::/28), none of them a web server's.
	netip.MustParsePrefix("2001::/23"),
	netip.MustParsePrefix("2001:db8::/32"), // documentation
	netip.MustParsePrefix("2002::/16"),     // 6to4, which can embed any IPv4 address
	netip.MustParsePrefix("3fff::/20"),     // documentation
	netip.MustParsePrefix("5f00::/16"),     // segment routing (SRv6) identifiers
	netip.MustParsePrefix("fec0::/10"),     // site-local (deprecated, still routed by some)
}

// IsPublic reports whether addr is a public unicast address: not loopback, private (fc00::/7
// included), link-local, multicast, unspecified or one of the special ranges above. An
// IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
func IsPublic(addr netip.Addr) bool {
	addr = addr.Unmap().WithZone("")
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

// Everywhere is the allowlist that allows every address (cloud metadata still excepted).
var Everywhere = []netip.Prefix{netip.MustParsePrefix("0.0.0.0/0"), netip.MustParsePrefix("::/0")}

// Permitted reports whether addr may be dialled by a caller whose operator allowlisted allow:
// a public address, or one of allow's; never a cloud metadata address.
func Permitted(addr netip.Addr, allow []netip.Prefix) bool {
	addr = addr.Unmap().WithZone("")
	if !addr.IsValid() || IsMetadata(addr) {
		return false
	}
	if IsPublic(addr) {
		return true
	}
	for _, p := range allow {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}

// metadata are the cloud providers' instance metadata and host-agent addresses: they hand out
// credentials to whoever asks from inside, so no caller ever reaches them.
var metadata = []netip.Addr{
	netip.MustParseAddr("169.254.169.254"), // AWS, GCP, Azure, OpenStack, DigitalOcean, Oracle, IBM, Hetzner...
	netip.MustParseAddr("169.254.170.2"),   // AWS ECS task credentials
	netip.MustParseAddr("169.254.170.23"),  // AWS EKS pod identity
	netip.MustParseAddr("169.254.0.23"),    // Tencent Cloud
	netip.MustParseAddr("169.254.42.42"),   // Scaleway
	netip.MustParseAddr("100.100.100.200"), // Alibaba Cloud
	netip.MustParseAddr("192.0.0.192"),     // Oracle Cloud (older instances)
	netip.MustParseAddr("168.63.129.16"),   // Azure WireServer
	netip.MustParseAddr("fd00:ec2::254"),   // AWS over IPv6
	netip.MustParseAddr("fd00:ec2::23"),    // AWS EKS pod identity over IPv6
}

// IsMetadata reports whether addr is a cloud metadata address, written as itself or carried in
// an IPv6 address that can lead to it (mapped, compatible, translated, NAT64, 6to4, Teredo).
func IsMetadata(addr netip.Addr) bool {
	addr = addr.Unmap().WithZone("")
	for _, m := range metadata {
		if addr == m {
			return true
		}
		for _, carried := range embeddedIPv4(addr) {
			if carried == m {
				return true
			}
		}
	}
	return false
}

// The IPv6 ranges that carry an IPv4 address, and where.
var (
	// IPv4-compatible, IPv4-translated, NAT64 and local-use NAT64 (as a /96): the last 32 bits.
	carryLastIPv4 = []netip.Prefix{netip.MustParsePrefix("::/96"), netip.MustParsePrefix("::ffff:0:0:0/96"),
		netip.MustParsePrefix("64:ff9b::/96"), netip.MustParsePrefix("64:ff9b:1::/48")}
	sixToFour = netip.MustParsePrefix("2002::/16") // bits 16 to 47
	teredo    = netip.MustParsePrefix("2001::/32") // the server in bits 32 to 63, the client inverted in the last 32
)

// embeddedIPv4 returns the IPv4 addresses an IPv6 address carries by the transition
// mechanisms that can deliver to them.
func embeddedIPv4(addr netip.Addr) []netip.Addr {
	if !addr.Is6() {
		return nil
	}
	b := addr.As16()
	v4 := func(i int) netip.Addr { return netip.AddrFrom4([4]byte(b[i : i+4])) }
	var out []netip.Addr
	for _, p := range carryLastIPv4 {
		if p.Contains(addr) {
			out = append(out, v4(12))
		}
	}
	if sixToFour.Contains(addr) {
		out = append(out, v4(2))
	}
	if teredo.Contains(addr) { // the server, and the client inverted
		client := [4]byte{^b[12], ^b[13], ^b[14], ^b[15]}
		out = append(out, v4(4), netip.AddrFrom4(client))
	}
	return out
}

// ParseAllowlist reads an operator's allowlist: "off" or nothing for none, else addresses and
// CIDR ranges separated by commas (127.0.0.1/32,10.1.2.0/24). A single metadata address is
// refused, since it would never be reached.
func ParseAllowlist(s string) ([]netip.Prefix, error) {
	s = strings.TrimSpace(s)
	if s == "" || strings.EqualFold(s, "off") {
		return nil, nil
	}
	var out []netip.Prefix
	for item := range strings.SplitSeq(s, ",") {
		item = strings.TrimSpace(item)
		p, err := netip.ParsePrefix(item)
		if err != nil {
			addr, addrErr := netip.ParseAddr(item)
			if addrErr != nil {
				return nil, fmt.Errorf("%q is neither an address nor a CIDR range", item)
			}
			p = netip.PrefixFrom(addr, addr.BitLen())
		}
		if p.Addr().Zone() != "" {
			return nil, fmt.Errorf("%q: a range has no zone", item)
		}
		if p.Addr().Is4In6() { // ::ffff:10.0.0.0/104 is 10.0.0.0/8, as the guard sees it
			if p.Bits() < 96 {
				return nil, fmt.Errorf("%q: an IPv4-mapped range is /96 or narrower", item)
			}
			p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
		}
		p = p.Masked()
		if p.IsSingleIP() && IsMetadata(p.Addr()) {
			return nil, fmt.Errorf("%s is a cloud metadata address, which is never reachable", p.Addr())
		}
		out = append(out, p)
	}
	return out, nil
}
