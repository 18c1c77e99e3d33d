package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"runtime/pprof"
	"slices"
	"sync"
	"time"

	"github.com/sightline/sightline/internal/connector/simulator"
	"github.com/sightline/sightline/internal/enrich"
	"github.com/sightline/sightline/internal/geo"
	"github.com/sightline/sightline/internal/ingest"
	"github.com/sightline/sightline/internal/provider"
	"github.com/sightline/sightline/internal/query"
	"github.com/sightline/sightline/internal/search"
	"github.com/sightline/sightline/internal/server"
	"github.com/sightline/sightline/internal/stream"
)

type ingestBenchResult struct {
	Posts          int     `json:"posts"`
	Store          string  `json:"store"`
	PostsPerSec    float64 `json:"posts_per_sec"`
	StoredPosts    int64   `json:"stored_posts"`
	Searches       int     `json:"searches"`
	SearchP50ms    float64 `json:"search_p50_ms"`
	SearchP99ms    float64 `json:"search_p99_ms"`
	SearchMeanHits float64 `json:"search_mean_hits"`
	// Analytics is the word cloud and daily graph of the same searches.
	Analytics      int     `json:"analytics"`
	AnalyticsP50ms float64 `json:"analytics_p50_ms"`
	AnalyticsP95ms float64 `json:"analytics_p95_ms"`
}

// benchIngest measures posts per second from the ingest service through the stream into the
// store and its full-text index, then the Beacon search's latency over what was stored.
func benchIngest(args []string) error {
	fs := newFlagSet("bench ingest", "Ingest generated posts end to end, then time searches over them.")
	var posts, searches int
	var dir, db string
	var asJSON bool
	fs.IntVar(&posts, "posts", 1_000_000, "posts to ingest")
	fs.IntVar(&searches, "searches", 300, "searches to time after ingesting")
	var analytics int
	fs.IntVar(&analytics, "analytics", 100, "of those searches, how many to time the analytics (word cloud, daily graph) of")
	fs.StringVar(&dir, "dir", "", "data dir (default: a temporary one, removed afterwards)")
	fs.StringVar(&db, "db", "", "store: a postgres:// URL (default: SQLite in the data dir)")
	fs.BoolVar(&asJSON, "json", false, "print the result as one JSON object")
	var cpuProfile string
	fs.StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile of the run to this file")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if cpuProfile != "" {
		f, err := os.Create(cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	if dir == "" {
		tmp, err := os.MkdirTemp("", "sightline-bench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	s, err := server.OpenStore(ctx, server.Config{DataDir: dir, DB: db})
	if err != nil {
		return err
	}
	defer s.Close()
	st, err := stream.Open(ctx, stream.Config{DataDir: dir}, log)
	if err != nil {
		return err
	}
	defer st.Close()
	gazetteer, err := geo.LoadGazetteer()
	if err != nil {
		return err
	}
	svc := ingest.NewService(st, enrich.New(gazetteer))
	pipeline := ingest.NewPipeline(st, s, log)
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	go pipeline.Run(runCtx)

	res := ingestBenchResult{Posts: posts, Store: string(s.Dialect()), Searches: searches}
	// The simulator's posts are the realistic content: real phrases in eleven languages, the
	// lengths of social posts, headlines and forum threads, media and places.
	gen := simulator.NewGenerator(1)
	queries := benchQueries(gen, searches)
	start := time.Now()
	if err := feed(ctx, svc, gen, posts); err != nil {
		return err
	}
	// Wait on the storage stage's lag, which JetStream knows at no cost; counting the stored
	// posts reads the whole table, so it is done once, at the end.
	for {
		lag, err := st.Pending(ctx, ingest.StoreDurable)
		if err != nil {
			return err
		}
		if !asJSON {
			fmt.Fprintf(os.Stderr, "\rstored %d of %d", posts-int(min(lag, uint64(posts))), posts)
		}
		if lag == 0 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	res.PostsPerSec = float64(posts) / time.Since(start).Seconds()
	if res.StoredPosts, _, err = s.CountPosts(ctx); err != nil {
		return err
	}
	if res.StoredPosts < int64(posts) {
		return fmt.Errorf("only %d of %d posts were stored", res.StoredPosts, posts)
	}
	if !asJSON {
		fmt.Fprintln(os.Stderr)
	}

	searcher := search.NewService(s)
	entitled := provider.Entitlements{Beacon: true, Pro: true, Enterprise: true}
	var latencies []float64
	hits := 0
	for _, q := range queries {
		t := time.Now()
		page, err := searcher.Search(ctx, entitled, provider.Social, search.Request{Query: q})
		if err != nil {
			continue // generated queries the Beacon validator refuses are not timed
		}
		latencies = append(latencies, float64(time.Since(t).Microseconds())/1000)
		hits += page.Count
	}
	res.SearchP50ms, res.SearchP99ms, _ = percentiles(latencies)
	if len(latencies) > 0 {
		res.SearchMeanHits = float64(hits) / float64(len(latencies))
		res.Searches = len(latencies)
	}
	latencies = latencies[:0]
	for _, q := range queries[:min(analytics, len(queries))] {
		t := time.Now()
		if _, err := searcher.Analyze(ctx, entitled, search.All, search.Request{Query: q}); err != nil {
			continue
		}
		latencies = append(latencies, float64(time.Since(t).Microseconds())/1000)
	}
	res.Analytics = len(latencies)
	res.AnalyticsP50ms, res.AnalyticsP95ms = percentile(latencies, 50), percentile(latencies, 95)
	if asJSON {
		return json.NewEncoder(os.Stdout).Encode(res)
	}
	fmt.Printf("store              %s\n", res.Store)
	fmt.Printf("ingested           %d posts at %.0f posts/s (stream, store, full-text index)\n", res.Posts, res.PostsPerSec)
	fmt.Printf("search p50 / p99   %.1f ms / %.1f ms over %d searches (%.1f hits per first page)\n",
		res.SearchP50ms, res.SearchP99ms, res.Searches, res.SearchMeanHits)
	fmt.Printf("analytics p50 / p95 %.1f ms / %.1f ms over %d searches (word cloud and daily graph)\n",
		res.AnalyticsP50ms, res.AnalyticsP95ms, res.Analytics)
	return nil
}

// benchQueries makes searches an analyst might type from the words of generated posts: single
// words, OR lists, AND pairs, phrases and prefixes, common and rare alike.
func benchQueries(gen *simulator.Generator, n int) []string {
	r := rand.New(rand.NewPCG(2, 3))
	var texts [][]string
	for i := 0; i < 2000; i++ {
		p := gen.Next(time.Now())
		if tokens := query.Tokens(p.TitleText + " " + p.ContentText); len(tokens) > 1 {
			texts = append(texts, tokens)
		}
	}
	word := func() string {
		t := texts[r.IntN(len(texts))]
		return t[r.IntN(len(t))]
	}
	queries := make([]string, 0, n)
	for len(queries) < n {
		var q string
		switch r.IntN(5) {
		case 0:
			q = word()
		case 1:
			q = word() + " OR " + word() + " OR " + word()
		case 2:
			q = word() + " " + word()
		case 3:
			t := texts[r.IntN(len(texts))]
			i := r.IntN(len(t) - 1)
			q = `"` + t[i] + " " + t[i+1] + `"`
		default:
			w := []rune(word())
			if len(w) < 5 {
				continue
			}
			q = string(w[:4]) + "*"
		}
		queries = append(queries, q)
	}
	return queries
}

// feed submits generated posts in batches from a few goroutines, as API clients would.
func feed(ctx context.Context, svc *ingest.Service, gen *simulator.Generator, total int) error {
	const batch, workers = 1000, 4
	batches := make(chan []ingest.Item, workers)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for items := range batches {
				res := svc.Accept(ctx, items)
				if len(res.Rejected) > 0 {
					mu.Lock()
					if firstErr == nil {
						firstErr = fmt.Errorf("the generator made a post the ingest refused: line %d: %s",
							res.Rejected[0].Line, res.Rejected[0].Message)
					}
					mu.Unlock()
				}
			}
		}()
	}
	for i := 0; i < total; i += batch {
		items := make([]ingest.Item, 0, batch)
		for j := i; j < min(i+batch, total); j++ {
			items = append(items, ingest.Item{Line: j + 1, Post: gen.Next(time.Now())})
		}
		batches <- items
	}
	close(batches)
	wg.Wait()
	return firstErr
}

// percentile is the p-th percentile of samples (nearest rank), 0 without any.
func percentile(samples []float64, p int) float64 {
	if len(samples) == 0 {
		return 0
	}
	sorted := slices.Sorted(slices.Values(samples))
	return sorted[min(len(sorted)-1, len(sorted)*p/100)]
}
