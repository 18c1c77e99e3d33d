package translate

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/problem"
)

// mangler is a LibreTranslate-protocol server that "translates" by upper-casing the text
// (outside tags in HTML), which ruins every entity sent to it unmasked; in drop mode it also
// loses the placeholders.
type mangler struct {
	*httptest.Server
	mu   sync.Mutex
	sent []string // the texts it was sent
}

var placeholderLike = regexp.MustCompile(`\[\[\d+\]\]`)
var tagLike = regexp.MustCompile(`<[^>]*>`)

func startMangler(t *testing.T, drop bool) *mangler {
	t.Helper()
	m := &mangler{}
	m.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in map[string]string
		if json.NewDecoder(r.Body).Decode(&in) != nil {
			http.Error(w, `{"error":"bad request"}`, http.StatusBadRequest)
			return
		}
		m.mu.Lock()
		m.sent = append(m.sent, in["q"])
		m.mu.Unlock()
		out := in["q"]
		if drop {
			out = placeholderLike.ReplaceAllString(out, "")
		}
		if in["format"] == FormatHTML {
			var b strings.Builder
			last := 0
			for _, loc := range tagLike.FindAllStringIndex(out, -1) {
				b.WriteString(strings.ToUpper(out[last:loc[0]]) + out[loc[0]:loc[1]])
				last = loc[1]
			}
			out = b.String() + strings.ToUpper(out[last:])
		} else {
			out = strings.ToUpper(out)
		}
		json.NewEncoder(w).Encode(map[string]string{"translatedText": out})
	}))
	t.Cleanup(m.Close)
	return m
}

func TestEntitiesSurviveTranslation(t *testing.T) {
	tests := []struct {
		name   string
		req    Request
		drop   bool
		want   string
		calls  int
		noSent []string // what must not reach the server
	}{
		{name: "entities enrichment finds",
			req: Request{Text: "see https://x.example/Path?a=B from 203.0.113.7 and 2001:db8::1, mail a.b@Example.com, call +44 20 7946 0958, card 4111 1111 1111 1111, SSN 536-22-1234, via @leaker",
				Format: FormatText, WantEntities: true},
			want:   "SEE https://x.example/Path?a=B FROM 203.0.113.7 AND 2001:db8::1, MAIL a.b@Example.com, CALL +44 20 7946 0958, CARD 4111 1111 1111 1111, SSN 536-22-1234, VIA @leaker",
			calls:  1,
			noSent: []string{"x.example", "203.0.113.7", "Example.com", "7946", "4111", "536-22", "leaker"}},
		{name: "the client's lists and the query terms, as whole words",
			req: Request{Text: "Posted by Jane Roe (jroe) about the Flood, not the flooding; the flood again", WantEntities: true, Format: FormatText,
				QueryTerms: []string{"flood", "absent"}, Known: Entities{AuthorScreenName: []string{"jane roe"}, AuthorUsername: []string{"jroe"}}},
			want:  "POSTED BY Jane Roe (jroe) ABOUT THE Flood, NOT THE FLOODING; THE flood AGAIN",
			calls: 1, noSent: []string{"Jane", "jroe", "Flood,", "flood again"}},
		{name: "text that already holds brackets and digits",
			req:  Request{Text: "ref [[70]] and [[ 8 x]] by jroe", WantEntities: true, Format: FormatText, Known: Entities{AuthorUsername: []string{"jroe"}}},
			want: "REF [[70]] AND [[ 8 X]] BY jroe", calls: 1},
		{name: "html: text between tags is masked, markup never",
			req: Request{Text: `<p>Leak at <a href="https://x.example/a">https://x.example/a</a> by jroe &amp; co</p>`, WantEntities: true,
				Known: Entities{AuthorUsername: []string{"jroe", "href", "amp"}}},
			want:  `<p>LEAK AT <a href="https://x.example/a">https://x.example/a</a> BY jroe &AMP; CO</p>`,
			calls: 1},
		{name: "a server that loses placeholders: the plain text is translated instead",
			req:  Request{Text: "mail a.b@example.com now", WantEntities: true, Format: FormatText},
			drop: true, want: "MAIL A.B@EXAMPLE.COM NOW", calls: 2},
		{name: "nothing but entities is not sent",
			req:  Request{Text: "https://x.example/a, 203.0.113.7 - jroe!", WantEntities: true, Format: FormatText, Known: Entities{AuthorUsername: []string{"jroe"}}},
			want: "https://x.example/a, 203.0.113.7 - jroe!", calls: 0},
		{name: "form A is sent as it is",
			req:  Request{Text: "mail a.b@example.com now", Format: FormatText},
			want: "MAIL A.B@EXAMPLE.COM NOW", calls: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			server := startMangler(t, tt.drop)
			backend, err := NewLibreTranslate(server.URL, "")
			if err != nil {
				t.Fatal(err)
			}
			svc := NewService(backend, memCache{})
			tt.req.Target = "de"
			res, err := svc.Translate(context.Background(), tt.req)
			if err != nil || res.Translation != tt.want {
				t.Fatalf("translation = %q %v\nwant          %q", res.Translation, err, tt.want)
			}
			if len(server.sent) != tt.calls {
				t.Errorf("server called %d times (%q), want %d", len(server.sent), server.sent, tt.calls)
			}
			for _, s := range tt.noSent {
				if strings.Contains(strings.Join(server.sent, "\n"), s) {
					t.Errorf("%q reached the server: %q", s, server.sent)
				}
			}
			if tt.req.WantEntities && res.EntitiesInDocument == nil {
				t.Error("no entitiesInDocument")
			}
			// Asked again, the answer is the cache's, restored the same way.
			again, err := svc.Translate(context.Background(), tt.req)
			if err != nil || again.Translation != tt.want || len(server.sent) != tt.calls {
				t.Errorf("again = %q %v after %d calls", again.Translation, err, len(server.sent))
			}
		})
	}
}

// Whatever the text and terms, masking then restoring gives the text back, also after a
// server that changes the case of everything else.
func FuzzMaskRoundTrip(f *testing.F) {
	f.Add("see https://x.example/a from 203.0.113.7 [[70]] [[ 7", "x", FormatText)
	f.Add(`<p title="jroe">jroe &amp; <b>jroe</b></p>`, "jroe", FormatHTML)
	f.Add("[[7 0]] [ [ 80 ]] flood flooding", "flood", FormatText)
	f.Add("call +1 (415) 555-2671, SSN 536-22-1234, 4111 1111 1111 1111, @a@b.example", "1", FormatHTML)
	f.Fuzz(func(t *testing.T, text, term, format string) {
		m := mask(text, format, []string{term}, Entities{Authors: []string{term + term}})
		got, ok := m.restore(m.text)
		if !ok || got != text {
			t.Fatalf("restore(mask(%q)) = %q, %v (masked %q)", text, got, ok, m.text)
		}
		if m.pattern != nil {
			if _, ok := m.restore(strings.ToUpper(m.text)); !ok {
				t.Fatalf("placeholders of %q lost to upper case", m.text)
			}
		}
	})
}

func TestLimiter(t *testing.T) {
	now := time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)
	l := NewLimiter()
	l.Now = func() time.Time { return now }
	for i := range Burst {
		if err := l.Allow(1); err != nil {
			t.Fatalf("call %d refused: %v", i+1, err)
		}
	}
	err := l.Allow(1)
	rl, ok := problem.As(err)
	if !ok || rl.Kind != problem.KindRateLimited || rl.RetryAfter <= 0 || rl.RetryAfter > time.Second || err.Error() != MsgRateLimited {
		t.Fatalf("call past the burst = %v", err)
	}
	if err := l.Allow(2); err != nil {
		t.Errorf("another user refused: %v", err)
	}
	// Refused calls take nothing: a second later exactly one more passes.
	l.Allow(1)
	now = now.Add(time.Second)
	if err := l.Allow(1); err != nil {
		t.Errorf("a second later: %v", err)
	}
	if err := l.Allow(1); err == nil {
		t.Error("two calls passed a second later")
	}
	// A minute idle refills the bucket.
	now = now.Add(time.Minute)
	for i := range Burst {
		if err := l.Allow(1); err != nil {
			t.Fatalf("after a minute, call %d refused", i+1)
		}
	}
}
