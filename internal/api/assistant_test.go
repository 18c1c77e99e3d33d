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
