package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/sightline/sightline/internal/search"
	"strconv"
	"strings"

	"github.com/sightline/sightline/internal/post"
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
	sel := &selection{from: "posts p", key: "p.seq"}
	if s.dialect == Postgres {
		sel.key = "p.id"
	}
	sel.where = append(sel.where, "p.published_at >= "+sel.arg(millis(q.From)), "p.published_at <= "+sel.arg(millis(q.To)))
	if s.dialect == SQLite {
		sel.where = append(sel.where, "p.seq >= "+sel.arg(seqFloor(q.From)), "p.seq <= "+sel.arg(seqCeiling(q.To)))
	}
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
	if q.Keywords == nil {
		return sel
	}
	if s.dialect == Postgres {
		if expr, ok := q.Keywords.TSQuery(); ok {
			mark := sel.arg(expr)
			sel.where = append(sel.where, "p.search @@ "+mark+"::tsquery")
			sel.rank, sel.keyword = "ts_rank(p.search, "+mark+"::tsquery) DESC", true
		}
	} else if expr, ok := q.Keywords.FTS5(); ok {
		sel.from = "posts_fts f JOIN posts p ON p.seq = f.rowid"
		// The window as a row range of the full-text index (rows are numbered in publication
		// order): the index reads only the window, and in the order the page wants.
		sel.where = append(sel.where, "posts_fts MATCH "+sel.arg(expr),
			"f.rowid >= "+sel.arg(seqFloor(q.From)), "f.rowid <= "+sel.arg(seqCeiling(q.To)))
		sel.rank, sel.keyword, sel.key = "f.rank", true, "f.rowid"
	}
	return sel
}

// CandidatePosts returns up to q.Limit candidates in q.Sort order.
func (s *Store) CandidatePosts(ctx context.Context, q search.PostQuery) ([]search.Candidate, error) {
	if s.dialect == Postgres && q.Sort != post.SortRelevance && q.Keywords != nil {
		if _, ok := q.Keywords.TSQuery(); ok {
			return s.candidatesInTwoSteps(ctx, q)
		}
	}
	return s.candidates(ctx, s.read, q, nil)
}

// pgWalk is how many rows of the window PostgreSQL reads in time order, checking each, before
// the rest is left to the full-text index.
const pgWalk = 10_000

// candidatesInTwoSteps keeps PostgreSQL's plans bounded. Its planner guesses how common a
// search's words are among the chosen providers; when it guesses common it walks the time
// index and filters, which reads the whole window for a word that is rare there (seconds at a
// million posts), and when it guesses rare it reads every match of a common word and sorts
// them. So the walk covers the window's first pgWalk rows in the page's order, where a common
// word fills the page, and the full-text index alone (index walks switched off) finds the
// matches beyond them, which for a rarer word are few.
func (s *Store) candidatesInTwoSteps(ctx context.Context, q search.PostQuery) ([]search.Candidate, error) {
	edge, found, err := s.walkEdge(ctx, q)
	if err != nil {
		return nil, err
	}
	if !found {
		return s.candidates(ctx, s.read, q, nil)
	}
	near, err := s.candidates(ctx, s.read, q, &bound{at: edge, beyond: false})
	if err != nil || len(near) >= q.Limit {
		return near, err
	}
	rest := q
	rest.Limit = q.Limit - len(near)
	var far []search.Candidate
	err = s.fullTextOnly(ctx, func(db querier) (err error) {
		far, err = s.candidates(ctx, db, rest, &bound{at: edge, beyond: true})
		return err
	})
	return append(near, far...), err
}

// fullTextOnly runs fn in a read transaction whose plans may not walk an index or scan the
// table: PostgreSQL then narrows by the full-text index, whatever it guesses of the words.
func (s *Store) fullTextOnly(ctx context.Context, fn func(db querier) error) error {
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

// walkEdge finds the time of the s.walk-th row of q's window (after its cursor) in q's order, if
// there is one. Only the time is read, so the time index alone answers.
func (s *Store) walkEdge(ctx context.Context, q search.PostQuery) (int64, bool, error) {
	window := search.PostQuery{From: q.From, To: q.To, Sort: q.Sort, After: q.After}
	sel := s.selection(window)
	timeColumn, dir := sortColumns(q.Sort)
	if q.After != nil {
		sel.where = append(sel.where, position(timeColumn, sel.key, dir, sel.arg(q.After.Time), sel.arg(q.After.Key)))
	}
	var edge int64
	err := s.read.QueryRowContext(ctx, fmt.Sprintf(`SELECT %s FROM %s WHERE %s ORDER BY %s %s LIMIT 1 OFFSET %d`,
		timeColumn, sel.from, strings.Join(sel.where, " AND "), timeColumn, dir, s.walk-1),
		sel.args...).Scan(&edge)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	return edge, err == nil, err
}

// bound limits a query to the rows up to and including the time at in the query's order
// (beyond false), or to the rows after it.
type bound struct {
	at     int64
	beyond bool
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

// position is the condition "the row comes after (t, k) in the order dir".
func position(timeColumn, key, dir, t, k string) string {
	cmp := "<"
	if dir == "ASC" {
		cmp = ">"
	}
	return fmt.Sprintf("(%s %s %s OR (%s = %s AND %s %s %s))", timeColumn, cmp, t, timeColumn, t, key, cmp, k)
}

// querier is a database or a transaction.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// candidates runs q on db, limited by b when it is not nil.
func (s *Store) candidates(ctx context.Context, db querier, q search.PostQuery, b *bound) ([]search.Candidate, error) {
	sel := s.selection(q)
	timeColumn, dir := sortColumns(q.Sort)
	order := fmt.Sprintf("%s %s, %s %s", timeColumn, dir, sel.key, dir)
	publicationOrder := s.dialect == SQLite && timeColumn == "p.published_at"
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
		var after any = q.After.Key
		if s.dialect == SQLite {
			seq, err := strconv.ParseInt(q.After.Key, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("search posts: bad cursor key %q", q.After.Key)
			}
			after = seq
		}
		if publicationOrder {
			cmp := "<"
			if dir == "ASC" {
				cmp = ">"
			}
			sel.where = append(sel.where, fmt.Sprintf("%s %s %s", sel.key, cmp, sel.arg(after)))
			break
		}
		sel.where = append(sel.where, position(timeColumn, sel.key, dir, sel.arg(q.After.Time), sel.arg(after)))
	}
	sel.limitTo(b, timeColumn, dir)
	text := fmt.Sprintf(`SELECT %s, %s, p.doc FROM %s WHERE %s ORDER BY %s LIMIT %s%s`,
		timeColumn, sel.key, sel.from, strings.Join(sel.where, " AND "), order, sel.arg(q.Limit), paging)
	rows, err := db.QueryContext(ctx, text, sel.args...)
	if err != nil {
		return nil, fmt.Errorf("search posts: %w", err)
	}
	defer rows.Close()
	var out []search.Candidate
	for rows.Next() {
		var c search.Candidate
		var key any
		var doc string
		if err := rows.Scan(&c.Cursor.Time, &key, &doc); err != nil {
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

// limitTo adds b's condition, if there is one.
func (sel *selection) limitTo(b *bound, timeColumn, dir string) {
	if b == nil {
		return
	}
	cmp := ">=" // newest first, the walked rows are at or after the edge's time
	switch {
	case dir == "ASC" && b.beyond:
		cmp = ">"
	case dir == "ASC":
		cmp = "<="
	case b.beyond:
		cmp = "<"
	}
	sel.where = append(sel.where, timeColumn+" "+cmp+" "+sel.arg(b.at))
}

// CountCandidates counts the posts q selects, ignoring paging, stopping at limit. PostgreSQL
// counts in the same two steps as CandidatePosts reads, for the same reason.
func (s *Store) CountCandidates(ctx context.Context, q search.PostQuery, limit int) (int, error) {
	q.After, q.Offset = nil, 0
	if q.Sort == post.SortRelevance {
		q.Sort = post.SortPublishedDesc // any time order will do for counting
	}
	if s.dialect == Postgres && q.Keywords != nil {
		if _, ok := q.Keywords.TSQuery(); ok {
			edge, found, err := s.walkEdge(ctx, q)
			if err != nil {
				return 0, err
			}
			if !found {
				return s.countCandidates(ctx, s.read, q, limit, nil)
			}
			near, err := s.countCandidates(ctx, s.read, q, limit, &bound{at: edge, beyond: false})
			if err != nil || near >= limit {
				return near, err
			}
			var far int
			err = s.fullTextOnly(ctx, func(db querier) (err error) {
				far, err = s.countCandidates(ctx, db, q, limit-near, &bound{at: edge, beyond: true})
				return err
			})
			return near + far, err
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
			return counts, s.fullTextOnly(ctx, read)
		}
	}
	return counts, read(s.read)
}

func (s *Store) countCandidates(ctx context.Context, db querier, q search.PostQuery, limit int, b *bound) (int, error) {
	sel := s.selection(q)
	timeColumn, dir := sortColumns(q.Sort)
	sel.limitTo(b, timeColumn, dir)
	text := fmt.Sprintf(`SELECT COUNT(*) FROM (SELECT 1 FROM %s WHERE %s LIMIT %s) c`,
		sel.from, strings.Join(sel.where, " AND "), sel.arg(limit))
	var n int
	err := db.QueryRowContext(ctx, text, sel.args...).Scan(&n)
	return n, err
}
