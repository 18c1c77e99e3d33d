package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/sightline/sightline/internal/bench"
)

// benchmark is one `sightline bench <name>`: its flags here, its work in internal/bench.
type benchmark struct {
	name    string
	summary string
	run     func(args []string) error
}

func benchmarks() []benchmark {
	return []benchmark{
		{"percolate", "saved searches matched against generated posts, checked against an independent oracle", benchPercolate},
		{"ingest", "posts per second through a whole node (stream, store, percolator, matches); search latency over them", benchIngest},
		{"live", "live clients on one hub: memory per connection, per-user event delivery latency", benchLive},
		{"cluster", "posts per second end to end through 1, 2, 3 serve processes on one PostgreSQL and NATS cluster", benchCluster},
		{"evidence", "evidence captures of a local page, plain and with the browser: p95 against the targets", benchEvidence},
		{"spikes", "spike detection replayed on simulated weeks of posts with injected 3× bursts: recall and false spikes", benchSpikes},
		{"alerts", "a day of the simulator's stream through saved searches: notifications grouped by post and by story; spike recall and false spikes; ingest-to-webhook and -SMTP latency", benchAlerts},
	}
}

func runBench(args []string) error {
	var names []string
	for _, b := range benchmarks() {
		if len(args) > 0 && args[0] == b.name {
			return b.run(args[1:])
		}
		names = append(names, b.name)
	}
	return fmt.Errorf("usage: sightline bench <%s> [flags]", strings.Join(names, "|"))
}

// benchRun holds the flags every benchmark takes and watches the machine's load around the one
// benchmark this process runs, so that report can hold back figures measured on a busy machine.
var benchRun struct {
	allow  bool
	asJSON bool
	watch  *bench.LoadWatch
}

// benchFlagSet is a benchmark's flag set, with --allow-load and --json. Parse it with
// parseBenchFlags.
func benchFlagSet(name, summary string) *flag.FlagSet {
	fs := newFlagSet(name, summary)
	fs.BoolVar(&benchRun.asJSON, "json", false, "print the result as one JSON object")
	fs.BoolVar(&benchRun.allow, "allow-load", false, fmt.Sprintf("report the figures even when the load average "+
		"(before the run, or after it less the benchmark's own use) is over %.1f a core; they are then marked so", bench.MaxLoadPerCore))
	return fs
}

// parseBenchFlags parses a benchmark's flags and starts watching the load: on a machine already
// over the limit the benchmark does not start, unless --allow-load.
func parseBenchFlags(fs *flag.FlagSet, args []string) error {
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	benchRun.watch = bench.WatchLoad()
	if err := benchRun.watch.Busy(); err != nil && !benchRun.allow {
		return err
	}
	return nil
}

// benchProgress is where a benchmark writes its progress: standard error, or nowhere with --json.
func benchProgress() io.Writer {
	if benchRun.asJSON {
		return nil
	}
	return os.Stderr
}

// report prints a benchmark's result as one JSON object (--json) or as text, with the load
// average before and after the run (JSON key "load"), or refuses to when the load was over the
// limit.
func report(res interface{ WriteText(io.Writer) }) error {
	if benchRun.watch == nil { // a benchmark that parsed its flags otherwise
		benchRun.watch = bench.WatchLoad()
	}
	load, err := benchRun.watch.Finish(benchRun.allow)
	if err != nil {
		fmt.Fprintln(os.Stderr, load)
		return err
	}
	if !benchRun.asJSON {
		res.WriteText(os.Stdout)
		fmt.Fprintln(os.Stdout, load)
		return nil
	}
	b, err := json.Marshal(res)
	if err != nil {
		return err
	}
	l, err := json.Marshal(load)
	if err != nil {
		return err
	}
	if !bytes.HasSuffix(b, []byte("}")) {
		return fmt.Errorf("a benchmark's result must be a JSON object: %s", b)
	}
	if !bytes.Equal(b, []byte("{}")) {
		b = append(b[:len(b)-1], ',')
	} else {
		b = b[:1]
	}
	b = append(append(append(b, `"load":`...), l...), "}\n"...)
	_, err = os.Stdout.Write(b)
	return err
}

func benchPercolate(args []string) error {
	fs := benchFlagSet("bench percolate", "Match generated posts against generated saved searches on all cores.")
	var cfg bench.PercolateConfig
	fs.IntVar(&cfg.Searches, "queries", 10000, "number of saved searches")
	fs.IntVar(&cfg.Posts, "posts", 20000, "number of posts")
	fs.IntVar(&cfg.Sample, "sample", 2000, "posts also matched by the oracle (written from the query language's spec) to check the answers; the first 300 by brute force too")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "workload seed")
	fs.StringVar(&cfg.CPUProfile, "cpuprofile", "", "write a CPU profile of the matching phase to this file")
	fs.StringVar(&cfg.Peer, "peer", "", "bleve: also match posts as the Elasticsearch and Lucene percolators do (a one-post in-memory index per post), with Bleve, and print the ratio")
	fs.IntVar(&cfg.PeerSample, "peer-sample", 300, "posts the peer matches")
	if err := parseBenchFlags(fs, args); err != nil {
		return err
	}
	res, err := bench.Percolate(cfg)
	if err != nil {
		return err
	}
	if err := report(res); err != nil {
		return err
	}
	if !res.AgreesWithOracle {
		return fmt.Errorf("the percolator disagrees with the oracle on %d of %d posts", res.OracleDisagreements, res.OracleSample)
	}
	if !res.AgreesWithBruteForce {
		return errors.New("the percolator disagrees with brute force")
	}
	return nil
}

func benchIngest(args []string) error {
	fs := benchFlagSet("bench ingest", "Ingest generated posts through a whole node with saved searches, then time searches over them.")
	var cfg bench.IngestConfig
	fs.IntVar(&cfg.Posts, "posts", 1_000_000, "posts to ingest")
	fs.IntVar(&cfg.Searches, "searches", 1000, "saved searches every post is percolated against (chosen within their streaming limits at 5,000 posts/s)")
	fs.IntVar(&cfg.Queries, "queries", 300, "Beacon searches to time after ingesting")
	fs.IntVar(&cfg.Analytics, "analytics", 100, "of those Beacon searches, how many to time the analytics (word cloud, daily graph) of")
	fs.StringVar(&cfg.Dir, "dir", "", "data dir (default: a temporary one, removed afterwards)")
	fs.StringVar(&cfg.DB, "db", "", "store: a postgres:// URL (default: SQLite in the data dir)")
	fs.StringVar(&cfg.CPUProfile, "cpuprofile", "", "write a CPU profile of the run to this file")
	if err := parseBenchFlags(fs, args); err != nil {
		return err
	}
	cfg.Progress = benchProgress()
	res, err := bench.Ingest(cfg)
	if err != nil {
		return err
	}
	return report(res)
}

// benchLive runs the hub and, as a second process of this binary (--clients-of), its clients,
// so only the server's memory is counted.
func benchLive(args []string) error {
	fs := benchFlagSet("bench live", "Connect many live clients to one hub; memory per connection and delivery latency.")
	var cfg bench.LiveConfig
	var clientsOf string
	fs.IntVar(&cfg.Clients, "clients", 10_000, "websocket clients, each subscribed to its own user's channel")
	fs.StringVar(&clientsOf, "clients-of", "", "run only the clients, against this ws:// socket URL (the benchmark starts itself so)")
	fs.IntVar(&cfg.Searches, "searches", 10_000, "saved searches for the ingest-to-socket measurement")
	fs.IntVar(&cfg.Rate, "rate", 1000, "posts per second offered in the ingest-to-socket measurement")
	fs.Float64Var(&cfg.Seconds, "seconds", 20, "how long to offer posts (0 skips the ingest-to-socket measurement)")
	fs.StringVar(&cfg.CPUProfile, "cpuprofile", "", "write a CPU profile of the ingest-to-socket measurement to this file")
	fs.StringVar(&cfg.Peer, "peer", "", "centrifuge: first run the same clients and burst against a server built on centrifugal/centrifuge, and print both figures and their ratio")
	if err := parseBenchFlags(fs, args); err != nil {
		return err
	}
	if clientsOf != "" {
		if err := bench.RaiseFileLimit(cfg.Clients + 1000); err != nil {
			return err
		}
		return bench.LiveClients(clientsOf, os.Getenv(bench.LiveSecretEnv), os.Getenv(bench.LiveProtocolEnv), cfg.Clients)
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	cfg.ClientCommand = func(url string, clients int) []string {
		// The clients are not measured: this process, which is, watches the load.
		return []string{self, "bench", "live", "--clients", strconv.Itoa(clients), "--clients-of", url, "--allow-load"}
	}
	cfg.Progress = benchProgress()
	res, err := bench.Live(cfg)
	if err != nil {
		return err
	}
	return report(res)
}

func benchEvidence(args []string) error {
	fs := benchFlagSet("bench evidence", "Capture a local site's page as evidence, plain and with headless Chromium, and report p95 against the targets.")
	var cfg bench.EvidenceConfig
	fs.IntVar(&cfg.Plain, "captures", 50, "captures of a plain page")
	fs.IntVar(&cfg.Browser, "browser-captures", 10, "captures with the browser's screenshot and PDF (skipped without Chromium)")
	fs.StringVar(&cfg.DB, "db", "", "a postgres:// URL; SQLite in a temporary directory without it")
	if err := parseBenchFlags(fs, args); err != nil {
		return err
	}
	res, err := bench.Evidence(cfg)
	if err != nil {
		return err
	}
	if err := report(res); err != nil {
		return err
	}
	if res.Plain.Ratio >= 1 || res.WithBrowser.Ratio >= 1 {
		return errors.New("a capture p95 is over its target")
	}
	return nil
}

func benchAlerts(args []string) error {
	fs := benchFlagSet("bench alerts", "Replay a day of the simulator's stream through saved searches; count notifications grouped by post and by story, replay spike detection on a series a search, and time immediate alerts.")
	var cfg bench.AlertsConfig
	fs.IntVar(&cfg.Searches, "searches", 1000, "saved searches the stream goes through")
	fs.Float64Var(&cfg.Hours, "hours", 24, "hours of stream to replay")
	fs.Float64Var(&cfg.Rate, "rate", 1, "posts a second of stream time")
	fs.IntVar(&cfg.Bursts, "bursts", 6, "hours of the replay at --burst-factor times the rate")
	fs.Float64Var(&cfg.BurstFactor, "burst-factor", 3, "how much faster the stream runs in a burst")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "stream seed")
	fs.Float64Var(&cfg.LatencySeconds, "latency-seconds", 30, "seconds of real time to time immediate alerts through a whole node (0 skips it)")
	fs.IntVar(&cfg.LatencyRate, "latency-rate", 20, "posts a second offered while timing")
	fs.IntVar(&cfg.LatencySearches, "latency-searches", 100, "of the saved searches, how many have a webhook and an e-mail alert while timing")
	if err := parseBenchFlags(fs, args); err != nil {
		return err
	}
	cfg.Progress = benchProgress()
	res, err := bench.Alerts(cfg)
	if err != nil {
		return err
	}
	return report(res)
}
