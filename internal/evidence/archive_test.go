package evidence_test

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/nlnwa/gowarc/v2"

	"github.com/sightline/sightline/internal/evidence"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// warcRecord is one record of a WARC file as the tests look at it: its type, target and, for
// a response, its status and where a redirect sends.
type warcRecord struct {
	Type, Target string
	Status       int
	Location     string
}

func (r warcRecord) String() string {
	return fmt.Sprintf("%s %s %d %s", r.Type, r.Target, r.Status, r.Location)
}

func warcRecords(t *testing.T, b []byte) []warcRecord {
	t.Helper()
	rd, err := gowarc.NewWarcFileReaderFromStream(bufio.NewReader(bytes.NewReader(b)), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	var out []warcRecord
	for {
		rec, _, _, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		r := warcRecord{Type: rec.Type().String(), Target: rec.WarcHeader().Get(gowarc.WarcTargetURI)}
		if resp, ok := rec.Block().(gowarc.HttpResponseBlock); ok {
			r.Status = resp.HttpStatusCode()
			r.Location = resp.HttpHeader().Get("Location")
		}
		rec.Close()
		out = append(out, r)
	}
}

// file reads one file of a finished record.
func (f *fixture) file(t *testing.T, r evidence.Record, name string) []byte {
	t.Helper()
	file, err := f.svc.File(context.Background(), f.owner, id(r), name)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return file.Content
}

// changeWARCRecord rewrites the bundle with one byte changed in the body of the WARC record
// whose block holds marker, and returns the bundle.
func changeWARCRecord(t *testing.T, b []byte, marker string) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	changed := false
	for _, zf := range zr.File {
		rc, _ := zf.Open()
		data, _ := io.ReadAll(rc)
		rc.Close()
		if zf.Name == "page.warc" {
			i := bytes.Index(data, []byte(marker))
			if i < 0 {
				t.Fatalf("no %q in the WARC", marker)
			}
			data[i+len(marker)-1] ^= 0x01
			changed = true
		}
		w, _ := zw.Create(zf.Name)
		w.Write(data)
	}
	zw.Close()
	if !changed {
		t.Fatal("the bundle has no page.warc")
	}
	return out.Bytes()
}

// failures are verify's findings that name a problem, one a line.
func failures(rep evidence.Report) string {
	var out []string
	for _, fd := range rep.Findings {
		if fd.Problem != "" {
			out = append(out, fd.File+": "+fd.Problem)
		}
	}
	return strings.Join(out, "\n")
}

// TestRedirectChainIsInTheWARC captures an address that redirects twice (301, then 302) and
// expects every hop's response and request in the WARC before the final page's, the bundle to
// verify, and a changed byte of a redirect's record to be named.
func TestRedirectChainIsInTheWARC(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s, true)
		r := f.capture(t, f.owner, evidence.Input{URL: f.site + "/moved/7"})
		if r.State != evidence.StateDone || names(r) != "capture.json,page.warc" {
			t.Fatalf("state %s, files %s, errors %v", r.State, names(r), r.Errors)
		}
		got := warcRecords(t, f.file(t, r, "page.warc"))
		want := []warcRecord{
			{Type: "warcinfo"},
			{Type: "response", Target: f.site + "/moved/7", Status: 301, Location: "/hop/7"},
			{Type: "request", Target: f.site + "/moved/7"},
			{Type: "response", Target: f.site + "/hop/7", Status: 302, Location: "/post/7"},
			{Type: "request", Target: f.site + "/hop/7"},
			{Type: "response", Target: f.site + "/post/7", Status: 200},
			{Type: "request", Target: f.site + "/post/7"},
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("WARC records\n got %v\nwant %v", got, want)
		}
		b := bundle(t, f, f.owner, r)
		if rep := verify(t, b, nil); !rep.OK() {
			t.Fatalf("verify: %s", failures(rep))
		}
		rep := verify(t, changeWARCRecord(t, b, "Location: /post/7"), nil)
		if rep.OK() || !strings.Contains(failures(rep), "page.warc: WARC: record 4 ") || !strings.Contains(failures(rep), f.site+"/hop/7") {
			t.Errorf("a changed byte of the second redirect:\n%s", failures(rep))
		}
	})
}

// TestRedirectsOfMediaAndRefusedHops: a medium reached by a redirect is stored with its final
// reply's type after the redirect's records, and a redirect to an address the guard refuses
// keeps the redirect in the WARC and says what failed.
func TestRedirectsOfMediaAndRefusedHops(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s, false)
		p := f.post(t, "p-1", f.site+"/post/1")
		p.ID, p.NativeID, p.Photos = "p-2", "p-2", []post.Media{{Large: f.site + "/away?to=/media/1.png"}}
		if _, err := s.InsertPosts(context.Background(), []post.Post{p}); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			name      string
			in        evidence.Input
			state     string
			files     string
			err       string
			responses []int
		}{
			{"a medium behind a redirect", evidence.Input{PostID: "p-2"}, evidence.StateDone,
				"capture.json,media/01.png,page.warc,post.json", "", []int{200, 302, 200}},
			{"a redirect to a closed port", evidence.Input{URL: f.site + "/away?to=http://127.0.0.1:1/x"}, evidence.StatePartial,
				"capture.json,page.warc", "the redirect to http://127.0.0.1:1/x", []int{302}},
			{"a redirect to cloud metadata", evidence.Input{URL: f.site + "/away?to=http://169.254.169.254/latest"}, evidence.StatePartial,
				"capture.json,page.warc", "the redirect to http://169.254.169.254/latest", []int{302}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := f.capture(t, f.owner, tc.in)
				if r.State != tc.state || names(r) != tc.files {
					t.Fatalf("state %s, files %s, errors %v", r.State, names(r), r.Errors)
				}
				if tc.err != "" && (len(r.Errors) != 1 || !strings.Contains(r.Errors[0], tc.err)) {
					t.Errorf("errors %v, want one with %q", r.Errors, tc.err)
				}
				var responses []int
				for _, rec := range warcRecords(t, f.file(t, r, "page.warc")) {
					if rec.Type == "response" {
						responses = append(responses, rec.Status)
					}
				}
				if fmt.Sprint(responses) != fmt.Sprint(tc.responses) {
					t.Errorf("responses %v, want %v", responses, tc.responses)
				}
				if rep := verify(t, bundle(t, f, f.owner, r), nil); !rep.OK() {
					t.Errorf("verify: %s", failures(rep))
				}
			})
		}
	})
}
