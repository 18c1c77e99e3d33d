package server_test

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/connector/sources"
	"github.com/sightline/sightline/internal/server"
)

// A --sources file seeds the default tenant's sources once; without one, the default public set
// does when asked for (serve does, tests do not); neither runs anything until the node serves.
func TestSourcesSeeding(t *testing.T) {
	ctx := context.Background()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	rows := func(cfg server.Config) []string {
		t.Helper()
		node, err := server.New(ctx, cfg, quiet)
		if err != nil {
			t.Fatal(err)
		}
		defer node.Close()
		tenant, err := node.Store.TenantByName(ctx, account.DefaultTenant)
		if err != nil {
			return nil
		}
		list, err := node.Store.Sources(ctx, tenant.ID)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, r := range list {
			names = append(names, r.Type+":"+r.Name)
		}
		return names
	}

	if got := rows(server.Config{DataDir: t.TempDir()}); len(got) != 0 {
		t.Fatalf("a test node seeded %v", got)
	}
	if got := rows(server.Config{DataDir: t.TempDir(), DefaultSources: true}); len(got) != len(sources.DefaultSeeds()) {
		t.Fatalf("default sources %v, want %d", got, len(sources.DefaultSeeds()))
	}

	dir := t.TempDir()
	file := filepath.Join(dir, "sources.json")
	os.WriteFile(file, []byte(`{"simulator": {"rate": 2}, "rss": {"enabled": true, "feeds": [{"name": "gazette", "url": "https://news.example.org/rss.xml"}]},
		"hackernews": {"enabled": true}}`), 0o600)
	cfg := server.Config{DataDir: dir, SourcesFile: file, DefaultSources: true}
	if got := rows(cfg); len(got) != 2 || got[0] != "rss:gazette" || got[1] != "hackernews:hackernews" {
		t.Fatalf("seeded from the file: %v", got)
	}
	// Seeded once: the file is not read for rows again.
	os.WriteFile(file, []byte(`{"rss": {"enabled": true, "feeds": [{"name": "other", "url": "https://other.example.org/rss.xml"}]}}`), 0o600)
	if got := rows(cfg); len(got) != 2 {
		t.Fatalf("seeded again: %v", got)
	}
}
