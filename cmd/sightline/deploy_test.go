package main

import (
	"flag"
	"os"
	"regexp"
	"strings"
	"testing"

	natsserver "github.com/nats-io/nats-server/v2/server"
)

// commandFlags are the flags a command lists in its --help.
func commandFlags(t *testing.T, run func([]string) error) map[string]bool {
	t.Helper()
	usage, err := capture(t, &os.Stderr, func() error { return run([]string{"--help"}) })
	if err != flag.ErrHelp {
		t.Fatalf("--help: %v", err)
	}
	flags := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^  --([a-z0-9-]+) \(`).FindAllStringSubmatch(usage, -1) {
		flags[m[1]] = true
	}
	if len(flags) == 0 {
		t.Fatalf("no flags in the usage:\n%s", usage)
	}
	return flags
}

// Every flag and SIGHTLINE_ variable that docs/deploy.md and the systemd files in deploy/ give
// `sightline serve` or `sightline migrate` is one those commands take.
func TestDeployDocsUseRealFlags(t *testing.T) {
	serve := commandFlags(t, runServe)
	migrate := commandFlags(t, runMigrate)
	user := commandFlags(t, func(args []string) error { return runUser(append([]string{"create"}, args...)) })
	bench := commandFlags(t, benchCluster)
	read := func(path string) string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	doc := read("../../docs/deploy.md")
	env := read("../../deploy/sightline.env")
	unit := read("../../deploy/sightline.service")

	// Variables: SIGHTLINE_SECRET_KEY is the one without a flag (the key itself).
	variable := regexp.MustCompile(`\bSIGHTLINE_([A-Z0-9_]+)\b`)
	for _, text := range []string{doc, env, unit} {
		for _, m := range variable.FindAllStringSubmatch(text, -1) {
			name := strings.ToLower(strings.ReplaceAll(m[1], "_", "-"))
			if !serve[name] && m[1] != "SECRET_KEY" {
				t.Errorf("SIGHTLINE_%s is not the variable of a serve flag", m[1])
			}
		}
	}
	// Flags: each `--name` in the doc belongs to the command named on its line, or to serve.
	dashed := regexp.MustCompile(`(?:^|[\s\x60(])--([a-z][a-z0-9-]*)`)
	for _, line := range strings.Split(doc+"\n"+unit, "\n") {
		known := serve
		switch {
		case strings.Contains(line, "sightline migrate"):
			known = migrate
		case strings.Contains(line, "sightline user create"):
			known = user
		case strings.Contains(line, "sightline bench cluster"):
			known = bench
		case strings.Contains(line, "createuser"), strings.Contains(line, "createdb"), strings.Contains(line, "useradd"),
			strings.Contains(line, "systemctl"):
			continue // the system's tools
		}
		for _, m := range dashed.FindAllStringSubmatch(line, -1) {
			if !known[m[1]] && m[1] != "help" {
				t.Errorf("--%s is not a flag of the command in %q", m[1], strings.TrimSpace(line))
			}
		}
	}
}

// deploy/nats.conf is a configuration nats-server reads: three routes, JetStream, a cluster.
func TestDeployNATSConfig(t *testing.T) {
	t.Setenv("SIGHTLINE_NATS_PASSWORD", "test-password")
	opts, err := natsserver.ProcessConfigFile("../../deploy/nats.conf")
	if err != nil {
		t.Fatal(err)
	}
	if !opts.JetStream || opts.Cluster.Name != "sightline" || len(opts.Routes) != 3 || opts.Password != "test-password" {
		t.Errorf("nats.conf: JetStream %v, cluster %q, %d routes, password %q", opts.JetStream, opts.Cluster.Name,
			len(opts.Routes), opts.Password)
	}
}
