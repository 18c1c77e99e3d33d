package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/sightline/sightline/internal/geom"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/query"
	"github.com/sightline/sightline/internal/search"
)

// selection is a search.PostQuery turned into SQL.
type selection struct {
	from    string
	where   []string
	args    []any
	rank    string // ORDER BY term for relevance, "" when nothing ranks
	key     string // the tie-breaker column
	keyword bool   // the full-text index narrows the rows
}

func (sel *selection) arg(v any) string {
	sel.args = append(sel.args, v)
	return "$" + strconv.Itoa(len(sel.args))
}

func (s *Store) selection(q search.PostQuery) *selection {
	sel := s.window(q)
	sel.where = append(sel.where, "p.tenant_id IN (0, "+sel.arg(q.Tenant)+")") // post.VisibleTo
	if len(q.Providers) > 0 {
		marks := make([]string, len(q.Providers))
		for i, p := range q.Providers {
			marks[i] = sel.arg(p)
		}
		sel.where = append(sel.where, "p.provider IN ("+strings.Join(marks, ", ")+")")
	}
	if q.ImagesOnly {
		sel.where = append(sel.where, "p.has_images")
	}
	if q.VideosOnly {
		sel.where = append(sel.where, "p.has_videos")
	}
	if q.MinThreat > 0 {
		sel.where = append(sel.where, "p.threat_score >= "+sel.arg(q.MinThreat))
	}
	if !q.DiscoveredFrom.IsZero() {
		sel.where = append(sel.where, "p.discovered_at >= "+sel.arg(millis(q.DiscoveredFrom)))
	}
	if !q.DiscoveredTo.IsZero() {
		sel.where = append(sel.where, "p.discovered_at <= "+sel.arg(millis(q.DiscoveredTo)))
	}
	if len(q.CommunityKinds) > 0 {
		marks := make([]string, len(q.CommunityKinds))
		for i, k := range q.CommunityKinds {
			marks[i] = sel.arg(k)
		}
		// Read from the post's document, with no index of its own: the window, the providers
		// and the full-text index narrow the rows first.
		kind := "json_extract(p.doc, '$.community_kind')"
		if s.dialect == Postgres {
			kind = "(p.doc::jsonb ->> 'community_kind')"
		}
		sel.where = append(sel.where, kind+" IN ("+strings.Join(marks, ", ")+")")
	}
	if q.Within != nil {
		sel.where = append(sel.where, s.withinCondition(sel, *q.Within))
	}
	if q.Keywords != nil {
		s.matchKeywords(sel, q)
	}
	s.sample(sel, q.Sample) // after the keywords, which may change the key
	return sel
}

// window selects every post of q's window, whoever may read it.
func (s *Store) window(q search.PostQuery) *selection {
	sel := &selection{from: "posts p", key: s.sql.postKey}
	sel.where = append(sel.where, "p.published_at >= "+sel.arg(millis(q.From)), "p.published_at <= "+sel.arg(millis(q.To)))
	if s.dialect == SQLite {
		sel.where = append(sel.where, "p.seq >= "+sel.arg(seqFloor(q.From)), "p.seq <= "+sel.arg(seqCeiling(q.To)))
	}
	return sel
}

// ExactKeywords reports whether the full-text index selects exactly the posts q matches
// (query.FTS5Exact, query.TSQueryExact): a search.PostQuery with Exact set is then read by that
// expression.
func (s *Store) ExactKeywords(q *query.Query) bool {
	_, ok := s.sql.exactKeywords(q)
	return ok
}

// matchKeywords narrows sel by the full-text index: by the exact expression when q asks for it
// and there is one, else by the superset.
func (s *Store) matchKeywords(sel *selection, q search.PostQuery) {
	widened, ok := s.sql.keywords(q.Keywords)
	if !ok {
		return
	}
	expr := widened
	if exact, ok := s.sql.exactKeywords(q.Keywords); ok && q.Exact {
		expr = exact
	}
	if s.dialect == Postgres {
		mark := sel.arg(expr)
		sel.where = append(sel.where, "p.search @@ "+mark+"::tsquery")
		// Ranked by the superset's expression whichever selects: the same order either way (an
		// exclusion is no part of a post's rank). PostgreSQL refuses a parameter left unused.
		rank := mark
		if expr != widened && q.Sort == post.SortRelevance {
			rank = sel.arg(widened)
		}
		sel.rank, sel.keyword = "ts_rank(p.search, "+rank+"::tsquery) DESC", true
	} else {
		sel.from = "posts_fts f JOIN posts p ON p.seq = f.rowid"
		// The window as a row range of the full-text index (rows are numbered in publication
		// order): the index reads only the window, and in the order the page wants.
		sel.where = append(sel.where, "posts_fts MATCH "+sel.arg(expr),
			"f.rowid >= "+sel.arg(seqFloor(q.From)), "f.rowid <= "+sel.arg(seqCeiling(q.To)))
		sel.rank, sel.keyword, sel.key = "f.rank", true, "f.rowid"
	}
}

// sample keeps the rows whose id hashes into r. On SQLite the row number's low bits are
// already a hash of the post's id (seqOf), so the full-text index drops the others before a
// post is read; PostgreSQL hashes the id.
func (s *Store) sample(sel *selection, r search.HashRange) {
	if r.All() {
		return
	}
	hash := fmt.Sprintf("(hashtext(p.id) & %d)", seqSpread-1)
	if s.dialect == SQLite {
		hash = fmt.Sprintf("(%s %% %d)", sel.key, seqSpread)
	}
	sel.where = append(sel.where, fmt.Sprintf("%s >= %s AND %s < %s",
		hash, sel.arg(int64(r.From*seqSpread)), hash, sel.arg(int64(r.To*seqSpread))))
}

// CountFullText counts the rows q's full-text match finds in its window, reading the
// full-text index alone: the filters beside it are left out. ok is false when q has no
// full-text part to count by.
func (s *Store) CountFullText(ctx context.Context, q search.PostQuery) (n int, ok bool, err error) {
	if q.Keywords == nil {
		return 0, false, nil
	}
	expr, ok := s.sql.keywords(q.Keywords)
	if !ok {
		return 0, false, nil
	}
	from, to := s.sql.fullTextWindow(q.From, q.To)
	read := func(db querier) error { return db.QueryRowContext(ctx, s.sql.countFullText, expr, from, to).Scan(&n) }
	if s.dialect == Postgres {
		err = s.bitmapsOnly(ctx, read)
	} else {
		err = read(s.read)
	}
	if err != nil {
		return 0, false, fmt.Errorf("count full-text matches: %w", err)
	}
	return n, true, nil
}

// withinCondition is "the post's point or its places' box meets r", read from the spatial
// index: SQLite's R*Tree gives the row numbers, PostgreSQL's GiST indexes the rows. A box that
// crosses the antimeridian is asked as its two halves.
func (s *Store) withinCondition(sel *selection, r geom.Rect) string {
	halves := []geom.Rect{r}
	if r.MinLon > r.MaxLon {
		east, west := r, r
		east.MaxLon, west.MinLon = 180, -180
		halves = []geom.Rect{east, west}
	}
	var parts []string
	for _, h := range halves {
		minLat, maxLat, minLon, maxLon := sel.arg(h.MinLat), sel.arg(h.MaxLat), sel.arg(h.MinLon), sel.arg(h.MaxLon)
		if s.dialect == SQLite {
			parts = append(parts, fmt.Sprintf(`SELECT abs(id) FROM posts_geo WHERE max_lat >= %s AND min_lat <= %s
				AND max_lon >= %s AND min_lon <= %s`, minLat, maxLat, minLon, maxLon))
			continue
		}
		box := fmt.Sprintf("box(point(%s, %s), point(%s, %s))", minLon, minLat, maxLon, maxLat)
		parts = append(parts, fmt.Sprintf("point(p.lon, p.lat) <@ %s OR p.places && %s", box, box))
	}
	if s.dialect == SQLite {
		return "p.seq IN (" + strings.Join(parts, " UNION ALL ") + ")"
	}
	return "(" + strings.Join(parts, " OR ") + ")"
}

// CandidatePosts returns up to q.Limit candidates in q.Sort order, without the places the
// tenant removed from them.
func (s *Store) CandidatePosts(ctx context.Context, q search.PostQuery) ([]search.Candidate, error) {
	out, err := s.candidatePosts(ctx, q)
	if err != nil {
		return nil, err
	}
	posts := make([]*post.Post, len(out))
	for i := range out {
		posts[i] = &out[i].Post
	}
	return out, s.hideRemovedPlaces(ctx, q.Tenant, posts...)
}

func (s *Store) candidatePosts(ctx context.Context, q search.PostQuery) ([]search.Candidate, error) {
	if s.dialect == Postgres && q.Sort != post.SortRelevance && countColumn(q.Sort) == "" && q.Keywords != nil {
		if _, ok := q.Keywords.TSQuery(); ok {
			if !q.Sample.All() {
				// A sample keeps few of a word's rows wherever they are: walking the time
				// index would check many for each kept.
				var out []search.Candidate
				return out, s.bitmapsOnly(ctx, func(db querier) (err error) {
					out, err = s.candidates(ctx, db, q, nil)
					return err
				})
			}
			return s.candidatesInSteps(ctx, q)
		}
	}
	return s.candidates(ctx, s.read, q, nil)
}

// rumOrder reports whether the RUM index reads q's order: publication time, either way.
func (s *Store) rumOrder(ctx context.Context, sort string) (bool, error) {
	if sort != post.SortPublishedDesc && sort != post.SortPublishedAsc {
		return false, nil
	}
	schema, err := s.rumSchema(ctx)
	return schema != "", err
}

// SearchIndex names the posts' full-text index: "fts5" on SQLite, "rum" or "gin" on PostgreSQL
// (migration 0026 makes it RUM when the extension can be had).
func (s *Store) SearchIndex(ctx context.Context) (string, error) {
	if s.dialect == SQLite {
		return "fts5", nil
	}
	rum, err := s.rumSchema(ctx)
	if rum != "" {
		return "rum", err
	}
	return "gin", err
}

// rumSchema is the schema of the RUM extension when the posts' full-text index is a RUM index
// (migration 0026), "" when it is GIN. It is looked up once; Migrate looks again.
func (s *Store) rumSchema(ctx context.Context) (string, error) {
	s.searchIndexMu.Lock()
	defer s.searchIndexMu.Unlock()
	if s.searchIndexKnown {
		return s.rum, nil
	}
	var schema sql.NullString
	err := s.read.QueryRowContext(ctx, `SELECT n.nspname FROM pg_extension e
		JOIN pg_namespace n ON n.oid = e.extnamespace
		WHERE e.extname = 'rum' AND to_regclass('posts_search_rum') IS NOT NULL`).Scan(&schema)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return "", err
	}
	s.rum, s.searchIndexKnown = schema.String, true
	return s.rum, nil
}

// pgWalk is how many rows of the window PostgreSQL reads in time order, checking each, before
// the stretch; pgStretch is how many rows after those it reads through the time index's bitmap
// before the rest is left to the full-text index.
const (
	pgWalk    = 10_000
	pgStretch = 40_000
)

// candidatesInSteps keeps PostgreSQL's plans bounded. Its planner guesses how common a search's
// words are among the chosen providers; when it guesses common it walks the time index and
// filters, which reads the whole window for a word that is rare there (seconds at a million
// posts), and when it guesses rare it reads every match of a common word and sorts them. So:
//   - the walk covers the window's first s.walk rows in the page's order, where a common word
//     fills the page;
//   - the stretch, the next s.stretch rows, is read from the word's full-text bitmap ANDed with
//     the time index's (index walks switched off), where a word found mostly in other providers
//     fills it from a few thousand table pages instead of visiting all of its matches;
//   - the full-text index alone finds the matches beyond, which for a rarer word are few.
//
// Each step runs only when the ones before it left the page short.
func (s *Store) candidatesInSteps(ctx context.Context, q search.PostQuery) ([]search.Candidate, error) {
	rum, err := s.rumOrder(ctx, q.Sort)
	if err != nil {
		return nil, err
	}
	out := []search.Candidate{}
	err = s.eachStep(ctx, q, rum, func(db querier, b *bound) (bool, error) {
		rest := q
		rest.Limit = q.Limit - len(out)
		got, err := s.candidates(ctx, db, rest, b)
		out = append(out, got...)
		return len(out) >= q.Limit, err
	})
	return out, err
}

// eachStep calls read with each step's bound and the connection to read it on, in the page's
// order, until read reports that it has enough. Without enough rows in the window for a walk,
// read gets the whole window (a nil bound). The RUM index reads everything after the walk in
// order itself, so a RUM store does not stretch.
func (s *Store) eachStep(ctx context.Context, q search.PostQuery, rum bool, read func(db querier, b *bound) (bool, error)) error {
	walkEdge, found, err := s.edge(ctx, q, nil, s.walk)
	if err != nil {
		return err
	}
	if !found {
		_, err := read(s.read, nil)
		return err
	}
	if done, err := read(s.read, &bound{upTo: &walkEdge}); done || err != nil {
		return err
	}
	last := &bound{after: &walkEdge}
	if !rum && s.stretch > 0 {
		stretchEdge, found, err := s.edge(ctx, q, &walkEdge, s.stretch)
		if err != nil {
			return err
		}
		if found {
			stretch := &bound{after: &walkEdge, upTo: &stretchEdge}
			var done bool
			if err := s.bitmapsOnly(ctx, func(db querier) (err error) {
				done, err = read(db, stretch)
				return err
			}); done || err != nil {
				return err
			}
			last = &bound{after: &stretchEdge}
		}
	}
	readLast := func(db querier) error {
		_, err := read(db, last)
		return err
	}
	if rum {
		return s.rumOnly(ctx, readLast)
	}
	return s.bitmapsOnly(ctx, readLast)
}

// rumOnly runs fn in a read transaction whose plans may not scan the table or build a bitmap,
// so that a page ordered by the RUM index's distance is read from that index, the only one
// that has the order. RUM 1.3 sorts a word's matches in the index before the first row; the
// larger work_mem keeps that sort of a common word's hundreds of thousands in memory.
func (s *Store) rumOnly(ctx context.Context, fn func(db querier) error) error {
	tx, err := s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off;
		SET LOCAL work_mem = '64MB'`); err != nil {
		return err
	}
	return fn(tx)
}

// bitmapsOnly runs fn in a read transaction whose plans may not walk an index or scan the
// table: PostgreSQL then reads through index bitmaps (the full-text index's, ANDed with the time
// index's where that is cheaper), whatever it guesses of the words.
func (s *Store) bitmapsOnly(ctx context.Context, fn func(db querier) error) error {
	tx, err := s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, off := range []string{"enable_indexscan", "enable_seqscan"} {
		if _, err := tx.ExecContext(ctx, "SET LOCAL "+off+" = off"); err != nil {
			return err
		}
	}
	return fn(tx)
}

// edge finds the time of the n-th row of q's window in q's order, counting after its cursor, or
// after the time beyond when that is not nil, if there is such a row. Only the time is read, so
// the time index alone answers.
func (s *Store) edge(ctx context.Context, q search.PostQuery, beyond *int64, n int) (int64, bool, error) {
	// Every reader's posts count: the edge only bounds a step, and the time index alone
	// answers without reading the rows for their tenant.
	sel := s.window(q)
	timeColumn, dir := sortColumns(q.Sort)
	if q.After != nil {
		// By the cursor's time alone, which the time index holds: the key would read each row.
		// The rows of that time before the cursor only move the edge a little; each step reads
		// from the cursor.
		cmp := "<="
		if dir == "ASC" {
			cmp = ">="
		}
		sel.where = append(sel.where, timeColumn+" "+cmp+" "+sel.arg(q.After.Time))
	}
	sel.limitTo(&bound{after: beyond}, timeColumn, dir)
	var edge int64
	err := s.read.QueryRowContext(ctx, fmt.Sprintf(`SELECT %s FROM %s WHERE %s ORDER BY %s %s LIMIT 1 OFFSET %d`,
		timeColumn, sel.from, strings.Join(sel.where, " AND "), timeColumn, dir, n-1),
		sel.args...).Scan(&edge)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	return edge, err == nil, err
}

// bound limits a query to a stretch of times in the query's order: the rows beyond the time
// after (when not nil) and up to and including the time upTo (when not nil).
type bound struct {
	after, upTo *int64
}

// sortColumns is the time column and direction of a time order.
func sortColumns(sort string) (timeColumn, dir string) {
	switch sort {
	case post.SortPublishedAsc:
		return "p.published_at", "ASC"
	case post.SortDiscoveredDesc:
		return "p.discovered_at", "DESC"
	case post.SortDiscoveredAsc:
		return "p.discovered_at", "ASC"
	}
	return "p.published_at", "DESC"
}

// position is the condition "the row comes after (t, k) in the order dir". Its first term
// repeats the time's half of the OR as a range the time index can start from: without it
// PostgreSQL walks the index from the window's edge and filters out every row before the cursor
// (130 ms for a second page at a million posts).
func position(timeColumn, key, dir, t, k string) string {
	cmp := "<"
	if dir == "ASC" {
		cmp = ">"
	}
	return fmt.Sprintf("(%s %s= %s AND (%s %s %s OR (%s = %s AND %s %s %s)))",
		timeColumn, cmp, t, timeColumn, cmp, t, timeColumn, t, key, cmp, k)
}

// follow limits sel to the rows after the cursor c in the time order (timeColumn, dir).
func (s *Store) follow(sel *selection, c *search.Cursor, timeColumn, dir string) error {
	after, err := s.afterKey(c)
	if err != nil {
		return err
	}
	if s.dialect == SQLite && timeColumn == "p.published_at" {
		// SQLite numbers rows in publication order: the key alone places the cursor.
		cmp := "<"
		if dir == "ASC" {
			cmp = ">"
		}
		sel.where = append(sel.where, fmt.Sprintf("%s %s %s", sel.key, cmp, sel.arg(after)))
		return nil
	}
	sel.where = append(sel.where, position(timeColumn, sel.key, dir, sel.arg(c.Time), sel.arg(after)))
	return nil
}

// querier is a database or a transaction.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// countColumn is the column of an order by a count, "" for the orders by time or relevance.
func countColumn(sort string) string {
	switch sort {
	case post.SortEngagementDesc:
		return "p.engagement"
	case post.SortFollowersDesc:
		return "p.author_followers"
	}
	return ""
}

// afterKey is a cursor's tie-breaker as the dialect's key column holds it.
func (s *Store) afterKey(c *search.Cursor) (any, error) {
	key, err := s.sql.parseKey(c.Key)
	if err != nil {
		return nil, fmt.Errorf("search posts: bad cursor key %q", c.Key)
	}
	return key, nil
}

// candidatesByCount runs q, whose order is by the count column, highest first; posts that tie
// come newest first. The count's index walks the rows in that order (on SQLite the row number is
// publication order, so it alone breaks ties).
func (s *Store) candidatesByCount(ctx context.Context, db querier, q search.PostQuery, column string) ([]search.Candidate, error) {
	sel := s.selection(q)
	order := fmt.Sprintf("%s DESC, p.published_at DESC, %s DESC", column, sel.key)
	if s.dialect == SQLite {
		order = fmt.Sprintf("%s DESC, %s DESC", column, sel.key)
	}
	if q.After != nil {
		after, err := s.afterKey(q.After)
		if err != nil {
			return nil, err
		}
		c, k := sel.arg(q.After.Count), sel.arg(after)
		if s.dialect == SQLite {
			sel.where = append(sel.where, fmt.Sprintf("(%s < %s OR (%s = %s AND %s < %s))", column, c, column, c, sel.key, k))
		} else {
			t := sel.arg(q.After.Time)
			sel.where = append(sel.where, fmt.Sprintf("(%s < %s OR (%s = %s AND %s))", column, c, column, c,
				position("p.published_at", sel.key, "DESC", t, k)))
		}
	}
	text := fmt.Sprintf(`SELECT p.published_at, %s, p.doc, %s FROM %s WHERE %s ORDER BY %s LIMIT %s`,
		sel.key, column, sel.from, strings.Join(sel.where, " AND "), order, sel.arg(q.Limit))
	return scanCandidates(db.QueryContext(ctx, text, sel.args...))
}

// candidates runs q on db, limited by b when it is not nil.
func (s *Store) candidates(ctx context.Context, db querier, q search.PostQuery, b *bound) ([]search.Candidate, error) {
	if column := countColumn(q.Sort); column != "" {
		return s.candidatesByCount(ctx, db, q, column)
	}
	sel := s.selection(q)
	timeColumn, dir := sortColumns(q.Sort)
	order := fmt.Sprintf("%s %s, %s %s", timeColumn, dir, sel.key, dir)
	publicationOrder := s.dialect == SQLite && timeColumn == "p.published_at"
	rum := ""
	// The RUM index reads the rows beyond a walk (or a whole window too small to walk).
	if s.dialect == Postgres && sel.keyword && timeColumn == "p.published_at" && q.Sort != post.SortRelevance &&
		(b == nil || b.upTo == nil) {
		var err error
		if rum, err = s.rumSchema(ctx); err != nil {
			return nil, err
		}
	}
	if publicationOrder {
		// SQLite numbers rows in publication order, so the key alone is the order, which the
		// full-text index (or the table) delivers without sorting and stops at the limit.
		order = sel.key + " " + dir
		if sel.from == "posts p" {
			sel.from = "posts p NOT INDEXED" // read the window by row number, not via an index and a sort
		}
	}
	paging := ""
	switch {
	case q.Sort == post.SortRelevance && sel.rank != "":
		order = sel.rank + ", " + sel.key + " DESC"
		paging = " OFFSET " + sel.arg(q.Offset)
	case q.After != nil:
		if err := s.follow(sel, q.After, timeColumn, dir); err != nil {
			return nil, err
		}
	}
	sel.limitTo(b, timeColumn, dir)
	var text string
	if rum == "" {
		text = fmt.Sprintf(`SELECT %s, %s, p.doc FROM %s WHERE %s ORDER BY %s LIMIT %s%s`,
			timeColumn, sel.key, sel.from, strings.Join(sel.where, " AND "), order, sel.arg(q.Limit), paging)
	} else {
		// PostgreSQL orders by an index's distance operator only when it is the whole ORDER BY,
		// so the index gives the page by time alone. The posts of the page's last millisecond
		// may go on beyond it: they are read by that time and the page cut after sorting by
		// time and id.
		where, limit := strings.Join(sel.where, " AND "), sel.arg(q.Limit)
		last := "MIN"
		if dir == "ASC" {
			last = "MAX"
		}
		text = fmt.Sprintf(`WITH page AS MATERIALIZED (
				SELECT %[1]s AS t, %[2]s AS k, p.doc FROM %[3]s WHERE %[4]s ORDER BY %[5]s LIMIT %[6]s)
			SELECT t, k, doc FROM (
				SELECT t, k, doc FROM page
				UNION
				SELECT %[1]s, %[2]s, p.doc FROM %[3]s WHERE %[4]s AND %[1]s = (SELECT %[7]s(t) FROM page)) u
			ORDER BY t %[8]s, k %[8]s LIMIT %[6]s`,
			timeColumn, sel.key, sel.from, where, rumOrderBy(sel, rum, q, b, dir), limit, last, dir)
	}
	return scanCandidates(db.QueryContext(ctx, text, sel.args...))
}

// scanCandidates reads rows of (time, key, doc) and, in an order by a count, the count.
func scanCandidates(rows *sql.Rows, err error) ([]search.Candidate, error) {
	if err != nil {
		return nil, fmt.Errorf("search posts: %w", err)
	}
	defer rows.Close()
	columns, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var out []search.Candidate
	for rows.Next() {
		var c search.Candidate
		var key any
		var doc string
		dest := []any{&c.Cursor.Time, &key, &doc}
		if len(columns) == 4 {
			dest = append(dest, &c.Cursor.Count)
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		if b, ok := key.([]byte); ok {
			key = string(b)
		}
		c.Cursor.Key = fmt.Sprint(key)
		if err := json.Unmarshal([]byte(doc), &c.Post); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// rumOrderBy is q's publication order as the RUM index delivers it: by distance from where the
// page starts (the window's end or start, the cursor's time, the walk's edge). The anchor lies
// one millisecond outside the rows wanted: RUM 1.3's |=> leaves out the rows at distance 0.
func rumOrderBy(sel *selection, schema string, q search.PostQuery, b *bound, dir string) string {
	op, anchor := "<=|", millis(q.To)
	if q.After != nil {
		anchor = min(anchor, q.After.Time)
	}
	if b != nil && b.after != nil {
		anchor = min(anchor, *b.after)
	}
	anchor++
	if dir == "ASC" {
		op, anchor = "|=>", millis(q.From)
		if q.After != nil {
			anchor = max(anchor, q.After.Time)
		}
		if b != nil && b.after != nil {
			anchor = max(anchor, *b.after)
		}
		anchor--
	}
	return fmt.Sprintf("p.published_at OPERATOR(%s.%s) %s::bigint", pq(schema), op, sel.arg(anchor))
}

// pq quotes a PostgreSQL identifier.
func pq(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }

// limitTo adds b's conditions, if there are any.
func (sel *selection) limitTo(b *bound, timeColumn, dir string) {
	if b == nil {
		return
	}
	beyond, upTo := "<", ">=" // newest first, the rows beyond a time are older
	if dir == "ASC" {
		beyond, upTo = ">", "<="
	}
	if b.after != nil {
		sel.where = append(sel.where, timeColumn+" "+beyond+" "+sel.arg(*b.after))
	}
	if b.upTo != nil {
		sel.where = append(sel.where, timeColumn+" "+upTo+" "+sel.arg(*b.upTo))
	}
}

// CountCandidates counts the posts q selects, stopping at limit: in a time order those after its
// cursor, if it has one; in the other orders all of them. PostgreSQL counts in the same steps as
// CandidatePosts reads, for the same reason.
func (s *Store) CountCandidates(ctx context.Context, q search.PostQuery, limit int) (int, error) {
	q.Offset = 0
	if q.Sort == post.SortRelevance || countColumn(q.Sort) != "" {
		q.Sort, q.After = post.SortPublishedDesc, nil // any time order will do for counting them all
	}
	if s.dialect == Postgres && q.Keywords != nil {
		if _, ok := q.Keywords.TSQuery(); ok {
			n := 0
			err := s.eachStep(ctx, q, false, func(db querier, b *bound) (bool, error) {
				more, err := s.countCandidates(ctx, db, q, limit-n, b)
				n += more
				return n >= limit, err
			})
			return n, err
		}
	}
	return s.countCandidates(ctx, s.read, q, limit, nil)
}

// CountCandidatesByDay counts the posts q selects on each UTC day of its window, in one pass
// (keyed by the day's number since the epoch). On PostgreSQL the full-text index alone finds
// the rows, so a word the planner misjudges does not walk the days' time indexes.
func (s *Store) CountCandidatesByDay(ctx context.Context, q search.PostQuery) (map[int64]int, error) {
	sel := s.selection(q)
	text := fmt.Sprintf(`SELECT p.published_at / 86400000 AS day, COUNT(*) FROM %s WHERE %s GROUP BY 1`,
		sel.from, strings.Join(sel.where, " AND "))
	counts := map[int64]int{}
	read := func(db querier) error {
		rows, err := db.QueryContext(ctx, text, sel.args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var day int64
			var n int
			if err := rows.Scan(&day, &n); err != nil {
				return err
			}
			counts[day] = n
		}
		return rows.Err()
	}
	if s.dialect == Postgres && q.Keywords != nil {
		if _, ok := q.Keywords.TSQuery(); ok {
			return counts, s.bitmapsOnly(ctx, read)
		}
	}
	return counts, read(s.read)
}

func (s *Store) countCandidates(ctx context.Context, db querier, q search.PostQuery, limit int, b *bound) (int, error) {
	sel := s.selection(q)
	timeColumn, dir := sortColumns(q.Sort)
	if q.After != nil {
		if err := s.follow(sel, q.After, timeColumn, dir); err != nil {
			return 0, err
		}
	}
	sel.limitTo(b, timeColumn, dir)
	text := fmt.Sprintf(`SELECT COUNT(*) FROM (SELECT 1 FROM %s WHERE %s LIMIT %s) c`,
		sel.from, strings.Join(sel.where, " AND "), sel.arg(limit))
	var n int
	err := db.QueryRowContext(ctx, text, sel.args...).Scan(&n)
	return n, err
}

// IndexedTerms returns those of terms the posts' full-text index holds, in no order: SQLite
// reads the index's vocabulary (posts_fts_terms, migration 0032), PostgreSQL probes the GIN
// index for each term.
func (s *Store) IndexedTerms(ctx context.Context, terms []string) ([]string, error) {
	if len(terms) == 0 {
		return nil, nil
	}
	args := make([]any, len(terms))
	marks := make([]string, len(terms))
	for i, t := range terms {
		args[i], marks[i] = t, s.sql.param(i+1)
	}
	var out []string
	read := func(db querier) error {
		text := `SELECT term FROM posts_fts_terms WHERE term IN (` + strings.Join(marks, ", ") + `)`
		if s.dialect == Postgres {
			text = `SELECT t FROM unnest(ARRAY[` + strings.Join(marks, ", ") + `]::text[]) t
				WHERE EXISTS (SELECT 1 FROM posts p WHERE p.search @@ quote_literal(t)::tsquery)`
		}
		rows, err := db.QueryContext(ctx, text, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var t string
			if err := rows.Scan(&t); err != nil {
				return err
			}
			out = append(out, t)
		}
		return rows.Err()
	}
	var err error
	if s.dialect == Postgres {
		err = s.bitmapsOnly(ctx, read) // each term from the full-text index, never a table scan
	} else {
		err = read(s.read)
	}
	if err != nil {
		return nil, fmt.Errorf("indexed terms: %w", err)
	}
	return out, nil
}
