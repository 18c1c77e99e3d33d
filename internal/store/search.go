package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/query"
)

// Post orders for PostQuery.
const (
	SortPublishedDesc  = "published_desc"
	SortPublishedAsc   = "published_asc"
	SortDiscoveredDesc = "discovered_desc"
	SortDiscoveredAsc  = "discovered_asc"
	SortRelevance      = "relevance"
)

// PostQuery selects candidate posts for a search. The full-text part finds a superset of the
// matches (query.FTS5 / query.TSQuery); the caller's matcher decides. The time window is a
// plain range on published_at beside the full-text match, never part of its expression, so the
// database narrows by partition or index first.
type PostQuery struct {
	Keywords   *query.Query // nil: no full-text narrowing
	From, To   time.Time    // published_at window, inclusive
	Providers  []string     // empty: any
	ImagesOnly bool
	VideosOnly bool
	Sort       string
	// After continues a time-ordered search from a previous page's last row.
	After *Cursor
	// Offset continues a relevance-ordered search, which has no stable key.
	Offset int
	Limit  int
}

// Cursor is a position in a time-ordered result: the last row's time and tie-breaker.
type Cursor struct {
	Time int64  `json:"t"`
	Key  string `json:"k"`
}

// Candidate is a stored post with its position.
type Candidate struct {
	Post   post.Post
	Cursor Cursor
}

// selection is a PostQuery turned into SQL.
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

func (s *Store) selection(q PostQuery) *selection {
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
func (s *Store) CandidatePosts(ctx context.Context, q PostQuery) ([]Candidate, error) {
	sel := s.selection(q)
	timeColumn, dir := "p.published_at", "DESC"
	switch q.Sort {
	case SortPublishedAsc:
		dir = "ASC"
	case SortDiscoveredDesc:
		timeColumn = "p.discovered_at"
	case SortDiscoveredAsc:
		timeColumn, dir = "p.discovered_at", "ASC"
	}
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
	case q.Sort == SortRelevance && sel.rank != "":
		order = sel.rank + ", " + sel.key + " DESC"
		paging = " OFFSET " + sel.arg(q.Offset)
	case q.After != nil:
		cmp := "<"
		if dir == "ASC" {
			cmp = ">"
		}
		var after any = q.After.Key
		if s.dialect == SQLite {
			seq, err := strconv.ParseInt(q.After.Key, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("search posts: bad cursor key %q", q.After.Key)
			}
			after = seq
		}
		if publicationOrder {
			sel.where = append(sel.where, fmt.Sprintf("%s %s %s", sel.key, cmp, sel.arg(after)))
			break
		}
		t := sel.arg(q.After.Time)
		sel.where = append(sel.where, fmt.Sprintf("(%s %s %s OR (%s = %s AND %s %s %s))",
			timeColumn, cmp, t, timeColumn, t, sel.key, cmp, sel.arg(after)))
	}
	text := fmt.Sprintf(`SELECT %s, %s, p.doc FROM %s WHERE %s ORDER BY %s LIMIT %s%s`,
		timeColumn, sel.key, sel.from, strings.Join(sel.where, " AND "), order, sel.arg(q.Limit), paging)
	rows, err := s.read.QueryContext(ctx, text, sel.args...)
	if err != nil {
		return nil, fmt.Errorf("search posts: %w", err)
	}
	defer rows.Close()
	var out []Candidate
	for rows.Next() {
		var c Candidate
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

// CountCandidates counts the posts q selects, ignoring paging, stopping at limit.
func (s *Store) CountCandidates(ctx context.Context, q PostQuery, limit int) (int, error) {
	sel := s.selection(q)
	text := fmt.Sprintf(`SELECT COUNT(*) FROM (SELECT 1 FROM %s WHERE %s LIMIT %s) c`,
		sel.from, strings.Join(sel.where, " AND "), sel.arg(limit))
	var n int
	err := s.read.QueryRowContext(ctx, text, sel.args...).Scan(&n)
	return n, err
}
