// Package imageproxy fetches the pictures of posts from the sites that host them, so an analyst's
// browser never contacts those sites itself, and so that the server cannot be turned against its
// own network: only public addresses are dialled, checked after name resolution at dial time
// (which defeats DNS rebinding), and only bounded, real images are passed on.
package imageproxy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/image/draw"
	_ "golang.org/x/image/webp" // registers the WebP decoder for resizing
)

// Defaults for Options left at zero.
const (
	DefaultMaxBytes  = 10 << 20
	DefaultMaxPixels = 40_000_000
	DefaultTimeout   = 15 * time.Second
	// MinWidth and MaxWidth bound the width a caller may ask for.
	MinWidth = 16
	MaxWidth = 4096

	maxURLLength = 4096
	maxRedirects = 3
)

// Errors Fetch and ParsePath report; the API turns each into a status.
var (
	ErrBadURL           = errors.New("imageproxy: not an http or https address of a picture")
	ErrBadWidth         = fmt.Errorf("imageproxy: the width must be between %d and %d pixels", MinWidth, MaxWidth)
	ErrForbiddenAddress = errors.New("imageproxy: the address is not a public one")
	ErrTooLarge         = errors.New("imageproxy: the picture is too large")
	ErrNotImage         = errors.New("imageproxy: the reply is not a supported picture")
	ErrUpstream         = errors.New("imageproxy: the picture's host did not deliver it")
)

// Options configure a Proxy.
type Options struct {
	// MaxBytes bounds the size of a picture (DefaultMaxBytes when 0).
	MaxBytes int64
	// MaxPixels bounds the pictures decoded for resizing; larger ones are passed on as they are.
	MaxPixels int
	// Timeout bounds one fetch, redirects included (DefaultTimeout when 0).
	Timeout time.Duration
	// Permit decides which resolved addresses may be dialled; nil permits public ones only.
	Permit func(netip.Addr) bool
}

// Proxy fetches pictures.
type Proxy struct {
	permit    func(netip.Addr) bool
	client    *http.Client
	maxBytes  int64
	maxPixels int
}

// Image is a fetched picture.
type Image struct {
	ContentType string
	Body        []byte
}

// New returns a Proxy with its own HTTP client, which never goes through an environment proxy:
// the address check must see the address actually dialled.
func New(o Options) *Proxy {
	if o.MaxBytes == 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.MaxPixels == 0 {
		o.MaxPixels = DefaultMaxPixels
	}
	if o.Timeout == 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Permit == nil {
		o.Permit = IsPublic
	}
	dialer := &net.Dialer{
		Timeout: 5 * time.Second,
		// Control runs for every address tried, after resolution: a name that resolves to a
		// private address, now or on a later lookup, is refused here.
		Control: func(network, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil || !o.Permit(ap.Addr().Unmap()) {
				return ErrForbiddenAddress
			}
			return nil
		},
	}
	transport := &http.Transport{
		Proxy:                  nil,
		DialContext:            dialer.DialContext,
		TLSHandshakeTimeout:    5 * time.Second,
		ResponseHeaderTimeout:  10 * time.Second,
		MaxResponseHeaderBytes: 64 << 10,
		MaxIdleConns:           32,
		IdleConnTimeout:        90 * time.Second,
		ForceAttemptHTTP2:      true,
	}
	p := &Proxy{permit: o.Permit, maxBytes: o.MaxBytes, maxPixels: o.MaxPixels}
	p.client = &http.Client{
		Transport: transport,
		Timeout:   o.Timeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= maxRedirects {
				return ErrUpstream
			}
			return p.checkURL(req.URL)
		},
	}
	return p
}

// ParsePath reads what follows /proxy/images/ in the escaped request path: the picture's address,
// URL-encoded as one path segment, optionally after a "{width}x/" segment. Width 0 means the
// picture is passed on at its own size.
func ParsePath(escaped string) (target string, width int, err error) {
	first, rest, hasRest := strings.Cut(escaped, "/")
	if hasRest {
		digits, isWidth := strings.CutSuffix(first, "x")
		if !isWidth {
			return "", 0, ErrBadURL
		}
		width, err = strconv.Atoi(digits)
		if err != nil || width < MinWidth || width > MaxWidth {
			return "", 0, ErrBadWidth
		}
		escaped = rest
	}
	target, err = url.PathUnescape(escaped)
	if err != nil || target == "" {
		return "", 0, ErrBadURL
	}
	return target, width, nil
}

// Fetch downloads the picture at rawURL and, when width is above 0 and the picture wider, scales
// it down to that width.
func (p *Proxy) Fetch(ctx context.Context, rawURL string, width int) (Image, error) {
	u, err := url.Parse(rawURL)
	if err != nil || len(rawURL) > maxURLLength {
		return Image{}, ErrBadURL
	}
	if err := p.checkURL(u); err != nil {
		return Image{}, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return Image{}, ErrBadURL
	}
	req.Header.Set("Accept", "image/avif,image/webp,image/png,image/jpeg,image/gif,image/*;q=0.8")
	req.Header.Set("User-Agent", "Sightline-ImageProxy/1")
	resp, err := p.client.Do(req)
	if err != nil {
		// A redirect or a dial the checks refused says so; anything else is the host's failure.
		for _, refusal := range []error{ErrForbiddenAddress, ErrBadURL} {
			if errors.Is(err, refusal) {
				return Image{}, refusal
			}
		}
		return Image{}, fmt.Errorf("%w: %v", ErrUpstream, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return Image{}, fmt.Errorf("%w: status %d", ErrUpstream, resp.StatusCode)
	}
	if !strings.HasPrefix(strings.ToLower(resp.Header.Get("Content-Type")), "image/") {
		return Image{}, ErrNotImage
	}
	if resp.ContentLength > p.maxBytes {
		return Image{}, ErrTooLarge
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, p.maxBytes+1))
	if err != nil {
		return Image{}, fmt.Errorf("%w: %v", ErrUpstream, err)
	}
	if int64(len(body)) > p.maxBytes {
		return Image{}, ErrTooLarge
	}
	// The declared type is only a hint: what the bytes are decides, so a page labelled as a
	// picture is never served from our origin.
	contentType, ok := servedTypes[http.DetectContentType(body)]
	if !ok {
		return Image{}, ErrNotImage
	}
	img := Image{ContentType: contentType, Body: body}
	if width > 0 {
		return p.scaleDown(img, width), nil
	}
	return img, nil
}

// servedTypes maps the sniffed types that are passed on to the type they are served as. SVG is
// left out on purpose: it can carry scripts.
var servedTypes = map[string]string{
	"image/jpeg":   "image/jpeg",
	"image/png":    "image/png",
	"image/gif":    "image/gif",
	"image/webp":   "image/webp",
	"image/bmp":    "image/bmp",
	"image/x-icon": "image/x-icon",
}

// scaledTypes are the pictures resized on request; the others (animations, icons) pass as they are.
var scaledTypes = map[string]bool{"image/jpeg": true, "image/png": true, "image/webp": true}

// scaleDown returns img no wider than width. A picture that cannot be decoded, or whose
// dimensions would cost too much memory to decode, is passed on unchanged.
func (p *Proxy) scaleDown(img Image, width int) Image {
	if !scaledTypes[img.ContentType] {
		return img
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(img.Body))
	if err != nil || cfg.Width <= width || cfg.Width*cfg.Height > p.maxPixels {
		return img
	}
	src, _, err := image.Decode(bytes.NewReader(img.Body))
	if err != nil {
		return img
	}
	height := max(1, cfg.Height*width/cfg.Width)
	dst := image.NewRGBA(image.Rect(0, 0, width, height))
	draw.ApproxBiLinear.Scale(dst, dst.Bounds(), src, src.Bounds(), draw.Src, nil)
	var out bytes.Buffer
	// PNG keeps transparency; everything else becomes a JPEG, much smaller for photographs.
	if img.ContentType == "image/png" {
		if err := png.Encode(&out, dst); err != nil {
			return img
		}
		return Image{ContentType: "image/png", Body: out.Bytes()}
	}
	if err := jpeg.Encode(&out, dst, &jpeg.Options{Quality: 85}); err != nil {
		return img
	}
	return Image{ContentType: "image/jpeg", Body: out.Bytes()}
}

// checkURL accepts absolute http and https addresses without credentials, and refuses hosts
// written as an address the proxy may not dial before any connection is tried.
func (p *Proxy) checkURL(u *url.URL) error {
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return ErrBadURL
	}
	if addr, err := netip.ParseAddr(u.Hostname()); err == nil && !p.permit(addr.Unmap()) {
		return ErrForbiddenAddress
	}
	return nil
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

// IsPublic reports whether addr is a public unicast address: not loopback, private, link-local,
// multicast, unspecified or one of the special ranges above.
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
