package api_test

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"net/http"
	"testing"

	"github.com/sightline/sightline/internal/api"
	"github.com/sightline/sightline/internal/evidence"
	"github.com/sightline/sightline/internal/evidence/evidencetest"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/outbound"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
	"github.com/sightline/sightline/internal/story"
)

// TestEvidenceAPI captures a page through the API, reads the record, a file and the bundle, and
// checks that another organization finds none of it and that bad requests say why.
func TestEvidenceAPI(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		site := evidencetest.NewSite()
		defer site.Close()
		tsa, err := evidencetest.NewTSA()
		if err != nil {
			t.Fatal(err)
		}
		defer tsa.Close()
		svc := evidence.NewService(evidence.Deps{Store: s, Posts: s, Matches: monitor.NewService(monitor.Deps{Store: s, Inbox: s}),
			Stories: story.NewService(s), Users: s, Fetch: outbound.New(outbound.Options{AllowPrivate: true}), TSA: []string{tsa.URL}})
		e := newEnvWith(t, s, func(d *api.Deps) { d.Evidence = svc })
		analyst, other := e.signedIn("analyst@acme.test"), e.signedIn("owner@globex.test")
		bearer := func(c *client) opt { return withBearer(c.bearer) }

		r := analyst.do("POST", "/api/v1/evidence", map[string]string{"url": site.URL + "/post/7"}, bearer(analyst))
		if r.status != http.StatusAccepted {
			t.Fatalf("POST = %d %v", r.status, r.body)
		}
		id := dig(r.body, "data", "id").(string)
		if worked, err := svc.RunOnce(context.Background()); err != nil || !worked {
			t.Fatalf("worker: %v %v", worked, err)
		}
		r = analyst.do("GET", "/api/v1/evidence/"+id, nil, bearer(analyst))
		if r.status != http.StatusOK || dig(r.body, "data", "state") != "done" || dig(r.body, "data", "capturedAt") == nil {
			t.Fatalf("GET = %d %v", r.status, r.body)
		}
		if files := dig(r.body, "data", "files").([]any); len(files) != 2 {
			t.Errorf("files %v", files)
		}
		if stamps := dig(r.body, "data", "timestamps").([]any); len(stamps) != 1 || dig(stamps[0], "tsa") != tsa.URL {
			t.Errorf("timestamps %v", stamps)
		}
		get := func(c *client, path string) (int, []byte) {
			req, _ := http.NewRequest("GET", e.srv.URL+path, nil)
			req.Header.Set("Authorization", "Bearer "+c.bearer)
			resp, err := c.http.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			return resp.StatusCode, b
		}
		if status, b := get(analyst, "/api/v1/evidence/"+id+"/files/page.warc"); status != http.StatusOK || !bytes.HasPrefix(b, []byte("WARC/1.1")) {
			t.Errorf("file = %d %q", status, b[:min(len(b), 20)])
		}
		status, b := get(analyst, "/api/v1/evidence/"+id+"/bundle")
		if status != http.StatusOK {
			t.Fatalf("bundle = %d", status)
		}
		zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			t.Fatal(err)
		}
		if rep := evidence.Verify(zr, nil); !rep.OK() {
			t.Errorf("the downloaded bundle does not verify: %+v", rep.Findings)
		}
		if r := analyst.do("GET", "/api/v1/evidence", nil, bearer(analyst)); len(dig(r.body, "data").([]any)) != 1 || len(dig(dig(r.body, "data").([]any)[0], "files").([]any)) != 2 {
			t.Errorf("list %v", r.body)
		}
		// Another organization: every path is not found, the list is empty.
		for _, path := range []string{"/api/v1/evidence/" + id, "/api/v1/evidence/" + id + "/files/page.warc", "/api/v1/evidence/" + id + "/bundle"} {
			if status, _ := get(other, path); status != http.StatusNotFound {
				t.Errorf("another organization: GET %s = %d", path, status)
			}
		}
		if r := other.do("DELETE", "/api/v1/evidence/"+id, nil, bearer(other)); r.status != http.StatusNotFound {
			t.Errorf("another organization: DELETE = %d", r.status)
		}
		if r := other.do("GET", "/api/v1/evidence", nil, bearer(other)); len(dig(r.body, "data").([]any)) != 0 {
			t.Errorf("another organization lists %v", r.body)
		}
		// Only owners and admins delete.
		if r := analyst.do("DELETE", "/api/v1/evidence/"+id, nil, bearer(analyst)); r.status != http.StatusForbidden {
			t.Errorf("member DELETE = %d", r.status)
		}
		owner := e.signedIn("owner@acme.test")
		if r := owner.do("DELETE", "/api/v1/evidence/"+id, nil, bearer(owner)); r.status != http.StatusNoContent {
			t.Errorf("owner DELETE = %d %v", r.status, r.body)
		}
		for body, want := range map[string]string{`{}`: evidence.MsgOneTarget, `{"url":"ftp://x"}`: evidence.MsgBadURL} {
			req, _ := http.NewRequest("POST", e.srv.URL+"/api/v1/evidence", bytes.NewBufferString(body))
			req.Header.Set("Content-Type", "application/json")
			r := analyst.send(req, bearer(analyst))
			if r.status != http.StatusUnprocessableEntity || dig(r.body, "message") != want {
				t.Errorf("%s = %d %v", body, r.status, r.body)
			}
		}
	})
}
