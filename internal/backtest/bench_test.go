package backtest

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/percolate/workload"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/provider"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// BenchmarkBacktest times backtests of the percolator benchmark's query shapes over
// BACKTEST_POSTS (default 100,000) generated posts spread over 29 days, on SQLite (or
// PostgreSQL with BACKTEST_DB=postgres), and reports the p50 and p95 of one backtest. Run:
// BACKTEST_POSTS=100000 go test -run '^$' -bench Backtest -benchtime 200x ./internal/backtest/
func BenchmarkBacktest(b *testing.B) {
	n := 100_000
	if v, err := strconv.Atoi(os.Getenv("BACKTEST_POSTS")); err == nil && v > 0 {
		n = v
	}
	ctx := context.Background()
	dialect := store.SQLite
	if os.Getenv("BACKTEST_DB") == "postgres" {
		dialect = store.Postgres
	}
	s := storetest.Open(b, dialect)
	f := newFixture(b, s, "bench@acme.test")
	f.svc.budget = Budget // the product's, which the truncated share reports on
	g := workload.NewGenerator(1)
	now := time.Now().UTC()
	day := int64(29 * 24 * time.Hour / time.Millisecond)
	batch := make([]post.Post, 0, 5000)
	for i := range n {
		d := g.Post(now)
		p := post.Post{Provider: d.Provider, NativeID: fmt.Sprint("w", i), TitleText: d.Title, ContentText: d.Text,
			AuthorName: d.AuthorName, AuthorScreenName: d.AuthorScreenName, Board: d.Board, DetectedObjects: d.Objects,
			PublishedAt: now.Add(-time.Duration(int64(i)*day/int64(n)) * time.Millisecond)}
		if d.HasImages {
			p.Photos = []post.Media{{Large: "https://img.example/x.jpg"}}
		}
		if d.Location != nil {
			p.Location = &post.Point{Lat: d.Location.Lat, Lon: d.Location.Lon}
		}
		p.ID = post.NewID(p.Provider, p.NativeID)
		p.DiscoveredAt = p.PublishedAt
		if batch = append(batch, p); len(batch) == cap(batch) || i == n-1 {
			if _, err := s.InsertPosts(ctx, batch); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	var available []string
	for _, e := range provider.For(provider.Entitlements{Beacon: true, Pro: true, Enterprise: true}) {
		available = append(available, e.Name)
	}
	var drafts []Request
	for id := int64(1); len(drafts) < 200; id++ {
		ss := g.Search(id, now)
		in := monitor.SearchInput{GroupID: f.home, Name: "bench", Keywords: ss.Keywords, AuthorQuery: ss.Author,
			ImagesOnly: ss.ImagesOnly, VideoOnly: ss.VideosOnly, BoardNames: ss.Boards}
		for _, p := range ss.Providers {
			if slices.Contains(available, p) {
				in.Providers = append(in.Providers, p)
			}
		}
		if ss.Bounds != nil {
			in.AddressBounds = ss.Bounds.WKT()
		}
		r := Request{DraftInput: monitor.DraftInput{SearchInput: in}}
		if _, err := f.svc.Run(ctx, f.actor, r); err == nil { // drafts the Monitor refuses are left out
			drafts = append(drafts, r)
		}
	}
	times := make([]time.Duration, 0, b.N)
	truncated := 0
	b.ResetTimer()
	for i := range b.N {
		start := time.Now()
		res, err := f.svc.Run(ctx, f.actor, drafts[i%len(drafts)])
		if err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(start))
		if res.Truncated {
			truncated++
		}
	}
	b.StopTimer()
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(times[len(times)*95/100].Microseconds())/1000, "p95-ms")
	b.ReportMetric(float64(truncated)/float64(b.N), "truncated-share")
}
