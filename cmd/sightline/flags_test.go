package main

import (
	"errors"
	"flag"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A switch reads its value as a separate word too, so the flags after it still count.
func TestSwitchFlagForms(t *testing.T) {
	for _, c := range []struct {
		args    []string
		on      bool
		addr    string
		wantErr string
	}{
		{args: nil, on: true, addr: "127.0.0.1:8080"},
		{args: []string{"--simulator", "off", "--addr", "127.0.0.1:9000"}, on: false, addr: "127.0.0.1:9000"},
		{args: []string{"--simulator=off", "--addr", "127.0.0.1:9000"}, on: false, addr: "127.0.0.1:9000"},
		{args: []string{"-simulator", "OFF", "-addr=127.0.0.1:9000"}, on: false, addr: "127.0.0.1:9000"},
		{args: []string{"--simulator", "--addr", "127.0.0.1:9000"}, on: true, addr: "127.0.0.1:9000"},
		{args: []string{"--addr", "127.0.0.1:9000", "--simulator"}, on: true, addr: "127.0.0.1:9000"},
		{args: []string{"--simulator", "no", "--simulator", "yes"}, on: true, addr: "127.0.0.1:8080"},
		// A value that merely looks like a switch word stays the value of its own flag.
		{args: []string{"--addr", "--simulator", "--simulator", "off"}, on: false, addr: "--simulator"},
		{args: []string{"--simulator", "sometimes"}, on: true, wantErr: `unexpected argument "sometimes"`},
		{args: []string{"--simulator=sometimes"}, wantErr: `"sometimes" is not on or off`},
		{args: []string{"--simulator", "off", "stray", "--addr", "127.0.0.1:9000"}, wantErr: `unexpected argument "stray"`},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			fs := newFlagSet("serve", "")
			on := true
			fs.Var(switchFlag{&on}, "simulator", "")
			addr := fs.String("addr", "127.0.0.1:8080", "")
			err := parseFlags(fs, c.args)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("error %v, want one saying %s", err, c.wantErr)
				}
				return
			}
			if err != nil || on != c.on || *addr != c.addr {
				t.Errorf("simulator %v, addr %q, err %v; want %v, %q", on, *addr, err, c.on, c.addr)
			}
		})
	}
}

// Every command refuses a word it does not expect rather than ignoring what follows it.
func TestCommandsRefuseStrayArguments(t *testing.T) {
	t.Setenv("SIGHTLINE_DATA_DIR", t.TempDir())
	for _, c := range []struct {
		args    []string
		wantErr string
	}{
		{[]string{"serve", "--simulator", "off", "stray", "--addr", "127.0.0.1:9000"}, `unexpected argument "stray"`},
		{[]string{"serve", "now"}, `unexpected argument "now"`},
		{[]string{"migrate", "up"}, `unexpected argument "up"`},
		{[]string{"user", "create", "--email", "a@example.test", "extra"}, `unexpected argument "extra"`},
		{[]string{"token", "create", "--email", "a@example.test", "extra"}, `unexpected argument "extra"`},
		{[]string{"ingest", "--token", "t", "a.ndjson", "b.ndjson"}, "usage: sightline ingest"},
		{[]string{"query", "check", "--mode", "beacon", "extra", "flood"}, "usage: sightline query check"},
		{[]string{"query", "match", "extra"}, "takes no arguments"},
		{[]string{"bench", "percolate", "fast"}, `unexpected argument "fast"`},
		{[]string{"bench", "ingest", "fast"}, `unexpected argument "fast"`},
		{[]string{"bench", "live", "fast"}, `unexpected argument "fast"`},
		{[]string{"version", "extra"}, `unexpected argument "extra"`},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			var run func([]string) error
			for _, cmd := range commands() {
				if cmd.name == c.args[0] {
					run = cmd.run
				}
			}
			err := run(c.args[1:])
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("error %v, want one saying %s", err, c.wantErr)
			}
		})
	}
}

// A language model needs its name: the server does not start with --llm-url alone.
func TestLLMURLNeedsAModel(t *testing.T) {
	err := runServe([]string{"--llm-url", "http://127.0.0.1:11434/v1", "--data-dir", t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "--llm-model") {
		t.Errorf("serve with --llm-url alone: %v", err)
	}
}

// The base map is checked at start-up, whether named by flag or by environment variable: a
// tile template needs http(s) and {z}, {x}, {y}; an archive must be a PMTiles file.
func TestMapFlagsAreCheckedAtStart(t *testing.T) {
	notPMTiles := filepath.Join(t.TempDir(), "tiles.mbtiles")
	if err := os.WriteFile(notPMTiles, []byte("SQLite format 3\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		env  map[string]string
		err  string
	}{
		{args: []string{"--map-tiles-url", "https://tiles.example/{z}/{x}.png"}, err: "no {y}"},
		{env: map[string]string{"SIGHTLINE_MAP_TILES_URL": "tiles.example/{z}/{x}/{y}.png"}, err: "not an http or https address"},
		{args: []string{"--map-pmtiles", notPMTiles}, err: "not a PMTiles archive"},
		{args: []string{"--map-pmtiles", notPMTiles, "--map-tiles-url", "https://tiles.example/{z}/{x}/{y}.png"}, err: "one or the other"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			err := runServe(append(tt.args, "--addr", "127.0.0.1:0", "--data-dir", t.TempDir()))
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("serve: %v, want it refused with %q", err, tt.err)
			}
		})
	}
}

func TestRetentionFlag(t *testing.T) {
	for _, tt := range []struct {
		value string
		days  int
		ok    bool
	}{
		{"30", 30, true}, {"90", 90, true}, {"90d", 90, true}, {" 365 ", 365, true}, {"7", 7, true},
		{"6", 0, false}, {"401", 0, false}, {"0", 0, false}, {"-30", 0, false}, {"3 months", 0, false}, {"", 0, false},
	} {
		got, err := parseRetention(tt.value)
		if (err == nil) != tt.ok || (tt.ok && got != time.Duration(tt.days)*24*time.Hour) {
			t.Errorf("parseRetention(%q) = %v, %v; want %d days, ok %v", tt.value, got, err, tt.days, tt.ok)
		}
	}
}

func TestNATSMaxBytesFlag(t *testing.T) {
	for _, tt := range []struct {
		value string
		bytes int64
	}{
		{"1048576", 1 << 20}, {"512MiB", 512 << 20}, {"8GiB", 8 << 30}, {"2TiB", 2 << 40}, {"64KiB", 64 << 10},
		{"0", 0}, {"-1GiB", 0}, {"8GB", 0}, {"GiB", 0}, {"", 0}, {"9000000TiB", 0},
	} {
		got, err := parseBytes(tt.value)
		if (err == nil) != (tt.bytes > 0) || got != tt.bytes {
			t.Errorf("parseBytes(%q) = %d, %v; want %d", tt.value, got, err, tt.bytes)
		}
	}
}

func TestLiveQueueFlag(t *testing.T) {
	for _, v := range []string{"0", "-5", "many", ""} {
		err := runServe([]string{"--live-queue", v, "--data-dir", t.TempDir()})
		if err == nil || !strings.Contains(err.Error(), "live-queue") {
			t.Errorf("serve --live-queue %q: %v, want it refused", v, err)
		}
	}
}

// --allow-private-networks takes "on", "off" or a list; --allow-private-webhooks only a list.
func TestAllowlistFlags(t *testing.T) {
	for _, c := range []struct {
		args     []string
		env      string // SIGHTLINE_ALLOW_PRIVATE_NETWORKS
		sources  string
		webhooks string
		wantErr  string
	}{
		{args: nil, sources: "off", webhooks: "off"},
		{args: []string{"--allow-private-networks", "127.0.0.1/32,10.1.2.0/24"}, sources: "127.0.0.1/32,10.1.2.0/24", webhooks: "off"},
		{args: []string{"--allow-private-networks", "on", "--allow-private-webhooks=10.1.2.7"}, sources: "on", webhooks: "10.1.2.7/32"},
		{args: []string{"--allow-private-networks=off"}, sources: "off", webhooks: "off"},
		{env: "on", sources: "on", webhooks: "off"},
		{env: "10.0.0.0/8", args: []string{"--allow-private-networks", "off"}, sources: "off", webhooks: "off"},
		{args: []string{"--allow-private-webhooks", "on"}, wantErr: `"on" is not accepted here`},
		{args: []string{"--allow-private-networks", "169.254.169.254"}, wantErr: "metadata"},
		{args: []string{"--allow-private-networks", "intranet"}, wantErr: `"intranet" is neither`},
		// Bare, it no longer means on: it takes the next word as its list, and says so.
		{args: []string{"--allow-private-networks", "--addr", "x"}, wantErr: `"--addr" is neither`},
	} {
		t.Run(strings.Join(c.args, " ")+" env="+c.env, func(t *testing.T) {
			if c.env != "" {
				t.Setenv("SIGHTLINE_ALLOW_PRIVATE_NETWORKS", c.env)
			}
			fs := newFlagSet("serve", "")
			var sources, webhooks []netip.Prefix
			fs.Var(allowlistFlag{&sources, true}, "allow-private-networks", "")
			fs.Var(allowlistFlag{value: &webhooks}, "allow-private-webhooks", "")
			fs.String("addr", "", "")
			err := parseFlags(fs, c.args)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("error %v, want one saying %s", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := (allowlistFlag{value: &sources}).String(); got != c.sources {
				t.Errorf("sources %s, want %s", got, c.sources)
			}
			if got := (allowlistFlag{value: &webhooks}).String(); got != c.webhooks {
				t.Errorf("webhooks %s, want %s", got, c.webhooks)
			}
		})
	}
}

// Every benchmark takes --allow-load, which report needs to print figures measured on a busy
// machine: a benchmark that builds its flags without benchFlagSet could never report there.
func TestEveryBenchmarkTakesAllowLoad(t *testing.T) {
	for _, b := range benchmarks() {
		if err := b.run([]string{"--allow-load", "--help"}); !errors.Is(err, flag.ErrHelp) {
			t.Errorf("bench %s --allow-load --help: %v, want the help", b.name, err)
		}
	}
}
