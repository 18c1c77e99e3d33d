package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/server"
	"github.com/sightline/sightline/internal/wait"
)

// TestNodeProcess is not a test: it is the child process of TestCrashLosesNothing, a whole
// node that the parent kills with SIGKILL.
func TestNodeProcess(t *testing.T) {
	dir := os.Getenv("SIGHTLINE_TEST_NODE_DIR")
	if dir == "" {
		t.Skip("runs only as the child of TestCrashLosesNothing")
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	ctx := context.Background()
	// The alert crash test also gives a database, a mail server and loopback webhooks.
	var loopback []netip.Prefix
	if os.Getenv("SIGHTLINE_TEST_NODE_DB") != "" {
		loopback = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	}
	node, err := server.New(ctx, server.Config{DataDir: dir, AdminEmail: "admin@example.test",
		AdminPassword: "crash-test-pw", DB: os.Getenv("SIGHTLINE_TEST_NODE_DB"),
		SMTPURL: os.Getenv("SIGHTLINE_TEST_NODE_SMTP"), PublicURL: "http://sightline.test",
		AllowPrivateNetworks: loopback, AllowPrivateWebhooks: loopback}, log)
	if err != nil {
		t.Fatal(err)
	}
	err = node.Serve(ctx, "127.0.0.1:0", func(addr net.Addr) {
		os.WriteFile(filepath.Join(dir, "addr.tmp"), []byte(addr.String()), 0o600)
		os.Rename(filepath.Join(dir, "addr.tmp"), filepath.Join(dir, "addr"))
	})
	t.Fatal(err)
}

type child struct {
	cmd  *exec.Cmd
	addr string
}

// startChild starts a node process on dir; env adds SIGHTLINE_TEST_NODE_* settings.
func startChild(t *testing.T, dir string, env ...string) *child {
	t.Helper()
	os.Remove(filepath.Join(dir, "addr"))
	cmd := exec.Command(os.Args[0], "-test.run=^TestNodeProcess$", "-test.v")
	cmd.Env = append(append(os.Environ(), "SIGHTLINE_TEST_NODE_DIR="+dir), env...)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	var addr []byte
	wait.ForNil(t, "the node starting", func() (err error) {
		addr, err = os.ReadFile(filepath.Join(dir, "addr"))
		return err
	})
	return &child{cmd: cmd, addr: string(addr)}
}

// burstBatch makes size posts and the ids they get when pushed with the token of that id.
func burstBatch(tokenID int64, batch, size int) ([]byte, []string) {
	var buf bytes.Buffer
	var ids []string
	enc := json.NewEncoder(&buf)
	for i := 0; i < size; i++ {
		native := fmt.Sprintf("crash-%d-%d", batch, i)
		enc.Encode(post.Post{Provider: "reddit", NativeID: native, ContentText: "burst post " + native,
			PublishedAt: time.Now().Add(-time.Minute)})
		ids = append(ids, post.NewIngestID(fmt.Sprintf("ingest:%d", tokenID), "reddit", native))
	}
	return buf.Bytes(), ids
}

func send(addr, token string, body []byte) (accepted int, err error) {
	req, _ := http.NewRequest("POST", "http://"+addr+"/api/v1/ingest/posts", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	var reply struct {
		Data struct {
			Accepted int `json:"accepted"`
		} `json:"data"`
	}
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		return 0, fmt.Errorf("%s: %s", resp.Status, b)
	}
	return reply.Data.Accepted, json.NewDecoder(resp.Body).Decode(&reply)
}

// Kill the node with SIGKILL in the middle of a burst; after a restart every post the API
// accepted is stored, once.
func TestCrashLosesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills real node processes")
	}
	dir := t.TempDir()
	first := startChild(t, dir)

	s, err := server.OpenStore(context.Background(), server.Config{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	a, err := auth.New(context.Background(), s, auth.Options{})
	if err != nil {
		t.Fatal(err)
	}
	token, tok, err := a.CreateAPIToken(context.Background(), "admin@example.test", "crash", []string{"ingest"})
	if err != nil {
		t.Fatal(err)
	}

	var mu sync.Mutex
	var accepted []string
	var sentBodies [][]byte
	killed := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for batch := 0; ; batch++ {
			body, ids := burstBatch(tok.ID, batch, 200)
			if _, err := send(first.addr, token, body); err != nil {
				return // the node is gone
			}
			mu.Lock()
			accepted = append(accepted, ids...)
			sentBodies = append(sentBodies, body)
			n := len(accepted)
			mu.Unlock()
			if n >= 4000 {
				select {
				case <-killed:
				default:
					close(killed)
				}
			}
		}
	}()
	wait.Receive(t, "the burst reaching 4000 accepted posts", killed)
	first.cmd.Process.Signal(syscall.SIGKILL)
	first.cmd.Wait()
	wg.Wait()

	storedAtKill, _, _ := s.CountPosts(context.Background())
	t.Logf("%d posts accepted before the kill, %d of them stored at that moment", len(accepted), storedAtKill)

	start := time.Now()
	second := startChild(t, dir)
	t.Logf("restarted in %s", time.Since(start))
	// A client that saw no reply would send again: the redelivery must not duplicate anything.
	for _, body := range sentBodies[len(sentBodies)-3:] {
		if _, err := send(second.addr, token, body); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]bool{}
	for _, id := range accepted {
		want[id] = true
	}
	admin, err := s.UserByEmail(context.Background(), "admin@example.test")
	if err != nil {
		t.Fatal(err)
	}
	wait.ForProgress(t, "every accepted post stored", func() error {
		missing := 0
		for id := range want {
			if _, err := s.Post(context.Background(), id, admin.TenantID); err != nil {
				missing++
			}
		}
		if missing > 0 {
			return fmt.Errorf("%d of %d accepted posts were lost", missing, len(want))
		}
		return nil
	})
	t.Logf("all accepted posts stored %s after the restart", time.Since(start))
	// Every stored post is one the client sent, stored once (ids are unique), and indexed once.
	rows, indexed, err := s.PostIndexCounts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	sent := int64(len(sentBodies)+1) * 200 // the batches recorded, plus the one cut off by the kill
	if rows < int64(len(want)) || rows > sent {
		t.Errorf("%d posts stored; want between %d accepted and %d sent", rows, len(want), sent)
	}
	if indexed != rows {
		t.Errorf("the full-text index has %d entries for %d posts", indexed, rows)
	}
}
