package api_test

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/api"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/cases"
	"github.com/sightline/sightline/internal/live"
	"github.com/sightline/sightline/internal/mail"
	"github.com/sightline/sightline/internal/mail/mailtest"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
	"github.com/sightline/sightline/internal/story"
	"github.com/sightline/sightline/internal/wait"
)

// caseEnv is the API with case work over a real store, a live hub on an in-process NATS server
// (events is every user event it publishes) and a loopback SMTP server.
type caseEnv struct {
	*env
	smtp   *mailtest.Server
	events chan *nats.Msg
	// acmePost is a post of the shared sources; otherPost one of another tenant's own sources.
	acmePost, otherPost post.Post
}

func newCaseEnv(t *testing.T, s *store.Store, evidence cases.Evidence, more ...func(*api.Deps)) *caseEnv {
	t.Helper()
	ns, err := natsserver.NewServer(&natsserver.Options{DontListen: true, NoSigs: true, NoLog: true})
	if err != nil {
		t.Fatal(err)
	}
	ns.Start()
	t.Cleanup(ns.Shutdown)
	if !ns.ReadyForConnections(wait.Deadline) {
		t.Fatal("NATS did not start")
	}
	nc, err := nats.Connect("", nats.InProcessServer(ns), nats.NoEcho())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	listener, err := nats.Connect("", nats.InProcessServer(ns))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(listener.Close)
	events := make(chan *nats.Msg, 64)
	if _, err := listener.ChanSubscribe("live.user.*", events); err != nil {
		t.Fatal(err)
	}
	listener.Flush()
	creds, err := live.LoadCredentials(context.Background(), s, "")
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	hub, err := live.NewHub(nc, live.Config{Credentials: creds}, log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { hub.Shutdown(context.Background()) })
	smtp := mailtest.Start(t)
	sender, err := mail.NewSMTP(smtp.URL(), "sightline@example.test", mail.WithRootCAs(smtp.RootCAs()))
	if err != nil {
		t.Fatal(err)
	}
	e := newEnvWith(t, s, func(d *api.Deps) {
		d.Cases = cases.NewService(cases.Deps{Store: s, Stories: story.NewService(s), Evidence: evidence, Live: hub,
			Mail: sender, PublicURL: "https://sightline.example.test", Logger: log})
		for _, f := range more {
			f(d)
		}
	})
	x := &caseEnv{env: e, smtp: smtp, events: events}
	ctx := context.Background()
	other, err := e.accounts.CreateUser(ctx, account.NewUser{Tenant: "other", Organization: "Umbrella",
		Email: "owner@umbrella.test", Password: testPassword, Role: account.RoleOwner})
	if err != nil {
		t.Fatal(err)
	}
	mk := func(native string, tenant int64, text string) post.Post {
		p := post.Post{Provider: "news", NativeID: native, ContentText: text, PublishedAt: time.Now().Add(-time.Hour),
			Language: "en", MentionedLocations: []post.MentionedLocation{{Name: "Valparaíso", CountryCode: "CL",
				Point: post.Point{Lat: -33.05, Lon: -71.62}}}}
		if err := p.Normalize(time.Now()); err != nil {
			t.Fatal(err)
		}
		p.Tenant = tenant
		if tenant != 0 {
			p.ID = post.NewTenantID(tenant, p.Provider, p.NativeID)
		}
		p.StoryID = p.ID
		return p
	}
	x.acmePost = mk("wire-1", 0, "Protest planned at the port of Valparaíso on Friday.")
	x.otherPost = mk("private-1", other.TenantID, "Umbrella's own post.")
	if _, err := s.InsertPosts(ctx, []post.Post{x.acmePost, x.otherPost}); err != nil {
		t.Fatal(err)
	}
	return x
}

func (c *client) call2(method, path string, body any) reply {
	c.e.t.Helper()
	return c.do(method, path, body, withBearer(c.bearer))
}

func (c *client) createCase(t *testing.T, name string) string {
	t.Helper()
	r := c.call2("POST", "/api/v1/cases", map[string]any{"name": name, "description": "What we know so far."})
	if r.status != http.StatusCreated {
		t.Fatalf("create = %d %v", r.status, r.body)
	}
	return fmt.Sprint(dig(r.body, "data", "id"))
}

// Another organization's case does not exist for its members: every route is 404 and the list
// does not count it; a colleague sees a case only as its sharing says, decided as for searches.
func TestCasesAreTenantScoped(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		x := newCaseEnv(t, s, nil)
		owner, analyst := x.signedIn("owner@acme.test"), x.signedIn("analyst@acme.test")
		globex, umbrella := x.signedIn("owner@globex.test"), x.signedIn("owner@umbrella.test")
		id := owner.createCase(t, "Port protest")
		base := "/api/v1/cases/" + id
		if r := owner.call2("POST", base+"/items", map[string]any{"postId": x.acmePost.ID, "note": "first"}); r.status != http.StatusCreated {
			t.Fatalf("add item = %d %v", r.status, r.body)
		}
		item := base + "/items/" + fmt.Sprint(dig(owner.call2("GET", base, nil).body, "data", "items").([]any)[0].(map[string]any)["id"])
		for _, c := range []*client{globex, umbrella, analyst} {
			for _, call := range []struct {
				method, path string
				body         any
			}{
				{"GET", base, nil}, {"PATCH", base, map[string]any{"name": "x"}}, {"DELETE", base, nil},
				{"POST", base + "/items", map[string]any{"postId": x.acmePost.ID}},
				{"PATCH", item, map[string]any{"note": "x"}}, {"DELETE", item, nil},
				{"POST", base + "/comments", map[string]any{"body": "hello"}}, {"GET", base + "/export", nil},
			} {
				if r := c.call2(call.method, call.path, call.body); r.status != http.StatusNotFound {
					t.Errorf("%s %s = %d, want 404: %v", call.method, call.path, r.status, r.body)
				}
			}
			if r := c.call2("GET", "/api/v1/cases", nil); r.status != http.StatusOK || len(r.body["data"].([]any)) != 0 {
				t.Errorf("list = %d %v, want none", r.status, r.body)
			}
		}

		// Visible to the organization: the analyst views but may not edit or share.
		if r := owner.call2("PATCH", base, map[string]any{"privacy": authz.PrivacyReadonly}); r.status != http.StatusOK {
			t.Fatalf("privacy = %d %v", r.status, r.body)
		}
		if r := analyst.call2("GET", base, nil); r.status != http.StatusOK || dig(r.body, "data", "canEdit") != false {
			t.Fatalf("analyst GET = %d %v", r.status, r.body)
		}
		if r := analyst.call2("PATCH", base, map[string]any{"status": "closed"}); r.status != http.StatusForbidden {
			t.Errorf("analyst PATCH = %d, want 403", r.status)
		}
		if r := globex.call2("GET", base, nil); r.status != http.StatusNotFound {
			t.Errorf("globex GET after sharing = %d, want 404", r.status)
		}
		// A direct full-access share lets the analyst edit, but not delete.
		analystID := x.userID("analyst@acme.test")
		if r := owner.call2("PATCH", base, map[string]any{"privacy": authz.PrivacyPrivate,
			"sharedUsers": []map[string]any{{"userId": analystID, "role": authz.RoleFullAccess}}}); r.status != http.StatusOK {
			t.Fatalf("share = %d %v", r.status, r.body)
		}
		if r := analyst.call2("PATCH", base, map[string]any{"status": "in_progress"}); r.status != http.StatusOK {
			t.Errorf("analyst PATCH with full access = %d %v", r.status, r.body)
		}
		if r := analyst.call2("DELETE", base, nil); r.status != http.StatusForbidden {
			t.Errorf("analyst DELETE = %d, want 403", r.status)
		}
		// Sharing with someone of another organization is refused.
		if r := owner.call2("PATCH", base, map[string]any{"sharedUsers": []map[string]any{{"userId": x.userID("owner@globex.test")}}}); r.status != http.StatusUnprocessableEntity {
			t.Errorf("share with globex = %d, want 422", r.status)
		}
		if r := owner.call2("DELETE", base, nil); r.status != http.StatusNoContent {
			t.Errorf("owner DELETE = %d %v", r.status, r.body)
		}
		if r := owner.call2("GET", base, nil); r.status != http.StatusNotFound {
			t.Errorf("GET after delete = %d", r.status)
		}
	})
}

// Bad input gets the spec's error shape: 422 with the message on its field.
func TestCaseValidation(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		x := newCaseEnv(t, s, nil)
		owner := x.signedIn("owner@acme.test")
		id := owner.createCase(t, "Validation")
		base := "/api/v1/cases/" + id
		owner.call2("POST", base+"/items", map[string]any{"postId": x.acmePost.ID})
		for _, tc := range []struct {
			name, method, path string
			body               any
			field, message     string
		}{
			{"no name", "POST", "/api/v1/cases", map[string]any{"name": "  "}, "name", cases.MsgNameRequired},
			{"a long name", "POST", "/api/v1/cases", map[string]any{"name": strings.Repeat("n", 256)}, "name", cases.MsgNameTooLong},
			{"a bad status", "PATCH", base, map[string]any{"status": "done"}, "status", cases.MsgStatus},
			{"a bad privacy", "PATCH", base, map[string]any{"privacy": "public"}, "privacy", cases.MsgPrivacy},
			{"a stranger assigned", "PATCH", base, map[string]any{"assignees": []int64{x.userID("owner@globex.test")}}, "assignees", cases.MsgNotMember},
			{"a long tag", "PATCH", base, map[string]any{"tags": []string{strings.Repeat("t", 51)}}, "tags", cases.MsgTagTooLong},
			{"no reference", "POST", base + "/items", map[string]any{"note": "x"}, "postId", cases.MsgOneRef},
			{"two references", "POST", base + "/items", map[string]any{"postId": x.acmePost.ID, "storyId": "s"}, "postId", cases.MsgOneRef},
			{"another tenant's post", "POST", base + "/items", map[string]any{"postId": x.otherPost.ID}, "postId", authz.MsgPostNotFound},
			{"an unknown story", "POST", base + "/items", map[string]any{"storyId": "nothing"}, "storyId", cases.MsgStoryNotFound},
			{"a match without searches", "POST", base + "/items", map[string]any{"matchId": "12"}, "matchId", cases.MsgMatchNotFound},
			{"evidence without capture", "POST", base + "/items", map[string]any{"evidenceId": "ev1"}, "evidenceId", cases.MsgNoEvidence},
			{"the same post twice", "POST", base + "/items", map[string]any{"postId": x.acmePost.ID}, "postId", cases.MsgDuplicateItem},
			{"an empty comment", "POST", base + "/comments", map[string]any{"body": " "}, "body", cases.MsgCommentEmpty},
			{"a mention of someone who cannot see it", "POST", base + "/comments", map[string]any{"body": "@analyst@acme.test look"},
				"body", fmt.Sprintf(cases.MsgMentionNoAccess, "analyst")},
			{"a bad status filter", "GET", "/api/v1/cases?status=done", nil, "status", cases.MsgStatus},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := owner.call2(tc.method, tc.path, tc.body)
				if r.status != http.StatusUnprocessableEntity {
					t.Fatalf("status %d %v, want 422", r.status, r.body)
				}
				if r.body["message"] != tc.message {
					t.Errorf("message %q, want %q", r.body["message"], tc.message)
				}
				if msgs, _ := dig(r.body, "errors", tc.field).([]any); len(msgs) == 0 || msgs[0] != tc.message {
					t.Errorf("errors.%s = %v, want %q", tc.field, dig(r.body, "errors"), tc.message)
				}
			})
		}
		if r := owner.call2("GET", "/api/v1/cases/abc", nil); r.status != http.StatusNotFound {
			t.Errorf("a case id that is no number = %d, want 404", r.status)
		}
	})
}

// The analyst's flow: a case, a post with a note, a colleague assigned and mentioned (an
// e-mail and a live event), the timeline of it all, the audit log, the list's filters.
func TestCaseWorkflow(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		x := newCaseEnv(t, s, nil)
		owner, analyst := x.signedIn("owner@acme.test"), x.signedIn("analyst@acme.test")
		analystID := x.userID("analyst@acme.test")
		id := owner.createCase(t, "Port protest")
		base := "/api/v1/cases/" + id
		owner.createCase(t, "Unrelated")
		if r := owner.call2("POST", base+"/items", map[string]any{"postId": x.acmePost.ID, "note": "Names the port."}); r.status != http.StatusCreated {
			t.Fatalf("add = %d %v", r.status, r.body)
		}
		if r := owner.call2("PATCH", base, map[string]any{"assignees": []int64{analystID}, "tags": []string{"protest", "Chile"}}); r.status != http.StatusOK {
			t.Fatalf("assign = %d %v", r.status, r.body)
		}
		// Assigned, the analyst can edit the private case.
		page := analyst.call2("GET", base, nil)
		if page.status != http.StatusOK || dig(page.body, "data", "canEdit") != true {
			t.Fatalf("assignee GET = %d %v", page.status, page.body)
		}
		itemID := fmt.Sprint(page.body["data"].(map[string]any)["items"].([]any)[0].(map[string]any)["id"])
		if r := analyst.call2("PATCH", base+"/items/"+itemID, map[string]any{"note": "Names the port; Friday."}); r.status != http.StatusOK {
			t.Fatalf("note = %d %v", r.status, r.body)
		}
		drain(x.events)
		r := owner.call2("POST", base+"/comments", map[string]any{"body": "@analyst@acme.test can you check the port authority?"})
		if r.status != http.StatusCreated {
			t.Fatalf("comment = %d %v", r.status, r.body)
		}
		msgs := x.smtp.WaitFor(t, 1)
		if text, _ := msgs[0].Text(); msgs[0].To[0] != "analyst@acme.test" || !strings.Contains(text, "port authority") ||
			!strings.Contains(text, "https://sightline.example.test/cases/"+id) {
			t.Errorf("mention e-mail to %v: %s", msgs[0].To, text)
		}
		if !sawEvent(t, x.events, analystID, cases.EventCaseMention) {
			t.Error("no case.mention event on the analyst's channel")
		}

		page = owner.call2("GET", base, nil)
		data := page.body["data"].(map[string]any)
		var summaries []string
		for _, e := range data["timeline"].([]any) {
			summaries = append(summaries, e.(map[string]any)["summary"].(string))
		}
		want := []string{`created the case "Port protest"`, "added the post", "assigned", "set the tags to protest, Chile",
			"changed the note on the post", "commented"}
		if len(summaries) != len(want) {
			t.Fatalf("timeline %q, want %d lines", summaries, len(want))
		}
		for i, w := range want {
			if !strings.HasPrefix(summaries[i], w) {
				t.Errorf("timeline[%d] = %q, want it to start %q", i, summaries[i], w)
			}
		}
		if got := data["items"].([]any)[0].(map[string]any)["note"]; got != "Names the port; Friday." {
			t.Errorf("note %v", got)
		}
		if places := data["places"].([]any); len(places) != 1 || places[0].(map[string]any)["name"] != "Valparaíso" {
			t.Errorf("places %v", places)
		}
		if m := data["comments"].([]any)[0].(map[string]any)["mentions"].([]any); len(m) != 1 {
			t.Errorf("mentions %v", m)
		}

		for _, tc := range []struct {
			query string
			want  int
		}{
			{"", 2}, {"?status=open", 2}, {"?status=closed", 0}, {"?assignee=" + fmt.Sprint(analystID), 1},
			{"?tag=chile", 1}, {"?q=port", 1}, {"?q=nothing", 0},
		} {
			if r := owner.call2("GET", "/api/v1/cases"+tc.query, nil); len(r.body["data"].([]any)) != tc.want {
				t.Errorf("list%s = %d cases, want %d", tc.query, len(r.body["data"].([]any)), tc.want)
			}
		}
		if r := analyst.call2("GET", "/api/v1/cases?assignee=me", nil); len(r.body["data"].([]any)) != 1 {
			t.Errorf("assignee=me = %v", r.body)
		}

		actions := map[string]int{}
		entries, err := s.AuditLog(context.Background(), x.actor("owner@acme.test").TenantID, 100)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			actions[e.Model+" "+e.Action]++
		}
		for _, w := range []string{"case created", "case updated", "case_item created", "case_item updated", "case_comment created"} {
			if actions[w] == 0 {
				t.Errorf("no audit entry %q in %v", w, actions)
			}
		}
	})
}

func drain(ch chan *nats.Msg) {
	for {
		select {
		case <-ch:
		default:
			return
		}
	}
}

// sawEvent waits for an event of the name on the user's channel.
func sawEvent(t *testing.T, ch chan *nats.Msg, userID int64, event string) bool {
	t.Helper()
	deadline := time.After(wait.Deadline)
	for {
		select {
		case m := <-ch:
			var frame struct {
				Event string `json:"event"`
			}
			json.Unmarshal(m.Data, &frame)
			if m.Subject == fmt.Sprintf("live.user.%d", userID) && frame.Event == event {
				return true
			}
		case <-deadline:
			return false
		}
	}
}

// fileEvidence is a stand-in for internal/evidence that pins the export's layout: one record
// "ev-1" with two files (TestCaseExportVerifiesWithRealEvidence exports a real capture).
type fileEvidence struct{}

func (fileEvidence) Check(_ context.Context, _ authz.Actor, id string) error {
	if id != "ev-1" {
		return problem.NotFound("The evidence was not found.")
	}
	return nil
}

func (fileEvidence) AddToZip(_ context.Context, _ authz.Actor, id string, zw *zip.Writer, dir string) ([]cases.ManifestFile, error) {
	var out []cases.ManifestFile
	for name, body := range map[string]string{"page.warc": "WARC/1.1 ...", "post.json": `{"id":"x"}`} {
		w, err := zw.Create(dir + name)
		if err != nil {
			return nil, err
		}
		io.WriteString(w, body)
		sum := sha256.Sum256([]byte(body))
		out = append(out, cases.ManifestFile{Name: dir + name, SHA256: hex.EncodeToString(sum[:]), Size: int64(len(body))})
	}
	return out, nil
}

// The export is one ZIP: the report, each item's post, each evidence item's files, and a
// manifest whose hashes match every other file.
func TestCaseExport(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		x := newCaseEnv(t, s, fileEvidence{})
		owner := x.signedIn("owner@acme.test")
		id := owner.createCase(t, "Export <me>")
		base := "/api/v1/cases/" + id
		owner.call2("POST", base+"/items", map[string]any{"postId": x.acmePost.ID, "note": "A note & more"})
		if r := owner.call2("POST", base+"/items", map[string]any{"evidenceId": "ev-1"}); r.status != http.StatusCreated {
			t.Fatalf("evidence item = %d %v", r.status, r.body)
		}
		if r := owner.call2("POST", base+"/items", map[string]any{"evidenceId": "ev-2"}); r.status != http.StatusUnprocessableEntity {
			t.Errorf("unknown evidence = %d, want 422", r.status)
		}
		owner.call2("POST", base+"/comments", map[string]any{"body": "Looks right."})

		req, _ := http.NewRequest("GET", x.srv.URL+base+"/export", nil)
		req.Header.Set("Authorization", "Bearer "+owner.bearer)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/zip" {
			t.Fatalf("export = %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
		if err != nil {
			t.Fatal(err)
		}
		files := map[string][]byte{}
		for _, f := range zr.File {
			rc, _ := f.Open()
			files[f.Name], _ = io.ReadAll(rc)
			rc.Close()
		}
		var m cases.Manifest
		if err := json.Unmarshal(files["manifest.json"], &m); err != nil {
			t.Fatal(err)
		}
		if m.Format != cases.ManifestFormat || m.CreatedBy == "" || m.CreatedAt == "" {
			t.Errorf("manifest %+v", m)
		}
		listed := map[string]bool{}
		for _, f := range m.Files {
			sum := sha256.Sum256(files[f.Name])
			if hex.EncodeToString(sum[:]) != f.SHA256 || int64(len(files[f.Name])) != f.Size {
				t.Errorf("%s: hash or size does not match the manifest", f.Name)
			}
			listed[f.Name] = true
		}
		for name := range files {
			if name != "manifest.json" && !listed[name] {
				t.Errorf("%s is in the ZIP but not in the manifest", name)
			}
		}
		for _, name := range []string{"report.html", "items/1/post.json", "evidence/ev-1/page.warc", "evidence/ev-1/post.json"} {
			if !listed[name] {
				t.Errorf("%s missing from the export", name)
			}
		}
		var p post.Post
		if err := json.Unmarshal(files["items/1/post.json"], &p); err != nil || p.ID != x.acmePost.ID {
			t.Errorf("items/1/post.json: %v %s", err, p.ID)
		}
		report := string(files["report.html"])
		for _, want := range []string{"Export &lt;me&gt;", "Protest planned at the port", "A note &amp; more", "Valparaíso",
			"Looks right.", "added the post", "evidence/ev-1/page.warc"} {
			if !strings.Contains(report, want) {
				t.Errorf("report.html lacks %q", want)
			}
		}
	})
}
