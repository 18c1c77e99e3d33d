package server_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/sightline/sightline/internal/live"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/sealed"
	"github.com/sightline/sightline/internal/store/storetest"
	"github.com/sightline/sightline/internal/wait"
)

// A cluster as docs/deploy.md describes it, all on loopback: three NATS servers with
// JetStream, one PostgreSQL database and three `sightline serve` processes of the real binary.
// Posts go in through every node; one node is killed with SIGKILL in the middle and started
// again. Afterwards every post is stored once, every match created once, every alert delivery
// covers each match once and arrives once, and a live client on a node that stayed up got each
// match's event once, before and after the kill.
func TestClusterSurvivesANodeKill(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs a three-node cluster")
	}
	dsn := clusterDatabase(t)
	natsURLs := startNATSCluster(t, 3)
	bin := buildSightline(t)
	hooks := startWebhookReceiver(t)
	keyFile := filepath.Join(t.TempDir(), "secret.key")
	if err := os.WriteFile(keyFile, []byte(sealed.GenerateText()), 0o600); err != nil {
		t.Fatal(err)
	}
	flags := []string{"--db", dsn, "--nats", strings.Join(natsURLs, ","), "--nats-replicas", "3",
		"--secret-key-file", keyFile, "--simulator", "off", "--sources", "none",
		"--allow-private-networks", "on", "--allow-private-webhooks", "127.0.0.1/32", "--admin-email", clusterEmail, "--admin-password", clusterPassword,
		// The test's own live client, under the race detector beside three nodes on two
		// cores, may fall behind a burst for longer than a browser would: a queue that a slow
		// consumer does not overflow, so that what is tested is delivery across the kill.
		"--live-queue", "4096", "--log-level", "warn"}

	// The first node migrates the new database and creates the administrator; the searches
	// are made on it before the others start, so that every node loads them from the store.
	nodes := []*clusterNode{startClusterNode(t, bin, "a", flags)}
	a := nodes[0]
	token, userID := signIn(t, a.addr, clusterEmail, clusterPassword)
	callAPI(t, "PATCH", a.addr, "/api/v1/settings/profile/update/is-inbox-streaming-enabled", token, nil, "", &struct{}{})
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var orgID int64
	if err := db.QueryRow(`SELECT organization_id FROM users WHERE id = $1`, userID).Scan(&orgID); err != nil {
		t.Fatal(err)
	}
	callAPI(t, "PUT", a.addr, fmt.Sprintf("/api/v1/settings/organizations/%d/webhook", orgID), token, nil, "", &struct{}{})
	var group struct {
		Data struct {
			ID int64 `json:"id"`
		} `json:"data"`
	}
	created(t, a.addr, "/api/v1/monitor/monitor-search-groups", token, map[string]any{"name": "Cluster", "privacy": "private"}, &group)
	words := []string{"alpha", "bravo", "charlie"}
	searchIDs := map[string]int64{}
	// E-mail alerts (a minute apart at the most often) are left to TestAlertCrashSendsEachMatchOnce.
	// Webhooks are grouped by post: the test counts every match across the kill.
	for _, w := range words {
		alerts := []map[string]any{{"type": "webhook", "interval": 0, "grouping": "post",
			"destinations": []map[string]string{{"type": "webhook", "address": hooks.url + "/" + w}}}}
		var search struct {
			Data struct {
				ID int64 `json:"id"`
			} `json:"data"`
		}
		created(t, a.addr, "/api/v1/monitor/searches", token, map[string]any{"group_id": group.Data.ID, "name": w,
			"keywords": w, "providers": []string{"reddit"}, "alerts": alerts}, &search)
		searchIDs[w] = search.Data.ID
	}
	nodes = append(nodes, startClusterNode(t, bin, "b", flags), startClusterNode(t, bin, "c", flags))
	victim := nodes[2]

	// The live client is on node A, which stays up; node B signs its subscription.
	cfg := getLiveConfig(t, a.addr, token)
	liveCtx, stopLive := context.WithCancel(context.Background())
	defer stopLive()
	client, err := live.Dial(liveCtx, "ws://"+a.addr+live.SocketPath(cfg.Key))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	channel := live.UserChannel(userID)
	if err := client.Subscribe(liveCtx, channel, authorize(t, nodes[1].addr, token, client.SocketID, channel)); err != nil {
		t.Fatal(err)
	}
	events := &liveEvents{ids: map[int64]int{}}
	go events.read(liveCtx, client, channel)

	// The posts: each names some of the words, so each search matches a known set.
	const total, batchSize = 6000, 100
	var batches [][]byte
	want := map[string]map[string]bool{} // word → ids of the posts it matches
	allIDs := map[string]bool{}
	namespace := fmt.Sprintf("ingest:user-%d", userID)
	for _, w := range words {
		want[w] = map[string]bool{}
	}
	published := time.Now().Add(-time.Minute).UTC()
	for start := 0; start < total; start += batchSize {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		for i := start; i < start+batchSize; i++ {
			native := fmt.Sprintf("cluster-%d", i)
			text := "cluster post " + native
			id := post.NewIngestID(namespace, "reddit", native)
			allIDs[id] = true
			for j, w := range words {
				if i%(j+2) == 0 {
					text += " " + w
					want[w][id] = true
				}
			}
			enc.Encode(post.Post{Provider: "reddit", NativeID: native, ContentText: text, PublishedAt: published})
		}
		batches = append(batches, buf.Bytes())
	}
	wantMatches := 0
	for _, ids := range want {
		wantMatches += len(ids)
	}

	// The first half goes in through all three nodes; node C is killed when a quarter is in,
	// while its sender is in the middle of it, and its sender moves to the others as a client
	// behind a load balancer would. Once node C is back, the second half goes in through all
	// three again.
	half := len(batches) / 2
	quarter := make(chan struct{})
	var mu sync.Mutex
	sentBatches := 0
	killed := make(chan time.Time, 1)
	go func() {
		<-quarter
		at := time.Now()
		victim.kill(t)
		killed <- at
	}()
	ingestThrough(t, nodes, token, batches[:half], func() {
		mu.Lock()
		defer mu.Unlock()
		if sentBatches++; sentBatches == half/2 {
			close(quarter)
		}
	})
	killedAt := <-killed
	victim.start(t)
	t.Logf("node c killed with SIGKILL at %s, serving again %s later", killedAt.Format("15:04:05.000"),
		time.Since(killedAt).Round(time.Millisecond))
	ingestThrough(t, nodes, token, batches[half:], func() {})
	ingested := time.Now()

	// Everything settles within the e-mail alert's minute; wait.Deadline leaves the margin.
	settled := func(what string, ok func() (bool, string)) {
		t.Helper()
		wait.ForProgress(t, what, func() error {
			if good, state := ok(); !good {
				return errors.New(state)
			}
			return nil
		})
	}
	count := func(q string, args ...any) int {
		t.Helper()
		var n int
		if err := db.QueryRow(q, args...).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}

	settled("posts stored", func() (bool, string) {
		n := count(`SELECT count(*) FROM posts`)
		return n >= total, fmt.Sprintf("%d of %d posts", n, total)
	})
	t.Logf("all posts stored %s after the last was accepted", time.Since(ingested).Round(time.Millisecond))
	if n := count(`SELECT count(*) FROM (SELECT id FROM posts GROUP BY id HAVING count(*) > 1) d`); n != 0 {
		t.Errorf("%d posts are stored more than once", n)
	}
	rows, err := db.Query(`SELECT id FROM posts`)
	if err != nil {
		t.Fatal(err)
	}
	stored := map[string]bool{}
	for rows.Next() {
		var id string
		rows.Scan(&id)
		stored[id] = true
	}
	rows.Close()
	if len(stored) != total || !maps.Equal(stored, allIDs) {
		t.Errorf("%d distinct posts stored, want exactly the %d sent", len(stored), total)
	}

	settled("matches created", func() (bool, string) {
		n := count(`SELECT count(*) FROM monitor_matches`)
		return n >= wantMatches, fmt.Sprintf("%d of %d matches", n, wantMatches)
	})
	matchOf := map[int64]string{} // match id → word of its search
	for _, w := range words {
		rows, err := db.Query(`SELECT id, post_id FROM monitor_matches WHERE search_id = $1`, searchIDs[w])
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		n := 0
		for rows.Next() {
			var id int64
			var postID string
			rows.Scan(&id, &postID)
			got[postID] = true
			matchOf[id] = w
			n++
		}
		rows.Close()
		if n != len(want[w]) || !maps.Equal(got, want[w]) {
			t.Errorf("search %q: %d matches on %d posts, want one on each of the %d posts naming it", w, n, len(got), len(want[w]))
		}
	}

	// Alerts: every match is covered by exactly one delivery of each of its search's alerts,
	// every delivery was sent, and each arrived once.
	settled("webhooks delivered", func() (bool, string) {
		covered := hooks.covered()
		pending := count(`SELECT count(*) FROM alert_deliveries WHERE destination_type = 'webhook' AND status <> 'sent'`)
		return len(covered) == len(matchOf) && pending == 0,
			fmt.Sprintf("%d of %d matches arrived by webhook, %d deliveries not sent", len(covered), len(matchOf), pending)
	})
	for match, n := range hooks.covered() {
		if n != 1 {
			t.Errorf("match %d arrived in %d webhooks", match, n)
		}
	}
	for id, n := range hooks.messageIDs() {
		if n != 1 {
			t.Errorf("webhook message %s arrived %d times", id, n)
		}
	}
	if sent, got := count(`SELECT count(*) FROM alert_deliveries WHERE destination_type = 'webhook'`), len(hooks.messageIDs()); sent != got {
		t.Errorf("%d webhook deliveries written, %d arrived", sent, got)
	}
	for match, w := range hooks.searchOf() {
		if matchOf[match] != w {
			t.Errorf("match %d arrived at the webhook of %q, but belongs to search %q", match, w, matchOf[match])
		}
	}
	if n := count(`SELECT count(*) FROM (SELECT match_id FROM alert_delivery_matches GROUP BY type, match_id HAVING count(*) > 1) d`); n != 0 {
		t.Errorf("%d matches are in more than one delivery of the same alert", n)
	}

	// Live: one event a match, counting the "more" of a batch's last event.
	settled("live events delivered", func() (bool, string) {
		n, _, err := events.counts()
		if err != nil {
			t.Fatalf("the live client on node a: %v (after %d of %d match events)", err, n, len(matchOf))
		}
		return n >= len(matchOf), fmt.Sprintf("%d of %d match events", n, len(matchOf))
	})
	n, after, err := events.countsAfter(killedAt)
	if err != nil {
		t.Fatalf("the live client on node a: %v", err)
	}
	// Each match's own event arrives once (below); the "more" of a batch's last event is a
	// count, and a batch run again after the kill may group its matches differently, so the
	// sum may exceed the matches (docs/live.md) but never fall short of them.
	if n < len(matchOf) {
		t.Errorf("the live client counted %d match events, want %d", n, len(matchOf))
	} else if n > len(matchOf) {
		t.Logf("the events' counts add up to %d for %d matches: a batch run again grouped its matches differently", n, len(matchOf))
	}
	for id, seen := range events.snapshot() {
		if seen != 1 {
			t.Errorf("the event of match %d arrived %d times", id, seen)
		}
		if _, ok := matchOf[id]; !ok {
			t.Errorf("an event for match %d, which is not stored", id)
		}
	}
	if after == 0 {
		t.Error("the live client on node a received no event after node c was killed")
	}
	t.Logf("%d posts, %d matches, %d webhooks, %d live events (%d after the kill); settled %s after the last post",
		total, len(matchOf), len(hooks.messageIDs()), n, after, time.Since(ingested).Round(time.Millisecond))
}

// created POSTs body as JSON, expects 201 Created and decodes the reply into out.
func created(t *testing.T, addr, path, token string, body, out any) {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", "http://"+addr+path, bytes.NewReader(b))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	reply, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("POST %s: %s %s", path, resp.Status, reply)
	}
	if err := json.Unmarshal(reply, out); err != nil {
		t.Fatalf("POST %s: %v in %s", path, err, reply)
	}
}

// ingestThrough sends the batches through the nodes, one sender a node. A sender whose node
// fails sends the batch to the next node that answers, as a client would retry through a load
// balancer; the posts' ids make a repeat harmless. sent is called after each accepted batch.
func ingestThrough(t *testing.T, nodes []*clusterNode, token string, batches [][]byte, sent func()) {
	t.Helper()
	work := make(chan []byte, len(batches))
	for _, b := range batches {
		work <- b
	}
	close(work)
	var wg sync.WaitGroup
	errs := make(chan error, len(nodes))
	for i := range nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for body := range work {
				deadline := time.Now().Add(wait.Deadline)
				for k := 0; ; k++ {
					n := nodes[(i+k)%len(nodes)]
					if _, err := send(n.address(), token, body); err == nil {
						break
					}
					if time.Now().After(deadline) {
						errs <- fmt.Errorf("no node accepted a batch in %s", wait.Deadline)
						return
					}
					if k%len(nodes) == len(nodes)-1 {
						time.Sleep(50 * time.Millisecond) // every node refused: wait a moment
					}
				}
				sent()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// liveEvents counts the match events a live client receives. Its reader only keeps each frame
// and decodes it later: the hub closes a socket whose 64-frame queue overflows (docs/live.md),
// and this test process, under the race detector beside three nodes on two cores, must read
// as fast as a browser would.
type liveEvents struct {
	mu     sync.Mutex
	frames []liveFrame   // received, not yet decoded
	ids    map[int64]int // match id → events naming it
	times  []time.Time   // arrival of each event
	more   []int         // each event's "more"
	err    error
}

type liveFrame struct {
	live.Frame
	at time.Time
}

func (e *liveEvents) read(ctx context.Context, c *live.Client, channel string) {
	for {
		f, err := c.Next(ctx)
		e.mu.Lock()
		if err != nil {
			if ctx.Err() == nil {
				e.err = err
			}
			e.mu.Unlock()
			return
		}
		if f.Event == monitor.EventMatchCreated && f.Channel == channel {
			e.frames = append(e.frames, liveFrame{f, time.Now()})
		}
		e.mu.Unlock()
	}
}

// decode moves the received frames into the counts; the caller holds mu.
func (e *liveEvents) decode() {
	for _, f := range e.frames {
		var ev monitor.MatchCreated
		if err := f.Decode(&ev); err != nil {
			e.err = err
			break
		}
		e.ids[ev.Match.MatchMeta.MatchID]++
		e.times = append(e.times, f.at)
		e.more = append(e.more, ev.More)
	}
	e.frames = nil
}

// counts is how many matches the events announced (each event one, plus its "more").
func (e *liveEvents) counts() (int, int, error) { return e.countsAfter(time.Time{}) }

// countsAfter is counts, and how many of them arrived after t.
func (e *liveEvents) countsAfter(t time.Time) (all, after int, err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.decode()
	for i, at := range e.times {
		all += 1 + e.more[i]
		if at.After(t) {
			after += 1 + e.more[i]
		}
	}
	return all, after, e.err
}

func (e *liveEvents) snapshot() map[int64]int {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.decode()
	return maps.Clone(e.ids)
}

// webhookReceiver keeps the webhooks it receives: each message id, and the matches in it.
type webhookReceiver struct {
	url     string
	mu      sync.Mutex
	ids     map[string]int
	matches map[int64]int
	search  map[int64]string // match → the path (search word) it arrived on
}

func startWebhookReceiver(t *testing.T) *webhookReceiver {
	t.Helper()
	h := &webhookReceiver{ids: map[string]int{}, matches: map[int64]int{}, search: map[int64]string{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Type    string `json:"type"`
			Matches []struct {
				MatchID int64 `json:"matchId"`
			} `json:"matches"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		h.mu.Lock()
		defer h.mu.Unlock()
		if body.Type == "monitor.matches" {
			h.ids[r.Header.Get("webhook-id")]++
			for _, m := range body.Matches {
				h.matches[m.MatchID]++
				h.search[m.MatchID] = strings.TrimPrefix(r.URL.Path, "/")
			}
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(srv.Close)
	h.url = srv.URL
	return h
}

func (h *webhookReceiver) covered() map[int64]int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return maps.Clone(h.matches)
}

func (h *webhookReceiver) messageIDs() map[string]int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return maps.Clone(h.ids)
}

func (h *webhookReceiver) searchOf() map[int64]string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return maps.Clone(h.search)
}

// clusterNode is one `sightline serve` process; it keeps its address and data dir across a
// restart, as a node restarted by systemd does.
type clusterNode struct {
	name  string
	bin   string
	flags []string
	dir   string
	mu    sync.Mutex
	addr  string
	cmd   *exec.Cmd
	log   *bytes.Buffer
	done  chan struct{}
}

func startClusterNode(t *testing.T, bin, name string, flags []string) *clusterNode {
	t.Helper()
	n := &clusterNode{name: name, bin: bin, flags: flags, dir: t.TempDir(), addr: freeAddr(t)}
	n.start(t)
	t.Cleanup(func() { n.stop(t) })
	return n
}

func (n *clusterNode) address() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.addr
}

// start runs the node and waits until it answers /healthz.
func (n *clusterNode) start(t *testing.T) {
	t.Helper()
	args := append([]string{"serve", "--addr", n.addr, "--data-dir", n.dir}, n.flags...)
	cmd := exec.Command(n.bin, args...)
	cmd.Env = cleanEnv()
	log := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	n.mu.Lock()
	n.cmd, n.done = cmd, done
	n.mu.Unlock()
	wait.ForNil(t, "node "+n.name+" answering /healthz", func() error {
		select {
		case <-done:
			t.Fatalf("node %s exited while starting:\n%s", n.name, log.String())
		default:
		}
		resp, err := http.Get("http://" + n.addr + "/healthz")
		if err != nil {
			return fmt.Errorf("%w; log:\n%s", err, log.String())
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("/healthz = %d; log:\n%s", resp.StatusCode, log.String())
		}
		return nil
	})
}

// kill ends the node with SIGKILL: no shutdown, nothing flushed, sockets cut.
func (n *clusterNode) kill(t *testing.T) {
	t.Helper()
	n.mu.Lock()
	cmd, done := n.cmd, n.done
	n.mu.Unlock()
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Error(err)
	}
	<-done
}

// stop shuts the node down as systemd would: SIGTERM, then SIGKILL after a grace period.
func (n *clusterNode) stop(t *testing.T) {
	n.mu.Lock()
	cmd, done := n.cmd, n.done
	n.mu.Unlock()
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		<-done
	}
	if t.Failed() {
		if b, ok := cmd.Stdout.(*syncBuffer); ok {
			t.Logf("node %s log:\n%s", n.name, b.String())
		}
	}
}

// syncBuffer is a buffer the process's output goroutines may write to at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// cleanEnv is the test's environment without SIGHTLINE_ variables, which serve would read as
// flags.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "SIGHTLINE_") {
			env = append(env, kv)
		}
	}
	return env
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// buildSightline builds the binary the cluster runs.
func buildSightline(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "sightline")
	cmd := exec.Command("go", "build", "-o", bin, "../../cmd/sightline")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// clusterDatabase creates a PostgreSQL database for the test, dropped when it ends. Without a
// server the test is skipped, except on CI, where it fails.
func clusterDatabase(t *testing.T) string {
	t.Helper()
	admin := storetest.Admin(t)
	ctx, cancel := context.WithTimeout(context.Background(), wait.Deadline)
	defer cancel()
	suffix := make([]byte, 6)
	rand.Read(suffix)
	name := "sightline_cluster_" + hex.EncodeToString(suffix)
	if _, err := admin.ExecContext(ctx, `CREATE DATABASE `+name); err != nil {
		t.Fatal(err)
	}
	// Registered first, so it runs after the nodes (and their connections) are gone.
	t.Cleanup(func() {
		if _, err := admin.Exec(`DROP DATABASE ` + name + ` WITH (FORCE)`); err != nil {
			t.Errorf("drop the test database %s: %v", name, err)
		}
	})
	u, err := url.Parse(storetest.PostgresURL())
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

// startNATSCluster runs n NATS servers with JetStream in one cluster on free loopback ports and
// waits until JetStream has a leader; it returns their client URLs.
func startNATSCluster(t *testing.T, n int) []string {
	t.Helper()
	var servers []*natsserver.Server
	var routes []*url.URL
	var urls []string
	// The cluster ports are chosen first, so that every server can be given every route.
	clusterAddrs := make([]string, n)
	for i := range clusterAddrs {
		clusterAddrs[i] = freeAddr(t)
		routes = append(routes, &url.URL{Scheme: "nats", Host: clusterAddrs[i]})
	}
	for i := 0; i < n; i++ {
		_, port, _ := net.SplitHostPort(clusterAddrs[i])
		var clusterPort int
		fmt.Sscan(port, &clusterPort)
		s, err := natsserver.NewServer(&natsserver.Options{
			ServerName: fmt.Sprintf("nats-%d", i),
			Host:       "127.0.0.1",
			Port:       -1, // a free port
			JetStream:  true,
			StoreDir:   t.TempDir(),
			Cluster:    natsserver.ClusterOpts{Name: "sightline-test", Host: "127.0.0.1", Port: clusterPort},
			Routes:     routes,
			NoSigs:     true,
			NoLog:      true,
		})
		if err != nil {
			t.Fatal(err)
		}
		s.Start()
		t.Cleanup(func() { s.Shutdown(); s.WaitForShutdown() })
		if !s.ReadyForConnections(wait.Deadline) {
			t.Fatalf("NATS server %d did not start", i)
		}
		servers = append(servers, s)
		urls = append(urls, s.ClientURL())
	}
	nc, err := nats.Connect(strings.Join(urls, ","))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	wait.ForNil(t, "the NATS cluster's JetStream coming up", func() error {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_, err := js.AccountInfo(ctx)
		return err
	})
	return urls
}
