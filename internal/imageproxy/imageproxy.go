// Package imageproxy fetches the pictures of posts from the sites that host them, so an analyst's
// browser never contacts those sites itself. Fetches go through the outbound guard, so the
// server cannot be turned against its own network, and only bounded, real images are passed on.
// Resizing is bounded too: a few decodes at a time, and only pictures whose header declares a
// reasonable number of pixels.
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
	"net/http"
	"net/netip"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"time"

	"golang.org/x/image/draw"
	_ "golang.org/x/image/webp" // registers the WebP decoder for resizing

	"github.com/sightline/sightline/internal/outbound"
)

// Defaults for Options left at zero.
const (
	DefaultMaxBytes = 10 << 20
	// DefaultMaxPixels lets a 24-megapixel photograph be resized. A decoded picture takes 4 to 8
	// bytes a pixel (16-bit PNG), so one decode stays under 200 MB.
	DefaultMaxPixels  = 25_000_000
	DefaultTimeout    = 15 * time.Second
	DefaultDecodeWait = 2 * time.Second
	// MinWidth and MaxWidth bound the width a caller may ask for.
	MinWidth = 16
	MaxWidth = 4096

	maxURLLength = 4096
	maxRedirects = 3
)

// DefaultMaxDecodes is how many pictures are resized at once: decoding is CPU work, so more than
// the cores gains nothing, and each decode may hold up to MaxPixels × 8 bytes.
var DefaultMaxDecodes = min(runtime.GOMAXPROCS(0), 4)

// Errors Fetch and ParsePath report; the API turns each into a status.
var (
	ErrBadURL           = errors.New("imageproxy: not an http or https address of a picture")
	ErrBadWidth         = fmt.Errorf("imageproxy: the width must be between %d and %d pixels", MinWidth, MaxWidth)
	ErrForbiddenAddress = outbound.ErrForbiddenAddress
	ErrTooLarge         = outbound.ErrTooLarge
	ErrNotImage         = errors.New("imageproxy: the reply is not a supported picture")
	ErrUpstream         = errors.New("imageproxy: the picture's host did not deliver it")
)

// Options configure a Proxy.
type Options struct {
	// Allow is for tests only: the server never sets it, so the proxy reaches public addresses
	// only, whatever the operator allowlisted for sources and webhooks.
	Allow []netip.Prefix
	// MaxBytes bounds the size of a picture (DefaultMaxBytes when 0).
	MaxBytes int64
	// MaxPixels bounds the pictures decoded for resizing, by the dimensions their header
	// declares (DefaultMaxPixels when 0); larger ones are passed on as they are.
	MaxPixels int
	// MaxDecodes bounds the pictures resized at once (DefaultMaxDecodes when 0).
	MaxDecodes int
	// DecodeWait bounds the wait for a free decode (DefaultDecodeWait when 0); a picture that
	// waited that long is passed on at its own size.
	DecodeWait time.Duration
	// Timeout bounds one fetch, redirects included (DefaultTimeout when 0).
	Timeout time.Duration
}

// Proxy fetches pictures.
type Proxy struct {
	client     *outbound.Client
	maxBytes   int64
	maxPixels  int64
	decodes    chan struct{} // a slot per decode under way
	decodeWait time.Duration
}

// Image is a fetched picture.
type Image struct {
	ContentType string
	Body        []byte
}

// New returns a Proxy with its own guarded HTTP client.
func New(o Options) *Proxy {
	if o.MaxBytes == 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.MaxPixels == 0 {
		o.MaxPixels = DefaultMaxPixels
	}
	if o.MaxDecodes == 0 {
		o.MaxDecodes = DefaultMaxDecodes
	}
	if o.DecodeWait == 0 {
		o.DecodeWait = DefaultDecodeWait
	}
	if o.Timeout == 0 {
		o.Timeout = DefaultTimeout
	}
	return &Proxy{
		client: outbound.New(outbound.Options{Allow: o.Allow, Timeout: o.Timeout,
			MaxBytes: o.MaxBytes, MaxRedirects: maxRedirects}),
		maxBytes:   o.MaxBytes,
		maxPixels:  int64(o.MaxPixels),
		decodes:    make(chan struct{}, o.MaxDecodes),
		decodeWait: o.DecodeWait,
	}
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
	// A picture's address comes from content: credentials in it would be someone else's.
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return Image{}, ErrBadURL
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return Image{}, ErrBadURL
	}
	req.Header.Set("Accept", "image/avif,image/webp,image/png,image/jpeg,image/gif,image/*;q=0.8")
	req.Header.Set("User-Agent", "Sightline-ImageProxy/1")
	resp, err := p.client.Do(req)
	if err != nil {
		return Image{}, refusal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return Image{}, fmt.Errorf("%w: status %d", ErrUpstream, resp.StatusCode)
	}
	if !strings.HasPrefix(strings.ToLower(resp.Header.Get("Content-Type")), "image/") {
		return Image{}, ErrNotImage
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return Image{}, refusal(err)
	}
	// The declared type is only a hint: what the bytes are decides, so a page labelled as a
	// picture is never served from our origin.
	contentType, ok := servedTypes[http.DetectContentType(body)]
	if !ok {
		return Image{}, ErrNotImage
	}
	img := Image{ContentType: contentType, Body: body}
	if width > 0 {
		return p.scaleDown(ctx, img, width), nil
	}
	return img, nil
}

// refusal says what the outbound guard refused; anything else is the host's failure.
func refusal(err error) error {
	switch {
	case errors.Is(err, outbound.ErrForbiddenAddress):
		return ErrForbiddenAddress
	case errors.Is(err, outbound.ErrBadURL):
		return ErrBadURL
	case errors.Is(err, outbound.ErrTooLarge):
		return ErrTooLarge
	}
	return fmt.Errorf("%w: %v", ErrUpstream, err)
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

// scaleDown returns img no wider than width. A picture that cannot be decoded, whose declared
// dimensions would cost too much memory to decode, or that found no free decode in time, is
// passed on unchanged: a browser shows it as well, only bigger.
func (p *Proxy) scaleDown(ctx context.Context, img Image, width int) Image {
	if !scaledTypes[img.ContentType] {
		return img
	}
	// The header's dimensions decide before anything is decoded; the decoders refuse pictures
	// whose data disagrees with their header.
	cfg, _, err := image.DecodeConfig(bytes.NewReader(img.Body))
	if err != nil || cfg.Width <= width || int64(cfg.Width)*int64(cfg.Height) > p.maxPixels {
		return img
	}
	wait := time.NewTimer(p.decodeWait)
	defer wait.Stop()
	select {
	case p.decodes <- struct{}{}:
		defer func() { <-p.decodes }()
	case <-wait.C:
		return img
	case <-ctx.Done():
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
