package api_test

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/x509"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/api"
	"github.com/sightline/sightline/internal/evidence"
	"github.com/sightline/sightline/internal/evidence/evidencetest"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/outbound"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
	"github.com/sightline/sightline/internal/story"
)

// A case holding a real capture of a post (its page from a local site, timestamped by a local
// RFC 3161 authority) exports a ZIP that evidence.Verify — what `sightline evidence verify`
// runs — passes, timestamps chained to the authority; one byte changed in the capture's page
// makes it fail on that file.
func TestCaseExportVerifiesWithRealEvidence(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		site := evidencetest.NewSite()
		defer site.Close()
		tsa, err := evidencetest.NewTSA()
		if err != nil {
			t.Fatal(err)
		}
		defer tsa.Close()
		ev := evidence.NewService(evidence.Deps{Store: s, Posts: s, Matches: monitor.NewService(monitor.Deps{Store: s, Inbox: s}),
			Stories: story.NewService(s), Users: s, Fetch: outbound.New(outbound.Options{AllowPrivate: true}), TSA: []string{tsa.URL}})
		x := newCaseEnv(t, s, ev, func(d *api.Deps) { d.Evidence = ev }) // as internal/server wires both
		p := post.Post{Provider: "news", NativeID: "harbour-9", ContentText: "The harbour is closed.", Language: "en",
			PublishedAt: time.Now().Add(-time.Hour), PostLink: site.URL + "/post/9"}
		if err := p.Normalize(time.Now()); err != nil {
			t.Fatal(err)
		}
		p.StoryID = p.ID
		if _, err := s.InsertPosts(ctx, []post.Post{p}); err != nil {
			t.Fatal(err)
		}
		owner := x.signedIn("owner@acme.test")

		r := owner.call2("POST", "/api/v1/evidence", map[string]string{"postId": p.ID})
		if r.status != http.StatusAccepted {
			t.Fatalf("capture = %d %v", r.status, r.body)
		}
		evID := dig(r.body, "data", "id").(string)
		if worked, err := ev.RunOnce(ctx); err != nil || !worked {
			t.Fatalf("capture worker: %v %v", worked, err)
		}
		if r := owner.call2("GET", "/api/v1/evidence/"+evID, nil); dig(r.body, "data", "state") != "done" ||
			len(dig(r.body, "data", "timestamps").([]any)) != 1 {
			t.Fatalf("capture = %v, want done with one timestamp", r.body)
		}
		id := owner.createCase(t, "Harbour closure")
		if r := owner.call2("POST", "/api/v1/cases/"+id+"/items", map[string]any{"evidenceId": evID, "note": "As it was online."}); r.status != http.StatusCreated {
			t.Fatalf("evidence item = %d %v", r.status, r.body)
		}

		req, _ := http.NewRequest("GET", x.srv.URL+"/api/v1/cases/"+id+"/export", nil)
		req.Header.Set("Authorization", "Bearer "+owner.bearer)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("export = %d", resp.StatusCode)
		}
		zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
		if err != nil {
			t.Fatal(err)
		}
		roots := x509.NewCertPool()
		roots.AddCert(tsa.Cert)
		rep := evidence.Verify(zr, roots)
		if !rep.OK() {
			t.Fatalf("the case export does not verify: %+v", rep.Findings)
		}
		page := "evidence/" + evID + "/page.warc"
		checked := map[string]bool{}
		for _, f := range rep.Findings {
			checked[f.File] = true
		}
		if stamp := "evidence/" + evID + "/timestamps/1.tsr"; zipFile(zr, page) == nil || !checked[page] || !checked[stamp] {
			t.Errorf("findings %+v: want the capture's page and its timestamp checked", rep.Findings)
		}

		// One byte of the capture's page changed, everything else as exported.
		var tampered bytes.Buffer
		zw := zip.NewWriter(&tampered)
		for _, f := range zr.File {
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(rc)
			rc.Close()
			if f.Name == page {
				b[len(b)/2] ^= 0x01
			}
			w, err := zw.Create(f.Name)
			if err != nil {
				t.Fatal(err)
			}
			w.Write(b)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		zr2, err := zip.NewReader(bytes.NewReader(tampered.Bytes()), int64(tampered.Len()))
		if err != nil {
			t.Fatal(err)
		}
		rep = evidence.Verify(zr2, roots)
		if rep.OK() {
			t.Fatal("a case export with a changed byte verifies")
		}
		var named []string
		for _, f := range rep.Findings {
			if f.Problem != "" {
				named = append(named, fmt.Sprintf("%s: %s", f.File, f.Problem))
			}
		}
		if !strings.Contains(strings.Join(named, "\n"), page) {
			t.Errorf("problems %q: want the changed %s named", named, page)
		}
	})
}

func zipFile(zr *zip.Reader, name string) *zip.File {
	for _, f := range zr.File {
		if f.Name == name {
			return f
		}
	}
	return nil
}
