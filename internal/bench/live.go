package bench

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
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/sightline/sightline/internal/live"
	"github.com/sightline/sightline/internal/stream"
)

// LiveResult is what `sightline bench live` prints.
type LiveResult struct {
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
	Pipeline *PipelineResult `json:"pipeline,omitempty"`
	// PipelineOverDelivery is the ingest-to-socket p99 over the delivery p99 of the same run:
	// what the whole node adds to the bare delivery of an event (goal: at most 2).
	PipelineOverDelivery float64 `json:"pipeline_p99_over_delivery_p99,omitempty"`
	// Peer is the same clients and burst against a peer's server, with --peer.
	Peer *LivePeer `json:"peer,omitempty"`
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

// LiveSecretEnv hands the client process the hub's secret, so it can sign its subscriptions
// without it showing in the process list.
const LiveSecretEnv = "SIGHTLINE_BENCH_LIVE_SECRET"

// LiveProtocolEnv tells the client process which protocol its server speaks: empty for
// Sightline's, "centrifuge" for the peer's.
const LiveProtocolEnv = "SIGHTLINE_BENCH_LIVE_PROTOCOL"

// liveKey is the hub's app key in the benchmark.
const liveKey = "bench"

// LiveConfig is one run of `sightline bench live`.
type LiveConfig struct {
	// Clients are websocket clients, each subscribed to its own user's channel.
	Clients int
	// ClientCommand is the command line of the client process, which must call LiveClients with
	// the given socket URL and client count (the binary runs itself as `bench live --clients-of`).
	ClientCommand func(url string, clients int) []string
	// Searches, Rate and Seconds shape the second measurement, from ingest to the owner's
	// socket (Seconds 0 skips it).
	Searches, Rate int
	Seconds        float64
	CPUProfile     string
	// Peer, when "centrifuge", first runs the same clients and burst against a server built on
	// centrifugal/centrifuge (peer_centrifuge.go).
	Peer string
	// Progress, when set, receives a line once the clients are connected.
	Progress io.Writer
}

// benchLive measures one node's live hub: the memory each connected, subscribed client costs
// and how fast a per-user event reaches every one of them. The clients run in a second process
// (this binary again), so only the server's memory is counted. Then it measures a whole node:
// posts from ingest through the percolator to their match events on the owner's socket.
func Live(cfg LiveConfig) (LiveResult, error) {
	var res LiveResult
	clients := cfg.Clients
	if clients <= 0 {
		return res, errors.New("need at least one client")
	}
	if err := RaiseFileLimit(clients + 1000); err != nil {
		return res, err
	}
	// The peer first, so that nothing of it is left when Sightline's memory is measured.
	var peer *LiveResult
	switch cfg.Peer {
	case "":
	case "centrifuge":
		r, err := centrifugeBurst(cfg)
		if err != nil {
			return res, fmt.Errorf("centrifuge: %w", err)
		}
		peer = &r
	default:
		return res, fmt.Errorf("unknown peer %q (centrifuge is the one)", cfg.Peer)
	}
	dir, err := os.MkdirTemp("", "sightline-bench-live-")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(dir)
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	st, err := stream.Open(ctx, stream.Config{DataDir: dir}, log)
	if err != nil {
		return res, err
	}
	defer st.Close()
	secret := make([]byte, 32)
	rand.Read(secret)
	creds := live.Credentials{Key: liveKey, Secret: hex.EncodeToString(secret)}
	hubConn, err := st.Connect("bench-live", nats.NoEcho())
	if err != nil {
		return res, err
	}
	hub, err := live.NewHub(hubConn, live.Config{Credentials: creds}, log)
	if err != nil {
		return res, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return res, err
	}
	mux := http.NewServeMux()
	mux.Handle("GET /app/{key}", hub)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()
	res, err = measureBurst(cfg, burstServer{
		url:        "ws://" + ln.Addr().String() + live.SocketPath(creds.Key),
		secret:     creds.Secret,
		subscribed: func() int { return hub.Stats().Subscriptions },
		publish: func(userID, sentAt int64) error {
			return hub.PublishToUser(ctx, userID, "bench.ping", sentAt)
		},
	})
	if err != nil {
		return res, err
	}
	res.SlowConsumerDrop = hub.Stats().SlowConsumers
	if peer != nil {
		res.Peer = &LivePeer{Name: cfg.Peer, KBPerConn: peer.KBPerConn, DeliveryP99ms: peer.DeliveryP99ms,
			BurstMillis: peer.BurstMillis, ServerCPUus: peer.ServerCPUus,
			MemoryRatio: res.KBPerConn / peer.KBPerConn, DeliveryRatio: res.DeliveryP99ms / peer.DeliveryP99ms}
	}
	if cfg.Seconds > 0 {
		pipeline, err := livePipeline(cfg.Searches, cfg.Rate, cfg.Seconds, cfg.CPUProfile)
		if err != nil {
			return res, err
		}
		res.Pipeline = &pipeline
		if res.DeliveryP99ms > 0 {
			res.PipelineOverDelivery = pipeline.P99ms / res.DeliveryP99ms
		}
	}

	return res, nil
}

// WriteText prints the result for people.
func (res LiveResult) WriteText(w io.Writer) {
	fmt.Fprintf(w, "clients                    %d (connected in %.1f s)\n", res.Clients, res.ConnectSeconds)
	fmt.Fprintf(w, "memory per connection      %.1f KB (heap %.1f KB + goroutine stacks %.1f KB)\n",
		res.KBPerConn, res.HeapKBPerConn, res.StackKBPerConn)
	fmt.Fprintf(w, "events delivered           %d of %d (published in %.0f ms)\n", res.Delivered, res.Clients, res.PublishMillis)
	fmt.Fprintf(w, "delivery p50 / p99 / max   %.1f ms / %.1f ms / %.1f ms (each from its own publish to the client's socket)\n", res.DeliveryP50ms, res.DeliveryP99ms, res.DeliveryMaxms)
	if res.Unstamped > 0 {
		fmt.Fprintf(w, "                           %d events not stamped by the kernel are timed to their read\n", res.Unstamped)
	}
	fmt.Fprintf(w, "read by the client p50/p99 %.1f ms / %.1f ms (the clients share the server's cores)\n", res.ReadP50ms, res.ReadP99ms)
	fmt.Fprintf(w, "whole burst                %.0f ms from the first publish to the last arrival\n", res.BurstMillis)
	fmt.Fprintf(w, "CPU per event              server %.1f µs (publish, NATS, write), clients %.1f µs\n",
		res.ServerCPUus, res.ClientCPUus)
	if res.Peer != nil {
		res.Peer.WriteText(w)
	}
	if p := res.Pipeline; p != nil {
		fmt.Fprintf(w, "ingest to owner's socket   p50 %.1f ms, p99 %.1f ms (%d saved searches, %.0f posts/s offered, %d of %d posts matched, %d matches stored)\n",
			p.P50ms, p.P99ms, p.Searches, p.OfferedRate, p.Matched, p.Posts, p.Matches)
		fmt.Fprintf(w, "                           p99 over the delivery p99 above: %.2f\n", res.PipelineOverDelivery)
		fmt.Fprintf(w, "ingest to story            p50 %.1f ms, p99 %.1f ms\n", p.StoryP50ms, p.StoryP99ms)
		if len(p.Segments) > 0 {
			fmt.Fprintf(w, "the way of a matched post  p50 / p99 / max, each stretch\n")
			for _, s := range p.Segments {
				fmt.Fprintf(w, "  %-40s %7.1f / %7.1f / %7.1f ms\n", s.Name, s.P50ms, s.P99ms, s.Maxms)
			}
		}
	}
}

// settle waits, up to ten seconds, until the goroutines left by an earlier measurement (sockets
// still closing) are gone, so that they do not count against the next one's memory.
func settle() {
	last := runtime.NumGoroutine()
	for still, deadline := 0, time.Now().Add(10*time.Second); still < 3 && time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond)
		if n := runtime.NumGoroutine(); n < last {
			last, still = n, 0
		} else {
			still++
		}
	}
}

// burstServer is a live server under test: the socket its clients dial, in which protocol
// ("" for Sightline's, "centrifuge"), how many subscriptions it holds, and how it publishes one
// user's event.
type burstServer struct {
	url, secret, protocol string
	subscribed            func() int
	publish               func(userID, sentAt int64) error
}

// measureBurst connects the clients (the client process) to a started server, measures the
// memory each costs, then publishes one event to each user and times their delivery.
func measureBurst(cfg LiveConfig, srv burstServer) (LiveResult, error) {
	clients := cfg.Clients
	var res LiveResult
	settle()
	baseline := liveMemory()

	// The clients stand in for browsers on other machines: at the lowest CPU priority they take
	// only the cores the server leaves, and the kernel's receive time says when each event
	// reached them, however late their process then read it.
	argv := append([]string{"-n", "19"}, cfg.ClientCommand(srv.url, clients)...)
	cmd := exec.Command("nice", argv...)
	cmd.Env = append(os.Environ(), LiveSecretEnv+"="+srv.secret, LiveProtocolEnv+"="+srv.protocol)
	cmd.Stderr = os.Stderr
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		return res, err
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
		return res, err
	}
	res = LiveResult{Clients: clients, ConnectSeconds: ready.ConnectSeconds}
	for srv.subscribed() < clients {
		time.Sleep(10 * time.Millisecond)
	}
	if cfg.Progress != nil {
		fmt.Fprintf(cfg.Progress, "%d clients connected and subscribed in %.1f s\n", clients, ready.ConnectSeconds)
	}
	loaded := liveMemory()
	res.HeapKBPerConn = float64(loaded.heap-baseline.heap) / float64(clients) / 1024
	res.StackKBPerConn = float64(loaded.stack-baseline.stack) / float64(clients) / 1024
	res.KBPerConn = res.HeapKBPerConn + res.StackKBPerConn

	// One event per user, each stamped with its publishing time.
	cpuBefore := cpuTime()
	start := time.Now()
	for userID := int64(1); userID <= int64(clients); userID++ {
		if err := srv.publish(userID, time.Now().UnixNano()); err != nil {
			return res, err
		}
	}
	res.PublishMillis = float64(time.Since(start).Microseconds()) / 1000
	delivered, err := next()
	if err != nil {
		return res, err
	}
	// The client process reports once every event arrived, so this is the server's whole work.
	res.ServerCPUus = float64((cpuTime() - cpuBefore).Microseconds()) / float64(clients)
	res.ClientCPUus = float64(delivered.CPUMicros) / float64(clients)
	res.BurstMillis = float64(delivered.LastArrival-start.UnixNano()) / 1e6
	res.Delivered = len(delivered.LatenciesMs)
	res.DeliveryP50ms, res.DeliveryP99ms, res.DeliveryMaxms = percentiles(delivered.LatenciesMs)
	res.ReadP50ms, res.ReadP99ms, _ = percentiles(delivered.ReadLatenciesMs)
	res.Unstamped = delivered.Unstamped
	if res.Delivered < res.Clients {
		return res, fmt.Errorf("%d events were not delivered", res.Clients-res.Delivered)
	}
	return res, nil
}

// LiveClients is the client process: it connects and subscribes every client, reports
// ready, then reports each client's delivery latency once every client received its event
// (or a minute passed), and exits when its stdin closes.
func LiveClients(url, secret, protocol string, clients int) error {
	creds := live.Credentials{Key: liveKey, Secret: secret}
	out := json.NewEncoder(os.Stdout)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	start := time.Now()
	connected := make([]benchSocket, clients)
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
			var c benchSocket
			var err error
			if protocol == "centrifuge" {
				c, err = dialCentrifuge(dialCtx, url, int64(i+1))
			} else {
				c, err = dialSightline(dialCtx, url, creds, int64(i+1))
			}
			mu.Lock()
			defer mu.Unlock()
			if err != nil && failed == nil {
				failed = fmt.Errorf("client %d: %w", i+1, err)
			}
			connected[i] = c
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
				sent, err := c.next()
				if err != nil {
					return
				}
				read := time.Now().UnixNano()
				for _, sentAt := range sent {
					arrivals <- arrival{sentAt: sentAt, received: c.received(), read: read}
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

// benchSocket is one client of the client process, in either protocol.
type benchSocket interface {
	// next reads the next message and returns the publishing times of the benchmark's events
	// in it (none for other messages).
	next() ([]int64, error)
	// received is the kernel's receive time of the data last read (Unix nanoseconds).
	received() int64
}

// sightlineSocket is a client of Sightline's live channel.
type sightlineSocket struct {
	*live.Client
	socket *stampedConn
}

func dialSightline(ctx context.Context, url string, creds live.Credentials, userID int64) (*sightlineSocket, error) {
	var socket *stampedConn
	c, err := live.DialThrough(ctx, url, func(ctx context.Context, network, addr string) (net.Conn, error) {
		var err error
		socket, err = dialStamped(ctx, network, addr)
		return socket, err
	})
	if err != nil {
		return nil, err
	}
	channel := live.UserChannel(userID)
	if err := c.Subscribe(ctx, channel, creds.Sign(c.SocketID, channel)); err != nil {
		c.Close()
		return nil, err
	}
	return &sightlineSocket{c, socket}, nil
}

func (s *sightlineSocket) next() ([]int64, error) {
	// No deadline: a read with a cancellable context costs a registration per message.
	f, err := s.Next(context.Background())
	if err != nil {
		return nil, err
	}
	var sentAt int64
	if f.Event == "bench.ping" && f.Decode(&sentAt) == nil {
		return []int64{sentAt}, nil
	}
	return nil, nil
}

func (s *sightlineSocket) received() int64 { return s.socket.received.Load() }
