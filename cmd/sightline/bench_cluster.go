package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/sightline/sightline/internal/bench"
)

func benchCluster(args []string) error {
	fs := benchFlagSet("bench cluster", "Throughput of N serve processes on one PostgreSQL and one NATS cluster, per node count.")
	var cfg bench.ClusterConfig
	var nodeList string
	fs.StringVar(&nodeList, "nodes", "1,2,3", "comma-separated node counts to measure")
	fs.IntVar(&cfg.Posts, "posts", 100_000, "posts to ingest in each run")
	fs.IntVar(&cfg.Searches, "searches", 1000, "saved searches the nodes percolate every post against")
	fs.IntVar(&cfg.NATSServers, "nats-servers", 3, "NATS servers in the cluster (the streams are replicated on up to 3)")
	fs.StringVar(&cfg.Postgres, "postgres", "postgres://127.0.0.1:5432/test?sslmode=disable",
		"PostgreSQL server the runs' databases are created on (a URL of any database there)")
	fs.StringVar(&cfg.Bin, "bin", "", "the sightline binary the nodes run (default: this one)")
	if err := parseBenchFlags(fs, args); err != nil {
		return err
	}
	for _, f := range strings.Split(nodeList, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return fmt.Errorf("--nodes: %q is not a node count", f)
		}
		cfg.Nodes = append(cfg.Nodes, n)
	}
	if cfg.Bin == "" {
		self, err := os.Executable()
		if err != nil {
			return err
		}
		cfg.Bin = self
	}
	cfg.Progress = !benchRun.asJSON
	// Interrupted, a run stops its nodes and drops its database before the command exits.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	res, err := bench.Cluster(ctx, cfg)
	if err != nil {
		return err
	}
	return report(res)
}
