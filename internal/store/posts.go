package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/sightline/sightline/internal/geom"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/query"
)

// On SQLite a post's row number (seq, the full-text index's rowid) is its publication time in
// milliseconds times seqSpread plus a disambiguator, so that row order is publication order:
// the index then reads a time window as a row range and in the order a page wants. A million
// numbers a millisecond keep clashes rare even when a bulk import gives thousands of posts the
// same second, and fit int64 until the year 2248.
const seqSpread = 1 << 20

func seqFloor(t time.Time) int64   { return t.UnixMilli() * seqSpread }
func seqCeiling(t time.Time) int64 { return t.UnixMilli()*seqSpread + seqSpread - 1 }

// seqOf is the first row number tried for a post; a clash with another post of the same
// millisecond moves on to the next.
func seqOf(p post.Post) int64 {
	h := fnv.New32a()
	h.Write([]byte(p.ID))
	return seqFloor(p.PublishedAt) + int64(h.Sum32())%seqSpread
}

// InsertPosts stores posts that are not stored yet, in one transaction, and returns how many
// were new. A post already stored (same id) is left as it is, so redelivery is harmless.
// The full-text index holds the query analyzer's folded tokens, so that the index and the
// matcher see the same words.
func (s *Store) InsertPosts(ctx context.Context, posts []post.Post) (int, error) {
	if len(posts) == 0 {
		return 0, nil
	}
	if s.dialect == Postgres {
		if err := s.ensurePartitionsFor(ctx, posts); err != nil {
			return 0, err
		}
	}
	// Analysis and encoding are CPU work: do them on every core before taking the write lock.
	rows := make([]postRow, len(posts))
	parallel(len(posts), func(i int) { rows[i] = s.rowOf(posts[i]) })
	inserted, err := s.insertRows(ctx, posts, rows)
	if s.dialect == Postgres && isMissingPartition(err) {
		// Another node's retention dropped a day this store remembered: learn the days again.
		s.partitions.Clear()
		if err := s.ensurePartitionsFor(ctx, posts); err != nil {
			return 0, err
		}
		inserted, err = s.insertRows(ctx, posts, rows)
	}
	if s.dialect == Postgres && err == nil {
		s.noteInserted(posts)
	}
	return inserted, err
}

func (s *Store) insertRows(ctx context.Context, posts []post.Post, rows []postRow) (int, error) {
	if s.dialect == Postgres {
		return s.copyRows(ctx, posts, rows)
	}
	inserted := 0
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		inserted = 0
		insert, err := tx.PrepareContext(ctx, s.insertPostSQL())
		if err != nil {
			return err
		}
		defer insert.Close()
		var indexFTS, exists, indexGeo *sql.Stmt
		if s.dialect == SQLite {
			if indexGeo, err = tx.PrepareContext(ctx, `INSERT INTO posts_geo (id, min_lat, max_lat, min_lon, max_lon)
				VALUES ($1, $2, $3, $4, $5)`); err != nil {
				return err
			}
			defer indexGeo.Close()
			if indexFTS, err = tx.PrepareContext(ctx, `INSERT INTO posts_fts (rowid, title, body) VALUES ($1, $2, $3)`); err != nil {
				return err
			}
			defer indexFTS.Close()
			if exists, err = tx.PrepareContext(ctx, `SELECT COUNT(*) FROM posts WHERE id = $1`); err != nil {
				return err
			}
			defer exists.Close()
		}
		// Every post first, then the full-text rows in row order. FTS5 writes what it holds in
		// memory as a new segment at every savepoint (which a statement on an ordinary table
		// that may need undoing opens) and whenever a row number is not above the last one:
		// indexed last and in order, a batch becomes one segment, not one a post.
		var stored []int
		seqs := make([]int64, len(rows))
		for i, row := range rows {
			if row.err != nil {
				return fmt.Errorf("encode post %s: %w", posts[i].ID, row.err)
			}
			seq, isNew, err := s.insertPost(ctx, insert, exists, posts[i], row)
			if err != nil {
				return fmt.Errorf("insert post %s: %w", posts[i].ID, err)
			}
			if isNew {
				stored, seqs[i] = append(stored, i), seq
				if indexGeo != nil {
					if err := indexPlaces(ctx, indexGeo, seq, posts[i], rows[i].places); err != nil {
						return fmt.Errorf("index the places of post %s: %w", posts[i].ID, err)
					}
				}
			}
		}
		inserted = len(stored)
		if indexFTS == nil {
			return nil
		}
		slices.SortFunc(stored, func(a, b int) int { return cmp.Compare(seqs[a], seqs[b]) })
		for _, i := range stored {
			if _, err := indexFTS.ExecContext(ctx, seqs[i], rows[i].title, rows[i].body); err != nil {
				return err
			}
		}
		return nil
	})
	return inserted, err
}

// pgPostColumns are the posts columns in the order of postRow.args on PostgreSQL.
var pgPostColumns = []string{"id", "provider", "published_at", "discovered_at", "author_name", "author_screen_name",
	"board", "language", "lat", "lon", "has_images", "has_videos", "thread_id", "threat_score", "doc", "source",
	"source_user_id", "engagement", "author_followers", "tenant_id", "story_id", "places", "search"}

// createIncomingSQL makes the session's staging table of posts on their way into posts.
const createIncomingSQL = `CREATE TEMP TABLE IF NOT EXISTS posts_incoming (
	id TEXT, provider TEXT, published_at BIGINT, discovered_at BIGINT, author_name TEXT,
	author_screen_name TEXT, board TEXT, language TEXT, lat DOUBLE PRECISION, lon DOUBLE PRECISION,
	has_images BOOLEAN, has_videos BOOLEAN, thread_id TEXT, threat_score INTEGER, doc TEXT, source TEXT,
	source_user_id BIGINT, engagement BIGINT, author_followers BIGINT, tenant_id BIGINT, story_id TEXT, places TEXT,
	search TEXT)
	ON COMMIT DELETE ROWS`

// pgIncomingColumns and pgIncomingValues are the posts columns and the staged values that fill
// them: places and search are staged as text and cast on the way into posts.
var (
	pgIncomingColumns = strings.Join(pgPostColumns, ", ")
	pgIncomingValues  = strings.NewReplacer("places", "places::box", "search", "search::tsvector").Replace(pgIncomingColumns)
)

// copyRows stores a batch on PostgreSQL with COPY into a session's staging table, then one
// INSERT ... SELECT that skips posts already stored. One statement per post cost a round trip
// and an executor start each.
func (s *Store) copyRows(ctx context.Context, posts []post.Post, rows []postRow) (int, error) {
	for i, row := range rows {
		if row.err != nil {
			return 0, fmt.Errorf("encode post %s: %w", posts[i].ID, row.err)
		}
	}
	var inserted int64
	err := s.inPgxTx(ctx, func(tx pgx.Tx) error {
		if err := stageRows(ctx, tx, rows); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `INSERT INTO posts (`+pgIncomingColumns+`) SELECT `+pgIncomingValues+
			` FROM posts_incoming ON CONFLICT DO NOTHING`)
		inserted = tag.RowsAffected()
		return err
	})
	return int(inserted), err
}

// inPgxTx runs fn in a transaction on a write connection through pgx itself, for what
// database/sql does not offer (COPY), and commits when fn returns nil.
func (s *Store) inPgxTx(ctx context.Context, fn func(tx pgx.Tx) error) error {
	conn, err := s.write.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		tx, err := dc.(*stdlib.Conn).Conn().Begin(ctx)
		if err != nil {
			return err
		}
		defer tx.Rollback(ctx)
		if err := fn(tx); err != nil {
			return err
		}
		return tx.Commit(ctx)
	})
}

// stageRows copies a batch's rows into the session's staging table, posts_incoming, which
// lives as long as the connection and is emptied at every commit.
func stageRows(ctx context.Context, tx pgx.Tx, rows []postRow) error {
	if _, err := tx.Exec(ctx, createIncomingSQL); err != nil {
		return err
	}
	_, err := tx.CopyFrom(ctx, pgx.Identifier{"posts_incoming"}, pgPostColumns,
		pgx.CopyFromSlice(len(rows), func(i int) ([]any, error) { return rows[i].args, nil }))
	return err
}

// indexPlaces adds a post's point (under its row number) and the box around its mentioned
// places (under minus its row number) to SQLite's spatial index.
func indexPlaces(ctx context.Context, insert *sql.Stmt, seq int64, p post.Post, places *geom.Rect) error {
	if p.Location != nil {
		if _, err := insert.ExecContext(ctx, seq, p.Location.Lat, p.Location.Lat, p.Location.Lon, p.Location.Lon); err != nil {
			return err
		}
	}
	if places != nil {
		if _, err := insert.ExecContext(ctx, -seq, places.MinLat, places.MaxLat, places.MinLon, places.MaxLon); err != nil {
			return err
		}
	}
	return nil
}

// insertPost inserts one post on SQLite and reports whether it was new. A row number taken by
// another post of the same millisecond is followed by the next free one.
func (s *Store) insertPost(ctx context.Context, insert, exists *sql.Stmt, p post.Post, row postRow) (int64, bool, error) {
	for seq := seqOf(p); ; seq++ {
		var stored int64
		err := insert.QueryRowContext(ctx, append(row.args, seq)...).Scan(&stored)
		if err == nil {
			return stored, true, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return 0, false, err
		}
		var n int
		if err := exists.QueryRowContext(ctx, p.ID).Scan(&n); err != nil {
			return 0, false, err
		}
		if n > 0 {
			return 0, false, nil // the same post, stored before
		}
	}
}

// postRow is a post encoded for insertion.
type postRow struct {
	args        []any
	title, body string     // SQLite's full-text columns
	places      *geom.Rect // the box around the post's mentioned places, nil without any
	err         error
}

// placesBox is the box around the points of a post's mentioned places, nil when it has none.
func placesBox(p post.Post) *geom.Rect {
	if len(p.MentionedLocations) == 0 {
		return nil
	}
	first := p.MentionedLocations[0].Point
	r := geom.Rect{MinLat: first.Lat, MaxLat: first.Lat, MinLon: first.Lon, MaxLon: first.Lon}
	for _, m := range p.MentionedLocations[1:] {
		r.MinLat, r.MaxLat = min(r.MinLat, m.Point.Lat), max(r.MaxLat, m.Point.Lat)
		r.MinLon, r.MaxLon = min(r.MinLon, m.Point.Lon), max(r.MaxLon, m.Point.Lon)
	}
	return &r
}

func (s *Store) rowOf(p post.Post) postRow {
	doc, err := json.Marshal(p)
	if err != nil {
		return postRow{err: err}
	}
	var lat, lon sql.NullFloat64
	if p.Location != nil {
		lat = sql.NullFloat64{Float64: p.Location.Lat, Valid: true}
		lon = sql.NullFloat64{Float64: p.Location.Lon, Valid: true}
	}
	row := postRow{args: []any{p.ID, p.Provider, millis(p.PublishedAt), millis(p.DiscoveredAt), p.AuthorName,
		p.AuthorScreenName, p.Board, p.Language, lat, lon, len(p.Photos) > 0, len(p.Videos) > 0,
		p.ThreadID, p.Threat.Score, string(doc), p.Source, sql.NullInt64{Int64: p.SourceUserID, Valid: p.SourceUserID != 0},
		p.Engagement, p.AuthorFollowers, p.Tenant, p.StoryID}, places: placesBox(p)}
	if s.dialect == Postgres {
		var places sql.NullString
		if row.places != nil {
			places = sql.NullString{String: fmt.Sprintf("(%g,%g),(%g,%g)", row.places.MinLon, row.places.MinLat,
				row.places.MaxLon, row.places.MaxLat), Valid: true}
		}
		row.args = append(row.args, places, query.TSVector(p.TitleText, p.ContentText))
	} else {
		row.title, row.body = query.IndexText(p.TitleText), query.IndexText(p.ContentText)
	}
	return row
}

// parallel runs fn(0..n-1) on every core.
func parallel(n int, fn func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += workers {
				fn(i)
			}
		}()
	}
	wg.Wait()
}

func (s *Store) insertPostSQL() string {
	const columns = `id, provider, published_at, discovered_at, author_name, author_screen_name, board,
		language, lat, lon, has_images, has_videos, thread_id, threat_score, doc, source, source_user_id,
		engagement, author_followers, tenant_id, story_id`
	return `INSERT INTO posts (` + columns + `, seq)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22)
		ON CONFLICT DO NOTHING RETURNING seq`
}

// Post loads one stored post that a user of the tenant may see: another tenant's private post
// is not found, as if it did not exist.
func (s *Store) Post(ctx context.Context, id string, tenant int64) (post.Post, error) {
	p, err := s.storedPost(ctx, id)
	if err != nil {
		return post.Post{}, err
	}
	if !post.VisibleTo(p.Tenant, tenant) {
		return post.Post{}, notFound(sql.ErrNoRows, "post")
	}
	return p, s.hideRemovedPlaces(ctx, tenant, &p)
}

// storedPost loads one stored post, whoever owns it: for reads already scoped, such as a
// match's post (the percolator matches a private post only for its own tenant's searches).
func (s *Store) storedPost(ctx context.Context, id string) (post.Post, error) {
	var doc string
	var sourceUser sql.NullInt64
	var owner int64
	err := s.read.QueryRowContext(ctx, `SELECT doc, source_user_id, tenant_id FROM posts WHERE id = $1`, id).
		Scan(&doc, &sourceUser, &owner)
	if err != nil {
		return post.Post{}, notFound(err, "post")
	}
	var p post.Post
	err = json.Unmarshal([]byte(doc), &p)
	p.SourceUserID, p.Tenant = sourceUser.Int64, owner
	return p, err
}

// postDocs reads a query's rows of post documents, in order.
func postDocs(rows *sql.Rows, err error) ([]post.Post, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []post.Post{}
	for rows.Next() {
		var doc string
		if err := rows.Scan(&doc); err != nil {
			return nil, err
		}
		var p post.Post
		if err := json.Unmarshal([]byte(doc), &p); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// EachRecentPost calls fn with each post published since a time, whoever owns it, oldest
// first: what the stories stage rebuilds its window from at start. Posts are read one at a
// time, so days of them never sit in memory at once.
func (s *Store) EachRecentPost(ctx context.Context, since time.Time, fn func(p *post.Post)) error {
	rows, err := s.read.QueryContext(ctx, `SELECT doc FROM posts WHERE published_at >= $1 ORDER BY published_at, id`, millis(since))
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var doc string
		if err := rows.Scan(&doc); err != nil {
			return err
		}
		var p post.Post
		if err := json.Unmarshal([]byte(doc), &p); err != nil {
			return err
		}
		fn(&p)
	}
	return rows.Err()
}

// CountPosts counts stored posts, in total and per provider.
func (s *Store) CountPosts(ctx context.Context) (total int64, byProvider map[string]int64, err error) {
	rows, err := s.read.QueryContext(ctx, `SELECT provider, COUNT(*) FROM posts GROUP BY provider`)
	if err != nil {
		return 0, nil, err
	}
	defer rows.Close()
	byProvider = map[string]int64{}
	for rows.Next() {
		var provider string
		var n int64
		if err := rows.Scan(&provider, &n); err != nil {
			return 0, nil, err
		}
		byProvider[provider] = n
		total += n
	}
	return total, byProvider, rows.Err()
}

// retentionChunk bounds each delete so retention never holds the write lock for long.
const retentionChunk = 2000

// DeletePostsBefore removes posts published before cutoff, in short transactions that let
// ingest write in between, and returns how many went. On PostgreSQL whole day partitions
// are dropped first.
func (s *Store) DeletePostsBefore(ctx context.Context, cutoff time.Time) (int64, error) {
	var total int64
	if s.dialect == Postgres {
		if err := s.dropPartitionsBefore(ctx, cutoff); err != nil {
			return 0, err
		}
	}
	for {
		n, err := s.deletePostChunk(ctx, millis(cutoff))
		total += n
		if err != nil || n < retentionChunk {
			return total, err
		}
		select {
		case <-ctx.Done():
			return total, ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
}

func (s *Store) deletePostChunk(ctx context.Context, cutoff int64) (int64, error) {
	var n int64
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if s.dialect == Postgres {
			res, err := tx.ExecContext(ctx, `DELETE FROM posts WHERE (id, published_at) IN
				(SELECT id, published_at FROM posts WHERE published_at < $1 LIMIT $2)`, cutoff, retentionChunk)
			if err != nil {
				return err
			}
			n, err = res.RowsAffected()
			return err
		}
		// Row numbers are in publication order: the oldest posts are the first rows.
		rows, err := tx.QueryContext(ctx, `DELETE FROM posts WHERE seq IN
			(SELECT seq FROM posts WHERE seq < $1 LIMIT $2) RETURNING seq`, cutoff*seqSpread, retentionChunk)
		if err != nil {
			return err
		}
		var seqs []int64
		for rows.Next() {
			var seq int64
			if err := rows.Scan(&seq); err != nil {
				rows.Close()
				return err
			}
			seqs = append(seqs, seq)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, seq := range seqs {
			if _, err := tx.ExecContext(ctx, `DELETE FROM posts_fts WHERE rowid = $1`, seq); err != nil {
				return err
			}
			// The spatial index's entries of the post, if it has any: its point and its places.
			if _, err := tx.ExecContext(ctx, `DELETE FROM posts_geo WHERE id = $1 OR id = $2`, seq, -seq); err != nil {
				return err
			}
		}
		n = int64(len(seqs))
		return nil
	})
	return n, err
}

// Day partitions (PostgreSQL): posts_YYYYMMDD holds posts published that UTC day.
const day = 24 * time.Hour

var partitionsMu sync.Mutex

func partitionName(d time.Time) string { return "posts_" + d.Format("20060102") }

// EnsurePartitions creates the day partitions from..to (inclusive) that do not exist yet.
func (s *Store) EnsurePartitions(ctx context.Context, from, to time.Time) error {
	if s.dialect != Postgres {
		return nil
	}
	partitionsMu.Lock()
	defer partitionsMu.Unlock()
	for d := from.UTC().Truncate(day); !d.After(to); d = d.Add(day) {
		_, err := s.write.ExecContext(ctx, fmt.Sprintf(`CREATE TABLE IF NOT EXISTS %s PARTITION OF posts
			FOR VALUES FROM (%d) TO (%d)`, partitionName(d), d.UnixMilli(), d.Add(day).UnixMilli()))
		if err != nil && !isDuplicateObject(err) {
			return fmt.Errorf("create partition %s: %w", partitionName(d), err)
		}
	}
	return nil
}

func (s *Store) ensurePartitionsFor(ctx context.Context, posts []post.Post) error {
	lo, hi := posts[0].PublishedAt, posts[0].PublishedAt
	for _, p := range posts[1:] {
		if p.PublishedAt.Before(lo) {
			lo = p.PublishedAt
		}
		if p.PublishedAt.After(hi) {
			hi = p.PublishedAt
		}
	}
	return s.ensureKnownPartitions(ctx, lo, hi)
}

func (s *Store) ensureKnownPartitions(ctx context.Context, lo, hi time.Time) error {
	for d := lo.UTC().Truncate(day); !d.After(hi); d = d.Add(day) {
		if _, ok := s.partitions.Load(d.Unix()); ok {
			continue
		}
		if err := s.EnsurePartitions(ctx, d, d); err != nil {
			return err
		}
		s.partitions.Store(d.Unix(), true)
	}
	return nil
}

func (s *Store) dropPartitionsBefore(ctx context.Context, cutoff time.Time) error {
	rows, err := s.read.QueryContext(ctx, `SELECT c.relname FROM pg_inherits i
		JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
		WHERE p.relname = 'posts' AND c.relnamespace = p.relnamespace AND p.relnamespace = (
			SELECT oid FROM pg_namespace WHERE nspname = current_schema())`)
	if err != nil {
		return err
	}
	var names []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return err
		}
		names = append(names, name)
	}
	rows.Close()
	for _, name := range names {
		d, err := time.Parse("20060102", strings.TrimPrefix(name, "posts_"))
		if err != nil || d.Add(day).After(cutoff) {
			continue
		}
		if _, err := s.write.ExecContext(ctx, `DROP TABLE IF EXISTS `+name); err != nil {
			return err
		}
		s.partitions.Delete(d.Unix())
	}
	return nil
}

// isMissingPartition is PostgreSQL's answer to a row whose day has no partition.
func isMissingPartition(err error) bool {
	return err != nil && strings.Contains(err.Error(), "no partition of relation")
}

func isDuplicateObject(err error) bool {
	return err != nil && (strings.Contains(err.Error(), "SQLSTATE 42P07") || strings.Contains(err.Error(), "already exists"))
}

// CountConnectorPosts counts, by provider, the posts the connectors stored (every post not
// pushed through the ingest API) that tenantID may see (the shared sources' and its own
// sources'), and how many of them were discovered since a time.
func (s *Store) CountConnectorPosts(ctx context.Context, tenantID int64, since time.Time) (total, recent map[string]int64, err error) {
	rows, err := s.read.QueryContext(ctx, `SELECT provider, COUNT(*), COALESCE(SUM(CASE WHEN discovered_at >= $1 THEN 1 ELSE 0 END), 0)
		FROM posts WHERE source_user_id IS NULL AND tenant_id IN (0, $2) GROUP BY provider`, millis(since), tenantID)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	total, recent = map[string]int64{}, map[string]int64{}
	for rows.Next() {
		var provider string
		var n, r int64
		if err := rows.Scan(&provider, &n, &r); err != nil {
			return nil, nil, err
		}
		total[provider], recent[provider] = n, r
	}
	return total, recent, rows.Err()
}

// SourceCount is how many stored posts one ingest source pushed for one provider, and how many
// of them were discovered since a time.
type SourceCount struct {
	UserID   int64
	Source   string
	Provider string
	Count    int64
	Recent   int64
}

// CountSourcePosts counts the posts the users of one tenant pushed through the ingest API, by
// source and provider: every such user's, or only userID's when it is not 0.
func (s *Store) CountSourcePosts(ctx context.Context, tenantID, userID int64, since time.Time) ([]SourceCount, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT p.source_user_id, p.source, p.provider, COUNT(*),
			COALESCE(SUM(CASE WHEN p.discovered_at >= $1 THEN 1 ELSE 0 END), 0)
		FROM posts p JOIN users u ON u.id = p.source_user_id
		WHERE u.tenant_id = $2 AND ($3 = 0 OR p.source_user_id = $3)
		GROUP BY p.source_user_id, p.source, p.provider ORDER BY p.source_user_id, p.source, p.provider`, millis(since), tenantID, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var counts []SourceCount
	for rows.Next() {
		var c SourceCount
		if err := rows.Scan(&c.UserID, &c.Source, &c.Provider, &c.Count, &c.Recent); err != nil {
			return nil, err
		}
		counts = append(counts, c)
	}
	return counts, rows.Err()
}

// PostIndexCounts reports how many posts are stored and how many full-text index entries
// exist for them; the two agree unless the index has drifted.
func (s *Store) PostIndexCounts(ctx context.Context) (posts, indexed int64, err error) {
	err = s.read.QueryRowContext(ctx, s.sql.postIndexCounts).Scan(&posts, &indexed)
	return posts, indexed, err
}
