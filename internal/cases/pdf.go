package cases

import (
	"context"
	"fmt"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/sightline/sightline/internal/evidence"
)

// PDFRenderer prints a report's HTML as a PDF.
type PDFRenderer interface {
	PDF(ctx context.Context, html []byte) ([]byte, error)
}

// ChromiumPDF prints with a headless Chromium on the server, one browser per report: exports
// are rare and a browser left running would hold memory between them.
type ChromiumPDF struct {
	Path string
}

// pdfTimeout bounds starting the browser and printing one report, well within the request's minute.
const pdfTimeout = 30 * time.Second

// NewChromiumPDF returns a renderer over the Chromium at path (serve's --chromium), or nil when
// there is none there ("" or "off"): exports then have no PDF and say so.
func NewChromiumPDF(path string) *ChromiumPDF {
	if !evidence.UsableChromium(path) {
		return nil
	}
	return &ChromiumPDF{Path: path}
}

// PDF loads the HTML into a blank page (the report has no external resources, so nothing is
// fetched) and prints it on A4.
func (c *ChromiumPDF) PDF(ctx context.Context, html []byte) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, pdfTimeout)
	defer cancel()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(c.Path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.Flag("disable-extensions", true),
		chromedp.Flag("blink-settings", "imagesEnabled=false"),
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	browserCtx, cancelBrowser := chromedp.NewContext(allocCtx)
	defer cancelBrowser()
	if err := chromedp.Do(browserCtx,
		chromedp.Navigate("about:blank"),
		chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			tree, err := cdp.Call(ctx, t, page.GetFrameTree, cdp.Empty{})
			if err != nil {
				return err
			}
			_, err = cdp.Call(ctx, t, page.SetDocumentContent, page.SetDocumentContentParams{
				FrameID: tree.FrameTree.Frame.ID, HTML: string(html)})
			return err
		}),
	); err != nil {
		return nil, fmt.Errorf("cases: load the report: %w", err)
	}
	out, err := chromedp.Run(browserCtx, chromedp.PrintToPDF(chromedp.PDFPaper(chromedp.PaperA4), chromedp.PDFPrintBackground()))
	if err != nil {
		return nil, fmt.Errorf("cases: print the report: %w", err)
	}
	return out, nil
}
