package sourcing_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/connector"
	"github.com/sightline/sightline/internal/connector/sources"
	"github.com/sightline/sightline/internal/outbound"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/sourcing"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
	"github.com/sightline/sightline/internal/wait"
)

// feed serves an RSS feed that gains an item on every request, or fails as mode says:
// "500", "garbage" or "slow".
type feed struct {
	srv      *httptest.Server
	requests atomic.Int64
	mode     atomic.Value
}

func newFeed(t *testing.T) *feed {
	f := &feed{}
	f.mode.Store("ok")
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := f.requests.Add(1)
		switch f.mode.Load().(string) {
		case "500":
			http.Error(w, "internal error", http.StatusInternalServerError)
			return
		case "garbage":
			io.WriteString(w, "\x00\x01 this is not a feed {")
			return
		case "slow":
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
			return
		}
		w.Header().Set("Content-Type", "application/rss+xml")
		fmt.Fprintf(w, `<?xml version="1.0"?><rss version="2.0"><channel><title>t</title>`)
		for i := int64(1); i <= min(n, 30); i++ {
			fmt.Fprintf(w, `<item><title>Breach report %d at %s</title><guid>%s-%d</guid><link>https://news.example.org/%d</link><pubDate>%s</pubDate></item>`,
				n-i, r.Host, r.Host, n-i, n-i, time.Now().Add(-time.Duration(i)*time.Second).UTC().Format(time.RFC1123Z))
		}
		io.WriteString(w, `</channel></rss>`)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

type sink struct {
	mu    sync.Mutex
	posts map[string]int // by host of the feed
}

func (s *sink) emit(_ context.Context, p post.Post) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	host := strings.Fields(p.TitleText)[len(strings.Fields(p.TitleText))-1]
	s.posts[host]++
	return nil
}

func (s *sink) count(host string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.posts[host]
}

// testBuilder runs sources against the tests' loopback servers at test speed, and times out a
// slow one quickly.
var testBuilder = sources.Builder{Allow: outbound.Everywhere, LiftFloors: true, RequestTimeout: 300 * time.Millisecond}

func build(r sourcing.Source, cursors connector.CursorStore, prefix string) ([]connector.Source, error) {
	return testBuilder.BuildRow(r.Type, r.Name, r.Config, cursors, prefix)
}

func rssConfig(url string) *json.RawMessage {
	b := json.RawMessage(`{"url":"` + url + `","interval":"100ms","backoff":{"initial":"50ms","max":"100ms"}}`)
	return &b
}

func ptr[T any](v T) *T { return &v }

// A source that answers 500, then garbage, then slowly, then not at all shows each state in
// turn while another source keeps flowing; a new source fetches at once, an edited one
// restarts, a disabled or deleted one stops, and a source runs on one node only.
func TestManagerAndHealth(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		admin := tenantAdmin(t, s, "acme")
		got := &sink{posts: map[string]int{}}
		emit := func(int64, post.Origin) connector.EmitFunc { return got.emit }
		m := sourcing.NewManager(s, build, s, emit, sourcing.NewOperator(s), slog.New(slog.NewTextHandler(io.Discard, nil)))
		m.Tick, m.Lease = 100*time.Millisecond, 2*time.Second
		svc := sourcing.NewService(sourcing.Deps{Store: s, Build: build, Interval: testBuilder.Interval, Changed: m.Changed})
		done := make(chan struct{})
		go func() { defer close(done); m.Run(ctx) }()

		steady, faulty := newFeed(t), newFeed(t)
		steadyHost, faultyHost := strings.TrimPrefix(steady.srv.URL, "http://"), strings.TrimPrefix(faulty.srv.URL, "http://")
		add := func(name, url string) int64 {
			v, err := svc.Create(ctx, admin, sourcing.Input{Type: ptr("rss"), Name: ptr(name), Config: rssConfig(url)})
			if err != nil {
				t.Fatal(err)
			}
			return v.ID
		}
		steadyID, faultyID := add("steady", steady.srv.URL), add("faulty", faulty.srv.URL)
		health := func(id int64) sourcing.Health {
			v, err := svc.Get(ctx, admin, id)
			if err != nil {
				t.Fatal(err)
			}
			return v.Health
		}
		wait.For(t, "both sources to flow", func() bool {
			return got.count(steadyHost) > 0 && got.count(faultyHost) > 0 && health(steadyID).State == "ok" && health(faultyID).State == "ok"
		})

		state := func(mode, want, message string) {
			t.Helper()
			faulty.mode.Store(mode)
			before := got.count(steadyHost)
			wait.For(t, "faulty to be "+want+" after "+mode, func() bool {
				h := health(faultyID)
				return h.State == want && h.LastError != nil && strings.Contains(h.LastError.Message, message)
			})
			h := health(faultyID)
			if h.Retries == 0 || h.LastSuccess.IsZero() || h.ItemsLastHour == 0 {
				t.Errorf("faulty health %+v", h)
			}
			wait.For(t, "steady to keep flowing", func() bool { return got.count(steadyHost) > before })
			if h := health(steadyID); h.State != "ok" || h.LagSeconds == nil || h.ItemsLastHour == 0 {
				t.Errorf("steady health %+v", h)
			}
		}
		state("500", "failing", "500 Internal Server Error")
		state("garbage", "failing", "not a feed")
		state("slow", "failing", "Timeout exceeded")
		// Nothing listens at the address any more: unreachable.
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		closed := "http://" + ln.Addr().String()
		ln.Close()
		if _, err := svc.Update(ctx, admin, faultyID, sourcing.Input{Config: rssConfig(closed)}); err != nil {
			t.Fatal(err)
		}
		wait.For(t, "faulty to be unreachable", func() bool { return health(faultyID).State == "unreachable" })

		// Edited back to a working address, it fetches at once and recovers.
		faulty.mode.Store("ok")
		if _, err := svc.Update(ctx, admin, faultyID, sourcing.Input{Config: rssConfig(faulty.srv.URL)}); err != nil {
			t.Fatal(err)
		}
		wait.For(t, "faulty to recover", func() bool { return health(faultyID).State == "ok" })

		// Disabled, the source stops.
		if _, err := svc.Update(ctx, admin, steadyID, sourcing.Input{Enabled: ptr(false)}); err != nil {
			t.Fatal(err)
		}
		if h := health(steadyID); h.State != "disabled" {
			t.Fatalf("disabled source is %s", h.State)
		}
		// The other source fetches at the same interval: its fetches mark the time in which a
		// source still running would have fetched too, on a machine of any speed.
		otherFetches := func(n int64) {
			from := faulty.requests.Load()
			wait.For(t, "the other source to fetch again", func() bool { return faulty.requests.Load() >= from+n })
		}
		otherFetches(3) // a fetch in flight when the source was disabled has ended
		requests := steady.requests.Load()
		otherFetches(5)
		if n := steady.requests.Load(); n != requests {
			t.Fatalf("a disabled source fetched %d times", n-requests)
		}

		// Another node claims nothing this one holds; once this one stops, it takes them over.
		if held, err := s.ClaimSources(ctx, "other-node", time.Now(), time.Now().Add(time.Minute)); err != nil || len(held) != 0 {
			t.Fatalf("another node claimed %v (%v)", held, err)
		}
		if err := svc.Delete(ctx, admin, faultyID); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Update(ctx, admin, steadyID, sourcing.Input{Enabled: ptr(true)}); err != nil {
			t.Fatal(err)
		}
		cancel()
		<-done
		held, err := s.ClaimSources(context.Background(), "other-node", time.Now(), time.Now().Add(time.Minute))
		if err != nil || len(held) != 1 || held[0].ID != steadyID {
			t.Fatalf("after the node stopped, another claimed %v (%v)", held, err)
		}
	})
}

// logLines records what a logger writes, at every level.
type logLines struct {
	mu    sync.Mutex
	lines []slog.Record
}

func (l *logLines) Enabled(context.Context, slog.Level) bool { return true }
func (l *logLines) WithAttrs([]slog.Attr) slog.Handler       { return l }
func (l *logLines) WithGroup(string) slog.Handler            { return l }
func (l *logLines) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, r)
	return nil
}

// count is how many lines say message at level.
func (l *logLines) count(level slog.Level, message string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, r := range l.lines {
		if r.Level == level && r.Message == message {
			n++
		}
	}
	return n
}

// tenantAdmin makes a tenant and returns its administrator.
func tenantAdmin(t *testing.T, s *store.Store, name string) authz.Actor {
	t.Helper()
	tenant := account.Tenant{Name: name}
	if err := s.CreateTenant(context.Background(), &tenant); err != nil {
		t.Fatal(err)
	}
	return authz.Actor{TenantID: tenant.ID, TenantAdmin: true}
}

// Started offline, the log says so in one line, not one warning a source (issue 28: 30
// "source round failed" warnings within seconds); once an address answers, each source still
// not answering is warned about once.
func TestOfflineStartSaysItOnce(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		admin := tenantAdmin(t, s, "acme")
		// The pollers log through the default logger, the manager through its own: both here.
		log := &logLines{}
		defer slog.SetDefault(slog.Default())
		slog.SetDefault(slog.New(log))
		emit := func(int64, post.Origin) connector.EmitFunc { return (&sink{posts: map[string]int{}}).emit }
		m := sourcing.NewManager(s, build, s, emit, sourcing.NewOperator(s), slog.New(log))
		m.Tick, m.Lease = 100*time.Millisecond, 2*time.Second
		svc := sourcing.NewService(sourcing.Deps{Store: s, Build: build, Interval: testBuilder.Interval, Changed: m.Changed})
		add := func(name, url string) {
			if _, err := svc.Create(ctx, admin, sourcing.Input{Type: ptr("rss"), Name: ptr(name), Config: rssConfig(url)}); err != nil {
				t.Fatal(err)
			}
		}
		for i := range 5 {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			ln.Close() // nothing answers there: refused, as a name that does not resolve
			add(fmt.Sprint("cut off ", i), "http://"+ln.Addr().String())
		}
		done := make(chan struct{})
		go func() { defer close(done); m.Run(ctx) }()
		defer func() { cancel(); <-done }()

		wait.For(t, "the offline notice", func() bool { return log.count(slog.LevelWarn, sourcing.OfflineMessage) == 1 })
		wait.For(t, "every source's failure, quietly", func() bool { return log.count(slog.LevelDebug, "source round failed") >= 10 })
		if n := log.count(slog.LevelWarn, "source round failed"); n != 0 {
			t.Errorf("offline: %d warnings of failed rounds besides the one notice, want none", n)
		}

		// An address answers: the server is not offline, and the five that do not are said.
		steady := newFeed(t)
		add("steady", steady.srv.URL)
		wait.For(t, "the network to be back", func() bool {
			return log.count(slog.LevelInfo, "sources: public addresses answer again") == 1
		})
		wait.For(t, "each source still cut off to be warned about", func() bool {
			return log.count(slog.LevelWarn, "source round failed") >= 5
		})
		requests := steady.requests.Load()
		wait.For(t, "more rounds", func() bool { return steady.requests.Load() >= requests+5 })
		if n := log.count(slog.LevelWarn, "source round failed"); n != 5 {
			t.Errorf("%d warnings of failed rounds, want one for each of the 5 sources cut off", n)
		}
		if n := log.count(slog.LevelWarn, sourcing.OfflineMessage); n != 1 {
			t.Errorf("the offline notice was logged %d times", n)
		}
	})
}
