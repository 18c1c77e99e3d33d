package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/story"
)

// Story returns a story as a user of the tenant sees it: counted over the posts the tenant may
// see, with one page of them (offset, limit), oldest first. A story none of whose posts the
// tenant may see is not found, as if it did not exist.
func (s *Store) Story(ctx context.Context, id string, tenant int64, offset, limit int) (story.View, error) {
	v := story.View{ID: id, Providers: []story.Count{}, Languages: []story.Count{}, Timeline: []story.HourCount{}}
	const visible = `FROM posts WHERE story_id = $1 AND tenant_id IN (0, $2)` // post.VisibleTo
	var first, last sql.NullInt64
	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*), MIN(published_at), MAX(published_at) `+visible, id, tenant).
		Scan(&v.PostCount, &first, &last); err != nil {
		return v, err
	}
	if v.PostCount == 0 || id == "" {
		return v, problem.NotFound("The story was not found.")
	}
	v.FirstSeenAt, v.LastSeenAt = time.UnixMilli(first.Int64).UTC(), time.UnixMilli(last.Int64).UTC()
	var err error
	if v.Providers, err = s.storyCounts(ctx, `SELECT provider, COUNT(*) `+visible+` GROUP BY provider`, id, tenant); err != nil {
		return v, err
	}
	if v.Languages, err = s.storyCounts(ctx, `SELECT language, COUNT(*) `+visible+` GROUP BY language`, id, tenant); err != nil {
		return v, err
	}
	rows, err := s.read.QueryContext(ctx, `SELECT published_at / 3600000 AS hour, COUNT(*) `+visible+` GROUP BY hour ORDER BY hour`, id, tenant)
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
	earliest, err := postDocs(s.read.QueryContext(ctx, `SELECT doc `+visible+` ORDER BY published_at, id LIMIT 1`, id, tenant))
	if err != nil || len(earliest) == 0 {
		return v, err
	}
	v.Title = story.Title(earliest[0])
	if v.Posts, err = postDocs(s.read.QueryContext(ctx, `SELECT doc `+visible+` ORDER BY published_at, id LIMIT $3 OFFSET $4`,
		id, tenant, limit, offset)); err != nil {
		return v, err
	}
	return v, s.hideRemovedPlaces(ctx, tenant, pointers(v.Posts)...)
}

// storyCounts reads (name, count) rows, most first.
func (s *Store) storyCounts(ctx context.Context, q, id string, tenant int64) ([]story.Count, error) {
	rows, err := s.read.QueryContext(ctx, q+` ORDER BY COUNT(*) DESC, 1`, id, tenant)
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
