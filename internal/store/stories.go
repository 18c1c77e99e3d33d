package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/story"
)

// Story returns a story as a user sees it: counted over the posts of the user's tenant and of
// the shared sources (post.VisibleTo) whose provider is one of providers (every provider when
// nil), with one page of them (offset, limit), oldest first. A story none of whose posts the
// user may see is not found, as if it did not exist.
func (s *Store) Story(ctx context.Context, id string, tenant int64, providers []string, offset, limit int) (story.View, error) {
	v := story.View{ID: id, Providers: []story.Count{}, Languages: []story.Count{}, Timeline: []story.HourCount{}}
	visible := `FROM posts WHERE story_id = $1 AND tenant_id IN (0, $2)`
	args := []any{id, tenant}
	switch {
	case providers == nil:
	case len(providers) == 0:
		visible += ` AND 1 = 0`
	default:
		visible += ` AND provider IN (` + placeholders(len(args)+1, len(providers)) + `)`
		for _, p := range providers {
			args = append(args, p)
		}
	}
	var first, last sql.NullInt64
	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*), MIN(published_at), MAX(published_at) `+visible, args...).
		Scan(&v.PostCount, &first, &last); err != nil {
		return v, err
	}
	if v.PostCount == 0 || id == "" {
		return v, problem.NotFound("The story was not found.")
	}
	v.FirstSeenAt, v.LastSeenAt = time.UnixMilli(first.Int64).UTC(), time.UnixMilli(last.Int64).UTC()
	var err error
	if v.Providers, err = s.storyCounts(ctx, `SELECT provider, COUNT(*) `+visible+` GROUP BY provider`, args); err != nil {
		return v, err
	}
	if v.Languages, err = s.storyCounts(ctx, `SELECT language, COUNT(*) `+visible+` GROUP BY language`, args); err != nil {
		return v, err
	}
	rows, err := s.read.QueryContext(ctx, `SELECT published_at / 3600000 AS hour, COUNT(*) `+visible+` GROUP BY hour ORDER BY hour`, args...)
	if err != nil {
		return v, err
	}
	defer rows.Close()
	for rows.Next() {
		var h story.HourCount
		var hour int64
		if err := rows.Scan(&hour, &h.Count); err != nil {
			return v, err
		}
		h.Hour = time.UnixMilli(hour * 3600000).UTC()
		v.Timeline = append(v.Timeline, h)
	}
	if err := rows.Err(); err != nil {
		return v, err
	}
	earliest, err := postDocs(s.read.QueryContext(ctx, `SELECT doc `+visible+` ORDER BY published_at, id LIMIT 1`, args...))
	if err != nil || len(earliest) == 0 {
		return v, err
	}
	v.Title = story.Title(earliest[0])
	page := fmt.Sprintf(` ORDER BY published_at, id LIMIT $%d OFFSET $%d`, len(args)+1, len(args)+2)
	if v.Posts, err = postDocs(s.read.QueryContext(ctx, `SELECT doc `+visible+page, append(args, limit, offset)...)); err != nil {
		return v, err
	}
	return v, s.hideRemovedPlaces(ctx, tenant, pointers(v.Posts)...)
}

// storyCounts reads (name, count) rows, most first.
func (s *Store) storyCounts(ctx context.Context, q string, args []any) ([]story.Count, error) {
	rows, err := s.read.QueryContext(ctx, q+` ORDER BY COUNT(*) DESC, 1`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []story.Count{}
	for rows.Next() {
		var c story.Count
		if err := rows.Scan(&c.Name, &c.Count); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// placeholders lists n numbered placeholders from $from: "$3, $4, $5".
func placeholders(from, n int) string {
	p := make([]string, n)
	for i := range p {
		p[i] = fmt.Sprintf("$%d", from+i)
	}
	return strings.Join(p, ", ")
}
