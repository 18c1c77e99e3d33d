package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/ingest"
	"github.com/sightline/sightline/internal/server"
	"github.com/sightline/sightline/internal/wait"
)

// startNode runs a whole node in-process (store, embedded stream, pipeline) behind httptest.
func startNode(t *testing.T) (*server.Node, *httptest.Server) {
	t.Helper()
	return startNodeWith(t, func(*server.Config) {})
}

// startNodeWith is startNode with configuration of the test's own.
func startNodeWith(t *testing.T, configure func(*server.Config)) (*server.Node, *httptest.Server) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cfg := server.Config{DataDir: t.TempDir(), AdminEmail: "admin@example.test", AdminPassword: "admin-password"}
	configure(&cfg)
	node, err := server.New(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		node.Serve(ctx, "127.0.0.1:0", nil)
		close(done)
	}()
	srv := httptest.NewServer(node.Handler)
	t.Cleanup(func() {
		srv.Close()
		cancel()
		<-done
		node.Close()
	})
	return node, srv
}

func call(t *testing.T, method, url, token, body string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	if body != "" {
		contentType := "application/json"
		if strings.HasSuffix(url, "/ingest/posts") {
			contentType = "application/x-ndjson"
		}
		req.Header.Set("Content-Type", contentType)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var reply map[string]any
	json.NewDecoder(resp.Body).Decode(&reply)
	return resp.StatusCode, reply
}

func TestIngestAPI(t *testing.T) {
	node, srv := startNode(t)
	ctx := context.Background()
	if _, err := node.Accounts.CreateUser(ctx, account.NewUser{Organization: "Default", Email: "member@example.test",
		Password: "member-password"}); err != nil {
		t.Fatal(err)
	}
	token := func(email string, scopes ...string) string {
		v, _, err := node.Auth.CreateAPIToken(ctx, email, "t", scopes)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	admin, ingestOnly, member := token("admin@example.test"), token("member@example.test", "ingest"), token("member@example.test")
	now := time.Now().UTC()
	fresh := now.Add(-time.Hour).Format(time.RFC3339)
	old := now.Add(-40 * 24 * time.Hour).Format(time.RFC3339)
	body := strings.Join([]string{
		`{"provider":"reddit","native_id":"a1","content_text":"first","published_at":"` + fresh + `"}`,
		`this is not json`,
		`{"provider":"nosuchnetwork","native_id":"a2","content_text":"x","published_at":"` + fresh + `"}`,
		`{"provider":"reddit","native_id":"a3","content_text":"too old","published_at":"` + old + `"}`,
		`{"provider":"telegram","native_id":"a4","content_text":"fourth","published_at":"` + fresh + `"}`,
	}, "\n")

	tests := []struct {
		name     string
		token    string
		body     string
		status   int
		accepted float64
		rejected []float64
	}{
		{"no token", "", body, 401, 0, nil},
		{"a member's own token", member, body, 403, 0, nil},
		{"an ingest-scoped token", ingestOnly, body, 200, 2, []float64{2, 3, 4}},
		{"a tenant admin, as a JSON array", admin,
			`[{"provider":"reddit","native_id":"b1","content_text":"x","published_at":"` + fresh + `"}, 7]`, 200, 1, []float64{2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, reply := call(t, "POST", srv.URL+"/api/v1/ingest/posts", tt.token, tt.body)
			if status != tt.status {
				t.Fatalf("status %d %v, want %d", status, reply, tt.status)
			}
			if status != 200 {
				return
			}
			data := reply["data"].(map[string]any)
			var lines []float64
			for _, r := range data["rejected"].([]any) {
				rej := r.(map[string]any)
				lines = append(lines, rej["line"].(float64))
				if rej["message"] == "" {
					t.Errorf("line %v rejected without a reason", rej["line"])
				}
			}
			if data["accepted"] != tt.accepted || len(lines) != len(tt.rejected) {
				t.Fatalf("accepted %v rejected %v, want %v and lines %v", data["accepted"], lines, tt.accepted, tt.rejected)
			}
			for i := range lines {
				if lines[i] != tt.rejected[i] {
					t.Errorf("rejected lines %v, want %v", lines, tt.rejected)
				}
			}
		})
	}

	// Accepted posts reach the store through the stream, and the stats see them.
	wait.ForNil(t, "the stats showing the 3 accepted posts", func() error {
		status, reply := call(t, "GET", srv.URL+"/api/v1/ingest/stats", admin, "")
		if status != 200 {
			t.Fatalf("stats = %d %v", status, reply)
		}
		if reply["data"].(map[string]any)["totalPosts"] != float64(3) {
			return fmt.Errorf("stats %v", reply)
		}
		return nil
	})
	if status, _ := call(t, "GET", srv.URL+"/api/v1/ingest/stats", member, ""); status != 403 {
		t.Errorf("a member reads ingest stats: %d, want 403", status)
	}
}

// A node's stream is capped by --nats-max-bytes: while its pipeline is not taking posts, the
// ingest API fills it, then answers 503 saying what it accepted until then; the pipeline watch
// then warns, and the ingest stats and the tenant admin's sources health say so.
func TestAFullStreamIsRefusedAndSaid(t *testing.T) {
	ctx := context.Background()
	node, err := server.New(ctx, server.Config{DataDir: t.TempDir(), AdminEmail: "admin@example.test",
		AdminPassword: "admin-password", NATSMaxBytes: 96 << 10, LagWarning: 10},
		slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(node.Handler) // no Serve: the pipeline does not run
	t.Cleanup(func() { srv.Close(); node.Close() })
	admin, _, err := node.Auth.CreateAPIToken(ctx, "admin@example.test", "t", nil)
	if err != nil {
		t.Fatal(err)
	}
	fresh := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	var lines []string
	for i := range 300 {
		lines = append(lines, fmt.Sprintf(`{"provider":"reddit","native_id":"f%d","content_text":"%s","published_at":"%s"}`,
			i, strings.Repeat("word ", 200), fresh))
	}
	status, reply := call(t, "POST", srv.URL+"/api/v1/ingest/posts", admin, strings.Join(lines, "\n"))
	accepted, _ := reply["accepted"].(float64)
	if status != 503 || accepted < 10 || accepted >= 300 || !strings.Contains(fmt.Sprint(reply["message"]), "full") {
		t.Fatalf("ingest into a full stream = %d %v; want 503 saying it is full, with what was accepted", status, reply)
	}

	if err := node.Watch.Check(ctx); err != nil {
		t.Fatal(err)
	}
	kinds := func(path string, at func(map[string]any) any) []string {
		t.Helper()
		status, reply := call(t, "GET", srv.URL+path, admin, "")
		if status != 200 {
			t.Fatalf("%s = %d %v", path, status, reply)
		}
		var out []string
		for _, w := range at(reply["data"].(map[string]any)).([]any) {
			out = append(out, w.(map[string]any)["kind"].(string))
		}
		return out
	}
	want := []string{ingest.WarningLag, ingest.WarningFull}
	for path, at := range map[string]func(map[string]any) any{
		"/api/v1/ingest/stats":   func(d map[string]any) any { return d["warnings"] },
		"/api/v1/sources/health": func(d map[string]any) any { return d["warnings"] },
	} {
		if got := kinds(path, at); !slices.Equal(got, want) {
			t.Errorf("%s warns of %v, want %v", path, got, want)
		}
	}
}

// The sources' health lists the simulator among the built-in sources while the node runs it,
// with the rate it was given (--simulator-rate) or the default.
func TestTheSimulatorIsListedWithItsRate(t *testing.T) {
	for _, tt := range []struct {
		name      string
		simulator bool
		rate      float64
		want      []string
	}{
		{"off", false, 0, nil},
		{"the default rate", true, 0, []string{"node simulator 5"}},
		{"a rate of its own", true, 0.5, []string{"node simulator 0.5"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			node, err := server.New(ctx, server.Config{DataDir: t.TempDir(), AdminEmail: "admin@example.test",
				AdminPassword: "admin-password", Simulator: tt.simulator, SimulatorRate: tt.rate},
				slog.New(slog.NewTextHandler(io.Discard, nil)))
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(node.Handler) // no Serve: the simulator does not run, it is configured
			t.Cleanup(func() { srv.Close(); node.Close() })
			admin, _, err := node.Auth.CreateAPIToken(ctx, "admin@example.test", "t", nil)
			if err != nil {
				t.Fatal(err)
			}
			status, reply := call(t, "GET", srv.URL+"/api/v1/sources/health", admin, "")
			if status != 200 {
				t.Fatalf("health = %d %v", status, reply)
			}
			var got []string
			for _, b := range reply["data"].(map[string]any)["builtIn"].([]any) {
				src := b.(map[string]any)
				got = append(got, fmt.Sprintf("%s %s %v", src["kind"], src["name"], src["ratePerSecond"]))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("built in = %q, want %q", got, tt.want)
			}
		})
	}
}
