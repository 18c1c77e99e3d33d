package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/sealed"
	"github.com/sightline/sightline/internal/server"
)

// token create --expires, token list and token revoke work on a running server's store; a
// revoked token gets 401 from the next request.
func TestTokenListAndRevokeWhileServing(t *testing.T) {
	dir := t.TempDir()
	const email = "admin@example.test"
	node, err := server.New(context.Background(), server.Config{DataDir: dir, AdminEmail: email,
		AdminPassword: "first-admin-pw"}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer node.Close()
	srv := httptest.NewServer(node.Handler)
	defer srv.Close()
	status := func(token string) int {
		req, _ := http.NewRequest("GET", srv.URL+"/api/v1/settings/profile/current", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	create := func(args ...string) string {
		out, err := captureStdout(t, func() error {
			return runToken(append([]string{"create", "--data-dir", dir, "--email", email}, args...))
		})
		if err != nil {
			t.Fatalf("token create %v: %v\n%s", args, err, out)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		return lines[len(lines)-1]
	}
	quarterly := create("--name", "quarterly", "--expires", "90d")
	nightly := create("--name", "nightly", "--scope", "ingest")

	out, err := captureStdout(t, func() error { return runToken([]string{"list", "--data-dir", dir, "--email", email}) })
	if err != nil {
		t.Fatal(err)
	}
	expires := time.Now().Add(90 * 24 * time.Hour).UTC().Format("2006-01-02")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], "LAST USED") ||
		!strings.Contains(lines[1], "quarterly") || !strings.Contains(lines[1], expires) ||
		!strings.Contains(lines[2], "nightly") || !strings.Contains(lines[2], "ingest") || !strings.HasSuffix(lines[2], "no") {
		t.Errorf("token list:\n%s", out)
	}
	if strings.Contains(out, quarterly) || strings.Contains(out, nightly) {
		t.Errorf("token list shows a token's value:\n%s", out)
	}

	if got := status(quarterly); got != http.StatusOK {
		t.Fatalf("the quarterly token = %d, want 200", got)
	}
	if out, err := captureStdout(t, func() error {
		return runToken([]string{"revoke", "--data-dir", dir, "--email", email, "--name", "quarterly"})
	}); err != nil || !strings.Contains(out, "revoked 1") {
		t.Fatalf("token revoke: %v\n%s", err, out)
	}
	if got := status(quarterly); got != http.StatusUnauthorized {
		t.Errorf("the revoked token = %d, want 401", got)
	}
	out, _ = captureStdout(t, func() error { return runToken([]string{"list", "--data-dir", dir, "--email", email}) })
	if line := strings.TrimSpace(strings.Split(out, "\n")[1]); strings.HasSuffix(line, " no") {
		t.Errorf("the revoked token's line: %q", line)
	}

	for name, args := range map[string][]string{
		"revoking an unknown name": {"revoke", "--data-dir", dir, "--email", email, "--name", "nope"},
		"a bad lifetime":           {"create", "--data-dir", dir, "--email", email, "--name", "x", "--expires", "soon"},
		"an unknown subcommand":    {"rotate", "--data-dir", dir},
	} {
		if _, err := captureStdout(t, func() error { return runToken(args) }); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// Every store command takes the secret key: one that does not open the store's secrets is
// refused, naming the way to give the right one.
func TestStoreCommandsTakeTheSecretKey(t *testing.T) {
	dir := t.TempDir()
	if _, err := captureStdout(t, func() error {
		return runUser([]string{"create", "--data-dir", dir, "--org", "Initech", "--email", "peter@initech.test",
			"--password", "tps-reports-1"})
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := captureStdout(t, func() error {
		return runToken([]string{"create", "--data-dir", dir, "--email", "peter@initech.test", "--name", "a"})
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, sealed.DefaultKeyFile)); err != nil {
		t.Fatalf("no key generated in the data dir: %v", err)
	}
	otherKey := filepath.Join(t.TempDir(), "other.key")
	if err := os.WriteFile(otherKey, []byte(sealed.GenerateText()), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := captureStdout(t, func() error {
		return runToken([]string{"create", "--data-dir", dir, "--secret-key-file", otherKey, "--email", "peter@initech.test", "--name", "b"})
	})
	if err == nil || !strings.Contains(err.Error(), "same key") {
		t.Errorf("another key file: %v", err)
	}
	own, err := os.ReadFile(filepath.Join(dir, sealed.DefaultKeyFile))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("SIGHTLINE_SECRET_KEY", strings.TrimSpace(string(own)))
	if _, err := captureStdout(t, func() error {
		return runToken([]string{"list", "--data-dir", dir, "--email", "peter@initech.test"})
	}); err != nil {
		t.Errorf("the data dir's key given in SIGHTLINE_SECRET_KEY: %v", err)
	}
}

func TestParseLifetime(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"", 0, true},
		{"90d", 90 * 24 * time.Hour, true},
		{" 1d ", 24 * time.Hour, true},
		{"12h", 12 * time.Hour, true},
		{"90m", 90 * time.Minute, true},
		{"0d", 0, false},
		{"-1d", 0, false},
		{"-5h", 0, false},
		{"d", 0, false},
		{"1.5d", 0, false},
		{"99999999d", 0, false},
		{"soon", 0, false},
	}
	for _, tt := range tests {
		got, err := parseLifetime(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("parseLifetime(%q) = %v, %v; want %v (ok %v)", tt.in, got, err, tt.want, tt.ok)
		}
	}
}
