package workload

import (
	"errors"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/sightline/sightline/internal/percolate"
)

// Config of one benchmark run.
type Config struct {
	Searches int
	Posts    int
	// Sample is how many posts are also matched by brute force (every search, one by one).
	Sample int
	Seed   uint64
	// CPUProfile, when set, is where a CPU profile of the timed matching is written.
	CPUProfile string
}

// Result is what `sightline bench percolate` prints.
type Result struct {
	Queries               int     `json:"queries"`
	Posts                 int     `json:"posts"`
	PostsPerSec           float64 `json:"posts_per_sec"`
	P50us                 float64 `json:"p50_us"`
	P99us                 float64 `json:"p99_us"`
	CandidatesPerPost     float64 `json:"candidates_per_post"`
	BruteForcePostsPerSec float64 `json:"brute_force_posts_per_sec"`
	Speedup               float64 `json:"speedup"`
	HeapMB                float64 `json:"heap_mb"`
	AgreesWithBruteForce  bool    `json:"agrees_with_brute_force"`
	// Beyond the fields: context for reading the figures.
	MatchesPerPost   float64 `json:"matches_per_post"`
	CPUPerPostMicros float64 `json:"cpu_us_per_post"` // process CPU time (all threads) per post

	IndexBuildMillis float64 `json:"index_build_ms"`
	// PutP50us and PutMaxus: adding one search to the loaded index (matching never waits for it).
	PutP50us    float64 `json:"put_p50_us"`
	PutMaxus    float64 `json:"put_max_us"`
	BruteSample int     `json:"brute_force_sample"`
	Workers     int     `json:"workers"`
}

// Run generates the workload, loads the index, matches every post on all cores and checks a
// sample against brute force.
func Run(cfg Config) (Result, error) {
	if cfg.Searches <= 0 || cfg.Posts <= 0 {
		return Result{}, errors.New("need at least one search and one post")
	}
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	g := NewGenerator(cfg.Seed)
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	baseHeap := ms.HeapAlloc
	compiled := make([]*percolate.Compiled, 0, cfg.Searches)
	for id := int64(1); len(compiled) < cfg.Searches; id++ {
		c, err := percolate.Compile(g.Search(id, now))
		if err != nil {
			return Result{}, err // the generator writes valid searches only
		}
		compiled = append(compiled, c)
	}
	ix := percolate.New()
	start := time.Now()
	ix.PutCompiled(compiled...)
	build := time.Since(start)
	runtime.GC()
	runtime.ReadMemStats(&ms)

	posts := make([]percolate.Doc, cfg.Posts)
	for i := range posts {
		posts[i] = g.Post(now)
	}
	workers := runtime.GOMAXPROCS(0)
	// A short warm-up fills the matchers' token caches, as a running stream would have.
	ix.MatchBatch(posts[:min(len(posts), 500)], now)

	results := make([][]int64, len(posts))
	latencies := make([]time.Duration, len(posts))
	var next atomic.Int64
	var candidates, matches atomic.Uint64
	var wg sync.WaitGroup
	if cfg.CPUProfile != "" {
		f, err := os.Create(cfg.CPUProfile)
		if err != nil {
			return Result{}, err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return Result{}, err
		}
	}
	cpuBefore := cpuTime()
	start = time.Now()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := ix.NewMatcher()
			var found uint64
			for {
				i := int(next.Add(1)) - 1
				if i >= len(posts) {
					break
				}
				t0 := time.Now()
				ids := m.Match(&posts[i], now)
				latencies[i] = time.Since(t0)
				found += uint64(len(ids))
				if i < cfg.Sample {
					results[i] = slices.Clone(ids)
				}
			}
			candidates.Add(m.Candidates())
			matches.Add(found)
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	cpu := cpuTime() - cpuBefore
	pprof.StopCPUProfile()

	res := Result{
		Queries:           cfg.Searches,
		Posts:             cfg.Posts,
		PostsPerSec:       float64(cfg.Posts) / elapsed.Seconds(),
		CandidatesPerPost: float64(candidates.Load()) / float64(cfg.Posts),
		MatchesPerPost:    float64(matches.Load()) / float64(cfg.Posts),
		CPUPerPostMicros:  float64(cpu.Microseconds()) / float64(cfg.Posts),
		IndexBuildMillis:  float64(build.Microseconds()) / 1000,
		Workers:           workers,
	}
	slices.Sort(latencies)
	res.P50us = float64(latencies[len(latencies)/2].Nanoseconds()) / 1000
	res.P99us = float64(latencies[len(latencies)*99/100].Nanoseconds()) / 1000
	// The heap the searches and their index take, beyond the generator's vocabularies, measured
	// before the posts were generated.
	res.HeapMB = float64(ms.HeapAlloc-baseHeap) / (1 << 20)

	// One search at a time into the loaded index, as the builder saves them.
	var puts []time.Duration
	for i := range 200 {
		c, err := percolate.Compile(g.Search(int64(cfg.Searches+1+i), now))
		if err != nil {
			return Result{}, err
		}
		t0 := time.Now()
		ix.PutCompiled(c)
		puts = append(puts, time.Since(t0))
	}
	slices.Sort(puts)
	res.PutP50us = float64(puts[len(puts)/2].Nanoseconds()) / 1000
	res.PutMaxus = float64(puts[len(puts)-1].Nanoseconds()) / 1000

	// Brute force on the sample, on all cores as well, so the speed-up compares like with like.
	sample := posts[:min(cfg.Sample, len(posts))]
	brute := make([][]int64, len(sample))
	next.Store(0)
	start = time.Now()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(sample) {
					return
				}
				brute[i] = percolate.MatchAll(compiled, &sample[i], now)
			}
		}()
	}
	wg.Wait()
	res.BruteSample = len(sample)
	res.AgreesWithBruteForce = true
	if len(sample) > 0 {
		res.BruteForcePostsPerSec = float64(len(sample)) / time.Since(start).Seconds()
		res.Speedup = res.PostsPerSec / res.BruteForcePostsPerSec
	}
	for i := range sample {
		if !slices.Equal(results[i], brute[i]) && (len(results[i]) > 0 || len(brute[i]) > 0) {
			res.AgreesWithBruteForce = false
		}
	}
	return res, nil
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
