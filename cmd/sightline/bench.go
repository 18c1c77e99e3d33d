package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/sightline/sightline/internal/percolate/workload"
)

// benchmark is one `sightline bench <name>`.
type benchmark struct {
	name    string
	summary string
	run     func(args []string) error
}

func benchmarks() []benchmark {
	return []benchmark{
		{"percolate", "saved searches matched against generated posts, checked against brute force", benchPercolate},
		{"ingest", "posts per second through stream, store and index; search latency over them", benchIngest},
		{"live", "live clients on one hub: memory per connection, per-user event delivery latency", benchLive},
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

func benchPercolate(args []string) error {
	fs := newFlagSet("bench percolate", "Match generated posts against generated saved searches on all cores.")
	var cfg workload.Config
	var asJSON bool
	fs.IntVar(&cfg.Searches, "queries", 10000, "number of saved searches")
	fs.IntVar(&cfg.Posts, "posts", 20000, "number of posts")
	fs.IntVar(&cfg.Sample, "sample", 300, "posts also matched by brute force to check the answers")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "workload seed")
	fs.BoolVar(&asJSON, "json", false, "print the result as one JSON object")
	fs.StringVar(&cfg.CPUProfile, "cpuprofile", "", "write a CPU profile of the matching phase to this file")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	res, err := workload.Run(cfg)
	if err != nil {
		return err
	}
	if asJSON {
		return json.NewEncoder(os.Stdout).Encode(res)
	}
	fmt.Printf("searches               %d\n", res.Queries)
	fmt.Printf("posts                  %d on %d workers\n", res.Posts, res.Workers)
	fmt.Printf("throughput             %.0f posts/s\n", res.PostsPerSec)
	fmt.Printf("latency p50 / p99      %.0f µs / %.0f µs\n", res.P50us, res.P99us)
	fmt.Printf("candidates per post    %.1f (matches per post %.2f)\n", res.CandidatesPerPost, res.MatchesPerPost)
	fmt.Printf("brute force            %.0f posts/s (speed-up %.0fx)\n", res.BruteForcePostsPerSec, res.Speedup)
	fmt.Printf("heap of the index      %.0f MB (built in %.0f ms; one more search: p50 %.0f µs, max %.0f µs)\n", res.HeapMB, res.IndexBuildMillis, res.PutP50us, res.PutMaxus)
	fmt.Printf("CPU per post           %.0f µs\n", res.CPUPerPostMicros)
	fmt.Printf("agrees with brute force %v (on %d posts)\n", res.AgreesWithBruteForce, res.BruteSample)
	if !res.AgreesWithBruteForce {
		return errors.New("the percolator disagrees with brute force")
	}
	return nil
}
