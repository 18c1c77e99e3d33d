package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/sightline/sightline/internal/live"
	"github.com/sightline/sightline/internal/stream"
)

type liveBenchResult struct {
	Clients        int     `json:"clients"`
	ConnectSeconds float64 `json:"connect_seconds"`
	HeapKBPerConn  float64 `json:"heap_kb_per_connection"`
	StackKBPerConn float64 `json:"stack_kb_per_connection"`
	KBPerConn      float64 `json:"kb_per_connection"`
	Delivered      int     `json:"delivered"`
	PublishMillis  float64 `json:"publish_ms"`
	// Delivery runs from each event's publishing to its arrival in the client's socket.
	DeliveryP50ms float64 `json:"delivery_p50_ms"`
	DeliveryP99ms float64 `json:"delivery_p99_ms"`
	DeliveryMaxms float64 `json:"delivery_max_ms"`
	// Read runs on to the moment the client process, sharing the server's cores, read it.
	ReadP50ms float64 `json:"read_p50_ms"`
	ReadP99ms float64 `json:"read_p99_ms"`
	// BurstMillis is from the first publish to the last arrival: the whole burst.
	BurstMillis      float64 `json:"burst_ms"`
	ServerCPUus      float64 `json:"server_cpu_us_per_event"`
	ClientCPUus      float64 `json:"client_cpu_us_per_event"`
	SlowConsumerDrop uint64  `json:"slow_consumers_dropped"`
	// Unstamped events are timed to the client's read, as the kernel did not stamp their arrival.
	Unstamped int `json:"unstamped_events,omitempty"`
	// Pipeline is the second measurement: from ingest to the owner's socket.
	Pipeline *pipelineBenchResult `json:"pipeline,omitempty"`
}

// liveClientsReport is what the client process prints, one JSON object a line.
type liveClientsReport struct {
	Ready          bool    `json:"ready,omitempty"`
	ConnectSeconds float64 `json:"connect_seconds,omitempty"`
	// LatenciesMs run from each event's publishing to its arrival in the client's socket, by
	// the kernel's clock; ReadLatenciesMs to the moment the client process read it.
	LatenciesMs     []float64 `json:"latencies_ms,omitempty"`
	ReadLatenciesMs []float64 `json:"read_latencies_ms,omitempty"`
	LastArrival     int64     `json:"last_arrival_unix_ns,omitempty"`
	// Unstamped counts events whose arrival the kernel did not stamp, timed by the read instead.
	Unstamped int    `json:"unstamped,omitempty"`
	CPUMicros int64  `json:"cpu_us,omitempty"`
	Error     string `json:"error,omitempty"`
}

// benchSecretEnv hands the client process the hub's secret, so it can sign its subscriptions
// without it showing in the process list.
const benchSecretEnv = "SIGHTLINE_BENCH_LIVE_SECRET"

// benchLive measures one node's live hub: the memory each connected, subscribed client costs
// and how fast a per-user event reaches every one of them. The clients run in a second process
// (this binary again), so only the server's memory is counted. Then it measures a whole node:
// posts from ingest through the percolator to their match events on the owner's socket.
func benchLive(args []string) error {
	fs := newFlagSet("bench live", "Connect many live clients to one hub; memory per connection and delivery latency.")
	var clients int
	var clientsOf string
	var asJSON bool
	fs.IntVar(&clients, "clients", 10_000, "websocket clients, each subscribed to its own user's channel")
	fs.BoolVar(&asJSON, "json", false, "print the result as one JSON object")
	fs.StringVar(&clientsOf, "clients-of", "", "run only the clients, against this ws:// socket URL (the benchmark starts itself so)")
	var searches, rate int
	var seconds float64
	fs.IntVar(&searches, "searches", 10_000, "saved searches for the ingest-to-socket measurement")
	fs.IntVar(&rate, "rate", 1000, "posts per second offered in the ingest-to-socket measurement")
	fs.Float64Var(&seconds, "seconds", 20, "how long to offer posts (0 skips the ingest-to-socket measurement)")
	var cpuProfile string
	fs.StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile of the ingest-to-socket measurement to this file")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := raiseFileLimit(clients + 1000); err != nil {
		return err
	}
	if clientsOf != "" {
		return runLiveClients(clientsOf, live.Credentials{Key: "bench", Secret: os.Getenv(benchSecretEnv)}, clients)
	}

	dir, err := os.MkdirTemp("", "sightline-bench-live-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	st, err := stream.Open(ctx, stream.Config{DataDir: dir}, log)
	if err != nil {
		return err
	}
	defer st.Close()
	secret := make([]byte, 32)
	rand.Read(secret)
	creds := live.Credentials{Key: "bench", Secret: hex.EncodeToString(secret)}
	hubConn, err := st.Connect("bench-live", nats.NoEcho())
	if err != nil {
		return err
	}
	hub, err := live.NewHub(hubConn, live.Config{Credentials: creds}, log)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("GET /app/{key}", hub)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()
	baseline := liveMemory()

	self, err := os.Executable()
	if err != nil {
		return err
	}
	// The clients stand in for browsers on other machines: at the lowest CPU priority they take
	// only the cores the server leaves, and the kernel's receive time says when each event
	// reached them, however late their process then read it.
	cmd := exec.Command("nice", "-n", "19", self, "bench", "live", "--clients", strconv.Itoa(clients),
		"--clients-of", "ws://"+ln.Addr().String()+live.SocketPath(creds.Key))
	cmd.Env = append(os.Environ(), benchSecretEnv+"="+creds.Secret)
	cmd.Stderr = os.Stderr
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		return err
	}
	defer func() {
		stdin.Close() // the client process closes its sockets and exits
		cmd.Wait()
	}()
	reports := json.NewDecoder(stdout)
	next := func() (liveClientsReport, error) {
		var r liveClientsReport
		if err := reports.Decode(&r); err != nil {
			return r, fmt.Errorf("the client process: %w", err)
		}
		if r.Error != "" {
			return r, errors.New("the client process: " + r.Error)
		}
		return r, nil
	}
	ready, err := next()
	if err != nil {
		return err
	}
	res := liveBenchResult{Clients: clients, ConnectSeconds: ready.ConnectSeconds}
	for hub.Stats().Subscriptions < clients {
		time.Sleep(10 * time.Millisecond)
	}
	if !asJSON {
		fmt.Fprintf(os.Stderr, "%d clients connected and subscribed in %.1f s\n", clients, ready.ConnectSeconds)
	}
	loaded := liveMemory()
	res.HeapKBPerConn = float64(loaded.heap-baseline.heap) / float64(clients) / 1024
	res.StackKBPerConn = float64(loaded.stack-baseline.stack) / float64(clients) / 1024
	res.KBPerConn = res.HeapKBPerConn + res.StackKBPerConn

	// One event per user, each stamped with its publishing time.
	cpuBefore := cpuTime()
	start := time.Now()
	for userID := int64(1); userID <= int64(clients); userID++ {
		if err := hub.PublishToUser(ctx, userID, "bench.ping", time.Now().UnixNano()); err != nil {
			return err
		}
	}
	res.PublishMillis = float64(time.Since(start).Microseconds()) / 1000
	delivered, err := next()
	if err != nil {
		return err
	}
	// The client process reports once every event arrived, so this is the server's whole work.
	res.ServerCPUus = float64((cpuTime() - cpuBefore).Microseconds()) / float64(clients)
	res.ClientCPUus = float64(delivered.CPUMicros) / float64(clients)
	res.BurstMillis = float64(delivered.LastArrival-start.UnixNano()) / 1e6
	res.Delivered = len(delivered.LatenciesMs)
	res.DeliveryP50ms, res.DeliveryP99ms, res.DeliveryMaxms = percentiles(delivered.LatenciesMs)
	res.ReadP50ms, res.ReadP99ms, _ = percentiles(delivered.ReadLatenciesMs)
	res.Unstamped = delivered.Unstamped
	res.SlowConsumerDrop = hub.Stats().SlowConsumers
	if res.Delivered < res.Clients {
		return fmt.Errorf("%d events were not delivered", res.Clients-res.Delivered)
	}
	if seconds > 0 {
		pipeline, err := livePipeline(searches, rate, seconds, cpuProfile)
		if err != nil {
			return err
		}
		res.Pipeline = &pipeline
	}

	if asJSON {
		return json.NewEncoder(os.Stdout).Encode(res)
	}
	fmt.Printf("clients                    %d (connected in %.1f s)\n", res.Clients, res.ConnectSeconds)
	fmt.Printf("memory per connection      %.1f KB (heap %.1f KB + goroutine stacks %.1f KB)\n",
		res.KBPerConn, res.HeapKBPerConn, res.StackKBPerConn)
	fmt.Printf("events delivered           %d of %d (published in %.0f ms)\n", res.Delivered, res.Clients, res.PublishMillis)
	fmt.Printf("delivery p50 / p99 / max   %.1f ms / %.1f ms / %.1f ms (each from its own publish to the client's socket)\n", res.DeliveryP50ms, res.DeliveryP99ms, res.DeliveryMaxms)
	if res.Unstamped > 0 {
		fmt.Printf("                           %d events not stamped by the kernel are timed to their read\n", res.Unstamped)
	}
	fmt.Printf("read by the client p50/p99 %.1f ms / %.1f ms (the clients share the server's cores)\n", res.ReadP50ms, res.ReadP99ms)
	fmt.Printf("whole burst                %.0f ms from the first publish to the last arrival\n", res.BurstMillis)
	fmt.Printf("CPU per event              server %.1f µs (publish, NATS, write), clients %.1f µs\n",
		res.ServerCPUus, res.ClientCPUus)
	if p := res.Pipeline; p != nil {
		fmt.Printf("ingest to owner's socket   p50 %.1f ms, p99 %.1f ms (%d saved searches, %.0f posts/s offered, %d of %d posts matched, %d matches stored)\n",
			p.P50ms, p.P99ms, p.Searches, p.OfferedRate, p.Matched, p.Posts, p.Matches)
	}
	return nil
}

// percentiles are the median, 99th percentile and maximum of samples, which it sorts.
func percentiles(samples []float64) (p50, p99, highest float64) {
	n := len(samples)
	if n == 0 {
		return 0, 0, 0
	}
	slices.Sort(samples)
	return samples[n/2], samples[min(n-1, n*99/100)], samples[n-1]
}

// cpuTime is the CPU time this process has used, user and system.
func cpuTime() time.Duration {
	var u syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &u)
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

type memory struct{ heap, stack uint64 }

// liveMemory is the live heap and the goroutine stacks after a collection.
func liveMemory() memory {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return memory{heap: m.HeapAlloc, stack: m.StackInuse}
}

// raiseFileLimit lifts the open-file limit to at least want, as far as the process may.
func raiseFileLimit(want int) error {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return err
	}
	if lim.Max < uint64(want) {
		raised := syscall.Rlimit{Cur: uint64(want), Max: uint64(want)}
		if syscall.Setrlimit(syscall.RLIMIT_NOFILE, &raised) == nil {
			return nil
		}
	}
	lim.Cur = lim.Max
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return err
	}
	if lim.Cur < uint64(want) {
		return fmt.Errorf("the open-file limit is %d, below the %d this benchmark needs; lower --clients", lim.Cur, want)
	}
	return nil
}

// runLiveClients is the client process: it connects and subscribes every client, reports
// ready, then reports each client's delivery latency once every client received its event
// (or a minute passed), and exits when its stdin closes.
func runLiveClients(url string, creds live.Credentials, clients int) error {
	out := json.NewEncoder(os.Stdout)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	start := time.Now()
	type stampedClient struct {
		*live.Client
		socket *stampedConn
	}
	connected := make([]stampedClient, clients)
	var wg sync.WaitGroup
	var failed error
	var mu sync.Mutex
	slots := make(chan struct{}, 64) // connections being opened at once
	for i := range clients {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			dialCtx, done := context.WithTimeout(ctx, 30*time.Second)
			defer done()
			var socket *stampedConn
			c, err := live.DialThrough(dialCtx, url, func(ctx context.Context, network, addr string) (net.Conn, error) {
				var err error
				socket, err = dialStamped(ctx, network, addr)
				return socket, err
			})
			if err == nil {
				channel := live.UserChannel(int64(i + 1))
				err = c.Subscribe(dialCtx, channel, creds.Sign(c.SocketID, channel))
			}
			mu.Lock()
			defer mu.Unlock()
			if err != nil && failed == nil {
				failed = fmt.Errorf("client %d: %w", i+1, err)
			}
			connected[i] = stampedClient{c, socket}
		}()
	}
	wg.Wait()
	if failed != nil {
		out.Encode(liveClientsReport{Error: failed.Error()})
		return failed
	}
	// Every client reads from now on (answering pings too), before the events come.
	type arrival struct{ sentAt, received, read int64 }
	arrivals := make(chan arrival, clients)
	for _, c := range connected {
		go func() {
			for {
				// No deadline: a read with a cancellable context costs a registration per message.
				f, err := c.Next(context.Background())
				if err != nil {
					return
				}
				read := time.Now().UnixNano()
				var sentAt int64
				if f.Event == "bench.ping" && f.Decode(&sentAt) == nil {
					arrivals <- arrival{sentAt: sentAt, received: c.socket.received.Load(), read: read}
				}
			}
		}()
	}
	out.Encode(liveClientsReport{Ready: true, ConnectSeconds: time.Since(start).Seconds()})
	cpuBefore := cpuTime()
	var report liveClientsReport
	timeout := time.After(time.Minute)
collect:
	for len(report.LatenciesMs) < clients {
		select {
		case a := <-arrivals:
			if a.received < a.sentAt { // not stamped by the kernel: the read's time is an upper bound
				a.received = a.read
				report.Unstamped++
			}
			report.LatenciesMs = append(report.LatenciesMs, float64(a.received-a.sentAt)/1e6)
			report.ReadLatenciesMs = append(report.ReadLatenciesMs, float64(a.read-a.sentAt)/1e6)
			report.LastArrival = max(report.LastArrival, a.received)
		case <-timeout:
			break collect
		}
	}
	report.CPUMicros = (cpuTime() - cpuBefore).Microseconds()
	out.Encode(report)
	io.Copy(io.Discard, os.Stdin)
	return nil
}
