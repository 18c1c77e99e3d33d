package bench

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sightline/sightline/internal/percolate"
	"github.com/sightline/sightline/internal/percolate/workload"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/story"
)

// PercolateConfig is one run of `sightline bench percolate`.
type PercolateConfig struct {
	Searches int
	Posts    int
	// Sample is how many posts are also matched by the oracle (oracle.go), whose answers must
	// be the percolator's; the first of them (300 at most) are matched by brute force too, for
	// the speed-up.
	Sample int
	Seed   uint64
	// CPUProfile, when set, is where a CPU profile of the timed matching is written.
	CPUProfile string
	// Peer, when "bleve", also matches the first PeerSample posts of the sample the way the
	// Elasticsearch and Lucene percolators do, with Bleve (peer_bleve.go).
	Peer       string
	PeerSample int
}

// PercolateResult is what `sightline bench percolate` prints.
type PercolateResult struct {
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
	// AnalysisCPUPerPostMicros is the CPU per post of the analysis alone (tokenising and
	// folding the same posts, the first step of every match), timed in the same run: the floor
	// of CPUPerPostMicros. CPUOverAnalysis is the one over the other.
	AnalysisCPUPerPostMicros float64 `json:"analysis_cpu_us_per_post"`
	CPUOverAnalysis          float64 `json:"cpu_over_analysis"`
	// StoryCPUPerPostMicros is the stories stage's CPU time a post (its thread's) over the same
	// posts, every one of them kept in its window; StoryJoined how many joined another's story.
	StoryCPUPerPostMicros float64 `json:"story_cpu_us_per_post"`
	StoryJoined           int64   `json:"story_joined_posts"`

	IndexBuildMillis float64 `json:"index_build_ms"`
	// PutP50us and PutMaxus: adding one search to the loaded index (matching never waits for it).
	PutP50us    float64 `json:"put_p50_us"`
	PutMaxus    float64 `json:"put_max_us"`
	BruteSample int     `json:"brute_force_sample"`
	// AgreesWithOracle says the percolator's answers are the oracle's on every post of the
	// sample (OracleSample posts); FirstDisagreement says where they differ first.
	AgreesWithOracle    bool    `json:"agrees_with_oracle"`
	OracleSample        int     `json:"oracle_sample"`
	OraclePostsPerSec   float64 `json:"oracle_posts_per_sec"`
	OracleDisagreements int     `json:"oracle_disagreements"`
	FirstDisagreement   string  `json:"first_disagreement,omitempty"`
	// Bleve is the peer's run, with --peer bleve.
	Bleve   *BleveResult `json:"peer_bleve,omitempty"`
	Workers int          `json:"workers"`
}

// Percolate generates the workload, loads the index, matches every post on all cores and checks
// a sample against the oracle and brute force.
func Percolate(cfg PercolateConfig) (PercolateResult, error) {
	if cfg.Searches <= 0 || cfg.Posts <= 0 {
		return PercolateResult{}, errors.New("need at least one search and one post")
	}
	if cfg.Peer != "" && cfg.Peer != "bleve" {
		return PercolateResult{}, fmt.Errorf("unknown peer %q (bleve is the one)", cfg.Peer)
	}
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	g := workload.NewGenerator(cfg.Seed)
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	baseHeap := ms.HeapAlloc
	compiled := make([]*percolate.Compiled, 0, cfg.Searches)
	specs := make([]percolate.SavedSearch, 0, cfg.Searches)
	for id := int64(1); len(compiled) < cfg.Searches; id++ {
		spec := g.Search(id, now)
		c, err := percolate.Compile(spec)
		if err != nil {
			return PercolateResult{}, err // the generator writes valid searches only
		}
		compiled = append(compiled, c)
		specs = append(specs, spec)
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
	// The garbage of generating the posts is collected now, as testing.B does before it times,
	// so that the timed phase pays only for the collections its own matching causes.
	runtime.GC()

	results := make([][]int64, len(posts))
	latencies := make([]time.Duration, len(posts))
	var next atomic.Int64
	var candidates, matches atomic.Uint64
	var wg sync.WaitGroup
	stopProfile, err := startCPUProfile(cfg.CPUProfile)
	if err != nil {
		return PercolateResult{}, err
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
	stopProfile()

	res := PercolateResult{
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

	res.AnalysisCPUPerPostMicros = analysisCPUPerPost(posts, workers)
	if res.AnalysisCPUPerPostMicros > 0 {
		res.CPUOverAnalysis = res.CPUPerPostMicros / res.AnalysisCPUPerPostMicros
	}
	res.StoryCPUPerPostMicros, res.StoryJoined = storyStage(posts)

	// One search at a time into the loaded index, as the builder saves them.
	var puts []time.Duration
	for i := range 200 {
		c, err := percolate.Compile(g.Search(int64(cfg.Searches+1+i), now))
		if err != nil {
			return PercolateResult{}, err
		}
		t0 := time.Now()
		ix.PutCompiled(c)
		puts = append(puts, time.Since(t0))
	}
	slices.Sort(puts)
	res.PutP50us = float64(puts[len(puts)/2].Nanoseconds()) / 1000
	res.PutMaxus = float64(puts[len(puts)-1].Nanoseconds()) / 1000

	// Brute force on the start of the sample, on all cores as well, so the speed-up compares
	// like with like.
	sample := posts[:min(cfg.Sample, len(posts))]
	brute := make([][]int64, min(len(sample), bruteSample))
	start = time.Now()
	parallel(len(brute), workers, func(i int) { brute[i] = percolate.MatchAll(compiled, &sample[i], now) })
	res.BruteSample = len(brute)
	if len(brute) > 0 {
		res.BruteForcePostsPerSec = float64(len(brute)) / time.Since(start).Seconds()
		res.Speedup = res.PostsPerSec / res.BruteForcePostsPerSec
	}
	res.AgreesWithBruteForce = len(disagreements(results, brute, specs)) == 0

	// The oracle on the whole sample.
	oracles := make([]*oracleSearch, len(specs))
	for i, spec := range specs {
		o, err := newOracleSearch(spec)
		if err != nil {
			return PercolateResult{}, err
		}
		oracles[i] = o
	}
	answers := make([][]int64, len(sample))
	start = time.Now()
	parallel(len(sample), workers, func(i int) { answers[i] = oracleMatch(oracles, &sample[i], now) })
	res.OracleSample = len(sample)
	if len(sample) > 0 {
		res.OraclePostsPerSec = float64(len(sample)) / time.Since(start).Seconds()
	}
	diffs := disagreements(results, answers, specs)
	res.AgreesWithOracle, res.OracleDisagreements = len(diffs) == 0, len(diffs)
	if len(diffs) > 0 {
		res.FirstDisagreement = diffs[0]
	}
	if cfg.Peer == "bleve" {
		peer, err := blevePeer(specs, posts[:min(cfg.PeerSample, len(posts))], now, workers)
		if err != nil {
			return res, err
		}
		res.Bleve = peer
	}
	return res, nil
}

// analysisCPUPerPost is the process CPU per post, in µs, of analyzing the posts as the matchers
// do first (percolate.Analyzed.Reset: tokenising, folding, the token table, the folded names),
// on the same workers, each with its own Analyzed, after the same warm-up and collection.
func analysisCPUPerPost(posts []percolate.Doc, workers int) float64 {
	var warm percolate.Analyzed
	for i := range posts[:min(len(posts), 500)] {
		warm.Reset(&posts[i])
	}
	runtime.GC()
	var next atomic.Int64
	var wg sync.WaitGroup
	before := cpuTime()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var a percolate.Analyzed
			for i := int(next.Add(1)) - 1; i < len(posts); i = int(next.Add(1)) - 1 {
				a.Reset(&posts[i])
			}
		}()
	}
	wg.Wait()
	return float64((cpuTime() - before).Microseconds()) / float64(len(posts))
}

// bruteSample bounds the posts brute force matches: at 100,000 searches it takes 20 ms a post.
const bruteSample = 300

// parallel calls fn for 0 to n-1 on workers goroutines.
func parallel(n, workers int, fn func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				fn(i)
			}
		}()
	}
	wg.Wait()
}

// disagreements compares the percolator's answers (got) with another's (want) on the first
// len(want) posts, one line for each post where they differ.
func disagreements(got, want [][]int64, specs []percolate.SavedSearch) []string {
	var out []string
	describe := func(ids []int64) string {
		var parts []string
		for _, id := range ids {
			s := specs[id-1]
			parts = append(parts, fmt.Sprintf("%d (keywords %q, author %q)", id, s.Keywords, s.Author))
		}
		return strings.Join(parts, ", ")
	}
	for i := range want {
		var missing, extra []int64
		for _, id := range want[i] {
			if !slices.Contains(got[i], id) {
				missing = append(missing, id)
			}
		}
		for _, id := range got[i] {
			if !slices.Contains(want[i], id) {
				extra = append(extra, id)
			}
		}
		if len(missing) > 0 || len(extra) > 0 {
			out = append(out, fmt.Sprintf("post %d: not matched by the percolator: [%s]; matched only by it: [%s]",
				i, describe(missing), describe(extra)))
		}
	}
	return out
}

// WriteText prints the result for people.
func (res PercolateResult) WriteText(w io.Writer) {
	fmt.Fprintf(w, "searches               %d\n", res.Queries)
	fmt.Fprintf(w, "posts                  %d on %d workers\n", res.Posts, res.Workers)
	fmt.Fprintf(w, "throughput             %.0f posts/s\n", res.PostsPerSec)
	fmt.Fprintf(w, "latency p50 / p99      %.0f µs / %.0f µs\n", res.P50us, res.P99us)
	fmt.Fprintf(w, "candidates per post    %.1f (matches per post %.2f)\n", res.CandidatesPerPost, res.MatchesPerPost)
	fmt.Fprintf(w, "brute force            %.0f posts/s (speed-up %.0fx)\n", res.BruteForcePostsPerSec, res.Speedup)
	fmt.Fprintf(w, "stories stage          %.2f µs CPU a post, every post kept (%d joined a story)\n", res.StoryCPUPerPostMicros, res.StoryJoined)
	fmt.Fprintf(w, "heap of the index      %.0f MB (built in %.0f ms; one more search: p50 %.0f µs, max %.0f µs)\n", res.HeapMB, res.IndexBuildMillis, res.PutP50us, res.PutMaxus)
	fmt.Fprintf(w, "CPU per post           %.0f µs\n", res.CPUPerPostMicros)
	fmt.Fprintf(w, "analysis alone         %.1f µs CPU per post (tokenising and folding, same run): CPU per post / analysis %.2f\n",
		res.AnalysisCPUPerPostMicros, res.CPUOverAnalysis)
	fmt.Fprintf(w, "agrees with brute force %v (on %d posts)\n", res.AgreesWithBruteForce, res.BruteSample)
	fmt.Fprintf(w, "agrees with the oracle %v (on %d posts, %d differ; the oracle matched %.0f posts/s)\n",
		res.AgreesWithOracle, res.OracleSample, res.OracleDisagreements, res.OraclePostsPerSec)
	if res.FirstDisagreement != "" {
		fmt.Fprintf(w, "first difference       %s\n", res.FirstDisagreement)
	}
	if res.Bleve != nil {
		res.Bleve.WriteText(w)
	}
}

// storyStage runs the pipeline's stories stage over the posts, in batches as the pipeline hands
// them over and in order of publication, and returns its CPU time a post in microseconds and
// how many posts joined a story begun by another. The workload's posts carry no places or
// entities (enrichment is not run here); every post stays in the window, which spans hours.
func storyStage(docs []percolate.Doc) (float64, int64) {
	posts := make([]post.Post, len(docs))
	for i, d := range docs {
		posts[i] = post.Post{ID: strconv.Itoa(i), Provider: d.Provider, TitleText: d.Title, ContentText: d.Text,
			AuthorName: d.AuthorName, PublishedAt: d.Published}
	}
	slices.SortStableFunc(posts, func(a, b post.Post) int { return a.PublishedAt.Compare(b.PublishedAt) })
	stage := story.NewStage()
	var cpu time.Duration
	var joined int64
	stage.Observe(func(batch []post.Post, spent time.Duration) {
		cpu += spent
		for i := range batch {
			if batch[i].StoryID != batch[i].ID {
				joined++
			}
		}
	})
	const batch = 1000
	for i := 0; i < len(posts); i += batch {
		stage.Assign(posts[i:min(i+batch, len(posts))])
	}
	return float64(cpu.Nanoseconds()) / 1000 / float64(max(1, len(posts))), joined
}
