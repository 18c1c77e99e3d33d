// Package connectortest holds what the sources' tests share: an in-memory cursor store, a
// collector of emitted posts, a sleeper that records waits instead of taking them, and a way to
// run a source in the background. Only tests import it.
package connectortest

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/connector"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/post/postschema"
	"github.com/sightline/sightline/internal/wait"
)

// Cursors is an in-memory connector.CursorStore.
type Cursors struct {
	mu      sync.Mutex
	cursors map[string]string
}

func (c *Cursors) Load(_ context.Context, source string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cursors[source], nil
}

func (c *Cursors) Save(_ context.Context, source, cursor string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cursors == nil {
		c.cursors = map[string]string{}
	}
	c.cursors[source] = cursor
	return nil
}

// Collector gathers emitted posts.
type Collector struct {
	mu    sync.Mutex
	posts []post.Post
}

// Emit is the connector.EmitFunc that collects. Every post must match the post format's
// contract, docs/post.schema.json: one that does not stops the test binary with the reason.
func (c *Collector) Emit(_ context.Context, p post.Post) error {
	if err := postschema.CheckValue(p); err != nil {
		panic(fmt.Sprintf("connectortest: post %s/%s does not match docs/post.schema.json: %v", p.Provider, p.NativeID, err))
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.posts = append(c.posts, p)
	return nil
}

// Posts returns the posts collected so far.
func (c *Collector) Posts() []post.Post {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.posts)
}

// NativeIDs returns the collected posts' native ids in emission order.
func (c *Collector) NativeIDs() []string {
	var ids []string
	for _, p := range c.Posts() {
		ids = append(ids, p.NativeID)
	}
	return ids
}

// WaitForPosts waits until at least n posts were collected.
func (c *Collector) WaitForPosts(t testing.TB, n int) []post.Post {
	t.Helper()
	wait.For(t, "posts", func() bool { return len(c.Posts()) >= n })
	return c.Posts()
}

// Sleeper records the waits a source asks for and returns almost at once, so that tests of
// backoff and Retry-After take milliseconds.
type Sleeper struct {
	mu    sync.Mutex
	waits []time.Duration
}

// Sleep is the Poller.Sleep that records.
func (s *Sleeper) Sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.waits = append(s.waits, d)
	s.mu.Unlock()
	return connector.Sleep(ctx, min(d, time.Millisecond))
}

// Waits returns the waits asked for so far.
func (s *Sleeper) Waits() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.waits)
}

// Start runs src in the background. The returned stop cancels it, waits for Run to return and
// fails the test if Run returned an error.
func Start(t testing.TB, src connector.Source, emit connector.EmitFunc) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- src.Run(ctx, emit) }()
	stopped := false
	stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		if err := wait.Receive(t, src.Name()+": Run returning after cancellation", done); err != nil {
			t.Errorf("%s: Run returned %v", src.Name(), err)
		}
	}
	t.Cleanup(stop)
	return stop
}

// Deletion is one deletion a source reported.
type Deletion struct {
	Provider, NativeID string
	At                 time.Time
}

// Deletions gathers the deletions a source reports (connector.Deleter).
type Deletions struct {
	mu   sync.Mutex
	list []Deletion
	// Fail, when set, is returned by Delete after recording.
	Fail error
}

// Delete is the connector.DeleteFunc that collects.
func (d *Deletions) Delete(_ context.Context, provider, nativeID string, at time.Time) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.list = append(d.list, Deletion{provider, nativeID, at})
	return d.Fail
}

// List returns the deletions reported so far, in order.
func (d *Deletions) List() []Deletion {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Clone(d.list)
}
