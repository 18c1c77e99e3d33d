package bench

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
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/sightline/sightline/internal/connector/simulator"
	"github.com/sightline/sightline/internal/ingest"
	"github.com/sightline/sightline/internal/sealed"
	"github.com/sightline/sightline/internal/stream"
)

// ClusterConfig is a bench cluster run: for each node count, a fresh PostgreSQL database and
// NATS cluster, that many `sightline serve` processes of Bin, saved searches, and generated
// posts sent through every node's ingest API until the last one is stored and percolated.
type ClusterConfig struct {
	Nodes       []int
	Posts       int
	Searches    int
	NATSServers int
	// Postgres is a URL of any database on the server the runs' databases are created on.
	Postgres string
	Bin      string
	// Progress, when set, is told how far each run is.
	Progress bool
}

// ClusterResult is what bench cluster measured.
type ClusterResult struct {
	Posts       int          `json:"posts"`
	Searches    int          `json:"searches"`
	NATSServers int          `json:"nats_servers"`
	Cores       int          `json:"cores"`
	Runs        []ClusterRun `json:"runs"`
}

// ClusterRun is one node count's run.
type ClusterRun struct {
	Nodes int `json:"nodes"`
	// PostsPerSec is posts ingested through the nodes' ingest API until the last one was stored,
	// percolated and acknowledged.
	PostsPerSec        float64 `json:"posts_per_sec"`
	PerNodePostsPerSec float64 `json:"per_node_posts_per_sec"`
	// Efficiency is the per-node throughput over the one-node run's (1 is linear scaling).
	Efficiency   float64 `json:"efficiency"`
	MatchesTotal int64   `json:"matches_total"`
	Seconds      float64 `json:"seconds"`
	// CPU per post while the posts went through, in microseconds: the serve processes together,
	// the PostgreSQL backends serving the run's database, and this process (the NATS servers
	// and the load generator). Read from /proc, so only on Linux with PostgreSQL on this
	// machine; 0 where unknown.
	NodeCPUPerPostMicros     float64 `json:"node_cpu_per_post_us"`
	PostgresCPUPerPostMicros float64 `json:"postgres_cpu_per_post_us"`
	BenchCPUPerPostMicros    float64 `json:"bench_cpu_per_post_us"`
}

// Cluster runs cfg. Cancelling ctx stops the run's nodes and drops its database.
func Cluster(ctx context.Context, cfg ClusterConfig) (ClusterResult, error) {
	if cfg.NATSServers < 1 {
		return ClusterResult{}, errors.New("--nats-servers must be at least 1")
	}
	// The posts are made before any clock starts, once for every run: the same content, the
	// same matches.
	gen := simulator.NewGenerator(1)
	queries := benchQueries(gen, 2*cfg.Searches) // some are refused as saved searches; spares
	batches, err := clusterBenchBatches(gen, cfg.Posts)
	if err != nil {
		return ClusterResult{}, err
	}
	res := ClusterResult{Posts: cfg.Posts, Searches: cfg.Searches, NATSServers: cfg.NATSServers, Cores: runtime.NumCPU()}
	for _, n := range cfg.Nodes {
		run, err := clusterBenchRunOnce(ctx, cfg.Bin, cfg.Postgres, n, cfg.NATSServers, queries, cfg.Searches, batches, cfg.Posts, cfg.Progress)
		if ctx.Err() != nil {
			return res, errors.New("interrupted: the run's nodes were stopped and its database dropped")
		}
		if err != nil {
			return res, fmt.Errorf("%d nodes: %w", n, err)
		}
		res.Runs = append(res.Runs, run)
	}
	var single float64
	for _, r := range res.Runs {
		if r.Nodes == 1 {
			single = r.PostsPerSec
		}
	}
	for i := range res.Runs {
		if single > 0 {
			res.Runs[i].Efficiency = res.Runs[i].PerNodePostsPerSec / single
		}
	}
	return res, nil
}

// WriteText prints the runs as a table, with what the CPU split says about machines of their own.
func (res ClusterResult) WriteText(w io.Writer) {
	fmt.Fprintf(w, "%d posts, %d saved searches, %d NATS servers, %d cores for everything\n", res.Posts, res.Searches, res.NATSServers, res.Cores)
	fmt.Fprintf(w, "%-6s %9s %13s %11s %9s   %s\n", "nodes", "posts/s", "posts/s/node", "efficiency", "matches",
		"CPU µs a post: nodes, PostgreSQL, NATS and load")
	single := false
	for _, r := range res.Runs {
		single = single || r.Nodes == 1
	}
	for _, r := range res.Runs {
		eff := "-"
		if single {
			eff = fmt.Sprintf("%.2f", r.Efficiency)
		}
		fmt.Fprintf(w, "%-6d %9.0f %13.0f %11s %9d   %.0f, %.0f, %.0f\n", r.Nodes, r.PostsPerSec, r.PerNodePostsPerSec, eff,
			r.MatchesTotal, r.NodeCPUPerPostMicros, r.PostgresCPUPerPostMicros, r.BenchCPUPerPostMicros)
	}
	// What the CPU split says about machines of their own: each part's posts per core-second.
	if last := res.Runs[len(res.Runs)-1]; last.NodeCPUPerPostMicros > 0 && last.PostgresCPUPerPostMicros > 0 {
		fmt.Fprintf(w, "per core of their own: a node %.0f posts/s, the PostgreSQL backends %.0f posts/s (docs/performance.md#cluster)\n",
			1e6/last.NodeCPUPerPostMicros, 1e6/last.PostgresCPUPerPostMicros)
	}
}

// clusterBenchBatches makes the posts as NDJSON bodies of the ingest API, 1,000 a body.
func clusterBenchBatches(gen *simulator.Generator, total int) ([][]byte, error) {
	const size = 1000
	now := time.Now()
	var out [][]byte
	for i := 0; i < total; i += size {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		for j := i; j < min(i+size, total); j++ {
			p := gen.Next(now)
			p.ID = ""
			p.NativeID = fmt.Sprintf("bench-%d", j) // unique, whatever the generator repeats
			if err := enc.Encode(p); err != nil {
				return nil, err
			}
		}
		out = append(out, buf.Bytes())
	}
	return out, nil
}

func clusterBenchRunOnce(ctx context.Context, bin, pg string, nodes, natsServers int, queries []string, searches int, batches [][]byte,
	posts int, progress bool) (ClusterRun, error) {
	run := ClusterRun{Nodes: nodes}
	dir, err := os.MkdirTemp("", "sightline-bench-cluster-")
	if err != nil {
		return run, err
	}
	defer os.RemoveAll(dir)
	dsn, drop, err := benchDatabase(pg)
	if err != nil {
		return run, err
	}
	defer drop()
	natsURLs, stopNATS, err := benchNATSCluster(dir, natsServers)
	if err != nil {
		return run, err
	}
	defer stopNATS()
	keyFile := filepath.Join(dir, "secret.key")
	if err := os.WriteFile(keyFile, []byte(sealed.GenerateText()), 0o600); err != nil {
		return run, err
	}
	const email, password = "bench@example.test", "bench-cluster-password"
	flags := []string{"--db", dsn, "--nats", strings.Join(natsURLs, ","), "--nats-replicas", strconv.Itoa(min(natsServers, 3)),
		"--secret-key-file", keyFile, "--simulator", "off", "--sources", "none", "--max-saved-searches", "0",
		"--admin-email", email, "--admin-password", password, "--log-level", "error"}
	var procs []*benchNode
	defer func() {
		for _, p := range procs {
			p.stop()
		}
	}()
	// The first node migrates and creates the administrator and the searches; the others load
	// them from the store when they start.
	first, err := startBenchNode(bin, filepath.Join(dir, "node-0"), flags)
	if err != nil {
		return run, err
	}
	procs = append(procs, first)
	token, err := benchSignIn(first.addr, email, password)
	if err != nil {
		return run, err
	}
	if err := benchSearches(ctx, first.addr, token, queries, searches); err != nil {
		return run, err
	}
	for i := 1; i < nodes; i++ {
		p, err := startBenchNode(bin, filepath.Join(dir, fmt.Sprintf("node-%d", i)), flags)
		if err != nil {
			return run, err
		}
		procs = append(procs, p)
	}
	nc, err := nats.Connect(strings.Join(natsURLs, ","))
	if err != nil {
		return run, err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return run, err
	}

	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return run, err
	}
	defer db.Close()
	cpuBefore := clusterCPU(db, dsn, procs)
	start := time.Now()
	if err := benchSend(ctx, procs, token, batches); err != nil {
		return run, err
	}
	// Done when the storage stage, which acknowledges a post only once it is stored and
	// percolated, has nothing left.
	shown := -1
	for {
		lag, err := consumerLag(js, ingest.StoreDurable)
		if err != nil {
			return run, err
		}
		if done := posts - int(min(lag, uint64(posts))); progress && done != shown {
			fmt.Fprintf(os.Stderr, "\r%d node(s): %d of %d posts done ", nodes, done, posts)
			shown = done
		}
		if lag == 0 {
			break
		}
		select {
		case <-ctx.Done():
			return run, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	elapsed := time.Since(start)
	cpuAfter := clusterCPU(db, dsn, procs)
	if progress {
		fmt.Fprintln(os.Stderr)
	}
	perPost := func(before, after time.Duration) float64 {
		if before < 0 || after < 0 {
			return 0
		}
		return float64((after - before).Microseconds()) / float64(posts)
	}
	run.NodeCPUPerPostMicros = perPost(cpuBefore.nodes, cpuAfter.nodes)
	run.PostgresCPUPerPostMicros = perPost(0, cpuAfter.postgresSince(cpuBefore))
	run.BenchCPUPerPostMicros = perPost(cpuBefore.bench, cpuAfter.bench)
	var stored int64
	if err := db.QueryRow(`SELECT count(*) FROM posts`).Scan(&stored); err != nil {
		return run, err
	}
	if stored != int64(posts) {
		return run, fmt.Errorf("%d of %d posts were stored", stored, posts)
	}
	if err := db.QueryRow(`SELECT count(*) FROM monitor_matches`).Scan(&run.MatchesTotal); err != nil {
		return run, err
	}
	run.Seconds = elapsed.Seconds()
	run.PostsPerSec = float64(posts) / elapsed.Seconds()
	run.PerNodePostsPerSec = run.PostsPerSec / float64(nodes)
	return run, nil
}

// cpuSample is CPU time used so far by the parts of a run; -1 where it cannot be read.
type cpuSample struct {
	nodes, bench time.Duration
	postgres     map[int]time.Duration // backend pid → its CPU time; nil when unknown
}

// postgresSince is the CPU time the backends used since before, counting a backend that
// started in between whole.
func (after cpuSample) postgresSince(before cpuSample) time.Duration {
	if before.postgres == nil || after.postgres == nil {
		return -1
	}
	var d time.Duration
	for pid, t := range after.postgres {
		d += t - before.postgres[pid]
	}
	return d
}

func clusterCPU(db *sql.DB, dsn string, procs []*benchNode) cpuSample {
	sample := cpuSample{bench: processCPU(os.Getpid())}
	for _, p := range procs {
		t := processCPU(p.cmd.Process.Pid)
		if t < 0 || sample.nodes < 0 {
			sample.nodes = -1
			continue
		}
		sample.nodes += t
	}
	u, err := url.Parse(dsn)
	if err != nil {
		return sample
	}
	// The backends of the run's database: the nodes' pooled connections, kept for the run.
	rows, err := db.Query(`SELECT pid FROM pg_stat_activity WHERE datname = $1`, strings.TrimPrefix(u.Path, "/"))
	if err != nil {
		return sample
	}
	defer rows.Close()
	backends := map[int]time.Duration{}
	for rows.Next() {
		var pid int
		if rows.Scan(&pid) != nil {
			continue
		}
		t := processCPU(pid)
		if t < 0 {
			return sample // PostgreSQL is on another machine
		}
		backends[pid] = t
	}
	sample.postgres = backends
	return sample
}

// processCPU is the user and system CPU time of a process, from /proc (Linux); -1 elsewhere.
func processCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return -1
	}
	// The command name, in parentheses, may hold spaces: the fields start after its last ")".
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return -1
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return -1
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return -1
	}
	const ticksPerSecond = 100 // USER_HZ, 100 on every Linux architecture Go supports
	return time.Duration(utime+stime) * time.Second / ticksPerSecond
}

func consumerLag(js jetstream.JetStream, durable string) (uint64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return stream.Lag(ctx, js, durable)
}

// benchSend sends the batches through the nodes' ingest API, two senders a node.
func benchSend(ctx context.Context, procs []*benchNode, token string, batches [][]byte) error {
	work := make(chan []byte, len(batches))
	for _, b := range batches {
		work <- b
	}
	close(work)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	client := &http.Client{Timeout: time.Minute}
	for i := 0; i < 2*len(procs); i++ {
		addr := procs[i%len(procs)].addr
		wg.Add(1)
		go func() {
			defer wg.Done()
			for body := range work {
				if err := clusterBenchPost(ctx, client, addr, token, body); err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					return
				}
			}
		}()
	}
	wg.Wait()
	return firstErr
}

func clusterBenchPost(ctx context.Context, client *http.Client, addr, token string, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, "POST", "http://"+addr+"/api/v1/ingest/posts", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var reply struct {
		Data ingest.Result `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&reply); err != nil || resp.StatusCode != http.StatusOK {
		return fmt.Errorf("ingest: %s %v", resp.Status, err)
	}
	if reply.Data.RejectedCount > 0 {
		return fmt.Errorf("ingest refused %d generated posts: %+v", reply.Data.RejectedCount, reply.Data.Rejected)
	}
	return nil
}

// benchCall sends a JSON request with the bearer token and decodes the reply's data into out.
func benchCall(method, addr, path, token string, body, out any) (int, error) {
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, err
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, "http://"+addr+path, r)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		return resp.StatusCode, fmt.Errorf("%s %s: %s %s", method, path, resp.Status, b)
	}
	if out != nil {
		envelope := struct {
			Data any `json:"data"`
		}{Data: out}
		if err := json.Unmarshal(b, &envelope); err != nil {
			return resp.StatusCode, fmt.Errorf("%s %s: %w", method, path, err)
		}
	}
	return resp.StatusCode, nil
}

func benchSignIn(addr, email, password string) (string, error) {
	var reply struct {
		Token string `json:"token"`
	}
	_, err := benchCall("POST", addr, "/api/v1/auth/login", "", map[string]string{"email": email, "password": password}, &reply)
	return reply.Token, err
}

// benchSearches saves n of the queries as searches over every provider the user may choose,
// skipping the ones the saved-search rules refuse.
func benchSearches(ctx context.Context, addr, token string, queries []string, n int) error {
	var providers []struct {
		Name    string `json:"name"`
		Enabled bool   `json:"enabled"`
	}
	if _, err := benchCall("GET", addr, "/api/v1/monitor/providers", token, nil, &providers); err != nil {
		return err
	}
	var names []string
	for _, p := range providers {
		if p.Enabled && p.Name != "gnip" { // the firehose has its own hourly limits
			names = append(names, p.Name)
		}
	}
	var group struct {
		ID int64 `json:"id"`
	}
	if _, err := benchCall("POST", addr, "/api/v1/monitor/monitor-search-groups", token,
		map[string]any{"name": "Bench", "privacy": "private"}, &group); err != nil {
		return err
	}
	made := 0
	for i, q := range queries {
		if made == n {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		status, err := benchCall("POST", addr, "/api/v1/monitor/searches", token, map[string]any{"group_id": group.ID,
			"name": fmt.Sprintf("Bench %d", i), "keywords": q, "providers": names}, nil)
		if status == http.StatusUnprocessableEntity {
			continue
		}
		if err != nil {
			return err
		}
		made++
	}
	if made < n {
		return fmt.Errorf("only %d of %d generated searches could be saved", made, n)
	}
	return nil
}

// benchNode is one `sightline serve` process.
type benchNode struct {
	addr string
	cmd  *exec.Cmd
	done chan struct{}
}

func startBenchNode(bin, dir string, flags []string) (*benchNode, error) {
	addr, err := freeLoopbackAddr()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, append([]string{"serve", "--addr", addr, "--data-dir", dir}, flags...)...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "SIGHTLINE_") { // serve would take them for flags
			cmd.Env = append(cmd.Env, kv)
		}
	}
	var log bytes.Buffer
	var mu sync.Mutex
	cmd.Stderr = writerFunc(func(p []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return log.Write(p) })
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	n := &benchNode{addr: addr, cmd: cmd, done: make(chan struct{})}
	go func() { cmd.Wait(); close(n.done) }()
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return n, nil
			}
		}
		select {
		case <-n.done:
			mu.Lock()
			defer mu.Unlock()
			return nil, fmt.Errorf("a node exited while starting: %s", log.String())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			n.stop()
			return nil, errors.New("a node did not answer /healthz within 60s")
		}
	}
}

func (n *benchNode) stop() {
	n.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-n.done:
	case <-time.After(20 * time.Second):
		n.cmd.Process.Kill()
		<-n.done
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func freeLoopbackAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// benchDatabase creates a database on the server of base; drop removes it.
func benchDatabase(base string) (dsn string, drop func(), err error) {
	admin, err := sql.Open("pgx", base)
	if err != nil {
		return "", nil, err
	}
	suffix := make([]byte, 6)
	rand.Read(suffix)
	name := "sightline_bench_" + hex.EncodeToString(suffix)
	if _, err := admin.Exec(`CREATE DATABASE ` + name); err != nil {
		admin.Close()
		return "", nil, fmt.Errorf("create the benchmark's database (--postgres): %w", err)
	}
	u, err := url.Parse(base)
	if err != nil {
		admin.Close()
		return "", nil, err
	}
	u.Path = "/" + name
	return u.String(), func() {
		admin.Exec(`DROP DATABASE ` + name + ` WITH (FORCE)`)
		admin.Close()
	}, nil
}

// benchNATSCluster runs n NATS servers with JetStream in this process, clustered when n > 1,
// on free loopback ports; it returns their client URLs once JetStream answers.
func benchNATSCluster(dir string, n int) ([]string, func(), error) {
	var servers []*natsserver.Server
	stop := func() {
		for _, s := range servers {
			s.Shutdown()
			s.WaitForShutdown()
		}
	}
	routes := make([]*url.URL, n)
	ports := make([]int, n)
	for i := range routes {
		addr, err := freeLoopbackAddr()
		if err != nil {
			return nil, nil, err
		}
		_, port, _ := net.SplitHostPort(addr)
		ports[i], _ = strconv.Atoi(port)
		routes[i] = &url.URL{Scheme: "nats", Host: addr}
	}
	var urls []string
	for i := 0; i < n; i++ {
		opts := &natsserver.Options{ServerName: fmt.Sprintf("bench-nats-%d", i), Host: "127.0.0.1", Port: -1,
			JetStream: true, StoreDir: filepath.Join(dir, fmt.Sprintf("nats-%d", i)), NoSigs: true, NoLog: true}
		if n > 1 {
			opts.Cluster = natsserver.ClusterOpts{Name: "sightline-bench", Host: "127.0.0.1", Port: ports[i]}
			opts.Routes = routes
		}
		s, err := natsserver.NewServer(opts)
		if err != nil {
			stop()
			return nil, nil, err
		}
		s.Start()
		servers = append(servers, s)
		if !s.ReadyForConnections(10 * time.Second) {
			stop()
			return nil, nil, errors.New("a NATS server did not start")
		}
		urls = append(urls, s.ClientURL())
	}
	nc, err := nats.Connect(strings.Join(urls, ","))
	if err != nil {
		stop()
		return nil, nil, err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		stop()
		return nil, nil, err
	}
	for deadline := time.Now().Add(30 * time.Second); ; {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		_, err := js.AccountInfo(ctx)
		cancel()
		if err == nil {
			return urls, stop, nil
		}
		if time.Now().After(deadline) {
			stop()
			return nil, nil, fmt.Errorf("JetStream did not come up: %w", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
