package evidence_test

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/x509"
	"io"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/evidence"
	"github.com/sightline/sightline/internal/evidence/evidencetest"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/outbound"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
	"github.com/sightline/sightline/internal/story"
)

// fixture is a store with two organizations, a post of a local site, the site and a local
// timestamp authority.
type fixture struct {
	s                    *store.Store
	svc                  *evidence.Service
	owner, member, other authz.Actor
	tsa                  *evidencetest.TSA
	site                 string
}

func newFixture(t *testing.T, s *store.Store, tsa bool) *fixture {
	t.Helper()
	ctx := context.Background()
	accounts := account.NewService(s)
	user := func(org, email string, role account.Role) authz.Actor {
		u, err := accounts.CreateUser(ctx, account.NewUser{Organization: org, Email: email, Password: "correct-horse-9", Role: role})
		if err != nil {
			t.Fatal(err)
		}
		return auth.Identity{User: u, Role: role}.Actor()
	}
	f := &fixture{s: s, owner: user("Acme", "owner@acme.test", account.RoleOwner)}
	f.member = user("Acme", "member@acme.test", account.RoleMember)
	f.other = user("Globex", "owner@globex.test", account.RoleOwner)
	site := evidencetest.NewSite()
	t.Cleanup(site.Close)
	f.site = site.URL
	var urls []string
	if tsa {
		var err error
		if f.tsa, err = evidencetest.NewTSA(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(f.tsa.Close)
		urls = []string{f.tsa.URL}
	}
	f.svc = evidence.NewService(evidence.Deps{Store: s, Posts: s, Matches: monitor.NewService(monitor.Deps{Store: s, Inbox: s}),
		Stories: story.NewService(s), Users: s, Fetch: outbound.New(outbound.Options{AllowPrivate: true}), TSA: urls})
	return f
}

func (f *fixture) post(t *testing.T, id, link string) post.Post {
	t.Helper()
	now := time.Now().UTC().Truncate(time.Millisecond)
	p := post.Post{ID: id, Provider: "reddit", NativeID: id, Type: post.TypeThreadPost, AuthorName: "Ana",
		ContentText: "The harbour is closed.", PostLink: link, PublishedAt: now, DiscoveredAt: now, StoryID: id,
		Photos: []post.Media{{Large: f.site + "/media/1.png"}}}
	if _, err := f.s.InsertPosts(context.Background(), []post.Post{p}); err != nil {
		t.Fatal(err)
	}
	return p
}

// capture asks for a capture and runs the worker until it finishes.
func (f *fixture) capture(t *testing.T, actor authz.Actor, in evidence.Input) evidence.Record {
	t.Helper()
	ctx := context.Background()
	r, err := f.svc.Request(ctx, actor, in)
	if err != nil {
		t.Fatal(err)
	}
	if worked, err := f.svc.RunOnce(ctx); err != nil || !worked {
		t.Fatalf("worker: worked %v, %v", worked, err)
	}
	got, err := f.svc.Get(ctx, actor, id(r))
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func id(r evidence.Record) string { return r.Payload().ID }

func names(r evidence.Record) string {
	var out []string
	for _, f := range r.Files {
		out = append(out, f.Name)
	}
	return strings.Join(out, ",")
}

func bundle(t *testing.T, f *fixture, actor authz.Actor, r evidence.Record) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := f.svc.WriteBundle(context.Background(), actor, id(r), &buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func verify(t *testing.T, b []byte, roots *x509.CertPool) evidence.Report {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	return evidence.Verify(zr, roots)
}

func TestCaptureOfAPostIsTimestampedAndVerifies(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s, true)
		p := f.post(t, "p-1", f.site+"/post/1")
		r := f.capture(t, f.member, evidence.Input{PostID: p.ID})
		if r.State != evidence.StateDone || len(r.Errors) != 0 {
			t.Fatalf("state %s, errors %v", r.State, r.Errors)
		}
		if got := names(r); got != "capture.json,media/01.png,page.warc,post.json" {
			t.Errorf("files %s", got)
		}
		if len(r.Timestamps) != 1 || r.Timestamps[0].TSA != f.tsa.URL || !strings.Contains(r.CapturedBy, "member@acme.test") {
			t.Errorf("timestamps %+v, captured by %q", r.Timestamps, r.CapturedBy)
		}
		media, err := f.svc.File(context.Background(), f.member, id(r), "media/01.png")
		if err != nil || !bytes.Equal(media.Content, evidencetest.Picture) {
			t.Fatalf("media: %v", err)
		}
		roots := x509.NewCertPool()
		roots.AddCert(f.tsa.Cert)
		b := bundle(t, f, f.member, r)
		if rep := verify(t, b, roots); !rep.OK() {
			t.Fatalf("verify: %+v", rep.Findings)
		}
		// A certificate that is not the authority's is refused when pinned.
		other, err := evidencetest.NewTSA()
		if err != nil {
			t.Fatal(err)
		}
		other.Close()
		pinned := x509.NewCertPool()
		pinned.AddCert(other.Cert)
		if rep := verify(t, b, pinned); rep.OK() {
			t.Error("verify accepted a timestamp of another authority than the pinned one")
		}
	})
}

// TestVerifyReportsOneChangedByte changes one byte of each file of a bundle in turn (inside
// the ZIP, rewriting it so the ZIP itself is sound) and expects verify to name that file.
func TestVerifyReportsOneChangedByte(t *testing.T) {
	f := newFixture(t, storetest.Open(t, store.SQLite), true)
	p := f.post(t, "p-1", f.site+"/post/1")
	r := f.capture(t, f.owner, evidence.Input{PostID: p.ID})
	b := bundle(t, f, f.owner, r)
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range zr.File {
		t.Run(target.Name, func(t *testing.T) {
			var out bytes.Buffer
			zw := zip.NewWriter(&out)
			for _, zf := range zr.File {
				rc, _ := zf.Open()
				data, _ := io.ReadAll(rc)
				rc.Close()
				if zf.Name == target.Name {
					data[len(data)/2] ^= 0x01
				}
				w, _ := zw.Create(zf.Name)
				w.Write(data)
			}
			zw.Close()
			rep := verify(t, out.Bytes(), nil)
			if rep.OK() {
				t.Fatal("verify passed a changed byte")
			}
			// manifest.json is not signed: a change to it shows as a file that disagrees with it.
			named := target.Name == evidence.ManifestName
			for _, fd := range rep.Findings {
				named = named || (fd.Problem != "" && fd.File == target.Name)
			}
			if !named {
				t.Errorf("no finding names %s: %+v", target.Name, rep.Findings)
			}
		})
	}
}

func TestAnotherOrganizationsEvidenceIsNotFound(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		f := newFixture(t, s, false)
		r := f.capture(t, f.owner, evidence.Input{URL: f.site + "/post/2"})
		if r.State != evidence.StateDone {
			t.Fatalf("state %s %v", r.State, r.Errors)
		}
		if w := r.Payload().Warnings; len(w) == 0 || !strings.HasPrefix(w[0], "Not timestamped: no timestamp authority") {
			t.Errorf("a capture without a timestamp authority should say so: %v", r.Payload().Warnings)
		}
		checks := map[string]error{}
		_, checks["get"] = f.svc.Get(ctx, f.other, id(r))
		_, checks["file"] = f.svc.File(ctx, f.other, id(r), "page.warc")
		checks["bundle"] = f.svc.WriteBundle(ctx, f.other, id(r), io.Discard)
		checks["delete"] = f.svc.Delete(ctx, f.other, id(r))
		_, checks["zip"] = f.svc.AddToZip(ctx, f.other, id(r), zip.NewWriter(io.Discard), "evidence/"+id(r))
		for what, err := range checks {
			if !problem.Is(err, problem.KindNotFound) {
				t.Errorf("%s: %v, want not found", what, err)
			}
		}
		list, err := f.svc.List(ctx, f.other, "", "")
		if err != nil || len(list) != 0 {
			t.Errorf("the other organization lists %d records (%v)", len(list), err)
		}
		if list, _ := f.svc.List(ctx, f.member, evidence.KindURL, f.site+"/post/2"); len(list) != 1 {
			t.Errorf("a member of the organization lists %d records", len(list))
		}
		// A post of another tenant's own source cannot be captured by name either.
		if _, err := f.svc.Request(ctx, f.owner, evidence.Input{PostID: "no-such-post"}); !problem.Is(err, problem.KindNotFound) {
			t.Errorf("unknown post: %v", err)
		}
	})
}

func TestDeletingLeavesAnAuditedTombstone(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		f := newFixture(t, s, true)
		p := f.post(t, "p-1", f.site+"/post/1")
		r := f.capture(t, f.member, evidence.Input{PostID: p.ID})
		if err := f.svc.Delete(ctx, f.member, id(r)); !problem.Is(err, problem.KindForbidden) {
			t.Fatalf("a member deleted evidence: %v", err)
		}
		if err := f.svc.Delete(ctx, f.owner, id(r)); err != nil {
			t.Fatal(err)
		}
		gone, err := f.svc.Get(ctx, f.member, id(r))
		if err != nil {
			t.Fatal(err)
		}
		if gone.State != evidence.StateDeleted || len(gone.Files) != len(r.Files) || gone.Files[0].SHA256 != r.Files[0].SHA256 ||
			len(gone.Timestamps) != 1 || gone.Payload().DeletedAt == nil {
			t.Fatalf("tombstone %+v", gone.Payload())
		}
		if _, err := f.svc.File(ctx, f.member, id(r), "post.json"); !problem.Is(err, problem.KindNotFound) {
			t.Errorf("a deleted file is served: %v", err)
		}
		var zipped bytes.Buffer
		zw := zip.NewWriter(&zipped)
		written, err := f.svc.AddToZip(ctx, f.owner, id(r), zw, "evidence/"+id(r))
		if err != nil || len(written) != 1 || written[0].Name != "evidence/"+id(r)+"/tombstone.json" {
			t.Errorf("a tombstone in a ZIP: %+v, %v", written, err)
		}
		entries, err := s.AuditLog(ctx, f.owner.TenantID, 10)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, e := range entries {
			if e.Model == "evidence" && e.Action == "deleted" && e.ModelID == id(r) && strings.Contains(e.PreviousValue, r.Files[0].SHA256) {
				found = true
			}
		}
		if !found {
			t.Errorf("no audit entry with the hashes: %+v", entries)
		}
	})
}

func TestFailedFetchKeepsWhatWasCapturedAndRecaptureLinks(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s, true)
		p := f.post(t, "p-1", f.site+"/missing")
		first := f.capture(t, f.owner, evidence.Input{PostID: p.ID})
		if first.State != evidence.StatePartial || len(first.Errors) != 1 || !strings.Contains(first.Errors[0], "404") {
			t.Fatalf("state %s, errors %v", first.State, first.Errors)
		}
		// The 404 page is what was online: it is in the WARC, with the post and its picture.
		if got := names(first); got != "capture.json,media/01.png,page.warc,post.json" {
			t.Errorf("files %s", got)
		}
		if rep := verify(t, bundle(t, f, f.owner, first), nil); !rep.OK() {
			t.Errorf("verify: %+v", rep.Findings)
		}
		second := f.capture(t, f.owner, evidence.Input{PostID: p.ID})
		if second.ID == first.ID || second.PreviousID != first.ID {
			t.Errorf("re-capture: id %d previous %d, first %d", second.ID, second.PreviousID, first.ID)
		}
		down := f.capture(t, f.owner, evidence.Input{URL: "http://127.0.0.1:1/closed"})
		if down.State != evidence.StateFailed || names(down) != "capture.json" {
			t.Errorf("unreachable page: %s, %s", down.State, names(down))
		}
	})
}

func TestRequestNamesOneThing(t *testing.T) {
	f := newFixture(t, storetest.Open(t, store.SQLite), false)
	for name, in := range map[string]evidence.Input{
		"nothing": {}, "two": {PostID: "p", URL: "https://example.com"},
	} {
		if _, err := f.svc.Request(context.Background(), f.owner, in); !problem.Is(err, problem.KindInvalid) {
			t.Errorf("%s: %v", name, err)
		}
	}
	for _, u := range []string{"ftp://example.com/x", "/relative", "https://"} {
		if _, err := f.svc.Request(context.Background(), f.owner, evidence.Input{URL: u}); !problem.Is(err, problem.KindInvalid) {
			t.Errorf("%s: %v", u, err)
		}
	}
}

func TestCaptureWithTheBrowser(t *testing.T) {
	browser := evidence.FindBrowser()
	if testing.Short() || browser == "" {
		t.Skip("needs Chromium and the full tier")
	}
	f := newFixture(t, storetest.Open(t, store.SQLite), true)
	f.svc.Browser = browser
	r := f.capture(t, f.owner, evidence.Input{URL: f.site + "/post/3"})
	if r.State != evidence.StateDone || names(r) != "capture.json,page.pdf,page.warc,screenshot.png" {
		t.Fatalf("state %s, files %s, errors %v", r.State, names(r), r.Errors)
	}
	if rep := verify(t, bundle(t, f, f.owner, r), nil); !rep.OK() {
		t.Errorf("verify: %+v", rep.Findings)
	}
}

// TestTheBrowserGoesThroughTheGuard captures a loopback page with a guard that reaches public
// addresses only: the browser must not load it either.
func TestTheBrowserGoesThroughTheGuard(t *testing.T) {
	browser := evidence.FindBrowser()
	if testing.Short() || browser == "" {
		t.Skip("needs Chromium and the full tier")
	}
	f := newFixture(t, storetest.Open(t, store.SQLite), false)
	f.svc.Browser, f.svc.Fetch = browser, outbound.New(outbound.Options{})
	r := f.capture(t, f.owner, evidence.Input{URL: f.site + "/post/4"})
	if r.State != evidence.StateFailed || names(r) != "capture.json" {
		t.Fatalf("state %s, files %s, errors %v", r.State, names(r), r.Errors)
	}
}

// TestAutomaticCaptureOfHighThreatMatchesWithinTheQuota turns a saved search's automatic
// capture on (high), stores matches of high and low threat, and expects the high ones captured
// once each (however many scans run), up to the organization's daily quota.
func TestAutomaticCaptureOfHighThreatMatchesWithinTheQuota(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		f := newFixture(t, s, false)
		f.svc.AutoQuota = 2
		searches := monitor.NewService(monitor.Deps{Store: s, Inbox: s})
		home, err := s.UncategorizedGroup(ctx, f.owner.OrganizationID, f.owner.UserID)
		if err != nil {
			t.Fatal(err)
		}
		m, err := searches.CreateSearch(ctx, f.owner, monitor.SearchInput{GroupID: home.ID, Name: "Harbour", Keywords: "harbour",
			Providers: []string{"reddit"}})
		if err != nil {
			t.Fatal(err)
		}
		match := func(postID string, threat int) {
			p := f.post(t, postID, f.site+"/post/"+postID)
			if _, err := s.InsertMatches(ctx, []monitor.Match{{SearchID: m.ID, OrganizationID: f.owner.OrganizationID,
				PostID: p.ID, PublishedAt: p.PublishedAt, DiscoveredAt: p.DiscoveredAt, Provider: "reddit", ThreatScore: threat}}); err != nil {
				t.Fatal(err)
			}
		}
		match("before", 90) // stored before automatic capture was on: not captured
		if _, err := f.svc.SetAutoCapture(ctx, f.member, m.ID, evidence.AutoHigh); !problem.Is(err, problem.KindNotFound) && !problem.Is(err, problem.KindForbidden) {
			t.Errorf("a member who cannot edit the search set its capture: %v", err)
		}
		if _, err := f.svc.SetAutoCapture(ctx, f.other, m.ID, evidence.AutoHigh); !problem.Is(err, problem.KindNotFound) {
			t.Errorf("another organization set the search's capture: %v", err)
		}
		if got, err := f.svc.SetAutoCapture(ctx, f.owner, m.ID, evidence.AutoHigh); err != nil || got.Mode != evidence.AutoHigh {
			t.Fatal(got, err)
		}
		match("low", 10)
		match("high-1", 80)
		match("high-2", 60)
		match("high-3", 95) // past the quota of 2
		for range 2 {
			if _, err := f.svc.ScanAuto(ctx); err != nil {
				t.Fatal(err)
			}
		}
		list, err := f.svc.List(ctx, f.owner, evidence.KindMatch, "")
		if err != nil {
			t.Fatal(err)
		}
		if len(list) != 2 || !list[0].Payload().Automatic || !strings.Contains(list[0].CapturedBy, "Harbour") {
			t.Fatalf("automatic captures: %+v", list)
		}
		for range 2 {
			if _, err := f.svc.RunOnce(ctx); err != nil {
				t.Fatal(err)
			}
		}
		r, err := f.svc.Get(ctx, f.owner, id(list[1]))
		if err != nil || r.State != evidence.StateDone || names(r) != "capture.json,media/01.png,page.warc,post.json" {
			t.Errorf("the automatic capture ran: %s %s %v %v", r.State, names(r), r.Errors, err)
		}
		if got, _ := f.svc.AutoCapture(ctx, f.owner, m.ID); got.Mode != evidence.AutoHigh || got.Quota != 2 {
			t.Errorf("read back %+v", got)
		}
	})
}

// published records what the service tells users on the live channel.
type published struct {
	mu  sync.Mutex
	got []evidence.Updated
}

func (p *published) PublishToUser(_ context.Context, _ int64, event string, payload any) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if event == evidence.EventUpdated {
		p.got = append(p.got, payload.(evidence.Updated))
	}
	return nil
}

// TestMatchAndStoryCapturesTellTheUser captures a match of the user's search and a story, and
// expects each to record what the user saw and to send its progress and outcome live.
func TestMatchAndStoryCapturesTellTheUser(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		f := newFixture(t, s, true)
		events := &published{}
		f.svc.Live = events
		p := f.post(t, "p-1", f.site+"/post/1")
		searches := monitor.NewService(monitor.Deps{Store: s, Inbox: s})
		home, err := s.UncategorizedGroup(ctx, f.owner.OrganizationID, f.owner.UserID)
		if err != nil {
			t.Fatal(err)
		}
		m, err := searches.CreateSearch(ctx, f.owner, monitor.SearchInput{GroupID: home.ID, Name: "Harbour", Keywords: "harbour",
			Providers: []string{"reddit"}})
		if err != nil {
			t.Fatal(err)
		}
		created, err := s.InsertMatches(ctx, []monitor.Match{{SearchID: m.ID, OrganizationID: f.owner.OrganizationID,
			PostID: p.ID, PublishedAt: p.PublishedAt, DiscoveredAt: p.DiscoveredAt, Provider: "reddit"}})
		if err != nil || len(created) != 1 {
			t.Fatal(created, err)
		}
		matchID := strconv.FormatInt(created[0].ID, 10)
		if _, err := f.svc.Request(ctx, f.other, evidence.Input{MatchID: matchID}); !problem.Is(err, problem.KindNotFound) {
			t.Errorf("another organization captured the match: %v", err)
		}
		r := f.capture(t, f.owner, evidence.Input{MatchID: matchID})
		if r.Kind != evidence.KindMatch || names(r) != "capture.json,match.json,media/01.png,page.warc,post.json" {
			t.Errorf("match capture: %s %s %v", r.Kind, names(r), r.Errors)
		}
		events.mu.Lock()
		last := events.got[len(events.got)-1]
		steps := len(events.got)
		events.mu.Unlock()
		if last.ID != id(r) || last.State != evidence.StateDone || last.Progress != 100 || steps < 3 {
			t.Errorf("live events %d, last %+v", steps, last)
		}
		st := f.capture(t, f.member, evidence.Input{StoryID: p.StoryID})
		if st.Kind != evidence.KindStory || names(st) != "capture.json,page.warc,story.json" || st.State != evidence.StateDone {
			t.Errorf("story capture: %s %s %s %v", st.Kind, st.State, names(st), st.Errors)
		}
		if _, err := f.svc.Request(ctx, f.owner, evidence.Input{StoryID: "no-such-story"}); !problem.Is(err, problem.KindNotFound) {
			t.Errorf("unknown story: %v", err)
		}
	})
}
