package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sightline/sightline/internal/connector/sources"
)

func loadSources(t *testing.T, path string) sources.Config {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cfg, err := sources.Load(f)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Simulator.Enabled = false // the node's own, not the file's
	return cfg
}

func TestTorSOCKSReachesTheOnionSources(t *testing.T) {
	file := filepath.Join(t.TempDir(), "sources.json")
	os.WriteFile(file, []byte(`{"onion": {"enabled": true, "sites": [{"name": "blog", "format": "rss",
		"url": "http://leaksblogxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx.onion/feed.xml"}]}}`), 0o600)
	cfg := loadSources(t, file)
	if _, err := buildSources(sources.Builder{}, cfg); err == nil || !strings.Contains(err.Error(), "--tor-socks") {
		t.Errorf("without --tor-socks: %v", err)
	}
	srcs, err := buildSources(sources.Builder{TorSOCKS: "127.0.0.1:9050"}, cfg)
	if err != nil || len(srcs) != 1 || srcs[0].Name() != "rss:onion:blog" {
		t.Errorf("with --tor-socks: %v %v", srcs, err)
	}
}
