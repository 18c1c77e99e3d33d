package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sightline/sightline/internal/server"
)

// captureStdout runs fn and returns what it printed.
func captureStdout(t *testing.T, fn func() error) (string, error) {
	return capture(t, &os.Stdout, fn)
}

// capture runs fn with *f (os.Stdout or os.Stderr) going to a pipe and returns what it wrote.
func capture(t *testing.T, f **os.File, fn func() error) (string, error) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	copied := make(chan struct{})
	go func() { io.Copy(&buf, r); close(copied) }()
	old := *f
	*f = w
	runErr := fn()
	*f = old
	w.Close()
	<-copied
	return buf.String(), runErr
}

// The admin commands work on the store of a running server, and a token they create works
// against it alone.
func TestUserAndTokenCreateWhileServing(t *testing.T) {
	dir := t.TempDir()
	node, err := server.New(context.Background(), server.Config{DataDir: dir, AdminEmail: "admin@example.test",
		AdminPassword: "first-admin-pw"}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer node.Close()
	srv := httptest.NewServer(node.Handler)
	defer srv.Close()

	out, err := captureStdout(t, func() error {
		return runUser([]string{"create", "--data-dir", dir, "--org", "Initech", "--email", "peter@initech.test",
			"--password", "tps-reports-1", "--role", "admin"})
	})
	if err != nil || !strings.Contains(out, "peter@initech.test") {
		t.Fatalf("user create: %v\n%s", err, out)
	}

	t.Setenv("SIGHTLINE_DATA_DIR", dir) // flags fall back to their environment variables
	out, err = captureStdout(t, func() error {
		return runToken([]string{"create", "--email", "peter@initech.test", "--name", "nightly export"})
	})
	if err != nil {
		t.Fatalf("token create: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	token := lines[len(lines)-1]

	req, _ := http.NewRequest("GET", srv.URL+"/api/v1/settings/organizations/current", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"name":"Initech"`) || strings.Contains(string(body), "admin@example.test") {
		t.Errorf("token from the CLI: %d %s", resp.StatusCode, body)
	}

	if _, err := captureStdout(t, func() error {
		return runUser([]string{"create", "--data-dir", dir, "--org", "Initech", "--email", "not-an-email", "--password", "x"})
	}); err == nil || !strings.Contains(err.Error(), "email") || !strings.Contains(err.Error(), "password") {
		t.Errorf("invalid user: err = %v, want messages for email and password", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "sightline.db")); err != nil {
		t.Errorf("the default store is not in the data dir: %v", err)
	}
}

func TestEnvironmentFallback(t *testing.T) {
	fs := newFlagSet("x", "")
	var sf storeFlags
	sf.register(fs)
	t.Setenv("SIGHTLINE_DATA_DIR", "/from/env")
	t.Setenv("SIGHTLINE_DB", "postgres://env")
	if err := parseFlags(fs, []string{"--db", "postgres://flag"}); err != nil {
		t.Fatal(err)
	}
	if sf.dataDir != "/from/env" || sf.db != "postgres://flag" {
		t.Errorf("data-dir %q (want from env), db %q (want the flag over the env)", sf.dataDir, sf.db)
	}
}

func TestSwitchFlagFromEnvironment(t *testing.T) {
	fs := newFlagSet("x", "")
	on := true
	fs.Var(switchFlag{&on}, "simulator", "")
	t.Setenv("SIGHTLINE_SIMULATOR", "off")
	if err := parseFlags(fs, nil); err != nil || on {
		t.Errorf("SIGHTLINE_SIMULATOR=off gave %v, %v", on, err)
	}
	if err := parseFlags(fs, []string{"--simulator"}); err != nil || !on {
		t.Errorf("--simulator gave %v, %v", on, err)
	}
	if err := parseFlags(fs, []string{"--simulator=sometimes"}); err == nil {
		t.Error("--simulator=sometimes was accepted")
	}
}

// `sightline user reset-mfa` turns off the two-step verification of a user who lost their
// authenticator, and the audit log says so.
func TestUserResetMFA(t *testing.T) {
	dir := t.TempDir()
	if _, err := captureStdout(t, func() error {
		return runUser([]string{"create", "--data-dir", dir, "--org", "Initech", "--email", "peter@initech.test",
			"--password", "tps-reports-1"})
	}); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	s, err := openStore(ctx, storeFlags{dataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	u, err := s.UserByEmail(ctx, "peter@initech.test")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.StartMFAEnrolment(ctx, u.ID, "JBSWY3DPEHPK3PXP"); err != nil {
		t.Fatal(err)
	}
	if err := s.EnableMFA(ctx, u.ID, []string{"code-hash"}); err != nil {
		t.Fatal(err)
	}
	s.Close()

	out, err := captureStdout(t, func() error {
		return runUser([]string{"reset-mfa", "--data-dir", dir, "--email", "peter@initech.test"})
	})
	if err != nil || !strings.Contains(out, "peter@initech.test") {
		t.Fatalf("reset-mfa: %v\n%s", err, out)
	}
	if _, err := captureStdout(t, func() error {
		return runUser([]string{"reset-mfa", "--data-dir", dir, "--email", "peter@initech.test"})
	}); err == nil {
		t.Error("resetting two-step verification that is off succeeded")
	}
	s, err = openStore(ctx, storeFlags{dataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if u, err = s.UserByEmail(ctx, "peter@initech.test"); err != nil || u.IsMFAEnabled || u.MFASecret != "" {
		t.Errorf("after reset-mfa: on %v, secret %q, %v", u.IsMFAEnabled, u.MFASecret, err)
	}
	log, err := s.AuditLog(ctx, u.TenantID, 10)
	if err != nil || len(log) == 0 || log[0].Action != "mfa_reset" || log[0].UserID != 0 {
		t.Errorf("audit = %+v %v", log, err)
	}
}

// --support-email takes one bare address, as Help offers it.
func TestSupportEmailFlag(t *testing.T) {
	for _, tt := range []struct {
		value, want string
		ok          bool
	}{
		{"help@acme.test", "help@acme.test", true},
		{"Help <help@acme.test>", "", false},
		{"not-an-address", "", false},
	} {
		var o serveOptions
		err := parseFlags(serveFlags(&o), []string{"--support-email", tt.value})
		if (err == nil) != tt.ok || o.cfg.SupportEmail != tt.want {
			t.Errorf("--support-email %q: %q, %v; want %q, accepted %v", tt.value, o.cfg.SupportEmail, err, tt.want, tt.ok)
		}
	}
}

// --chromium names the browser of evidence captures and case PDFs; off runs none.
func TestChromiumFlag(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
		ok   bool
	}{
		{nil, "/usr/bin/chromium", true},
		{[]string{"--chromium", "/opt/chrome/chrome"}, "/opt/chrome/chrome", true},
		{[]string{"--chromium", "off"}, "", true},
		{[]string{"--chromium", " "}, "/usr/bin/chromium", false},
	} {
		var o serveOptions
		err := parseFlags(serveFlags(&o), tt.args)
		if (err == nil) != tt.ok || o.cfg.Chromium != tt.want {
			t.Errorf("%q: %q, %v; want %q, accepted %v", tt.args, o.cfg.Chromium, err, tt.want, tt.ok)
		}
	}
}
