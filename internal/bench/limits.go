package bench

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/connector/simulator"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/query"
	"github.com/sightline/sightline/internal/search"
	"github.com/sightline/sightline/internal/server"
	"github.com/sightline/sightline/internal/store"
)

// The limits `bench ingest` measures its figures against, in the same run: what the store
// does with nothing in front of it.

// storeBatch is how many posts the raw writes store at once: the most the storage stage takes
// off the stream in one batch, as it does while a backlog is waiting.
const storeBatch = 5000

// rawPostsPerSec is the store's raw capacity: the posts of the pipeline's run (the same
// generator and seed), normalized only (no stream, no enrichment, no percolation), written
// in the storage stage's batches, one batch after the other as that stage does, straight into
// the same tables and full-text index of an empty store of the same kind (a new SQLite file,
// or a new database on the same PostgreSQL server). Only the writes are timed.
func rawPostsPerSec(ctx context.Context, db string, posts int) (float64, error) {
	dir, err := os.MkdirTemp("", "sightline-bench-raw-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	if db != "" {
		dsn, drop, err := benchDatabase(db)
		if err != nil {
			return 0, err
		}
		defer drop()
		db = dsn
	}
	s, err := server.OpenStore(ctx, server.Config{DataDir: dir, DB: db})
	if err != nil {
		return 0, err
	}
	defer s.Close()
	gen := simulator.NewGenerator(1)
	var spent time.Duration
	batch := make([]post.Post, 0, storeBatch)
	for done := 0; done < posts; done += len(batch) {
		batch = batch[:0]
		now := time.Now()
		for range min(storeBatch, posts-done) {
			p := gen.Next(now)
			if err := p.Normalize(now); err != nil {
				return 0, err
			}
			batch = append(batch, p)
		}
		start := time.Now()
		if _, err := s.InsertPosts(ctx, batch); err != nil {
			return 0, err
		}
		spent += time.Since(start)
	}
	return float64(posts) / spent.Seconds(), nil
}

// ftsLatencies times, for each query, one query of the store's full-text index for the same
// words (the query's own full-text expression, query.FTS5 or query.TSQuery, as the search gives
// the store), newest first, one page of search.DefaultSize: the least a search for those words
// can ask of the store (page). It reads the node's store through a connection of its own.
// Queries without a full-text expression are left out of the latencies.
//
// total times the same page followed by what a first page must add to it (docs/search-api.md):
// its total, the matches among the search's sources (providers) that the reader (tenant) may
// see, counted up to 1,001. The index alone does not hold a post's source and tenant, so the
// count reads each match's row, as the search's own count does.
func ftsLatencies(ctx context.Context, dialect store.Dialect, dsn string, queries []string, tenant int64,
	providers []string) (page, total []float64, err error) {
	var (
		conn       *sql.DB
		stmt, size string
		expr       func(*query.Query) (string, bool)
	)
	marks := make([]string, len(providers))
	args := []any{nil, tenant}
	for i, p := range providers {
		marks[i] = "$" + strconv.Itoa(i+3)
		args = append(args, p)
	}
	sources := "p.tenant_id IN (0, $2) AND p.provider IN (" + strings.Join(marks, ", ") + ")"
	if dialect == store.Postgres {
		conn, err = sql.Open("pgx", dsn)
		stmt = `SELECT id FROM posts WHERE search @@ $1::tsquery ORDER BY published_at DESC LIMIT $2`
		size = `SELECT COUNT(*) FROM (SELECT 1 FROM posts p WHERE p.search @@ $1::tsquery AND ` + sources + ` LIMIT 1001) c`
		expr = (*query.Query).TSQuery
	} else {
		// Opened as the store's read pool opens it, so that the ratio compares work, not settings.
		conn, err = sql.Open("sqlite", store.SQLiteReadDSN(filepath.Clean(dsn)))
		// The full-text rows are numbered in publication order, as the posts' seq.
		stmt = `SELECT p.id FROM posts_fts f JOIN posts p ON p.seq = f.rowid WHERE posts_fts MATCH $1 ORDER BY f.rowid DESC LIMIT $2`
		size = `SELECT COUNT(*) FROM (SELECT 1 FROM posts_fts f JOIN posts p ON p.seq = f.rowid
			WHERE posts_fts MATCH $1 AND ` + sources + ` LIMIT 1001) c`
		expr = (*query.Query).FTS5
	}
	if err != nil {
		return nil, nil, err
	}
	defer conn.Close()
	for _, text := range queries {
		q, _ := query.Parse(text, query.ModeBeacon)
		if q == nil {
			continue
		}
		e, ok := expr(q)
		if !ok {
			continue
		}
		start := time.Now()
		rows, err := conn.QueryContext(ctx, stmt, e, search.DefaultSize)
		if err != nil {
			return nil, nil, fmt.Errorf("full-text query %q: %w", e, err)
		}
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, nil, err
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, nil, err
		}
		paged := time.Since(start)
		var n int
		args[0] = e
		if err := conn.QueryRowContext(ctx, size, args...).Scan(&n); err != nil {
			return nil, nil, fmt.Errorf("full-text count %q: %w", e, err)
		}
		page, total = append(page, millis(paged)), append(total, millis(time.Since(start)))
	}
	return page, total, nil
}
