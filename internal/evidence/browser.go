package evidence

import (
	"context"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// browserTimeout bounds the browser's part of a capture: loading the page, the screenshot and
// the PDF.
const browserTimeout = 100 * time.Second

// DefaultChromium is where Debian installs Chromium: the default of serve's --chromium, which
// evidence captures (screenshot and PDF) and case exports (the report's PDF) use.
const DefaultChromium = "/usr/bin/chromium"

// MsgNoBrowser is what a record of pages captured without a browser says.
const MsgNoBrowser = "No screenshot or PDF: this server runs no Chromium (--chromium)."

// UsableChromium says whether path names a file that can be run as Chromium ("" and "off" do not).
func UsableChromium(path string) bool {
	if path == "" || path == "off" {
		return false
	}
	info, err := os.Stat(path)
	return err == nil && !info.IsDir() && info.Mode()&0o111 != 0
}

// FindBrowser is the path of a Chromium on the PATH, or "" when there is none: for the
// benchmark and tests (the server takes --chromium).
func FindBrowser() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// Limits of what the browser's own requests add to the WARC. Past them the page still gets its
// replies (the screenshot is of the whole page) but they are not recorded, and the capture's
// errors say how many were left out.
const (
	MaxBrowserRecords = 300
	MaxBrowserBytes   = 50 << 20
)

// browserLog collects the exchanges of the browser's requests, in the order they were
// answered, within the limits.
type browserLog struct {
	mu           sync.Mutex
	maxN         int
	maxBytes     int64
	closed       bool
	exchanges    []exchange
	bytes        int64
	leftOut      int
	leftOutBytes int64
}

func (l *browserLog) add(ex exchange) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	size := int64(len(ex.body))
	if len(l.exchanges) >= l.maxN || l.bytes+size > l.maxBytes {
		l.leftOut++
		l.leftOutBytes += size
		return
	}
	l.exchanges = append(l.exchanges, ex)
	l.bytes += size
}

// close stops the log (replies answered later are not recorded) and returns what it holds.
func (l *browserLog) close() (exchanges []exchange, leftOut int, leftOutBytes int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	return l.exchanges, l.leftOut, l.leftOutBytes
}

// rendered is what the browser made of a page: the screenshot, the PDF and the exchanges of
// the requests the browser made to draw them (the page itself, its redirects, stylesheets,
// scripts, pictures), with how many were answered but left out of the log by its limits.
type rendered struct {
	shot, pdf    []byte
	exchanges    []exchange
	leftOut      int
	leftOutBytes int64
}

// render loads the page in headless Chromium and returns a full-page screenshot (PNG) and a PDF.
// Every request the page makes is paused by the DevTools protocol and answered with what the
// outbound guard fetched, so the browser reaches nothing the guard would refuse; the proxy
// that leads nowhere makes anything that escapes interception (a websocket) fail. A redirect is
// given to the browser as such, so it follows it with a request of its own, paused in turn.
// Every exchange is logged, within maxBytes (and MaxBrowserRecords), for the WARC.
func (s *Service) render(ctx context.Context, pageURL string, maxBytes int64) (out rendered, err error) {
	log := &browserLog{maxN: s.limits.browserRecords, maxBytes: min(maxBytes, s.limits.browserBytes)}
	defer func() { out.exchanges, out.leftOut, out.leftOutBytes = log.close() }()
	ctx, cancel := context.WithTimeout(ctx, browserTimeout)
	defer cancel()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(s.Browser), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.ProxyServer("http://127.0.0.1:9"), chromedp.WindowSize(1280, 900),
		chromedp.Flag("hide-scrollbars", true), chromedp.Flag("mute-audio", true))
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(actx)
	defer cancelBrowser()
	paused := chromedp.Events(bctx, fetch.RequestPaused)
	if _, err := chromedp.Call(bctx, fetch.Enable, fetch.EnableParams{}); err != nil {
		return out, errors.New("Chromium did not start")
	}
	go func() {
		for ev, err := range paused {
			if err != nil {
				return
			}
			go s.answer(bctx, ev, log)
		}
	}()
	if err := chromedp.Do(bctx, chromedp.Navigate(pageURL)); err != nil {
		return out, errors.New("the page did not load in the browser")
	}
	if out.shot, err = chromedp.Run(bctx, chromedp.FullScreenshot(100)); err != nil {
		return out, errors.New("the screenshot failed")
	}
	if out.pdf, err = chromedp.Run(bctx, chromedp.PrintToPDF(chromedp.PDFPrintBackground())); err != nil {
		return out, errors.New("the PDF failed")
	}
	return out, nil
}

// answer fetches a paused request through the outbound guard and gives the browser the reply
// (a redirect as a redirect), logging the exchange, or fails the request the guard refused.
func (s *Service) answer(ctx context.Context, ev fetch.EventRequestPaused, log *browserLog) {
	fail := func() {
		chromedp.Call(ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonBlockedByClient})
	}
	if ev.Request == nil || (ev.Request.Method != http.MethodGet && ev.Request.Method != http.MethodHead) {
		fail()
		return
	}
	ex, _ := s.fetchOne(ctx, ev.Request.URL) // an error reply is still given to the page
	if ex.response == nil {
		fail()
		return
	}
	log.add(ex)
	var headers []*fetch.HeaderEntry
	for k, vs := range ex.response.Header {
		switch http.CanonicalHeaderKey(k) {
		case "Content-Encoding", "Transfer-Encoding", "Content-Length":
			continue // the body is given decoded and whole
		}
		for _, v := range vs {
			headers = append(headers, &fetch.HeaderEntry{Name: k, Value: v})
		}
	}
	chromedp.Call(ctx, fetch.FulfillRequest, fetch.FulfillRequestParams{RequestID: ev.RequestID,
		ResponseCode: int64(ex.response.StatusCode), ResponseHeaders: headers, Body: ex.body})
}
