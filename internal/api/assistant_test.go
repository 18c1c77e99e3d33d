package api_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/api"
	"github.com/sightline/sightline/internal/assistant"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/search"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

func TestAssistant(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		e := newEnvWith(t, s, func(d *api.Deps) {
			d.Assistant = assistant.NewService(s, search.NewService(s, search.Options{}), nil, assistant.Limits{}, nil)
		})
		now := time.Now().UTC().Truncate(time.Millisecond)
		mk := func(provider, id, text string, age time.Duration) post.Post {
			at := now.Add(-age)
			return post.Post{ID: id, Provider: provider, NativeID: id, Type: post.TypeSocialMediaPost, AuthorName: "Ana " + id,
				ContentText: text, Language: "en", PublishedAt: at, DiscoveredAt: at,
				Threat: post.Threat{Score: 40, Reasons: []string{"violence (+40): kill you"}}}
		}
		if _, err := s.InsertPosts(ctx, []post.Post{
			mk("reddit", "strike", "Dockers extended the harbour strike at the container terminal into a second day. Lunch was good.", time.Hour),
			mk("reddit", "police", "Police watched the harbour strike near the terminal gates. Nobody was arrested there.", 2*time.Hour),
			mk("tor", "hidden", "Harbour strike organisers leaked the terminal roster on the dark web.", time.Hour),
			mk("reddit", "old", "The harbour strike of last month ended at the terminal.", 10*24*time.Hour),
			mk("reddit", "cats", "My cat sleeps all day on the sofa.", time.Hour),
		}); err != nil {
			t.Fatal(err)
		}
		analystUser, _ := s.UserByEmail(ctx, "analyst@acme.test")
		if err := s.UpdateUserAccess(ctx, analystUser.ID, account.ACL{Pro: true}); err != nil { // no dark web
			t.Fatal(err)
		}
		owner, analyst, other := e.client(), e.client(), e.client()
		owner.login("owner@acme.test")
		analyst.login("analyst@acme.test")
		other.login("owner@globex.test")
		ask := func(c *client, session, input string) reply {
			return c.do("POST", "/api/v1/ai-insights/conversation", map[string]string{"input": input, "sessionId": session},
				withBearer(c.bearer))
		}
		cited := func(r reply) []string {
			var ids []string
			docs, _ := dig(r.body, "data", "relevant_documents").([]any)
			for _, d := range docs {
				ids = append(ids, dig(d, "id").(string))
			}
			return ids
		}

		if r := ask(owner, "s-owner", "   "); r.status != http.StatusUnprocessableEntity || r.body["message"] != assistant.MsgEmpty {
			t.Errorf("empty input = %d %v, want 422", r.status, r.body)
		}

		// The owner reaches every provider: the dark-web post is in, the 10-day-old one is not.
		r := ask(owner, "s-owner", "What is happening with the harbour strike?")
		ids := cited(r)
		text, _ := dig(r.body, "data", "response").(string)
		if r.status != http.StatusOK || !strings.Contains(strings.Join(ids, ","), "hidden") || strings.Contains(strings.Join(ids, ","), "old") ||
			!strings.Contains(text, "[1]") {
			t.Errorf("owner's answer = %d %v", r.status, r.body)
		}
		for i := range ids {
			if !strings.Contains(text, fmt.Sprintf("[%d]", i+1)) {
				t.Errorf("source %d is not cited in %q", i+1, text)
			}
		}
		doc := dig(r.body, "data", "relevant_documents").([]any)[0]
		for _, field := range []string{"provider", "title_text", "text", "author_name", "author_screen_name", "created_at"} {
			if _, ok := doc.(map[string]any)[field]; !ok {
				t.Errorf("a source lacks %s: %v", field, doc)
			}
		}

		// The analyst's subscription does not reach the dark web: its post is never cited.
		r = ask(analyst, "s-analyst", "What is happening with the harbour strike?")
		if ids := cited(r); len(ids) == 0 || strings.Contains(strings.Join(ids, ","), "hidden") {
			t.Errorf("analyst's sources = %v", ids)
		}

		// A follow-up keeps the topic.
		r = ask(analyst, "s-analyst", "Was anybody arrested?")
		if ids := cited(r); len(ids) == 0 || ids[0] != "police" {
			t.Errorf("follow-up sources = %v (%v)", ids, r.body)
		}

		// Nothing relevant: the apology, no sources.
		r = ask(owner, "s-owner", "Who won the football league?")
		if dig(r.body, "data", "response") != assistant.MsgApology || len(cited(r)) != 0 {
			t.Errorf("unrelated question = %v", r.body)
		}

		// The conversation is its owner's: another user can neither read nor continue it.
		r = owner.do("GET", "/api/v1/ai-insights/conversation/s-owner", nil, withBearer(owner.bearer))
		if msgs, _ := dig(r.body, "data", "messages").([]any); r.status != http.StatusOK || len(msgs) != 2 {
			t.Errorf("owner's conversation = %d %v", r.status, r.body)
		}
		if r := other.do("GET", "/api/v1/ai-insights/conversation/s-owner", nil, withBearer(other.bearer)); r.status != http.StatusNotFound {
			t.Errorf("another user read the conversation: %d %v", r.status, r.body)
		}
		if r := ask(other, "s-owner", "What is happening with the harbour strike?"); r.status != http.StatusNotFound {
			t.Errorf("another user continued the conversation: %d %v", r.status, r.body)
		}

		// Every answer is audited with its model, prompt hash and cited posts.
		entries, err := s.AuditLog(ctx, analystUser.TenantID, 100)
		if err != nil {
			t.Fatal(err)
		}
		answered := 0
		for _, a := range entries {
			if a.Model != "assistant" || a.Action != "answered" {
				continue
			}
			answered++
			var v struct {
				Model  string   `json:"model"`
				Hash   string   `json:"prompt_sha256"`
				Posts  []string `json:"cited_post_ids"`
				Sesion string   `json:"session_id"`
			}
			if err := json.Unmarshal([]byte(a.NewValue), &v); err != nil || v.Model != "extractive" || len(v.Hash) != 64 {
				t.Errorf("audit entry %+v", a)
			}
		}
		if answered != 4 {
			t.Errorf("%d answers audited, want 4", answered)
		}

		// Analyze: an English post of more than ten words; otherwise the rule's message.
		r = owner.do("POST", "/api/v1/ai-insights/analyze", map[string]string{"postId": "strike"}, withBearer(owner.bearer))
		if r.status != http.StatusOK || !strings.Contains(dig(r.body, "data", "summary").(string), "harbour strike") ||
			dig(r.body, "data", "threat", "score") != float64(40) {
			t.Errorf("analysis = %d %v", r.status, r.body)
		}
		r = owner.do("POST", "/api/v1/ai-insights/analyze", map[string]string{"postId": "cats"}, withBearer(owner.bearer))
		if r.status != http.StatusUnprocessableEntity || r.body["message"] != assistant.MsgNotAnalyzable {
			t.Errorf("short post analysis = %d %v", r.status, r.body)
		}
		r = analyst.do("POST", "/api/v1/ai-insights/analyze", map[string]string{"postId": "hidden"}, withBearer(analyst.bearer))
		if r.status != http.StatusNotFound {
			t.Errorf("analysis of a post outside the subscription = %d %v", r.status, r.body)
		}
	})
}

// With a language model, what it writes reaches the user only where it cites a retrieved post;
// the audit log names the model, the prompt's hash and the cited posts.
func TestAssistantLanguageModel(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		var prompt []byte
		llm := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			prompt, _ = io.ReadAll(r.Body)
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"choices":[{"message":{"role":"assistant","content":` +
				`"The strike went into a second day [1]. It will surely end tomorrow. Police watched the gates [2][7]."}}]}`))
		}))
		t.Cleanup(llm.Close)
		e := newEnvWith(t, s, func(d *api.Deps) {
			d.Assistant = assistant.NewService(s, search.NewService(s, search.Options{}), assistant.NewLLM(llm.URL+"/v1", "test-model", ""), assistant.Limits{}, nil)
		})
		now := time.Now().UTC().Truncate(time.Millisecond)
		var posts []post.Post
		for i, text := range []string{"Dockers extended the harbour strike into a second day.", "Police watched the harbour strike at the gates."} {
			at := now.Add(-time.Duration(i+1) * time.Hour)
			id := fmt.Sprint("p", i)
			posts = append(posts, post.Post{ID: id, Provider: "reddit", NativeID: id, Type: post.TypeSocialMediaPost,
				ContentText: text, Language: "en", PublishedAt: at, DiscoveredAt: at})
		}
		if _, err := s.InsertPosts(ctx, posts); err != nil {
			t.Fatal(err)
		}
		c := e.client()
		c.login("owner@acme.test")
		r := c.do("POST", "/api/v1/ai-insights/conversation", map[string]string{"input": "harbour strike?", "sessionId": "llm"},
			withBearer(c.bearer))
		if got := dig(r.body, "data", "response"); got != "The strike went into a second day. [1] Police watched the gates. [2]" {
			t.Errorf("answer = %d %v", r.status, r.body)
		}
		docs, _ := dig(r.body, "data", "relevant_documents").([]any)
		if len(docs) != 2 {
			t.Fatalf("sources = %v", docs)
		}
		u, _ := s.UserByEmail(ctx, "owner@acme.test")
		entries, err := s.AuditLog(ctx, u.TenantID, 10)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(prompt)
		want := fmt.Sprintf(`{"cited_post_ids":["%s","%s"],"model":"test-model","prompt_sha256":"%s","session_id":"llm"}`,
			dig(docs[0], "id"), dig(docs[1], "id"), hex.EncodeToString(sum[:]))
		found := false
		for _, a := range entries {
			found = found || (a.Model == "assistant" && a.Action == "answered" && a.NewValue == want)
		}
		if !found {
			t.Errorf("no audit entry %s in %+v", want, entries)
		}
	})
}

// Related searches come from the posts the caller may see, each one asked again finds posts;
// feedback is one rating per user and answer of their own, read back with the conversation,
// audited in their tenant, and nobody else's answer exists for them (two tenants).
func TestAssistantRelatedSearchesAndFeedback(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		e := newEnvWith(t, s, func(d *api.Deps) {
			d.Assistant = assistant.NewService(s, search.NewService(s, search.Options{}), nil, assistant.Limits{}, nil)
		})
		if _, err := e.accounts.CreateUser(ctx, account.NewUser{Tenant: "initech", Organization: "Initech",
			Email: "owner@initech.test", Password: testPassword, Role: account.RoleOwner}); err != nil {
			t.Fatal(err)
		}
		acme, _ := s.UserByEmail(ctx, "owner@acme.test")
		initech, _ := s.UserByEmail(ctx, "owner@initech.test")
		if acme.TenantID == initech.TenantID {
			t.Fatal("the two users share a tenant")
		}
		now := time.Now().UTC().Truncate(time.Millisecond)
		mk := func(id, text string, tenant int64) post.Post {
			at := now.Add(-time.Hour)
			return post.Post{ID: id, Provider: "reddit", NativeID: id, Type: post.TypeSocialMediaPost, AuthorName: "Ana",
				ContentText: text, Language: "en", PublishedAt: at, DiscoveredAt: at, Tenant: tenant}
		}
		if _, err := s.InsertPosts(ctx, []post.Post{
			mk("s1", "Dockers extended the harbour strike at the container terminal.", 0),
			mk("s2", "Police closed the container terminal during the harbour strike.", 0),
			mk("s3", "The harbour strike reached the terminal gates at dawn.", 0),
			// Acme's own source: only Acme's related searches may draw on it.
			mk("a1", "Pickets blocked the harbour strike convoy.", acme.TenantID),
			mk("a2", "Harbour strike pickets stayed overnight.", acme.TenantID),
		}); err != nil {
			t.Fatal(err)
		}
		owner, analyst, stranger := e.client(), e.client(), e.client()
		owner.login("owner@acme.test")
		analyst.login("analyst@acme.test")
		stranger.login("owner@initech.test")
		ask := func(c *client, session, input string) reply {
			t.Helper()
			r := c.do("POST", "/api/v1/ai-insights/conversation", map[string]string{"input": input, "sessionId": session}, withBearer(c.bearer))
			if r.status != http.StatusOK {
				t.Fatalf("asking %q = %d %v", input, r.status, r.body)
			}
			return r
		}
		related := func(r reply) []string {
			var out []string
			for _, v := range dig(r.body, "data", "related_searches").([]any) {
				out = append(out, v.(string))
			}
			return out
		}

		mine := ask(owner, "acme-s", "What is happening with the harbour strike?")
		theirs := ask(stranger, "initech-s", "What is happening with the harbour strike?")
		mineRelated, theirRelated := related(mine), related(theirs)
		if !slices.Contains(mineRelated, "harbour strike pickets") || !slices.Contains(mineRelated, "harbour strike terminal") {
			t.Errorf("Acme's related searches = %q", mineRelated)
		}
		if !slices.Contains(theirRelated, "harbour strike terminal") || slices.ContainsFunc(theirRelated, func(s string) bool { return strings.Contains(s, "pickets") }) {
			t.Errorf("Initech's related searches = %q (Acme's posts must not show)", theirRelated)
		}
		// Each related search, asked, is answered from posts.
		for _, q := range mineRelated {
			if r := ask(owner, "acme-related", q); dig(r.body, "data", "response") == assistant.MsgApology {
				t.Errorf("related search %q found nothing", q)
			}
		}
		if r := ask(owner, "acme-s", "Who won the football league?"); len(related(r)) != 0 {
			t.Errorf("the apology came with related searches %q", related(r))
		}

		id, _ := dig(mine.body, "data", "id").(float64)
		theirID, _ := dig(theirs.body, "data", "id").(float64)
		if id <= 0 || theirID <= 0 {
			t.Fatalf("answers without ids: %v %v", mine.body, theirs.body)
		}
		path := func(id float64) string { return fmt.Sprintf("/api/v1/ai-insights/messages/%d/feedback", int64(id)) }
		rate := func(c *client, p string, body any) reply { return c.do("PUT", p, body, withBearer(c.bearer)) }
		steps := []struct {
			name    string
			c       *client
			path    string
			body    map[string]string
			status  int
			message string
		}{
			{"thumbs up", owner, path(id), map[string]string{"rating": "up"}, http.StatusOK, ""},
			{"changed to thumbs down with a comment", owner, path(id), map[string]string{"rating": "down", "comment": " Missed the arrests. "}, http.StatusOK, ""},
			{"an unknown rating", owner, path(id), map[string]string{"rating": "meh"}, http.StatusUnprocessableEntity, assistant.MsgRating},
			{"a comment too long", owner, path(id), map[string]string{"rating": "down", "comment": strings.Repeat("x", assistant.MaxComment+1)}, http.StatusUnprocessableEntity, assistant.MsgCommentTooLong},
			{"a colleague rating the owner's answer", analyst, path(id), map[string]string{"rating": "up"}, http.StatusNotFound, assistant.MsgAnswerNotFound},
			{"another tenant rating it", stranger, path(id), map[string]string{"rating": "up"}, http.StatusNotFound, assistant.MsgAnswerNotFound},
			{"no such answer", owner, "/api/v1/ai-insights/messages/x/feedback", map[string]string{"rating": "up"}, http.StatusNotFound, assistant.MsgAnswerNotFound},
			{"the other tenant's own answer", stranger, path(theirID), map[string]string{"rating": "up"}, http.StatusOK, ""},
		}
		for _, st := range steps {
			r := rate(st.c, st.path, st.body)
			if r.status != st.status || (st.message != "" && r.body["message"] != st.message) {
				t.Errorf("%s: %d %v, want %d %q", st.name, r.status, r.body, st.status, st.message)
			}
		}

		// Read back with the conversation, after a failed change left it as it was.
		r := owner.do("GET", "/api/v1/ai-insights/conversation/acme-s", nil, withBearer(owner.bearer))
		msgs, _ := dig(r.body, "data", "messages").([]any)
		if len(msgs) != 2 {
			t.Fatalf("conversation = %d %v", r.status, r.body)
		}
		if dig(msgs[0], "id") != id || dig(msgs[0], "feedback", "rating") != "down" || dig(msgs[0], "feedback", "comment") != "Missed the arrests." ||
			dig(msgs[1], "feedback") != nil {
			t.Errorf("messages = %v", msgs)
		}
		if got, _ := json.Marshal(dig(msgs[0], "related_searches")); string(got) != mustJSON(mineRelated) {
			t.Errorf("stored related searches %s, answered %q", got, mineRelated)
		}

		// Withdrawn once; then there is nothing to withdraw.
		if r := owner.do("DELETE", path(id), nil, withBearer(owner.bearer)); r.status != http.StatusNoContent {
			t.Errorf("withdrawing = %d %v", r.status, r.body)
		}
		if r := owner.do("DELETE", path(id), nil, withBearer(owner.bearer)); r.status != http.StatusNotFound || r.body["message"] != assistant.MsgNoFeedback {
			t.Errorf("withdrawing twice = %d %v", r.status, r.body)
		}
		if r := stranger.do("DELETE", path(id), nil, withBearer(stranger.bearer)); r.status != http.StatusNotFound {
			t.Errorf("another tenant withdrew feedback = %d %v", r.status, r.body)
		}

		// Each tenant's audit log has its own user's feedback: created, updated, deleted for Acme.
		for _, c := range []struct {
			u    account.User
			want []string
		}{
			{acme, []string{"deleted", "updated", "created"}},
			{initech, []string{"created"}},
		} {
			entries, err := s.AuditLog(ctx, c.u.TenantID, 100)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, a := range entries {
				if a.Model != "assistant_feedback" {
					continue
				}
				got = append(got, a.Action)
				if a.UserID != c.u.ID || !strings.Contains(a.NewValue+a.PreviousValue, `"session_id"`) {
					t.Errorf("%s: audit entry %+v", c.u.Email, a)
				}
				if a.Action == "updated" && (!strings.Contains(a.PreviousValue, `"rating":"up"`) || !strings.Contains(a.NewValue, `"comment":"Missed the arrests."`)) {
					t.Errorf("update entry %+v", a)
				}
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("%s: feedback audited as %q, want %q", c.u.Email, got, c.want)
			}
		}
	})
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
