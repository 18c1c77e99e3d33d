package stream

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"github.com/sightline/sightline/internal/post"
)

// The embedded server writes what it holds to disk every syncInterval (NATS's default is two
// minutes), and PublishPostsSynced finds the stream's files to sync: were they elsewhere (a
// new NATS version's layout), it would fail rather than answer without syncing.
func TestEmbeddedStreamSyncs(t *testing.T) {
	s, err := Open(context.Background(), Config{DataDir: t.TempDir(), Consumers: []string{"stage"}},
		slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	if got := s.embedded.JetStreamConfig().SyncInterval; got != syncInterval {
		t.Errorf("the embedded server syncs every %s, want %s", got, syncInterval)
	}
	for _, err := range s.PublishPostsSynced(context.Background(), []post.Post{{ID: "a", Provider: "reddit", NativeID: "a"}}) {
		if err != nil {
			t.Fatal(err)
		}
	}
	if last, err := s.lastBlock(); err != nil || last == 0 {
		t.Fatalf("the stream's files: newest %d, %v; want the one holding the post", last, err)
	}
}
