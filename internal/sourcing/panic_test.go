package sourcing_test

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/connector"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/sourcing"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
	"github.com/sightline/sightline/internal/wait"
)

// bomb is a source that panics as soon as it runs, with a value that quotes a secret.
type bomb struct{ runs *atomic.Int64 }

func (bomb) Name() string { return "bomb" }
func (b bomb) Run(context.Context, connector.EmitFunc) error {
	b.runs.Add(1)
	panic("cannot parse https://feeds.example.org/private/token-s3cr3t")
}

// ticker emits a post every few milliseconds until its context ends.
type ticker struct{ status *connector.Status }

func (ticker) Name() string             { return "ticker" }
func (t ticker) Stats() connector.Stats { return t.status.Stats() }
func (t ticker) Run(ctx context.Context, emit connector.EmitFunc) error {
	for i := 0; ctx.Err() == nil; i++ {
		p := post.Post{Provider: "news", NativeID: time.Now().Format(time.RFC3339Nano), ContentText: "tick", PublishedAt: time.Now()}
		if err := connector.Send(ctx, t.status, emit, p); err != nil && ctx.Err() == nil {
			return err
		}
		t.status.Succeeded()
		_ = connector.Sleep(ctx, 5*time.Millisecond)
	}
	return nil
}

// A source that panics is recovered: its health shows a generic error (not the panic's text),
// it is started again after a backoff, another source keeps flowing and the process goes on;
// a test fetch of such a source answers the same generic error.
func TestPanickingSourceIsRestarted(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		admin := tenantAdmin(t, s, "acme")
		runs := &atomic.Int64{}
		build := func(r sourcing.Source, _ connector.CursorStore, _ string) ([]connector.Source, error) {
			if r.Type == "bomb" {
				return []connector.Source{bomb{runs}}, nil
			}
			return []connector.Source{ticker{connector.NewStatus("ticker")}}, nil
		}
		var emitted atomic.Int64
		emit := func(int64, post.Origin) connector.EmitFunc {
			return func(context.Context, post.Post) error { emitted.Add(1); return nil }
		}
		m := sourcing.NewManager(s, build, s, emit, sourcing.NewOperator(s), slog.New(slog.NewTextHandler(io.Discard, nil)))
		m.Tick, m.Lease = 50*time.Millisecond, 2*time.Second
		svc := sourcing.NewService(sourcing.Deps{Store: s, Build: build, Changed: m.Changed})
		done := make(chan struct{})
		go func() { defer close(done); m.Run(ctx) }()

		steady, err := svc.Create(ctx, admin, sourcing.Input{Type: ptr("ticker"), Name: ptr("steady")})
		if err != nil {
			t.Fatal(err)
		}
		broken, err := svc.Create(ctx, admin, sourcing.Input{Type: ptr("bomb"), Name: ptr("broken")})
		if err != nil {
			t.Fatal(err)
		}
		health := func(id int64) sourcing.Health {
			v, err := svc.Get(ctx, admin, id)
			if err != nil {
				t.Fatal(err)
			}
			return v.Health
		}
		wait.For(t, "the panicking source to be restarted", func() bool { return runs.Load() >= 2 })
		wait.For(t, "its health to show the failure", func() bool {
			h := health(broken.ID)
			return h.LastError != nil && h.State != sourcing.StateOK && h.State != sourcing.StatePending
		})
		h := health(broken.ID)
		if h.LastError.Message != connector.PanicMessage || strings.Contains(h.LastError.Message, "s3cr3t") || h.Retries == 0 {
			t.Errorf("the panicking source's health: %+v, %+v", h, h.LastError)
		}
		before := emitted.Load()
		wait.For(t, "the other source to keep flowing", func() bool { return emitted.Load() > before+10 })
		if h := health(steady.ID); h.State != sourcing.StateOK {
			t.Errorf("the steady source is %s: %+v", h.State, h)
		}

		preview, err := svc.Test(ctx, admin, 0, sourcing.Input{Type: ptr("bomb")})
		if err != nil || preview.OK || preview.Error != sourcing.TestPanicMessage {
			t.Errorf("test fetch of a panicking source: %+v, %v", preview, err)
		}
		cancel()
		<-done
	})
}
