package connector

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/post"
)

// recordingSleep records the waits asked for without taking them.
type recordingSleep struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (r *recordingSleep) sleep(ctx context.Context, d time.Duration) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.waits = append(r.waits, d)
	return ctx.Err()
}

func TestPollerWaits(t *testing.T) {
	limited := &HTTPError{StatusCode: 429, RetryAfter: 42 * time.Second}
	failure := errors.New("connection refused")
	offline := fmt.Errorf("fetch: %w", &net.DNSError{Err: "no such host", Name: "example.org", IsNotFound: true})
	tests := []struct {
		name   string
		rounds []error // what each round returns; the round after the last cancels
		check  func(t *testing.T, waits []time.Duration)
	}{
		{"success waits the interval", []error{nil, nil}, func(t *testing.T, waits []time.Duration) {
			if waits[0] != time.Minute || waits[1] != time.Minute {
				t.Errorf("waits %v, want the interval", waits)
			}
		}},
		{"failures back off exponentially", []error{failure, failure, failure, failure}, func(t *testing.T, waits []time.Duration) {
			for i, ceiling := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second} {
				if waits[i] < ceiling/2 || waits[i] > ceiling {
					t.Errorf("wait %d = %v, want within [%v, %v]", i, waits[i], ceiling/2, ceiling)
				}
			}
		}},
		{"retry-after is honoured", []error{fmt.Errorf("page: %w", limited)}, func(t *testing.T, waits []time.Duration) {
			if waits[0] != 42*time.Second {
				t.Errorf("wait %v, want Retry-After's 42s", waits[0])
			}
		}},
		{"an address that does not answer waits at least a minute", []error{offline, offline}, func(t *testing.T, waits []time.Duration) {
			if waits[0] != UnreachableRetry || waits[1] != UnreachableRetry {
				t.Errorf("waits %v, want %v each", waits, UnreachableRetry)
			}
		}},
		{"a success resets the backoff", []error{failure, failure, failure, nil, failure}, func(t *testing.T, waits []time.Duration) {
			if waits[4] > time.Second {
				t.Errorf("first failure after a success waited %v, want at most 1s", waits[4])
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			rec := &recordingSleep{}
			p := Poller{
				Status:   NewStatus("test"),
				Backoff:  Backoff{Initial: Duration(time.Second), Max: Duration(time.Hour)},
				Interval: time.Minute,
				Sleep:    rec.sleep,
			}
			n := 0
			err := p.Run(ctx, func(context.Context) error {
				if n == len(tt.rounds) {
					cancel()
					return nil
				}
				n++
				return tt.rounds[n-1]
			})
			if err != nil {
				t.Fatalf("Run = %v, want nil after cancellation", err)
			}
			tt.check(t, rec.waits)
		})
	}
}

func TestPollerResetsBackoffAfterProgress(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rec := &recordingSleep{}
	status := NewStatus("stream")
	p := Poller{Status: status, Backoff: Backoff{Initial: Duration(time.Second), Max: Duration(time.Hour)}, Sleep: rec.sleep}
	n := 0
	p.Run(ctx, func(context.Context) error {
		n++
		switch n {
		case 5: // a connection that delivered posts, then dropped
			status.Emitted(time.Now())
		case 6:
			cancel()
		}
		return errors.New("connection lost")
	})
	if rec.waits[4] > time.Second {
		t.Fatalf("after a productive connection dropped, waited %v; want the first backoff step", rec.waits[4])
	}
	if got := status.Stats().LastError; got != "connection lost" {
		t.Fatalf("last error %q", got)
	}
}

func TestSendSkipsMalformedPosts(t *testing.T) {
	status := NewStatus("test")
	var emitted []post.Post
	emit := func(_ context.Context, p post.Post) error {
		emitted = append(emitted, p)
		return nil
	}
	good := post.Post{Provider: "news", NativeID: "1", ContentText: "x", PublishedAt: time.Now().Add(-time.Minute)}
	bad := post.Post{Provider: "news", ContentText: "no id", PublishedAt: time.Now()}
	for _, p := range []post.Post{good, bad, good} {
		if err := Send(context.Background(), status, emit, p); err != nil {
			t.Fatal(err)
		}
	}
	st := status.Stats()
	if len(emitted) != 2 || st.Count != 2 || st.Skipped != 1 || !strings.HasPrefix(st.LastSkip, "native_id is required") {
		t.Fatalf("emitted %d, stats %+v", len(emitted), st)
	}
	if st.LagSeconds < 59 || st.LagSeconds > 120 {
		t.Fatalf("lag %vs, want about a minute", st.LagSeconds)
	}
	if emitted[0].ID == "" {
		t.Fatal("emitted post was not normalized")
	}

	tooOld := func(context.Context, post.Post) error {
		return Rejected(errors.New("published_at is older than the retention window"))
	}
	if err := Send(context.Background(), status, tooOld, good); err != nil {
		t.Fatalf("a rejected post stopped the source: %v", err)
	}
	if st := status.Stats(); st.Skipped != 2 || st.LastSkip != "published_at is older than the retention window" || st.Count != 2 {
		t.Fatalf("after a rejection: %+v", st)
	}
	if !IsRejected(fmt.Errorf("wrapped: %w", Rejected(errors.New("x")))) || IsRejected(errors.New("x")) {
		t.Fatal("IsRejected does not see through wrapping, or sees what is not there")
	}

	failing := func(context.Context, post.Post) error { return errors.New("stream down") }
	if err := Send(context.Background(), status, failing, good); err == nil {
		t.Fatal("an emit failure was swallowed")
	}
	if status.Stats().Count != 2 {
		t.Fatal("a post that was not taken was counted")
	}
}

func TestStatusIsSafeForConcurrentUse(t *testing.T) {
	status := NewStatus("test")
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 1000 {
				status.Emitted(time.Now())
				status.Failed(errors.New("x"))
				_ = status.Stats()
			}
		})
	}
	wg.Wait()
	if n := status.Stats().Count; n != 4000 {
		t.Fatalf("count %d, want 4000", n)
	}
}

func TestDecodeAndSendFresh(t *testing.T) {
	t0 := time.Date(2026, 11, 25, 6, 0, 0, 0, time.UTC)
	type item struct {
		ID   string `json:"id"`
		Time int64  `json:"t"`
	}
	toPost := func(it item) (post.Post, error) {
		if it.ID == "" {
			return post.Post{}, errors.New("an item without an id")
		}
		return post.Post{Provider: "news", Type: post.TypeNewsPost, NativeID: it.ID, ContentText: "text " + it.ID,
			PublishedAt: t0.Add(time.Duration(it.Time) * time.Minute)}, nil
	}
	items := []json.RawMessage{
		json.RawMessage(`{"id":"a","t":1}`),
		json.RawMessage(`not json`),
		json.RawMessage(`{"id":"b","t":2}`),
		json.RawMessage(`{"t":3}`),
		json.RawMessage(`{"id":"a","t":1}`), // listed again
		json.RawMessage(`{"id":"c","t":4}`),
	}
	tests := []struct {
		name      string
		refuse    string // the native id the pipeline fails to take
		wantSent  []string
		wantSeen  []string
		wantError bool
	}{
		{"every fresh post once, in order", "", []string{"a", "b", "c"}, []string{"a", "b", "c"}, false},
		{"a post not taken stops the page and stays fresh", "b", []string{"a"}, []string{"a"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status := NewStatus("listing")
			var seen Seen
			var sent []string
			emit := func(_ context.Context, p post.Post) error {
				if p.NativeID == tt.refuse {
					return errors.New("the stream is down")
				}
				sent = append(sent, p.NativeID)
				return nil
			}
			err := SendFresh(context.Background(), status, emit, &seen, Decode(status, "page 1", items, toPost))
			if (err != nil) != tt.wantError || !slices.Equal(sent, tt.wantSent) || !slices.Equal(seen.Keys, tt.wantSeen) {
				t.Fatalf("err %v, sent %v, seen %v; want sent %v, seen %v", err, sent, seen.Keys, tt.wantSent, tt.wantSeen)
			}
		})
	}
	status := NewStatus("listing")
	for range Decode(status, "page 1", items, toPost) {
	}
	if st := status.Stats(); st.Skipped != 2 || st.LastSkip != "malformed reply: page 1: an item without an id" {
		t.Fatalf("skipped %d (%q), want the item that is not JSON and the one without an id", st.Skipped, st.LastSkip)
	}
}
