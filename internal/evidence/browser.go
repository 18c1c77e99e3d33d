package evidence

import (
	"context"
	"errors"
	"net/http"
	"os/exec"
	"time"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// browserTimeout bounds the browser's part of a capture: loading the page, the screenshot and
// the PDF.
const browserTimeout = 100 * time.Second

// FindBrowser is the path of the server's Chromium, or "" when it has none.
func FindBrowser() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// render loads the page in headless Chromium and returns a full-page screenshot (PNG) and a PDF.
// Every request the page makes is paused by the DevTools protocol and answered with what the
// outbound guard fetched, so the browser reaches nothing the guard would refuse; the proxy
// that leads nowhere makes anything that escapes interception (a websocket) fail.
func (s *Service) render(ctx context.Context, pageURL string) (shot, pdf []byte, err error) {
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
		return nil, nil, errors.New("Chromium did not start")
	}
	go func() {
		for ev, err := range paused {
			if err != nil {
				return
			}
			go s.answer(bctx, ev)
		}
	}()
	if err := chromedp.Do(bctx, chromedp.Navigate(pageURL)); err != nil {
		return nil, nil, errors.New("the page did not load in the browser")
	}
	if shot, err = chromedp.Run(bctx, chromedp.FullScreenshot(100)); err != nil {
		return nil, nil, errors.New("the screenshot failed")
	}
	if pdf, err = chromedp.Run(bctx, chromedp.PrintToPDF(chromedp.PDFPrintBackground())); err != nil {
		return shot, nil, errors.New("the PDF failed")
	}
	return shot, pdf, nil
}

// answer fetches a paused request through the outbound guard and gives the browser the reply,
// or fails the request the guard refused.
func (s *Service) answer(ctx context.Context, ev fetch.EventRequestPaused) {
	fail := func() {
		chromedp.Call(ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonBlockedByClient})
	}
	if ev.Request == nil || (ev.Request.Method != http.MethodGet && ev.Request.Method != http.MethodHead) {
		fail()
		return
	}
	ex, _ := s.fetch(ctx, ev.Request.URL) // an error reply is still given to the page
	if ex.response == nil {
		fail()
		return
	}
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
