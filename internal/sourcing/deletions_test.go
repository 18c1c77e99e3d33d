package sourcing_test

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/connector"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/sourcing"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
	"github.com/sightline/sightline/internal/wait"
)

// deleting is a source whose provider reports one deletion as soon as it runs.
type deleting struct {
	native  string
	deleted connector.DeleteFunc
}

func (d *deleting) Name() string                     { return "deleting" }
func (d *deleting) OnDelete(fn connector.DeleteFunc) { d.deleted = fn }
func (d *deleting) Run(ctx context.Context, _ connector.EmitFunc) error {
	if d.deleted != nil {
		if err := d.deleted(ctx, "mastodon", d.native, time.Now()); err != nil {
			return err
		}
	}
	<-ctx.Done()
	return nil
}

// The manager gives each row's connectors that hear of deletions where to report them, for the
// posts of the row's owner: two tenants' rows report each for their own tenant.
func TestManagerGivesDeletersTheirOwner(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var admins []authz.Actor
		for _, name := range []string{"acme", "initech"} {
			admins = append(admins, tenantAdmin(t, s, name))
		}
		build := func(r sourcing.Source, _ connector.CursorStore, _ string) ([]connector.Source, error) {
			return []connector.Source{&deleting{native: r.Name}}, nil
		}
		emit := func(int64, post.Origin) connector.EmitFunc {
			return func(context.Context, post.Post) error { return nil }
		}
		var mu sync.Mutex
		reported := map[string]int64{} // native id: owner
		m := sourcing.NewManager(s, build, s, emit, sourcing.NewOperator(s), slog.New(slog.NewTextHandler(io.Discard, nil)))
		m.Tick, m.Lease = 50*time.Millisecond, 2*time.Second
		m.Deletions = func(owner int64) connector.DeleteFunc {
			return func(_ context.Context, _, native string, _ time.Time) error {
				mu.Lock()
				defer mu.Unlock()
				reported[native] = owner
				return nil
			}
		}
		svc := sourcing.NewService(sourcing.Deps{Store: s, Build: build, Changed: m.Changed})
		done := make(chan struct{})
		go func() { defer close(done); m.Run(ctx) }()
		for i, name := range []string{"acme-stream", "initech-stream"} {
			if _, err := svc.Create(ctx, admins[i], sourcing.Input{Type: ptr("mastodon"), Name: ptr(name)}); err != nil {
				t.Fatal(err)
			}
		}
		wait.For(t, "both rows to report", func() bool {
			mu.Lock()
			defer mu.Unlock()
			return len(reported) == 2
		})
		mu.Lock()
		if reported["acme-stream"] != admins[0].TenantID || reported["initech-stream"] != admins[1].TenantID {
			t.Errorf("reported for owners %v, want acme %d and initech %d", reported, admins[0].TenantID, admins[1].TenantID)
		}
		mu.Unlock()
		cancel()
		<-done
	})
}
