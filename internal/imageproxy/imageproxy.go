// Package imageproxy fetches the pictures of posts from the sites that host them, so an analyst's
// browser never contacts those sites itself. Fetches go through the outbound guard, so the
// server cannot be turned against its own network, and only bounded, real images are passed on.
//
// Memory stays bounded whatever the callers do: a picture is streamed from its host to the
// browser, never held whole; the fetches in flight are bounded per user and on the node (a
// caller past either waits a moment, then is told to come back later); a browser that stops
// reading is dropped when a write stalls; and resizing, which must decode, runs a few decodes at
// a time, only for pictures whose header declares a reasonable number of pixels.
package imageproxy

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"log/slog"
	"net/http"
	"net/netip"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/image/draw"
	_ "golang.org/x/image/webp" // registers the WebP decoder for resizing

	"github.com/sightline/sightline/internal/outbound"
	"github.com/sightline/sightline/internal/problem"
)

// Defaults for Options left at zero.
const (
	DefaultMaxBytes = 10 << 20
	// DefaultMaxPixels lets a 24-megapixel photograph be resized. A decoded picture takes 4 to 8
	// bytes a pixel (16-bit PNG), so one decode stays under 200 MB.
	DefaultMaxPixels  = 25_000_000
	DefaultTimeout    = 15 * time.Second
	DefaultDecodeWait = 2 * time.Second
	// DefaultMaxFetches bounds the node's fetches in flight; each holds a few tens of KiB while
	// it streams.
	DefaultMaxFetches = 64
	// DefaultMaxFetchesPerUser lets a page of pictures load at once over HTTP/2 (browsers open 6
	// connections a host over HTTP/1.1), and keeps one user to an eighth of the node's.
	DefaultMaxFetchesPerUser = 8
	DefaultFetchWait         = 3 * time.Second
	DefaultSendStall         = 10 * time.Second
	// MinWidth and MaxWidth bound the width a caller may ask for.
	MinWidth = 16
	MaxWidth = 4096

	maxURLLength = 4096
	maxRedirects = 3
	// transferTimeout bounds a whole fetch, sending to a slow browser included: the API's
	// request timeout.
	transferTimeout = 60 * time.Second
	// maxHeader bounds what is kept of a picture while its header is read for its dimensions
	// (EXIF and colour profiles come first in a JPEG); a header longer than that is not resized.
	maxHeader = 128 << 10
	// sendBuffer is what a fetch holds while it streams.
	sendBuffer = 32 << 10
)

// DefaultMaxDecodes is how many pictures are resized at once: decoding is CPU work, so more than
// the cores gains nothing, and each decode may hold up to MaxPixels × 8 bytes.
var DefaultMaxDecodes = min(runtime.GOMAXPROCS(0), 4)

// Errors Open and ParsePath report, tested with errors.Is; each comes with the internal/problem
// error the API answers (failure).
var (
	ErrBadURL           = errors.New("imageproxy: not an http or https address of a picture")
	ErrBadWidth         = fmt.Errorf("imageproxy: the width must be between %d and %d pixels", MinWidth, MaxWidth)
	ErrForbiddenAddress = outbound.ErrForbiddenAddress
	ErrTooLarge         = outbound.ErrTooLarge
	ErrNotImage         = errors.New("imageproxy: the reply is not a supported picture")
	ErrUpstream         = errors.New("imageproxy: the picture's host did not deliver it")
	// ErrBusy is a caller past its fetches in flight, or the node past its own, after waiting
	// FetchWait for one to end.
	ErrBusy = errors.New("imageproxy: too many pictures are loading")
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
	// Timeout bounds the wait for the host's reply, redirects included, and its first bytes,
	// or for a resize the whole picture (DefaultTimeout when 0).
	Timeout time.Duration
	// MaxFetches and MaxFetchesPerUser bound the fetches in flight on the node and for one user
	// (DefaultMaxFetches, DefaultMaxFetchesPerUser when 0); FetchWait is how long a request
	// waits for a free one before ErrBusy (DefaultFetchWait when 0).
	MaxFetches        int
	MaxFetchesPerUser int
	FetchWait         time.Duration
	// SendStall is how long one write to the browser may take (DefaultSendStall when 0): a
	// browser that stops reading is dropped then, and its fetch ends.
	SendStall time.Duration
}

// Proxy fetches pictures.
type Proxy struct {
	client     *outbound.Client
	timeout    time.Duration
	maxPixels  int64
	decodes    chan struct{} // a slot per decode under way
	decodeWait time.Duration
	fetches    chan struct{} // a slot per fetch in flight on the node
	perUser    int
	fetchWait  time.Duration
	sendStall  time.Duration

	mu    sync.Mutex
	users map[int64]*userFetches
}

// userFetches are one user's fetch slots, kept while any request of theirs holds or awaits one.
type userFetches struct {
	slots   chan struct{}
	holders int // requests holding or awaiting one of the slots
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
	if o.MaxFetches == 0 {
		o.MaxFetches = DefaultMaxFetches
	}
	if o.MaxFetchesPerUser == 0 {
		o.MaxFetchesPerUser = DefaultMaxFetchesPerUser
	}
	if o.FetchWait == 0 {
		o.FetchWait = DefaultFetchWait
	}
	if o.SendStall == 0 {
		o.SendStall = DefaultSendStall
	}
	return &Proxy{
		// Pictures' hosts fail often: what the network said goes to the debug log.
		client: outbound.New(outbound.Options{Allow: o.Allow, Timeout: transferTimeout,
			MaxBytes: o.MaxBytes, MaxRedirects: maxRedirects, DetailLevel: slog.LevelDebug}),
		timeout:    o.Timeout,
		maxPixels:  int64(o.MaxPixels),
		decodes:    make(chan struct{}, o.MaxDecodes),
		decodeWait: o.DecodeWait,
		fetches:    make(chan struct{}, o.MaxFetches),
		perUser:    o.MaxFetchesPerUser,
		fetchWait:  o.FetchWait,
		sendStall:  o.SendStall,
		users:      map[int64]*userFetches{},
	}
}

// InFlight is the number of fetches in flight on the node.
func (p *Proxy) InFlight() int { return len(p.fetches) }

// admit takes a fetch slot of the user's and one of the node's, waiting at most fetchWait for
// both; release gives them back.
func (p *Proxy) admit(ctx context.Context, userID int64) (release func(), err error) {
	p.mu.Lock()
	u := p.users[userID]
	if u == nil {
		u = &userFetches{slots: make(chan struct{}, p.perUser)}
		p.users[userID] = u
	}
	u.holders++
	p.mu.Unlock()
	leave := func() {
		p.mu.Lock()
		if u.holders--; u.holders == 0 {
			delete(p.users, userID)
		}
		p.mu.Unlock()
	}
	wait := time.NewTimer(p.fetchWait)
	defer wait.Stop()
	// The user's slot first, so that a user's requests beyond their share never hold the node's.
	for _, slots := range []chan struct{}{u.slots, p.fetches} {
		select {
		case slots <- struct{}{}:
		case <-wait.C:
			err = ErrBusy
		case <-ctx.Done():
			err = ctx.Err()
		}
		if err != nil {
			if slots == p.fetches {
				<-u.slots
			}
			leave()
			return nil, err
		}
	}
	return func() {
		<-p.fetches
		<-u.slots
		leave()
	}, nil
}

// Picture is a picture on its way from its host: its type, and a body sent once with Send.
// Close it in every case: it holds a fetch slot, and a decode slot when it was resized.
type Picture struct {
	ContentType string
	// Length is the size in bytes when known before sending, else -1.
	Length int64

	proxy *Proxy
	send  func(w io.Writer) error
	done  func()
	once  sync.Once
}

// Close ends the fetch and gives back its slots.
func (pic *Picture) Close() { pic.once.Do(pic.done) }

// Send writes the picture to w, a browser's connection: setWriteDeadline (the connection's)
// bounds each write by SendStall, so a browser that stops reading is dropped.
func (pic *Picture) Send(w io.Writer, setWriteDeadline func(time.Time) error) error {
	return pic.send(&stallWriter{w: w, setDeadline: setWriteDeadline, stall: pic.proxy.sendStall})
}

// stallWriter gives each write to a browser its own deadline.
type stallWriter struct {
	w           io.Writer
	setDeadline func(time.Time) error
	stall       time.Duration
}

func (s *stallWriter) Write(b []byte) (int, error) {
	if err := s.setDeadline(time.Now().Add(s.stall)); err != nil {
		return 0, err
	}
	return s.w.Write(b)
}

// ParsePath reads what follows /proxy/images/ in the escaped request path: the picture's address,
// URL-encoded as one path segment, optionally after a "{width}x/" segment. Width 0 means the
// picture is passed on at its own size.
func ParsePath(escaped string) (target string, width int, err error) {
	target, width, err = parsePath(escaped)
	return target, width, withProblem(err)
}

func parsePath(escaped string) (target string, width int, err error) {
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

// Open fetches the picture at rawURL for a user and, when width is above 0 and the picture
// wider, prepares it scaled down to that width. What it returns is sent with Send and closed.
func (p *Proxy) Open(ctx context.Context, userID int64, rawURL string, width int) (*Picture, error) {
	pic, err := p.open(ctx, userID, rawURL, width)
	return pic, withProblem(err)
}

// failure is an error of Open or ParsePath with the problem the API answers for it.
type failure struct {
	err     error
	problem *problem.Problem
}

func (f *failure) Error() string   { return f.err.Error() }
func (f *failure) Unwrap() []error { return []error{f.err, f.problem} }

// msgNotLoaded is the host's fault, not the caller's: a gateway error the browser shows as a
// broken picture.
const msgNotLoaded = "The picture could not be loaded from its host."

// withProblem gives err the problem the API answers; an error it does not know (a cancelled
// request) stays as it is.
func withProblem(err error) error {
	var p *problem.Problem
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrBadURL):
		p = problem.InvalidField("url", "The picture's address must be an http or https address.")
	case errors.Is(err, ErrBadWidth):
		p = problem.InvalidField("width", fmt.Sprintf("The width must be between %d and %d pixels.", MinWidth, MaxWidth))
	case errors.Is(err, ErrForbiddenAddress):
		p = problem.Forbidden("Pictures are only fetched from public addresses.")
	case errors.Is(err, ErrBusy):
		p = problem.RateLimited("Too many pictures are loading. Try again in a moment.", time.Second)
	case errors.Is(err, ErrUpstream), errors.Is(err, ErrTooLarge), errors.Is(err, ErrNotImage):
		p = problem.BadGateway(msgNotLoaded)
	default:
		return err
	}
	return &failure{err: err, problem: p}
}

func (p *Proxy) open(ctx context.Context, userID int64, rawURL string, width int) (*Picture, error) {
	u, err := url.Parse(rawURL)
	if err != nil || len(rawURL) > maxURLLength {
		return nil, ErrBadURL
	}
	// A picture's address comes from content: credentials in it would be someone else's.
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return nil, ErrBadURL
	}
	release, err := p.admit(ctx, userID)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	end := func() { cancel(); release() }
	// The reply, its first bytes and, for a resize, the whole decode must come within
	// p.timeout, so a host that drips holds no decode slot for long; sending what follows is
	// bounded by ctx, the client's own bound and SendStall.
	waiting := time.AfterFunc(p.timeout, cancel)
	resp, err := p.get(ctx, u)
	if err != nil {
		waiting.Stop()
		end()
		return nil, err
	}
	pic, err := p.prepare(ctx, resp, width)
	if !waiting.Stop() && err == nil {
		pic.done()
		err = fmt.Errorf("%w: not delivered within %v", ErrUpstream, p.timeout)
	}
	if err != nil {
		resp.Body.Close()
		end()
		return nil, err
	}
	closePicture := pic.done
	pic.proxy, pic.done = p, func() {
		closePicture()
		resp.Body.Close()
		end()
	}
	return pic, nil
}

// get asks the host for the picture.
func (p *Proxy) get(ctx context.Context, u *url.URL) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, ErrBadURL
	}
	req.Header.Set("Accept", "image/avif,image/webp,image/png,image/jpeg,image/gif,image/*;q=0.8")
	req.Header.Set("User-Agent", "Sightline-ImageProxy/1")
	resp, err := p.client.Do(req)
	if err != nil {
		return nil, refusal(err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, fmt.Errorf("%w: status %d", ErrUpstream, resp.StatusCode)
	}
	if !strings.HasPrefix(strings.ToLower(resp.Header.Get("Content-Type")), "image/") {
		resp.Body.Close()
		return nil, ErrNotImage
	}
	return resp, nil
}

// prepare sniffs the reply's first bytes and makes the picture to send: scaled down when asked
// and possible, else the host's bytes as they stream in.
func (p *Proxy) prepare(ctx context.Context, resp *http.Response, width int) (*Picture, error) {
	body := bufio.NewReaderSize(resp.Body, 512)
	head, err := body.Peek(512)
	if err != nil && err != io.EOF {
		return nil, refusal(err)
	}
	// The declared type is only a hint: what the bytes are decides, so a page labelled as a
	// picture is never served from our origin.
	contentType, ok := servedTypes[http.DetectContentType(head)]
	if !ok {
		return nil, ErrNotImage
	}
	var rest io.Reader = body
	if width > 0 && scaledTypes[contentType] {
		var pic *Picture
		if pic, rest, err = p.scaleDown(ctx, body, contentType, width); pic != nil || err != nil {
			return pic, err
		}
	}
	return &Picture{ContentType: contentType, Length: resp.ContentLength, done: func() {},
		send: func(w io.Writer) error {
			_, err := io.CopyBuffer(w, rest, make([]byte, sendBuffer))
			return err
		}}, nil
}

// refusal says what the outbound guard refused; anything else is the host's failure. A name that
// resolved to a refused address is a host that could not be reached, like one that does not
// resolve: telling the two apart would map the names of the server's network.
func refusal(err error) error {
	var exchange *outbound.ExchangeError
	switch {
	case errors.As(err, &exchange):
		return fmt.Errorf("%w: %v", ErrUpstream, exchange)
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

// scaleDown returns the picture scaled down to width, decoded from the reply as it arrives and
// encoded straight into the browser's connection, under a decode slot held until the picture is
// closed, so decoded pixels are bounded by the slots. A picture whose header cannot be read
// within maxHeader bytes, whose declared dimensions would cost too much memory to decode, or
// that found no free decode in time, is not scaled: rest is then its bytes from the first.
func (p *Proxy) scaleDown(ctx context.Context, body io.Reader, contentType string, width int) (_ *Picture, rest io.Reader, _ error) {
	// The header's dimensions decide before anything is decoded; the decoders refuse pictures
	// whose data disagrees with their header.
	header := &recorder{r: body, max: maxHeader}
	cfg, _, err := image.DecodeConfig(header)
	rest = io.MultiReader(bytes.NewReader(header.buf), body)
	if err != nil || cfg.Width <= width || int64(cfg.Width)*int64(cfg.Height) > p.maxPixels {
		return nil, rest, nil
	}
	wait := time.NewTimer(p.decodeWait)
	defer wait.Stop()
	select {
	case p.decodes <- struct{}{}:
	case <-wait.C:
		return nil, rest, nil
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
	release := func() { <-p.decodes }
	read := &readErrors{r: rest}
	src, _, err := image.Decode(read)
	if err != nil {
		release()
		// Part of the picture is read already: it can no longer be passed on as it came. What
		// the reading said decides whose fault it was.
		if read.err != nil {
			return nil, nil, refusal(read.err)
		}
		return nil, nil, fmt.Errorf("%w: %v", ErrNotImage, err)
	}
	height := max(1, cfg.Height*width/cfg.Width)
	dst := image.NewRGBA(image.Rect(0, 0, width, height))
	draw.ApproxBiLinear.Scale(dst, dst.Bounds(), src, src.Bounds(), draw.Src, nil)
	// PNG keeps transparency; everything else becomes a JPEG, much smaller for photographs.
	if contentType == "image/png" {
		return &Picture{ContentType: "image/png", Length: -1, done: release,
			send: func(w io.Writer) error { return png.Encode(w, dst) }}, nil, nil
	}
	return &Picture{ContentType: "image/jpeg", Length: -1, done: release,
		send: func(w io.Writer) error { return jpeg.Encode(w, dst, &jpeg.Options{Quality: 85}) }}, nil, nil
}

// readErrors keeps the first error of its reader but the end: a picture cut short or too large
// is told from one that is not what its header said.
type readErrors struct {
	r   io.Reader
	err error
}

func (r *readErrors) Read(b []byte) (int, error) {
	n, err := r.r.Read(b)
	if err != nil && err != io.EOF && r.err == nil {
		r.err = err
	}
	return n, err
}

// recorder keeps what is read through it, up to max bytes, so that it can be read again.
type recorder struct {
	r   io.Reader
	buf []byte
	max int
}

var errHeaderTooLong = errors.New("imageproxy: the picture's header is too long to read")

func (r *recorder) Read(b []byte) (int, error) {
	room := r.max - len(r.buf)
	if room <= 0 {
		return 0, errHeaderTooLong
	}
	if len(b) > room {
		b = b[:room]
	}
	n, err := r.r.Read(b)
	r.buf = append(r.buf, b[:n]...)
	return n, err
}
