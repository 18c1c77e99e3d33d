package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/sightline/sightline/internal/live"
	"github.com/sightline/sightline/internal/sealed"
	"github.com/sightline/sightline/internal/server"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
	"github.com/sightline/sightline/internal/wait"
)

const (
	clusterEmail    = "admin@example.test"
	clusterPassword = "cluster-test-password"
)

// TestLiveNodeProcess is not a test: it is one node of TestLiveAcrossNodes. It prints
// "listening <addr>", serves until its stdin closes, and publishes what its stdin asks for, one
// event a line: "<user id> <event> <payload JSON>".
func TestLiveNodeProcess(t *testing.T) {
	dir := os.Getenv("SIGHTLINE_TEST_LIVE_NODE_DIR")
	if dir == "" {
		t.Skip("runs only as a node of TestLiveAcrossNodes")
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	node, err := server.New(ctx, server.Config{DataDir: dir, DB: os.Getenv("SIGHTLINE_TEST_LIVE_NODE_DB"),
		NATS: os.Getenv("SIGHTLINE_TEST_LIVE_NODE_NATS"), SecretKey: os.Getenv("SIGHTLINE_TEST_LIVE_NODE_KEY"),
		AdminEmail: clusterEmail, AdminPassword: clusterPassword}, log)
	if err != nil {
		t.Fatal(err)
	}
	defer node.Close()
	go func() {
		defer stop()
		scan := bufio.NewScanner(os.Stdin)
		for scan.Scan() {
			fields := strings.SplitN(scan.Text(), " ", 3)
			if len(fields) != 3 {
				t.Errorf("cannot read the command %q", scan.Text())
				continue
			}
			userID, _ := strconv.ParseInt(fields[0], 10, 64)
			if err := node.Live.PublishToUser(ctx, userID, fields[1], json.RawMessage(fields[2])); err != nil {
				t.Errorf("publish: %v", err)
			}
		}
	}()
	err = node.Serve(ctx, "127.0.0.1:0", func(addr net.Addr) { fmt.Printf("listening %s\n", addr) })
	if err != nil {
		t.Fatal(err)
	}
}

type liveNode struct {
	addr  string
	stdin io.WriteCloser
}

// startLiveNode starts a node process on the store and NATS; nodes sharing a store share its
// secret key, as every node of a cluster must.
func startLiveNode(t *testing.T, dsn, natsURL, secretKey string) *liveNode {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestLiveNodeProcess$")
	cmd.Env = append(os.Environ(), "SIGHTLINE_TEST_LIVE_NODE_DIR="+t.TempDir(),
		"SIGHTLINE_TEST_LIVE_NODE_DB="+dsn, "SIGHTLINE_TEST_LIVE_NODE_NATS="+natsURL,
		"SIGHTLINE_TEST_LIVE_NODE_KEY="+secretKey)
	cmd.Stderr = os.Stderr
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close() // the node shuts down gracefully
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	listening := make(chan string, 1)
	go func() {
		scan := bufio.NewScanner(stdout)
		for scan.Scan() {
			if addr, ok := strings.CutPrefix(scan.Text(), "listening "); ok {
				listening <- addr
			}
		}
	}()
	return &liveNode{addr: wait.Receive(t, "the node listening", listening), stdin: stdin}
}

func (n *liveNode) publish(t *testing.T, userID int64, event string, payload any) {
	t.Helper()
	b, _ := json.Marshal(payload)
	if _, err := fmt.Fprintf(n.stdin, "%d %s %s\n", userID, event, b); err != nil {
		t.Fatal(err)
	}
}

// natsURLForCluster is the NATS server the nodes share: SIGHTLINE_TEST_NATS, or the local one
// CI runs. Without one the test is skipped, except on CI, where it fails.
func natsURLForCluster(t *testing.T) string {
	t.Helper()
	u := os.Getenv("SIGHTLINE_TEST_NATS")
	if u == "" {
		u = "nats://127.0.0.1:4222"
	}
	nc, err := nats.Connect(u, nats.Timeout(3*time.Second))
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("NATS at %s is required on CI: %v", u, err)
		}
		t.Skipf("NATS at %s not reachable: %v", u, err)
	}
	nc.Close()
	return u
}

// Two node processes on one NATS and one PostgreSQL store: a browser on node A receives an
// event published on node B, with a subscription node B signed.
func TestLiveAcrossNodes(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two node processes")
	}
	natsURL := natsURLForCluster(t)
	dsn := storetest.DSN(t, store.Postgres)
	key := sealed.GenerateText()
	nodeA := startLiveNode(t, dsn, natsURL, key) // creates the administrator and the live credentials
	nodeB := startLiveNode(t, dsn, natsURL, key)

	token, userID := signIn(t, nodeA.addr, clusterEmail, clusterPassword)
	cfgA, cfgB := getLiveConfig(t, nodeA.addr, token), getLiveConfig(t, nodeB.addr, token)
	if cfgA.Key == "" || cfgA.Key != cfgB.Key {
		t.Fatalf("the nodes use different app keys: %q and %q", cfgA.Key, cfgB.Key)
	}

	ctx, cancel := context.WithTimeout(context.Background(), wait.Deadline)
	defer cancel()
	client, err := live.Dial(ctx, "ws://"+nodeA.addr+live.SocketPath(cfgA.Key))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	channel := live.UserChannel(userID)
	if err := client.Subscribe(ctx, channel, authorize(t, nodeB.addr, token, client.SocketID, channel)); err != nil {
		t.Fatalf("node A refused node B's signature: %v", err)
	}

	// The link is unique, so an event another test published on the same NATS is not taken for it.
	want := live.ExportReady{Link: fmt.Sprintf("/exports/%d.csv", time.Now().UnixNano()), TTL: 60}
	nodeB.publish(t, userID, live.EventExportReady, want)
	for {
		f, err := client.Next(ctx)
		if err != nil {
			t.Fatalf("waiting on node A for the event published on node B: %v", err)
		}
		var got live.ExportReady
		if f.Event == live.EventExportReady && f.Channel == channel && f.Decode(&got) == nil && got == want {
			return
		}
	}
}
