package search_test

import (
	"context"
	"database/sql"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/connector/simulator"
	"github.com/sightline/sightline/internal/enrich"
	"github.com/sightline/sightline/internal/geo"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/search"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// BenchmarkLocateInArea times the first page of Locate location searches (the spec's default
// 30-day window, newest first) over LOCATE_POSTS simulated posts (default 200,000) spread over
// 30 days, enriched as ingest enriches them (points and mentioned places), on SQLite or, with
// LOCATE_DB=postgres, PostgreSQL. It reports the p50 and p95 of the pages and how many results
// a page held on average (a page without the spatial index may stop short at its budget).
func BenchmarkLocateInArea(b *testing.B) {
	if benchStore == nil {
		benchStore = loadBenchPosts(b)
	}
	s := benchStore
	ctx := context.Background()
	// City boxes of about 15 km, a country and a stretch of open sea.
	areas := []string{
		"POLYGON((4.77 45.70,4.90 45.70,4.90 45.81,4.77 45.81,4.77 45.70))",           // Lyon
		"POLYGON((2.25 48.81,2.42 48.81,2.42 48.90,2.25 48.90,2.25 48.81))",           // Paris
		"POLYGON((3.30 6.45,3.45 6.45,3.45 6.60,3.30 6.60,3.30 6.45))",                // Lagos
		"POLYGON((139.60 35.60,139.80 35.60,139.80 35.75,139.60 35.75,139.60 35.60))", // Tokyo
		"POLYGON((-74.05 40.68,-73.90 40.68,-73.90 40.82,-74.05 40.82,-74.05 40.68))", // New York
		"POLYGON((-5.0 42.0,8.0 42.0,8.0 51.0,-5.0 51.0,-5.0 42.0))",                  // France
		"POLYGON((-40 -50,-30 -50,-30 -40,-40 -40,-40 -50))",                          // the South Atlantic
	}
	svc := search.NewService(s, search.Options{})
	var took []time.Duration
	found := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		area := areas[i%len(areas)]
		began := time.Now()
		page, err := svc.Locate(ctx, everything, authz.Actor{}, search.LocateRequest{Type: "location", Bounds: area})
		if err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(began))
		found += page.Count
		if os.Getenv("LOCATE_VERBOSE") != "" {
			b.Logf("%s: %v, %d results of %d", area[:30], time.Since(began), page.Count, page.TotalCount)
		}
	}
	b.StopTimer()
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(took[len(took)*95/100].Microseconds())/1000, "p95-ms")
	b.ReportMetric(float64(found)/float64(b.N), "results/page")
}

// benchStore keeps the loaded posts across the benchmark's runs (testing runs it with b.N = 1
// first).
var benchStore *store.Store

func loadBenchPosts(b *testing.B) *store.Store {
	n := 200_000
	if v, err := strconv.Atoi(os.Getenv("LOCATE_POSTS")); err == nil && v > 0 {
		n = v
	}
	dialect := store.SQLite
	if os.Getenv("LOCATE_DB") == "postgres" {
		dialect = store.Postgres
	}
	// Opened for the whole process, not through storetest (whose cleanup at the end of the
	// first run would drop it): a temporary file, or the schema bench_locate made afresh.
	ctx := context.Background()
	dsn := ""
	if dialect == store.SQLite {
		dir, err := os.MkdirTemp("", "locate-bench")
		if err != nil {
			b.Fatal(err)
		}
		dsn = filepath.Join(dir, "sightline.db")
	} else {
		admin, err := sql.Open("pgx", storetest.PostgresURL())
		if err != nil {
			b.Fatal(err)
		}
		defer admin.Close()
		if _, err := admin.Exec(`DROP SCHEMA IF EXISTS bench_locate CASCADE; CREATE SCHEMA bench_locate`); err != nil {
			b.Fatal(err)
		}
		u, _ := url.Parse(storetest.PostgresURL())
		q := u.Query()
		q.Set("search_path", "bench_locate")
		u.RawQuery = q.Encode()
		dsn = u.String()
	}
	s, err := store.Open(ctx, dsn)
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Migrate(ctx); err != nil {
		b.Fatal(err)
	}
	gazetteer, err := geo.LoadGazetteer()
	if err != nil {
		b.Fatal(err)
	}
	enricher := enrich.New(gazetteer)
	gen := simulator.NewGenerator(42)
	now := time.Now().UTC()
	start := now.Add(-30 * 24 * time.Hour)
	step := 30 * 24 * time.Hour / time.Duration(n)
	batch := make([]post.Post, 0, 5000)
	for i := range n {
		p := gen.Next(start.Add(time.Duration(i) * step))
		enricher.Enrich(&p)
		if err := p.Normalize(now); err != nil {
			continue
		}
		batch = append(batch, p)
		if len(batch) == cap(batch) || i == n-1 {
			if _, err := s.InsertPosts(ctx, batch); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	return s
}
