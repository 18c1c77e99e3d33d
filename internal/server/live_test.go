package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/live"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/server"
	"github.com/sightline/sightline/internal/wait"
)

// callAPI sends a request with the bearer token and decodes the JSON reply into out.
func callAPI(t *testing.T, method, addr, path, token string, body io.Reader, contentType string, out any) {
	t.Helper()
	req, _ := http.NewRequest(method, "http://"+addr+path, body)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: %s %s", method, path, resp.Status, b)
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("%s %s: %v in %s", method, path, err, b)
	}
}

// signIn returns a bearer token and the user's id.
func signIn(t *testing.T, addr, email, password string) (string, int64) {
	t.Helper()
	var reply struct {
		Data struct {
			Token string `json:"token"`
			User  struct {
				ID int64 `json:"id"`
			} `json:"user"`
		} `json:"data"`
	}
	body, _ := json.Marshal(map[string]string{"email": email, "password": password})
	callAPI(t, "POST", addr, "/api/v1/auth/login", "", strings.NewReader(string(body)), "application/json", &reply)
	return reply.Data.Token, reply.Data.User.ID
}

type liveConfig struct {
	Key          string `json:"key"`
	Host         string `json:"host"`
	Port         int    `json:"port"`
	TLS          bool   `json:"tls"`
	PingInterval int    `json:"pingInterval"`
}

func getLiveConfig(t *testing.T, addr, token string) liveConfig {
	t.Helper()
	var reply struct {
		Data liveConfig `json:"data"`
	}
	callAPI(t, "GET", addr, "/api/v1/live/config", token, nil, "", &reply)
	return reply.Data
}

// authorize asks the node to sign a subscription, as pusher-js does.
func authorize(t *testing.T, addr, token, socketID, channel string) string {
	t.Helper()
	var reply struct {
		Auth string `json:"auth"`
	}
	form := url.Values{"socket_id": {socketID}, "channel_name": {channel}}
	callAPI(t, "POST", addr, "/broadcasting/auth", token, strings.NewReader(form.Encode()),
		"application/x-www-form-urlencoded", &reply)
	return reply.Auth
}

// webDir is the web app's directory, where npm installed pusher-js. Without it (or without
// node) the test is skipped, except on CI, where `make test` installs both first.
func webDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../../web")
	if err != nil {
		t.Fatal(err)
	}
	_, missing := os.Stat(filepath.Join(dir, "node_modules", "pusher-js", "package.json"))
	if _, err := exec.LookPath("node"); err != nil || missing != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("node and web/node_modules/pusher-js are required on CI (npm ci in web/)")
		}
		t.Skip("node or web/node_modules/pusher-js missing: run npm ci in web/")
	}
	return dir
}

// pusherClient runs testdata/pusher-client.mjs; its lines arrive on the returned channel.
func pusherClient(t *testing.T, env ...string) <-chan map[string]any {
	t.Helper()
	cmd := exec.Command("node", "testdata/pusher-client.mjs")
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = os.Stderr
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	lines := make(chan map[string]any, 100)
	go func() {
		defer close(lines)
		scan := bufio.NewScanner(stdout)
		for scan.Scan() {
			var line map[string]any
			if json.Unmarshal(scan.Bytes(), &line) == nil {
				lines <- line
			}
		}
	}()
	return lines
}

// expectLine waits for a line satisfying match, failing after wait.Deadline or when the client ends.
func expectLine(t *testing.T, lines <-chan map[string]any, what string, match func(map[string]any) bool) map[string]any {
	t.Helper()
	timeout := time.After(wait.Deadline)
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatalf("the pusher-js client ended before %s", what)
			}
			if match(line) {
				return line
			}
		case <-timeout:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// pusher-js, the web app's client, against a whole node: it authorizes through
// /broadcasting/auth, subscribes to its user's channel, is refused another user's, receives an
// event published on the node, and reconnects when the node shuts down with 4200.
func TestLiveWithPusherJS(t *testing.T) {
	if testing.Short() {
		t.Skip("runs node with pusher-js")
	}
	web := webDir(t)
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	const email, password = "admin@example.test", "live-test-password"
	node, err := server.New(ctx, server.Config{DataDir: t.TempDir(), AdminEmail: email, AdminPassword: password}, log)
	if err != nil {
		t.Fatal(err)
	}
	defer node.Close()
	serveCtx, stop := context.WithCancel(ctx)
	defer stop()
	listening := make(chan string, 1)
	served := make(chan error, 1)
	go func() {
		served <- node.Serve(serveCtx, "127.0.0.1:0", func(a net.Addr) { listening <- a.String() })
	}()
	addr := <-listening

	token, userID := signIn(t, addr, email, password)
	cfg := getLiveConfig(t, addr, token)
	own, others := live.UserChannel(userID), live.UserChannel(userID+1)
	lines := pusherClient(t, "SIGHTLINE_WEB_DIR="+web, "LIVE_URL=http://"+addr, "LIVE_KEY="+cfg.Key,
		"LIVE_HOST="+cfg.Host, fmt.Sprintf("LIVE_PORT=%d", cfg.Port), "LIVE_TOKEN="+token, "LIVE_CHANNELS="+own+","+others)

	// The two answers come in either order.
	refused, subscribed := false, false
	expectLine(t, lines, "the subscription to its own channel and the refusal of another's", func(l map[string]any) bool {
		refused = refused || (l["refused"] == others && l["status"] == float64(http.StatusForbidden))
		subscribed = subscribed || l["subscribed"] == own
		return refused && subscribed
	})

	update := monitor.MatchesUpdated{UpdatedCount: 2, Counts: monitor.Counts{TotalCount: 40, UnreadCount: 7, DeletedCount: 1, FlaggedCount: 3}}
	if err := node.Live.PublishToUser(ctx, userID, monitor.EventMatchesUpdated, update); err != nil {
		t.Fatal(err)
	}
	got := expectLine(t, lines, "the event", func(l map[string]any) bool { return l["event"] != nil })
	want := map[string]any{"updatedCount": 2.0, "totalCount": 40.0, "unreadCount": 7.0, "deletedCount": 1.0, "flaggedCount": 3.0}
	if got["event"] != monitor.EventMatchesUpdated || got["channel"] != own || fmt.Sprint(got["data"]) != fmt.Sprint(want) {
		t.Errorf("pusher-js received %v, want %s on %s with %v", got, monitor.EventMatchesUpdated, own, want)
	}

	stop()
	expectLine(t, lines, "close code 4200", func(l map[string]any) bool {
		e, _ := l["error"].(map[string]any)
		return e != nil && e["code"] == float64(live.CodeReconnect)
	})
	// 4200 means "reconnect now": pusher-js tries again rather than giving up.
	expectLine(t, lines, "a reconnection attempt", func(l map[string]any) bool { return l["state"] == "connecting" })
	if err := <-served; err != nil {
		t.Errorf("Serve = %v", err)
	}
}
