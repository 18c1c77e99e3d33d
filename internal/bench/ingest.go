package bench

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"sync"
	"time"

	"github.com/sightline/sightline/internal/connector/simulator"
	"github.com/sightline/sightline/internal/ingest"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/provider"
	"github.com/sightline/sightline/internal/query"
	"github.com/sightline/sightline/internal/search"
	"github.com/sightline/sightline/internal/server"
)

// IngestConfig is one run of `sightline bench ingest`.
type IngestConfig struct {
	Posts int
	// Searches are saved searches the percolator matches every post against, as a node does.
	Searches int
	// Queries is how many Beacon searches to time after ingesting; Analytics how many of them
	// to time the analytics (word cloud, daily graph) of.
	Queries   int
	Analytics int
	// Dir is the data dir ("" for a temporary one, removed afterwards); DB a postgres:// URL
	// ("" for SQLite in the data dir).
	Dir, DB    string
	CPUProfile string
	// Progress, when set, receives a progress line while posts are stored.
	Progress io.Writer
}

// IngestResult is what `sightline bench ingest` prints.
type IngestResult struct {
	Posts       int     `json:"posts"`
	Store       string  `json:"store"`
	PostsPerSec float64 `json:"posts_per_sec"`
	StoredPosts int64   `json:"stored_posts"`
	// Searches are the saved searches percolated, SearchesActive those still running at the
	// end (a search over its streaming limit is switched off), MatchesTotal the matches stored.
	Searches       int     `json:"searches"`
	SearchesActive int     `json:"searches_active"`
	MatchesTotal   int64   `json:"matches_total"`
	MatchesPerSec  float64 `json:"matches_per_sec"`
	Queries        int     `json:"queries"`
	SearchP50ms    float64 `json:"search_p50_ms"`
	SearchP99ms    float64 `json:"search_p99_ms"`
	SearchMeanHits float64 `json:"search_mean_hits"`
	// Analytics is the word cloud and daily graph of the same searches.
	Analytics      int     `json:"analytics"`
	AnalyticsP50ms float64 `json:"analytics_p50_ms"`
	AnalyticsP95ms float64 `json:"analytics_p95_ms"`
	// RawPostsPerSec is the store's raw capacity, measured in the same run (limits.go): the
	// same posts in the storage stage's batches straight into an empty store of the same kind.
	// ShareOfRaw is PostsPerSec over it.
	RawPostsPerSec float64 `json:"raw_posts_per_sec"`
	ShareOfRaw     float64 `json:"share_of_raw"`
	// FTSP50ms and FTSP99ms time one full-text query of the same words for each timed search,
	// on the same store, newest first, one page (limits.go); SearchP99OverFTS is SearchP99ms
	// over FTSP99ms.
	FTSP50ms         float64 `json:"fts_p50_ms"`
	FTSP99ms         float64 `json:"fts_p99_ms"`
	SearchP99OverFTS float64 `json:"search_p99_over_fts"`
	// FTSTotalP99ms times that page followed by the total a first page must give: the matches
	// among the search's sources visible to the reader, counted up to 1,001 (limits.go);
	// SearchP99OverFTSTotal is SearchP99ms over it.
	FTSTotalP50ms         float64 `json:"fts_total_p50_ms"`
	FTSTotalP99ms         float64 `json:"fts_total_p99_ms"`
	SearchP99OverFTSTotal float64 `json:"search_p99_over_fts_total"`
	// Suggested is how many of the timed searches found fewer than search.FewResults and so
	// looked for suggestions (near spellings and word forms, each counted), which neither
	// full-text figure does; UnsuggestedP99ms is the search p99 of the others.
	Suggested        int     `json:"suggested_searches"`
	UnsuggestedP99ms float64 `json:"search_unsuggested_p99_ms"`
	// The stories stage: its CPU time a post (the thread's, so a shared machine's waits are not
	// counted), how many posts joined a story begun by another, and the time from a post's
	// acceptance by the ingest service to its story, as percentiles over every post.
	StoryCPUPerPostMicros float64 `json:"story_cpu_us_per_post"`
	StoryJoined           int64   `json:"story_joined_posts"`
	StoryP50ms            float64 `json:"story_p50_ms"`
	StoryP99ms            float64 `json:"story_p99_ms"`
}

// storyWatch collects what the stories stage reports of each batch.
type storyWatch struct {
	mu      sync.Mutex
	posts   int64
	joined  int64
	cpu     time.Duration
	latency []float64 // ms from acceptance to story, a post
	seen    map[string]bool
}

func (w *storyWatch) observe(posts []post.Post, cpu time.Duration) {
	now := time.Now()
	w.mu.Lock()
	defer w.mu.Unlock()
	w.posts += int64(len(posts))
	w.cpu += cpu
	if w.seen == nil {
		w.seen = map[string]bool{}
	}
	for i := range posts {
		// A batch the stream redelivers (its acknowledgement was late) is placed again: the
		// post's time to its story is its first placing.
		if w.seen[posts[i].ID] {
			continue
		}
		w.seen[posts[i].ID] = true
		if posts[i].StoryID != posts[i].ID {
			w.joined++
		}
		w.latency = append(w.latency, float64(now.Sub(posts[i].DiscoveredAt).Microseconds())/1000)
	}
}

func (w *storyWatch) report(res *IngestResult) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.posts > 0 {
		res.StoryCPUPerPostMicros = float64(w.cpu.Nanoseconds()) / 1000 / float64(w.posts)
	}
	res.StoryJoined = w.joined
	res.StoryP50ms, res.StoryP99ms, _ = percentiles(w.latency)
}

// calibrationRate is the stream the ingest benchmark's saved searches are chosen for: they are
// `bench live`'s, each within its hourly streaming limit at 1,000 posts a second. (Chosen for
// 5,000 posts a second, almost none of them matched the simulator's posts at all.) None reaches
// its hourly limit within a million posts.
const calibrationRate = 1000

// Ingest measures posts per second through a whole node, as `sightline serve` runs them: the
// ingest service with enrichment, the stream, the store and its full-text index, the percolator
// over the saved searches and the match writes (a batch is acknowledged only after all of them).
// Then it times Beacon searches and analytics over what was stored.
func Ingest(cfg IngestConfig) (IngestResult, error) {
	var res IngestResult
	stopProfile, err := startCPUProfile(cfg.CPUProfile)
	if err != nil {
		return res, err
	}
	defer stopProfile()
	dir := cfg.Dir
	if dir == "" {
		tmp, err := os.MkdirTemp("", "sightline-bench-")
		if err != nil {
			return res, err
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	ctx := context.Background()
	node, stop, err := startNode(dir, cfg.DB)
	if err != nil {
		return res, err
	}
	defer stop()
	owner, err := node.Store.UserByEmail(ctx, benchAdmin)
	if err != nil {
		return res, err
	}
	searches, err := searchesWithinStreamingLimit(cfg.Searches, calibrationRate, time.Now())
	if err != nil {
		return res, err
	}
	if err := saveSearches(ctx, node, owner, searches); err != nil {
		return res, err
	}
	matchesBefore, err := node.Store.CountMatchesSince(ctx, owner.OrganizationID, time.Time{})
	if err != nil {
		return res, err
	}

	posts := cfg.Posts
	res = IngestResult{Posts: posts, Store: string(node.Store.Dialect()), Searches: len(searches), Queries: cfg.Queries}
	// The simulator's posts are the realistic content: real phrases in eleven languages, the
	// lengths of social posts, headlines and forum threads, media and places.
	gen := simulator.NewGenerator(1)
	queries := benchQueries(gen, cfg.Queries)
	var stories storyWatch
	node.Stories.Observe(stories.observe)
	defer node.Stories.Observe(nil)
	start := time.Now()
	if err := feed(ctx, node.Ingest, gen, posts); err != nil {
		return res, err
	}
	// A batch is acknowledged once stored and percolated, its matches written: wait on the
	// stage's lag, which JetStream knows at no cost. Counting the stored posts reads the whole
	// table, so it is done once, at the end.
	for failing := 0; ; {
		lag, err := node.Stream.Pending(ctx, ingest.StoreDurable)
		if err != nil {
			// JetStream's API answers within 5 s; on a machine loaded by other work it may not.
			if failing++; failing == 10 {
				return res, fmt.Errorf("the stream's lag: %w", err)
			}
			continue
		}
		failing = 0
		if cfg.Progress != nil {
			fmt.Fprintf(cfg.Progress, "\rstored and percolated %d of %d", posts-int(min(lag, uint64(posts))), posts)
		}
		if lag == 0 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	elapsed := time.Since(start)
	res.PostsPerSec = float64(posts) / elapsed.Seconds()
	matchesAfter, err := node.Store.CountMatchesSince(ctx, owner.OrganizationID, time.Time{})
	if err != nil {
		return res, err
	}
	res.MatchesTotal = matchesAfter - matchesBefore
	res.MatchesPerSec = float64(res.MatchesTotal) / elapsed.Seconds()
	stories.report(&res)
	_, res.SearchesActive = node.Percolator.Stats()
	s := node.Store
	if res.StoredPosts, _, err = s.CountPosts(ctx); err != nil {
		return res, err
	}
	if res.StoredPosts < int64(posts) {
		return res, fmt.Errorf("only %d of %d posts were stored", res.StoredPosts, posts)
	}
	if cfg.Progress != nil {
		fmt.Fprintln(cfg.Progress)
	}

	searcher := search.NewService(s, search.Options{})
	entitled := provider.Entitlements{Beacon: true, Pro: true, Enterprise: true}
	var latencies, unsuggested []float64
	var timed []string
	hits := 0
	for _, q := range queries {
		t := time.Now()
		page, err := searcher.Search(ctx, entitled, provider.Social, search.Request{Query: q})
		if err != nil {
			continue // generated queries the Beacon validator refuses are not timed
		}
		took := float64(time.Since(t).Microseconds()) / 1000
		latencies = append(latencies, took)
		if !page.TotalIsEstimate && page.TotalCount < search.FewResults {
			res.Suggested++
		} else {
			unsuggested = append(unsuggested, took)
		}
		timed = append(timed, q)
		hits += page.Count
	}
	res.SearchP50ms, res.SearchP99ms, _ = percentiles(latencies)
	_, res.UnsuggestedP99ms, _ = percentiles(unsuggested)
	if len(latencies) > 0 {
		res.SearchMeanHits = float64(hits) / float64(len(latencies))
		res.Queries = len(latencies)
	}
	latencies = latencies[:0]
	for _, q := range queries[:min(cfg.Analytics, len(queries))] {
		t := time.Now()
		if _, err := searcher.Analyze(ctx, entitled, search.All, search.Request{Query: q}); err != nil {
			continue
		}
		latencies = append(latencies, float64(time.Since(t).Microseconds())/1000)
	}
	res.Analytics = len(latencies)
	res.AnalyticsP50ms, res.AnalyticsP95ms = percentile(latencies, 50), percentile(latencies, 95)

	fts, total, err := ftsLatencies(ctx, s.Dialect(), server.Config{DataDir: dir, DB: cfg.DB}.DSN(), timed,
		entitled.Tenant, socialSources(entitled))
	if err != nil {
		return res, err
	}
	res.FTSP50ms, res.FTSP99ms, _ = percentiles(fts)
	if res.FTSP99ms > 0 {
		res.SearchP99OverFTS = res.SearchP99ms / res.FTSP99ms
	}
	res.FTSTotalP50ms, res.FTSTotalP99ms, _ = percentiles(total)
	if res.FTSTotalP99ms > 0 {
		res.SearchP99OverFTSTotal = res.SearchP99ms / res.FTSTotalP99ms
	}
	if posts == 0 {
		return res, nil // searches timed again over a kept store (--dir): nothing was ingested to compare
	}
	if cfg.Progress != nil {
		fmt.Fprintln(cfg.Progress, "the store's raw capacity: the same posts straight into an empty store")
	}
	if res.RawPostsPerSec, err = rawPostsPerSec(ctx, cfg.DB, posts); err != nil {
		return res, err
	}
	res.ShareOfRaw = res.PostsPerSec / res.RawPostsPerSec
	return res, nil
}

// WriteText prints the result for people.
func (res IngestResult) WriteText(w io.Writer) {
	fmt.Fprintf(w, "store              %s\n", res.Store)
	fmt.Fprintf(w, "ingested           %d posts at %.0f posts/s (stream, store, full-text index, percolator, match writes)\n", res.Posts, res.PostsPerSec)
	fmt.Fprintf(w, "matches            %d stored, %.0f matches/s, from %d saved searches (%d still active)\n",
		res.MatchesTotal, res.MatchesPerSec, res.Searches, res.SearchesActive)
	fmt.Fprintf(w, "stories            %.2f µs CPU a post; %d posts joined a story; accepted to in its story p50 / p99 %.0f ms / %.0f ms\n",
		res.StoryCPUPerPostMicros, res.StoryJoined, res.StoryP50ms, res.StoryP99ms)
	fmt.Fprintf(w, "search p50 / p99   %.1f ms / %.1f ms over %d searches (%.1f hits per first page)\n",
		res.SearchP50ms, res.SearchP99ms, res.Queries, res.SearchMeanHits)
	fmt.Fprintf(w, "analytics p50 / p95 %.1f ms / %.1f ms over %d searches (word cloud and daily graph)\n",
		res.AnalyticsP50ms, res.AnalyticsP95ms, res.Analytics)
	fmt.Fprintf(w, "store's raw capacity %.0f posts/s (the same posts straight into an empty store): the pipeline's share %.2f\n",
		res.RawPostsPerSec, res.ShareOfRaw)
	fmt.Fprintf(w, "full-text query    p50 %.1f ms / p99 %.1f ms (one indexed query of the same words, one page): search p99 / full-text p99 %.2f\n",
		res.FTSP50ms, res.FTSP99ms, res.SearchP99OverFTS)
	fmt.Fprintf(w, "  with its total   p50 %.1f ms / p99 %.1f ms (the page and its matches in the search's sources counted up to 1,001): search p99 / that %.2f\n",
		res.FTSTotalP50ms, res.FTSTotalP99ms, res.SearchP99OverFTSTotal)
	fmt.Fprintf(w, "suggestions        %d of %d searches found under %d and looked for suggestions; the others' p99 %.1f ms\n",
		res.Suggested, res.Queries, search.FewResults, res.UnsuggestedP99ms)
}

// socialSources are the sources a Social search of the entitled reader reads, as the search
// resolves them: the enabled providers of that category.
func socialSources(e provider.Entitlements) []string {
	var out []string
	for _, entry := range provider.For(e) {
		if entry.Category == provider.Social && entry.Enabled {
			out = append(out, entry.Name)
		}
	}
	return out
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
