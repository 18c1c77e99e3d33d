package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/server"
	"github.com/sightline/sightline/internal/wait"
)

// serve on port 0 binds a port the system chooses and logs it once, in the line the browser
// tests read it from; the address answers, and a second server on it is refused.
func TestServeOnPortZeroLogsTheBoundAddress(t *testing.T) {
	logs, logWriter := io.Pipe()
	lines := make(chan string, 100)
	go func() {
		scanner := bufio.NewScanner(logs)
		for scanner.Scan() {
			lines <- scanner.Text()
		}
	}()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() {
		served <- serve(ctx, server.Config{Addr: "127.0.0.1:0", DataDir: t.TempDir(), AdminEmail: "admin@example.test",
			AdminPassword: "admin-password"}, slog.New(slog.NewTextHandler(logWriter, nil)))
	}()
	defer func() {
		cancel()
		if err := wait.Receive(t, "serve to return", served); err != nil {
			t.Errorf("serve: %v", err)
		}
		logWriter.Close()
	}()

	listening := regexp.MustCompile(`msg="sightline is listening" url=(http://127\.0\.0\.1:(\d+)) `)
	var url string
	deadline := time.After(wait.Deadline)
	for url == "" {
		select {
		case line := <-lines:
			if m := listening.FindStringSubmatch(line); m != nil {
				url = m[1]
				if m[2] == "0" {
					t.Fatalf("logged port 0: %s", line)
				}
			}
		case err := <-served:
			served <- err
			t.Fatalf("serve returned before it logged its address: %v", err)
		case <-deadline:
			t.Fatalf("no listening line within %s", wait.Deadline)
		}
	}

	reply, err := http.Get(url + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	var health struct{ Status string }
	err = json.NewDecoder(reply.Body).Decode(&health)
	reply.Body.Close()
	if err != nil || reply.StatusCode != http.StatusOK || health.Status != "ok" {
		t.Fatalf("GET %s/healthz: %d %+v %v", url, reply.StatusCode, health, err)
	}

	// The port is held by this server: another cannot take it.
	if ln, err := net.Listen("tcp", url[len("http://"):]); err == nil {
		ln.Close()
		t.Fatalf("%s could be bound again while serving", url)
	}
}
