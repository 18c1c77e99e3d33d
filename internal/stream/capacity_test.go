package stream_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/stream"
	"github.com/sightline/sightline/internal/wait"
)

// The POSTS stream keeps a post until its stages have taken it (no age limit that would drop
// it unseen) and is capped in bytes, refusing new posts rather than discarding old ones; its
// stages exist before anything is published, so that no post finds no one to be kept for.
func TestPostsStreamKeepsWhatIsNotConsumed(t *testing.T) {
	for _, tt := range []struct {
		name     string
		maxBytes int64
		want     int64
	}{
		{"default cap", 0, stream.DefaultMaxBytes},
		{"operator's cap", 64 << 20, 64 << 20},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := openStreamWith(t, stream.Config{MaxBytes: tt.maxBytes})
			ctx := context.Background()
			posts, err := s.JetStream().Stream(ctx, stream.PostsStream)
			if err != nil {
				t.Fatal(err)
			}
			cfg := posts.CachedInfo().Config
			if cfg.MaxAge != 0 || cfg.Retention != jetstream.InterestPolicy || cfg.Discard != jetstream.DiscardNew {
				t.Errorf("max age %s, retention %s, discard %s; want no age limit, interest, discard new",
					cfg.MaxAge, cfg.Retention, cfg.Discard)
			}
			// The disk of a test machine may hold less than twice the default.
			if cfg.MaxBytes <= 0 || cfg.MaxBytes > tt.want || (tt.maxBytes > 0 && cfg.MaxBytes != tt.want) {
				t.Errorf("max bytes %d, want %d", cfg.MaxBytes, tt.want)
			}
			if _, err := s.JetStream().Consumer(ctx, stream.PostsStream, "stage"); err != nil {
				t.Errorf("the stage's consumer before any post: %v", err)
			}
			publish(t, s, "kept")
			if h, err := s.Health(ctx); err != nil || h.Bytes == 0 || h.MaxBytes != uint64(cfg.MaxBytes) {
				t.Errorf("health %+v, %v; want the post's bytes of the cap", h, err)
			}
		})
	}
}

// A full stream refuses new posts with ErrFull and keeps every post it holds; once the stage
// has taken them, there is room again.
func TestFullStreamRefusesNewPosts(t *testing.T) {
	s := openStreamWith(t, stream.Config{MaxBytes: 32 << 10})
	ctx := context.Background()
	text := strings.Repeat("x", 1000)
	var stored []string
	var refused error
	for i := 0; refused == nil; i++ {
		if i == 1000 {
			t.Fatal("a 32 KiB stream took 1,000 posts of 1 KB")
		}
		id := fmt.Sprintf("post-%d", i)
		refused = s.PublishPosts(ctx, []post.Post{{ID: id, Provider: "reddit", NativeID: id, ContentText: text}})[0]
		if refused == nil {
			stored = append(stored, id)
		}
	}
	if !errors.Is(refused, stream.ErrFull) {
		t.Fatalf("the full stream's error is %v, want ErrFull", refused)
	}
	info, err := s.JetStream().Stream(ctx, stream.PostsStream)
	if err != nil {
		t.Fatal(err)
	}
	if st := info.CachedInfo().State; st.Msgs != uint64(len(stored)) || st.FirstSeq != 1 {
		t.Fatalf("the stream holds %d posts from %d, want the %d stored from 1", st.Msgs, st.FirstSeq, len(stored))
	}

	var mu sync.Mutex
	taken := map[string]bool{}
	cctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		done <- s.Consume(cctx, stream.ConsumeConfig{Durable: "stage", Batch: 10, Linger: time.Millisecond},
			func(ctx context.Context, posts []post.Post) error {
				mu.Lock()
				defer mu.Unlock()
				for _, p := range posts {
					taken[p.ID] = true
				}
				return nil
			})
	}()
	t.Cleanup(func() { cancel(); <-done })
	wait.For(t, "the stage to take every post and the stream to let them go", func() bool {
		mu.Lock()
		n := len(taken)
		mu.Unlock()
		h, err := s.Health(ctx)
		return n == len(stored) && err == nil && h.Bytes == 0
	})
	if err := s.PublishPosts(ctx, []post.Post{{ID: "after", Provider: "reddit", NativeID: "after", ContentText: text}})[0]; err != nil {
		t.Fatalf("after the stage caught up: %v", err)
	}
}

// BenchmarkPublish publishes chunks of 500 posts of about 1 KB as the ingest service does:
// plainly (connectors) and synced to disk (what the ingest API accepts). docs/performance.md
// has the figures.
func BenchmarkPublish(b *testing.B) {
	text := strings.Repeat("word ", 200)
	for _, tt := range []struct {
		name    string
		publish func(*stream.Stream) func(context.Context, []post.Post) []error
	}{
		{"plain", func(s *stream.Stream) func(context.Context, []post.Post) []error { return s.PublishPosts }},
		{"synced", func(s *stream.Stream) func(context.Context, []post.Post) []error { return s.PublishPostsSynced }},
	} {
		b.Run(tt.name, func(b *testing.B) {
			s := openStream(b)
			publish := tt.publish(s)
			n := 0
			for b.Loop() {
				posts := make([]post.Post, 500)
				for i := range posts {
					n++
					id := strconv.Itoa(n)
					posts[i] = post.Post{ID: id, Provider: "reddit", NativeID: id, ContentText: text}
				}
				for _, err := range publish(context.Background(), posts) {
					if err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "posts/s")
		})
	}
}
