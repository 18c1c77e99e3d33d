package server_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/sightline/sightline/internal/live"
	"github.com/sightline/sightline/internal/server"
	"github.com/sightline/sightline/internal/wait"
)

// Signing out closes, at once, the live socket subscribed to the user's private channel.
func TestSignOutClosesLiveSockets(t *testing.T) {
	ctx := context.Background()
	const email, password = "admin@example.test", "sign-out-password"
	node, err := server.New(ctx, server.Config{DataDir: t.TempDir(), AdminEmail: email, AdminPassword: password},
		slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer node.Close()
	serveCtx, stop := context.WithCancel(ctx)
	defer stop()
	listening := make(chan string, 1)
	go node.Serve(serveCtx, "127.0.0.1:0", func(a net.Addr) { listening <- a.String() })
	addr := <-listening

	// A browser: signs in with a cookie jar, so it holds the session cookie.
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar, Timeout: 10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	body, _ := json.Marshal(map[string]string{"email": email, "password": password})
	resp, err := browser.Post("http://"+addr+"/api/v1/auth/login", "application/json", strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	var login struct {
		Data struct {
			Token string `json:"token"`
			User  struct {
				ID int64 `json:"id"`
			} `json:"user"`
		} `json:"data"`
	}
	json.NewDecoder(resp.Body).Decode(&login)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("login = %s", resp.Status)
	}

	sockCtx, cancel := context.WithTimeout(ctx, wait.Deadline)
	defer cancel()
	cfg := getLiveConfig(t, addr, login.Data.Token)
	socket, err := live.Dial(sockCtx, "ws://"+addr+live.SocketPath(cfg.Key))
	if err != nil {
		t.Fatal(err)
	}
	defer socket.Close()
	channel := live.UserChannel(login.Data.User.ID)
	if err := socket.Subscribe(sockCtx, channel, authorize(t, addr, login.Data.Token, socket.SocketID, channel)); err != nil {
		t.Fatal(err)
	}

	req, _ := http.NewRequest("GET", "http://"+addr+"/logout", nil)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	resp, err = browser.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		t.Fatalf("logout = %s", resp.Status)
	}
	if _, err := socket.Next(sockCtx); websocket.CloseStatus(err) != live.CodeReconnect {
		t.Errorf("after sign-out the socket got %v, want a 4200 close", err)
	}
}

// A node given a key that does not open the store's sealed secrets refuses to start and says
// why; with the right key it starts.
func TestWrongSecretKeyStopsTheNode(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := server.OpenStore(ctx, server.Config{DataDir: dir}) // generates dir/secret.key
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Secret(ctx, "bearer_signing_key", func() (string, error) { return "k", nil }); err != nil {
		t.Fatal(err)
	}
	s.Close()

	other := "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
	_, err = server.OpenStore(ctx, server.Config{DataDir: dir, SecretKey: other})
	if err == nil || !strings.Contains(err.Error(), "same key") || !strings.Contains(err.Error(), "SIGHTLINE_SECRET_KEY") {
		t.Fatalf("another key = %v, want an error saying every node needs the same key", err)
	}
	s, err = server.OpenStore(ctx, server.Config{DataDir: dir})
	if err != nil {
		t.Fatalf("the data dir's own key: %v", err)
	}
	s.Close()
}
