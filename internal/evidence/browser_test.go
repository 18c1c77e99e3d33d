package evidence_test

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sightline/sightline/internal/evidence"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// chromium is the server's Chromium, or the test is skipped.
func chromium(t *testing.T) string {
	t.Helper()
	if testing.Short() || !evidence.UsableChromium(evidence.DefaultChromium) {
		t.Skip("needs Chromium at " + evidence.DefaultChromium + " and the full tier")
	}
	return evidence.DefaultChromium
}

// TestTheBrowsersRequestsAreInTheWARC captures, with the browser, an address that redirects
// twice to a page with a stylesheet and a picture: after the capture's own fetches, the WARC
// holds the browser's requests (the redirects it followed itself, the page, the stylesheet and
// the picture), the bundle verifies, and a changed byte of the stylesheet's record is named.
// With a limit of two requests the rest are left out and the errors say so.
func TestTheBrowsersRequestsAreInTheWARC(t *testing.T) {
	browser := chromium(t)
	f := newFixture(t, storetest.Open(t, store.SQLite), true)
	f.svc.Browser = browser
	r := f.capture(t, f.owner, evidence.Input{URL: f.site + "/moved/5"})
	if r.State != evidence.StateDone || names(r) != "capture.json,page.pdf,page.warc,screenshot.png" {
		t.Fatalf("state %s, files %s, errors %v", r.State, names(r), r.Errors)
	}
	var responses []string
	for _, rec := range warcRecords(t, f.file(t, r, "page.warc")) {
		if rec.Type == "response" {
			responses = append(responses, strings.TrimPrefix(rec.Target, f.site)+" "+strconv.Itoa(rec.Status))
		}
	}
	// The capture's fetch, then the browser's, in the order the replies came (the redirects and the
	// page before what the page asks for).
	fetched := []string{"/moved/5 301", "/hop/5 302", "/post/5 200"}
	if len(responses) < 8 || !slices.Equal(responses[:6], append(fetched, fetched...)) ||
		!slices.Contains(responses[6:], "/style.css 200") || !slices.Contains(responses[6:], "/media/1.png 200") {
		t.Fatalf("responses in the WARC: %v", responses)
	}
	var doc struct {
		Browser         bool
		BrowserRequests int
	}
	if err := json.Unmarshal(f.file(t, r, "capture.json"), &doc); err != nil || !doc.Browser || doc.BrowserRequests != len(responses)-3 {
		t.Errorf("capture.json %+v (%v), %d responses", doc, err, len(responses))
	}
	b := bundle(t, f, f.owner, r)
	if rep := verify(t, b, nil); !rep.OK() {
		t.Fatalf("verify: %s", failures(rep))
	}
	rep := verify(t, changeWARCRecord(t, b, "h1{color:#1"), nil)
	if !strings.Contains(failures(rep), "page.warc: WARC: record") || !strings.Contains(failures(rep), f.site+"/style.css") {
		t.Errorf("a changed byte of the stylesheet's record:\n%s", failures(rep))
	}

	evidence.SetLimits(f.svc, 2, evidence.MaxBrowserBytes, evidence.MaxStreamFiles, evidence.MaxStreamBytes)
	cut := f.capture(t, f.owner, evidence.Input{URL: f.site + "/post/6"})
	if cut.State != evidence.StatePartial || len(cut.Errors) != 1 || !strings.Contains(cut.Errors[0], "of the page's requests") ||
		!strings.Contains(cut.Errors[0], "are not in the WARC: past 2 requests") {
		t.Fatalf("state %s, errors %v", cut.State, cut.Errors)
	}
	browserResponses := -1 // the capture's own fetch of the page
	for _, rec := range warcRecords(t, f.file(t, cut, "page.warc")) {
		if rec.Type == "response" {
			browserResponses++
		}
	}
	if browserResponses != 2 || names(cut) != "capture.json,page.pdf,page.warc,screenshot.png" {
		t.Errorf("%d of the browser's responses in the WARC, files %s", browserResponses, names(cut))
	}
	if rep := verify(t, bundle(t, f, f.owner, cut), nil); !rep.OK() {
		t.Errorf("verify: %s", failures(rep))
	}
}

// TestNoBrowserIsSaid: a capture of a page on a server without Chromium says there is no
// screenshot, in capture.json and the record's warnings; a capture without a page to draw
// does not.
func TestNoBrowserIsSaid(t *testing.T) {
	f := newFixture(t, storetest.Open(t, store.SQLite), true)
	f.post(t, "p-nolink", "")
	for _, tc := range []struct {
		name    string
		in      evidence.Input
		browser string
		warning bool
	}{
		{"a page", evidence.Input{URL: f.site + "/post/1"}, "", true},
		{"a post without a link", evidence.Input{PostID: "p-nolink"}, "", false},
		// A stream's manifest has nothing to draw: the browser (here one that cannot start, which
		// would be an error) is not run, and its absence is not a warning.
		{"a stream's manifest", evidence.Input{URL: f.site + "/video/manifest.mpd"}, "/nonexistent/chromium", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f.svc.Browser = tc.browser
			r := f.capture(t, f.owner, tc.in)
			if r.State != evidence.StateDone {
				t.Fatalf("state %s, errors %v", r.State, r.Errors)
			}
			warned := slices.Contains(r.Payload().Warnings, evidence.MsgNoBrowser)
			var doc struct{ NoBrowser string }
			if err := json.Unmarshal(f.file(t, r, "capture.json"), &doc); err != nil {
				t.Fatal(err)
			}
			if warned != tc.warning || (doc.NoBrowser != "") != tc.warning {
				t.Errorf("warnings %v, capture.json noBrowser %q", r.Payload().Warnings, doc.NoBrowser)
			}
		})
	}
}
