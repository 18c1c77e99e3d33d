package stream_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/stream"
	"github.com/sightline/sightline/internal/wait"
)

// openStream opens an embedded stream whose posts are kept for the stage "stage".
func openStream(t testing.TB) *stream.Stream {
	return openStreamWith(t, stream.Config{})
}

func openStreamWith(t testing.TB, c stream.Config) *stream.Stream {
	t.Helper()
	c.DataDir, c.Consumers = t.TempDir(), []string{"stage"}
	s, err := stream.Open(context.Background(), c, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func publish(t *testing.T, s *stream.Stream, ids ...string) {
	t.Helper()
	posts := make([]post.Post, len(ids))
	for i, id := range ids {
		posts[i] = post.Post{ID: id, Provider: "reddit", NativeID: id}
	}
	for _, err := range s.PublishPosts(context.Background(), posts) {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// A post that always fails its stage, by an error or a panic, goes to the dead-letter stream
// after MaxDeliver deliveries, with why and where it failed, and the dead-letter count shows it;
// the posts around it, and those published after it, are handled, and the process goes on.
func TestPoisonPostIsDeadLettered(t *testing.T) {
	for _, tc := range []struct {
		how        string
		maxDeliver int
		poison     func() error
		wantError  string
		// inAfter puts the failing work in the stage's second step (ConsumeConfig.After).
		inAfter bool
	}{
		{"fails", 1, failPoison, "the stage cannot take this post", false},
		{"fails", 3, failPoison, "the stage cannot take this post", false},
		{"fails", stream.MaxDeliver, failPoison, "the stage cannot take this post", false},
		{"panics", 1, panicPoison, "the stage panicked: the stage cannot take this post", false},
		{"panics", stream.MaxDeliver, panicPoison, "the stage panicked: the stage cannot take this post", false},
		{"fails after", 3, failPoison, "the stage cannot take this post", true},
		{"panics after", stream.MaxDeliver, panicPoison, "the stage panicked: the stage cannot take this post", true},
	} {
		maxDeliver := tc.maxDeliver
		t.Run(tc.how+"/"+strconv.Itoa(maxDeliver), func(t *testing.T) {
			s := openStream(t)
			var mu sync.Mutex
			handled := map[string]bool{}
			poisonTries := 0
			handle := func(ctx context.Context, posts []post.Post) error {
				mu.Lock()
				poisoned := slices.ContainsFunc(posts, func(p post.Post) bool { return p.ID == "poison" })
				if poisoned {
					poisonTries++
				} else {
					for _, p := range posts {
						handled[p.ID] = true
					}
				}
				mu.Unlock()
				if poisoned {
					return tc.poison()
				}
				return nil
			}
			c := stream.ConsumeConfig{Durable: "stage", Batch: 50, Linger: 20 * time.Millisecond,
				MaxDeliver: maxDeliver, RetryDelay: 10 * time.Millisecond}
			if tc.inAfter {
				c.After, handle = handle, func(context.Context, []post.Post) error { return nil }
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() {
				done <- s.Consume(ctx, c, handle)
			}()
			t.Cleanup(func() { cancel(); <-done })

			var before, after []string
			for i := range 20 {
				before = append(before, fmt.Sprintf("before-%d", i))
				after = append(after, fmt.Sprintf("after-%d", i))
			}
			publish(t, s, append(before[:10:10], append([]string{"poison"}, before[10:]...)...)...)
			wait.For(t, "the dead letter", func() bool {
				h, err := s.Health(context.Background())
				return err == nil && h.DeadLettered == 1
			})
			publish(t, s, after...)
			wait.For(t, "the other posts", func() bool {
				mu.Lock()
				defer mu.Unlock()
				for _, id := range append(before, after...) {
					if !handled[id] {
						return false
					}
				}
				return true
			})
			mu.Lock()
			if poisonTries < maxDeliver {
				t.Errorf("the poison post was tried %d times, want at least %d", poisonTries, maxDeliver)
			}
			mu.Unlock()

			dl, err := s.JetStream().Stream(context.Background(), stream.DeadLetterStream)
			if err != nil {
				t.Fatal(err)
			}
			msg, err := dl.GetLastMsgForSubject(context.Background(), "deadletter.stage.reddit")
			if err != nil {
				t.Fatal(err)
			}
			if got := msg.Header.Get("Sightline-Error"); got != tc.wantError {
				t.Errorf("dead letter's error %q", got)
			}
			if n, _ := strconv.Atoi(msg.Header.Get("Sightline-Deliveries")); n < maxDeliver {
				t.Errorf("dead-lettered after %d deliveries, want %d", n, maxDeliver)
			}
			if !jsonHasID(msg.Data, "poison") {
				t.Errorf("dead letter holds %s, want the poison post", msg.Data)
			}
			// Nothing is left pending: the poison post was terminated, not left to loop.
			wait.For(t, "the stage to catch up", func() bool {
				h, err := s.Health(context.Background())
				if err != nil {
					return false
				}
				for _, c := range h.Consumers {
					if c.Name == "stage" {
						return c.Lag() == 0
					}
				}
				return false
			})
		})
	}
}

// A stage with a second step runs it on a batch once the handler succeeded on that batch, while
// the handler goes on with the next one; each step sees the batches in the same order, and a
// batch is acknowledged only once its second step succeeded.
func TestAfterOverlapsTheNextBatch(t *testing.T) {
	s := openStream(t)
	var mu sync.Mutex
	handled := map[string]bool{}
	var handledOrder, afterOrder []string
	var wrong []string
	release := make(chan struct{})
	handle := func(ctx context.Context, posts []post.Post) error {
		mu.Lock()
		defer mu.Unlock()
		for _, p := range posts {
			handled[p.ID] = true
		}
		handledOrder = append(handledOrder, posts[0].ID)
		return nil
	}
	after := func(ctx context.Context, posts []post.Post) error {
		mu.Lock()
		for _, p := range posts {
			if !handled[p.ID] {
				wrong = append(wrong, p.ID)
			}
		}
		first := len(afterOrder) == 0
		afterOrder = append(afterOrder, posts[0].ID)
		mu.Unlock()
		if first {
			select {
			case <-release:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- s.Consume(ctx, stream.ConsumeConfig{Durable: "stage", Batch: 10, After: after}, handle)
	}()
	t.Cleanup(func() { cancel(); <-done })
	var ids []string
	for i := range 30 {
		ids = append(ids, fmt.Sprintf("p-%02d", i))
	}
	publish(t, s, ids...)
	// The first batch's second step waits; the handler takes the next batch meanwhile.
	wait.For(t, "the handler on a second batch", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(handledOrder) >= 2
	})
	if lag, err := s.Pending(context.Background(), "stage"); err != nil || lag != uint64(len(ids)) {
		t.Errorf("while the first batch's second step runs, the lag is %d (%v), want all %d posts", lag, err, len(ids))
	}
	close(release)
	wait.For(t, "every post acknowledged", func() bool {
		lag, err := s.Pending(context.Background(), "stage")
		return err == nil && lag == 0
	})
	mu.Lock()
	defer mu.Unlock()
	if len(wrong) > 0 {
		t.Errorf("the second step ran on %v before the handler had", wrong)
	}
	if !slices.Equal(handledOrder, afterOrder) {
		t.Errorf("the handler took the batches beginning %v, the second step %v", handledOrder, afterOrder)
	}
	for _, id := range ids {
		if !handled[id] {
			t.Errorf("%s was not handled", id)
		}
	}
}

func failPoison() error { return errors.New("the stage cannot take this post") }

func panicPoison() error { panic("the stage cannot take this post") }

// While every post fails (what the stage writes to is down), nothing is dead-lettered: the
// posts wait on the stream, and the stage takes them once it works again.
func TestOutageDeadLettersNothing(t *testing.T) {
	s := openStream(t)
	var mu sync.Mutex
	down := true
	handled := map[string]bool{}
	handle := func(ctx context.Context, posts []post.Post) error {
		mu.Lock()
		defer mu.Unlock()
		if down {
			return errors.New("database unavailable")
		}
		for _, p := range posts {
			handled[p.ID] = true
		}
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	tries := make(chan struct{}, 1000)
	go func() {
		done <- s.Consume(ctx, stream.ConsumeConfig{Durable: "stage", Batch: 10, MaxDeliver: 2,
			RetryDelay: 5 * time.Millisecond}, func(ctx context.Context, posts []post.Post) error {
			select {
			case tries <- struct{}{}:
			default:
			}
			return handle(ctx, posts)
		})
	}()
	t.Cleanup(func() { cancel(); <-done })
	publish(t, s, "a", "b", "c")
	for range 20 { // well past MaxDeliver deliveries of every post
		<-tries
	}
	if h, err := s.Health(context.Background()); err != nil || h.DeadLettered != 0 {
		t.Fatalf("during the outage: %+v, %v; want nothing dead-lettered", h, err)
	}
	mu.Lock()
	down = false
	mu.Unlock()
	wait.For(t, "the posts after the outage", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return handled["a"] && handled["b"] && handled["c"]
	})
}

func jsonHasID(data []byte, id string) bool {
	var p post.Post
	return json.Unmarshal(data, &p) == nil && p.ID == id
}
