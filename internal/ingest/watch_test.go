package ingest_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/ingest"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/stream"
	"github.com/sightline/sightline/internal/wait"
)

// syncBuffer is a log destination the watch and the test share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) count(substr string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Count(s.b.String(), substr)
}

// While the storage stage is behind by more than the threshold, or the stream is nearly full,
// the watch says so and logs it once, however many times it looks; once
// the stage has caught up, the warning clears and the log says so once.
func TestWatchWarnsOnceWhileThePipelineIsBehind(t *testing.T) {
	for _, tt := range []struct {
		name       string
		maxBytes   int64
		lagWarning uint64
		kind       string
	}{
		{"lag over the threshold", 0, 5, ingest.WarningLag},
		{"stream nearly full", 24 << 10, 1_000_000, ingest.WarningFull},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			st := openStream(t, tt.maxBytes)
			var log syncBuffer
			w := ingest.NewWatch(st.Health, tt.lagWarning, slog.New(slog.NewTextHandler(&log, nil)))
			text := strings.Repeat("x", 1000)
			for i := range 40 {
				id := fmt.Sprintf("p%d", i)
				if err := st.PublishPosts(ctx, []post.Post{{ID: id, Provider: "reddit", NativeID: id, ContentText: text}})[0]; err != nil {
					if tt.maxBytes == 0 {
						t.Fatalf("publishing post %d: %v", i, err) // only the small stream may fill
					}
					break // the small stream is full
				}
			}
			// JetStream counts a consumer's pending messages a moment after the publish is
			// acknowledged: look until the warning shows, then twice more.
			wait.For(t, "the pipeline warning", func() bool {
				if err := w.Check(ctx); err != nil {
					t.Fatal(err)
				}
				return len(w.Warnings()) > 0
			})
			for range 2 {
				if err := w.Check(ctx); err != nil {
					t.Fatal(err)
				}
			}
			warnings := w.Warnings()
			if len(warnings) != 1 || warnings[0].Kind != tt.kind || warnings[0].Message == "" {
				t.Fatalf("warnings %+v, want one of kind %s", warnings, tt.kind)
			}
			if n := log.count("level=WARN"); n != 1 {
				t.Fatalf("%d warnings logged over three looks, want 1:\n%s", n, log.b.String())
			}

			cctx, cancel := context.WithCancel(ctx)
			done := make(chan error, 1)
			go func() {
				done <- st.Consume(cctx, stream.ConsumeConfig{Durable: ingest.StoreDurable, Batch: 10, Linger: time.Millisecond},
					func(context.Context, []post.Post) error { return nil })
			}()
			t.Cleanup(func() { cancel(); <-done })
			wait.ForNil(t, "the warning clearing", func() error {
				if err := w.Check(ctx); err != nil {
					t.Fatal(err)
				}
				if warnings := w.Warnings(); len(warnings) > 0 {
					return fmt.Errorf("warnings %+v", warnings)
				}
				return nil
			})
			if err := w.Check(ctx); err != nil {
				t.Fatal(err)
			}
			if n := log.count("warning cleared"); n != 1 {
				t.Fatalf("the clearing logged %d times, want 1:\n%s", n, log.b.String())
			}
		})
	}
}
