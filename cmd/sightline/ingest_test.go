package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/server"
)

// sightline ingest sends a file in chunks and reports rejected lines by their place in the file.
func TestIngestCommand(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	node, err := server.New(ctx, server.Config{DataDir: dir, AdminEmail: "admin@example.test", AdminPassword: "admin-password"},
		slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { node.Serve(ctx, "127.0.0.1:0", nil); close(done) }()
	srv := httptest.NewServer(node.Handler)
	defer func() { srv.Close(); cancel(); <-done; node.Close() }()
	token, _, err := node.Auth.CreateAPIToken(ctx, "admin@example.test", "cli", []string{"ingest"})
	if err != nil {
		t.Fatal(err)
	}

	var lines []string
	fresh := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	for i := 1; i <= ingestChunk+5; i++ {
		switch i {
		case 3:
			lines = append(lines, "not json")
		case ingestChunk + 2: // in the second chunk
			lines = append(lines, `{"provider":"unknown-network","native_id":"x","content_text":"x","published_at":"`+fresh+`"}`)
		default:
			lines = append(lines, fmt.Sprintf(`{"provider":"reddit","native_id":"cli-%d","content_text":"post %d","published_at":"%s"}`, i, i, fresh))
		}
	}
	file := filepath.Join(dir, "posts.ndjson")
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o600); err != nil {
		t.Fatal(err)
	}
	var out string
	errOut, err := capture(t, &os.Stderr, func() error {
		var err error
		out, err = captureStdout(t, func() error { return runIngest([]string{"--url", srv.URL, "--token", token, file}) })
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"line 3: not a JSON post object", fmt.Sprintf("line %d: provider", ingestChunk+2)} {
		if !strings.Contains(errOut, line) {
			t.Errorf("stderr lacks %q:\n%s", line, errOut)
		}
	}
	want := fmt.Sprintf("accepted %d, rejected 2", ingestChunk+3)
	if !strings.Contains(out, want) {
		t.Errorf("output %q, want %q", out, want)
	}
	if err := runIngest([]string{"--url", srv.URL, file}); err == nil {
		t.Error("ingest without a token succeeded")
	}
}
