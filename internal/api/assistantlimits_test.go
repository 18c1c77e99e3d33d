package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/api"
	"github.com/sightline/sightline/internal/assistant"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/search"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
	"github.com/sightline/sightline/internal/wait"
)

// assistantEnv is the API with the assistant over a few stored posts, one of them analysable.
func assistantEnv(t *testing.T, s *store.Store, engine assistant.Engine, limits assistant.Limits) *env {
	t.Helper()
	svc := assistant.NewService(s, search.NewService(s, search.Options{}), engine, limits, nil)
	e := newEnvWith(t, s, func(d *api.Deps) { d.Assistant, d.SearchLimiter = svc, stillSearchLimiter() })
	now := time.Now().UTC().Truncate(time.Millisecond)
	var posts []post.Post
	for i, text := range []string{
		"Dockers extended the harbour strike at the container terminal into a second day, and more ships wait outside.",
		"Police watched the harbour strike near the terminal gates. Nobody was arrested there.",
	} {
		at := now.Add(-time.Duration(i+1) * time.Hour)
		id := fmt.Sprint("harbour-", i)
		posts = append(posts, post.Post{ID: id, Provider: "reddit", NativeID: id, Type: post.TypeSocialMediaPost,
			AuthorName: "Ana", ContentText: text, Language: "en", PublishedAt: at, DiscoveredAt: at})
	}
	if _, err := s.InsertPosts(context.Background(), posts); err != nil {
		t.Fatal(err)
	}
	return e
}

func (c *client) ask(session string) reply {
	c.e.t.Helper()
	return c.do("POST", "/api/v1/ai-insights/conversation", map[string]string{"input": "harbour strike?", "sessionId": session},
		withBearer(c.bearer))
}

func (c *client) analyze() reply {
	c.e.t.Helper()
	return c.do("POST", "/api/v1/ai-insights/analyze", map[string]string{"postId": "harbour-0"}, withBearer(c.bearer))
}

// answered counts the assistant's audit rows of the default tenant.
func (e *env) answered() int {
	e.t.Helper()
	u, err := e.store.UserByEmail(context.Background(), "owner@acme.test")
	if err != nil {
		e.t.Fatal(err)
	}
	entries, err := e.store.AuditLog(context.Background(), u.TenantID, 1000)
	if err != nil {
		e.t.Fatal(err)
	}
	n := 0
	for _, a := range entries {
		if a.Model == "assistant" {
			n++
		}
	}
	return n
}

// Questions and analyses count in the caller's search limit: past it, 429 and nothing answered,
// stored or audited.
func TestAssistantTakesFromTheSearchLimit(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		e := assistantEnv(t, s, nil, assistant.Limits{})
		owner := e.client()
		owner.login("owner@acme.test")
		for i := range search.PerMinute {
			var r reply
			if i%2 == 0 {
				r = owner.ask(fmt.Sprint("s-", i))
			} else {
				r = owner.analyze()
			}
			if r.status != http.StatusOK {
				t.Fatalf("request %d = %d %v", i+1, r.status, r.body)
			}
		}
		for name, r := range map[string]reply{"question": owner.ask("s-refused"), "analysis": owner.analyze()} {
			if r.status != http.StatusTooManyRequests || r.header.Get("Retry-After") == "" || r.body["message"] != search.MsgRateLimited {
				t.Errorf("%s past the search limit = %d %v, want 429", name, r.status, r.body)
			}
		}
		if got := e.answered(); got != search.PerMinute/2 {
			t.Errorf("%d audit rows, want %d", got, search.PerMinute/2)
		}
		if r := owner.do("GET", "/api/v1/ai-insights/conversation/s-refused", nil, withBearer(owner.bearer)); r.status != http.StatusNotFound {
			t.Errorf("the refused question started a conversation: %d %v", r.status, r.body)
		}
	})
}

// Each organization has a quota of questions and analyses; one organization spending it leaves
// the others theirs, and a refused request stores and audits nothing.
func TestAssistantOrganizationQuota(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		e := assistantEnv(t, s, nil, assistant.Limits{OrgPerHour: 3})
		owner, analyst, other := e.client(), e.client(), e.client()
		owner.login("owner@acme.test")
		analyst.login("analyst@acme.test")
		other.login("owner@globex.test")
		for _, r := range []reply{owner.ask("a-1"), owner.analyze(), analyst.ask("a-2")} {
			if r.status != http.StatusOK {
				t.Fatalf("within the quota = %d %v", r.status, r.body)
			}
		}
		for name, r := range map[string]reply{"question": analyst.ask("a-3"), "analysis": owner.analyze()} {
			if r.status != http.StatusTooManyRequests || r.header.Get("Retry-After") == "" ||
				r.body["message"] != fmt.Sprintf(assistant.MsgQuota, 20) {
				t.Errorf("%s past the quota = %d (Retry-After %q) %v, want 429", name, r.status, r.header.Get("Retry-After"), r.body)
			}
		}
		if r := other.ask("g-1"); r.status != http.StatusOK {
			t.Errorf("another organization = %d %v", r.status, r.body)
		}
		if got := e.answered(); got != 3 {
			t.Errorf("%d audit rows, want 3 (two answers of Acme, one of Globex)", got)
		}
	})
}

// heldLLM is a loopback OpenAI-compatible server whose first call waits until release is
// closed; arrived hears of it. Later calls answer at once.
type heldLLM struct {
	srv     *httptest.Server
	arrived chan struct{}
	release chan struct{}
	once    sync.Once
	freed   sync.Once
}

// free lets the held call answer.
func (h *heldLLM) free() { h.freed.Do(func() { close(h.release) }) }

func newHeldLLM(t *testing.T) *heldLLM {
	h := &heldLLM{arrived: make(chan struct{}), release: make(chan struct{})}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		first := false
		h.once.Do(func() { first = true })
		if first {
			close(h.arrived)
			<-h.release
		}
		json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]string{
			"role": "assistant", "content": "The strike went into a second day [1]."}}}})
	}))
	t.Cleanup(func() { h.free(); h.srv.Close() })
	return h
}

// The node works on at most Concurrent questions and analyses at once: while the only place is
// taken by a question waiting on the language model, another is refused with 429 after the
// wait, without a conversation or an audit row; once the place is free, questions pass again.
func TestAssistantConcurrencyIsBounded(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		llm := newHeldLLM(t)
		e := assistantEnv(t, s, assistant.NewLLM(llm.srv.URL+"/v1", "held", ""),
			assistant.Limits{Concurrent: 1, Wait: 50 * time.Millisecond})
		owner, analyst := e.client(), e.client()
		owner.login("owner@acme.test")
		analyst.login("analyst@acme.test")
		first := make(chan reply, 1)
		go func() { first <- owner.ask("held") }()
		wait.Receive(t, "the first question reaching the model", llm.arrived)
		for name, r := range map[string]reply{"question": analyst.ask("busy"), "analysis": analyst.analyze()} {
			if r.status != http.StatusTooManyRequests || r.header.Get("Retry-After") == "" || r.body["message"] != assistant.MsgBusy {
				t.Errorf("%s while the node is busy = %d %v, want 429", name, r.status, r.body)
			}
		}
		llm.free()
		if r := <-first; r.status != http.StatusOK {
			t.Errorf("the held question = %d %v", r.status, r.body)
		}
		if r := analyst.ask("after"); r.status != http.StatusOK {
			t.Errorf("after the place is free = %d %v", r.status, r.body)
		}
		if got := e.answered(); got != 2 {
			t.Errorf("%d audit rows, want 2", got)
		}
		if r := analyst.do("GET", "/api/v1/ai-insights/conversation/busy", nil, withBearer(analyst.bearer)); r.status != http.StatusNotFound {
			t.Errorf("the refused question started a conversation: %d", r.status)
		}
	})
}
