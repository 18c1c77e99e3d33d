package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/api"
	"github.com/sightline/sightline/internal/ingest"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
	"github.com/sightline/sightline/internal/translate"
)

// libreServer speaks LibreTranslate's /translate: it "translates" by prefixing the target code,
// and fails on texts containing "fail".
type libreServer struct {
	*httptest.Server
	calls atomic.Int32
	last  atomic.Value // the last request's fields
}

func startLibre(t *testing.T) *libreServer {
	t.Helper()
	l := &libreServer{}
	l.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in map[string]string
		if r.Method != http.MethodPost || r.URL.Path != "/translate" || json.NewDecoder(r.Body).Decode(&in) != nil {
			http.Error(w, `{"error":"bad request"}`, http.StatusBadRequest)
			return
		}
		l.calls.Add(1)
		l.last.Store(in)
		w.Header().Set("Content-Type", "application/json")
		if in["api_key"] != "k3y" {
			w.WriteHeader(http.StatusForbidden)
			w.Write([]byte(`{"error":"Invalid API key"}`))
			return
		}
		if strings.Contains(in["q"], "fail") {
			w.WriteHeader(http.StatusInternalServerError)
			w.Write([]byte(`{"error":"Model crashed"}`))
			return
		}
		json.NewEncoder(w).Encode(map[string]string{"translatedText": "[" + in["target"] + "] " + in["q"]})
	}))
	t.Cleanup(l.Close)
	return l
}

func TestTranslate(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		libre := startLibre(t)
		backend, err := translate.NewLibreTranslate(libre.URL, "k3y")
		if err != nil {
			t.Fatal(err)
		}
		e := newEnvWith(t, s, func(d *api.Deps) { d.Translate = translate.NewService(backend, s) })
		c := e.client()
		c.login("analyst@acme.test")
		auth := withBearer(c.bearer)

		if r := c.do("GET", "/api/v1/settings/profile/current", nil, auth); r.body["data"].(map[string]any)["translation"] != true {
			t.Errorf("profile translation = %v, want true", dig(r.body, "data", "translation"))
		}

		// Form A.
		formA := map[string]any{"query": "<p>Bonjour <b>le monde</b></p>", "destination_language": "en",
			"source_language": "fr", "format": "html"}
		r := c.do("POST", "/api/v1/translate", formA, auth)
		if r.status != 200 || dig(r.body, "data", "translation") != "[en] <p>Bonjour <b>le monde</b></p>" {
			t.Fatalf("form A = %d %v", r.status, r.body)
		}
		if dig(r.body, "data", "entitiesInDocument") != nil {
			t.Errorf("form A entities = %v, want null", dig(r.body, "data", "entitiesInDocument"))
		}
		if got := libre.last.Load().(map[string]string); got["source"] != "fr" || got["format"] != "html" {
			t.Errorf("backend got %v", got)
		}
		// The same text and pair again comes from the cache.
		if r := c.do("POST", "/api/v1/translate", formA, auth); r.status != 200 || libre.calls.Load() != 1 {
			t.Errorf("repeat = %d, backend calls %d, want 1", r.status, libre.calls.Load())
		}
		// Another user asking the same is served from the cache too.
		other := e.client()
		other.login("owner@globex.test")
		if r := other.do("POST", "/api/v1/translate", formA, withBearer(other.bearer)); r.status != 200 || libre.calls.Load() != 1 {
			t.Errorf("other user = %d, backend calls %d, want 1", r.status, libre.calls.Load())
		}

		// Form B: entities without asking the backend for them; the source is detected.
		formB := map[string]any{"query": "Call +1 202-555-0143 or mail leak@example.org about the flood, see https://x.example/a",
			"destination_language": "de", "queryTerms": []string{"flood", "earthquake"}, "beacon_entity_request": true,
			"author_screen_name": []string{"@not_in_text"}, "phones": []string{"202-555-0143"}}
		r = c.do("POST", "/api/v1/translate", formB, auth)
		if r.status != 200 || !strings.HasPrefix(dig(r.body, "data", "translation").(string), "[de] Call") {
			t.Fatalf("form B = %d %v", r.status, r.body)
		}
		ents := dig(r.body, "data", "entitiesInDocument").(map[string]any)
		for field, want := range map[string]string{"emails": "[leak@example.org]", "queryTerms": "[flood]",
			"external_links": "[https://x.example/a]", "author_screen_name": "[]", "credit_cards": "[]"} {
			if got := jsonString(ents[field]); got != want {
				t.Errorf("entitiesInDocument.%s = %s, want %s", field, got, want)
			}
		}
		if got := libre.last.Load().(map[string]string); got["source"] != "auto" {
			t.Errorf("form B source = %q, want auto", got["source"])
		}
		// The entities and terms went masked and came back as written.
		if got := libre.last.Load().(map[string]string)["q"]; strings.Contains(got, "leak@") || strings.Contains(got, "flood") ||
			strings.Contains(got, "555") || strings.Contains(got, "x.example") {
			t.Errorf("form B sent %q", got)
		}
		if got := dig(r.body, "data", "translation"); got != "[de] "+formB["query"].(string) {
			t.Errorf("form B translation = %q", got)
		}

		tests := []struct {
			name    string
			body    map[string]any
			status  int
			message string
		}{
			{"empty", map[string]any{"query": "  "}, 422, translate.ErrEmptyText.Error()},
			{"too long", map[string]any{"query": strings.Repeat("a", translate.MaxTextChars+1)}, 413, translate.ErrTooLong.Error()},
			{"bad language", map[string]any{"query": "hi", "destination_language": "english!"}, 422, `"english!" is not a language code (two or three letters, such as en).`},
			{"bad format", map[string]any{"query": "hi", "format": "pdf"}, 422, `The format "pdf" is not one of html and text.`},
			{"backend error", map[string]any{"query": "this will fail"}, 502, "The translation server failed: Model crashed (HTTP 500)"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				r := c.do("POST", "/api/v1/translate", tt.body, auth)
				if r.status != tt.status || r.body["message"] != tt.message {
					t.Errorf("= %d %v, want %d %q", r.status, r.body["message"], tt.status, tt.message)
				}
			})
		}
		if r := e.client().do("POST", "/api/v1/translate", formA); r.status != 401 {
			t.Errorf("anonymous = %d, want 401", r.status)
		}

	})
}

func TestTranslateWithoutBackend(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		e := newEnv(t, s)
		c := e.client()
		c.login("analyst@acme.test")
		auth := withBearer(c.bearer)
		if r := c.do("GET", "/api/v1/settings/profile/current", nil, auth); dig(r.body, "data", "translation") != false {
			t.Errorf("profile translation = %v, want false", dig(r.body, "data", "translation"))
		}
		r := c.do("POST", "/api/v1/translate", map[string]any{"query": "Hola", "destination_language": "en"}, auth)
		if r.status != 503 || r.body["message"] != "Translation is not configured on this server" || r.body["entitiesInDocument"] != nil {
			t.Errorf("= %d %v", r.status, r.body)
		}
		// Form B's entities need no server: they come with the reason.
		r = c.do("POST", "/api/v1/translate", map[string]any{"query": "Hola, mail leak@example.org", "destination_language": "en",
			"beacon_entity_request": true}, auth)
		if r.status != 503 || r.body["message"] != "Translation is not configured on this server" ||
			jsonString(dig(r.body, "entitiesInDocument", "emails")) != "[leak@example.org]" {
			t.Errorf("form B = %d %v", r.status, r.body)
		}
	})
}

func TestTranslateBackendRefusesKey(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		libre := startLibre(t)
		badKey, _ := translate.NewLibreTranslate(libre.URL+"/", "wrong")
		e := newEnvWith(t, s, func(d *api.Deps) { d.Translate = translate.NewService(badKey, s) })
		c := e.client()
		c.login("owner@acme.test")
		r := c.do("POST", "/api/v1/translate", map[string]any{"query": "Hola amigos", "destination_language": "fr"}, withBearer(c.bearer))
		if r.status != 502 || r.body["message"] != "The translation server failed: Invalid API key (HTTP 403)" {
			t.Errorf("wrong key = %d %v", r.status, r.body["message"])
		}
	})
}

// Past the per-user limit, a call that would reach the server is 429 with the message and
// Retry-After; answers from the cache and other users still pass.
func TestTranslateRateLimit(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		libre := startLibre(t)
		backend, _ := translate.NewLibreTranslate(libre.URL, "k3y")
		svc := translate.NewService(backend, s)
		at := time.Now()
		svc.Limiter.Now = func() time.Time { return at } // the clock stands still: nothing refills
		e := newEnvWith(t, s, func(d *api.Deps) { d.Translate = svc })
		c := e.client()
		c.login("analyst@acme.test")
		auth := withBearer(c.bearer)
		ask := func(c *client, text string) reply {
			return c.do("POST", "/api/v1/translate", map[string]any{"query": text, "destination_language": "fr", "format": "text"}, withBearer(c.bearer))
		}
		for i := range translate.Burst {
			if r := ask(c, fmt.Sprintf("text number %d", i)); r.status != 200 {
				t.Fatalf("call %d = %d %v", i+1, r.status, r.body)
			}
		}
		r := ask(c, "one too many")
		if r.status != http.StatusTooManyRequests || r.body["message"] != translate.MsgRateLimited || r.header.Get("Retry-After") != "2" {
			t.Errorf("past the limit = %d %v Retry-After %q", r.status, r.body, r.header.Get("Retry-After"))
		}
		if r := ask(c, "text number 0"); r.status != 200 {
			t.Errorf("a cached text = %d %v", r.status, r.body)
		}
		if r := c.do("POST", "/api/v1/translate", map[string]any{"query": "Hello", "source_language": "en", "destination_language": "en"}, auth); r.status != 200 {
			t.Errorf("a text already in its target = %d", r.status)
		}
		other := e.client()
		other.login("owner@acme.test")
		if r := ask(other, "one too many"); r.status != 200 {
			t.Errorf("another user = %d %v", r.status, r.body)
		}
		if n := libre.calls.Load(); n != translate.Burst+1 {
			t.Errorf("server called %d times, want %d", n, translate.Burst+1)
		}
	})
}

func jsonString(v any) string {
	b, _ := json.Marshal(v)
	return strings.ReplaceAll(string(b), `"`, "")
}

// The profile says how many days of posts the server keeps (--retention).
func TestProfileRetentionDays(t *testing.T) {
	for _, tt := range []struct {
		retention time.Duration
		want      float64
	}{{0, 30}, {90 * 24 * time.Hour, 90}} {
		s := storetest.Open(t, store.SQLite)
		e := newEnvWith(t, s, func(d *api.Deps) {
			if tt.retention > 0 {
				d.Ingest = ingest.NewService(nil, nil, tt.retention) // only its retention is read
			}
		})
		c := e.client()
		c.login("analyst@acme.test")
		if got := dig(c.do("GET", "/api/v1/settings/profile/current", nil, withBearer(c.bearer)).body, "data", "retentionDays"); got != tt.want {
			t.Errorf("retention %v: retentionDays = %v, want %v", tt.retention, got, tt.want)
		}
	}
}
