package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/story"
)

// storyKey is a post's story: its story_id, or its own id for a post stored before stories
// existed (a story of its own), as the inbox groups them.
const storyKey = `COALESCE(NULLIF(story_id, ''), id)`

// visibleStoryPosts is the FROM and WHERE of the posts of the given stories that a user may see:
// those of the user's tenant and of the shared sources (post.VisibleTo) whose provider is one of
// providers (every provider when nil), and its arguments.
func visibleStoryPosts(ids []string, tenant int64, providers []string) (string, []any) {
	args := []any{tenant}
	list := placeholders(2, len(ids))
	for _, id := range ids {
		args = append(args, id)
	}
	q := `FROM posts WHERE tenant_id IN (0, $1) AND (story_id IN (` + list + `) OR story_id = '' AND id IN (` + list + `))`
	switch {
	case providers == nil:
	case len(providers) == 0:
		q += ` AND 1 = 0`
	default:
		q += ` AND provider IN (` + placeholders(len(args)+1, len(providers)) + `)`
		for _, p := range providers {
			args = append(args, p)
		}
	}
	return q, args
}

// Story returns a story as a user sees it: its summary (Summaries) with one page of its posts
// (offset, limit), oldest first. A story none of whose posts the user may see is not found, as
// if it did not exist.
func (s *Store) Story(ctx context.Context, id string, tenant int64, providers []string, offset, limit int) (story.View, error) {
	sums, err := s.Summaries(ctx, []string{id}, tenant, providers)
	if err != nil {
		return story.View{}, err
	}
	sum, ok := sums[id]
	if !ok || id == "" {
		return story.View{}, problem.NotFound("The story was not found.")
	}
	visible, args := visibleStoryPosts([]string{id}, tenant, providers)
	page := fmt.Sprintf(` ORDER BY published_at, id LIMIT $%d OFFSET $%d`, len(args)+1, len(args)+2)
	posts, err := postDocs(s.read.QueryContext(ctx, `SELECT doc `+visible+page, append(args, limit, offset)...))
	if err != nil {
		return story.View{}, err
	}
	return sum.View(posts), s.hideRemovedPlaces(ctx, tenant, pointers(posts)...)
}

// Summaries returns the summaries of the stories among ids as a user sees them (the posts of
// visibleStoryPosts), keyed by id: count, first and last publication, providers and languages
// (most first), hourly timeline and the title of the earliest post. A story none of whose posts
// the user may see is absent. A few grouped queries serve a whole page of the inbox's stories.
func (s *Store) Summaries(ctx context.Context, ids []string, tenant int64, providers []string) (map[string]story.Summary, error) {
	out := map[string]story.Summary{}
	if len(ids) == 0 {
		return out, nil
	}
	visible, args := visibleStoryPosts(ids, tenant, providers)
	rows, err := s.read.QueryContext(ctx, `SELECT `+storyKey+`, COUNT(*), MIN(published_at), MAX(published_at) `+visible+` GROUP BY 1`, args...)
	if err != nil {
		return nil, fmt.Errorf("story summaries: %w", err)
	}
	err = eachRow(rows, func(r *sql.Rows) error {
		sum := story.Summary{Providers: []story.Count{}, Languages: []story.Count{}, Timeline: []story.HourCount{}}
		var first, last int64
		if err := r.Scan(&sum.ID, &sum.PostCount, &first, &last); err != nil {
			return err
		}
		sum.FirstSeenAt, sum.LastSeenAt = time.UnixMilli(first).UTC(), time.UnixMilli(last).UTC()
		out[sum.ID] = sum
		return nil
	})
	if err != nil {
		return nil, err
	}
	counts := func(column string, add func(*story.Summary, story.Count)) error {
		rows, err := s.read.QueryContext(ctx, `SELECT `+storyKey+`, `+column+`, COUNT(*) `+visible+` GROUP BY 1, 2 ORDER BY 1, 3 DESC, 2`, args...)
		if err != nil {
			return fmt.Errorf("story summaries: %w", err)
		}
		return eachRow(rows, func(r *sql.Rows) error {
			var id string
			var c story.Count
			if err := r.Scan(&id, &c.Name, &c.Count); err != nil {
				return err
			}
			sum := out[id]
			add(&sum, c)
			out[id] = sum
			return nil
		})
	}
	if err := counts("provider", func(s *story.Summary, c story.Count) { s.Providers = append(s.Providers, c) }); err != nil {
		return nil, err
	}
	if err := counts("language", func(s *story.Summary, c story.Count) { s.Languages = append(s.Languages, c) }); err != nil {
		return nil, err
	}
	rows, err = s.read.QueryContext(ctx, `SELECT `+storyKey+`, published_at / 3600000 AS hour, COUNT(*) `+visible+` GROUP BY 1, 2 ORDER BY 1, 2`, args...)
	if err != nil {
		return nil, fmt.Errorf("story timelines: %w", err)
	}
	err = eachRow(rows, func(r *sql.Rows) error {
		var id string
		var hour int64
		var h story.HourCount
		if err := r.Scan(&id, &hour, &h.Count); err != nil {
			return err
		}
		h.Hour = time.UnixMilli(hour * 3600000).UTC()
		sum := out[id]
		sum.Timeline = append(sum.Timeline, h)
		out[id] = sum
		return nil
	})
	if err != nil {
		return nil, err
	}
	// The title is the earliest visible post's, so that two readers of one story may see two.
	rows, err = s.read.QueryContext(ctx, `SELECT k, doc FROM (SELECT `+storyKey+` AS k, doc, ROW_NUMBER() OVER (PARTITION BY `+storyKey+
		` ORDER BY published_at, id) AS n `+visible+`) first WHERE n = 1`, args...)
	if err != nil {
		return nil, fmt.Errorf("story titles: %w", err)
	}
	err = eachRow(rows, func(r *sql.Rows) error {
		var id, doc string
		if err := r.Scan(&id, &doc); err != nil {
			return err
		}
		var p post.Post
		if err := json.Unmarshal([]byte(doc), &p); err != nil {
			return err
		}
		sum := out[id]
		sum.Title = story.Title(p)
		out[id] = sum
		return nil
	})
	return out, err
}

// eachRow calls fn with each row, then closes the rows.
func eachRow(rows *sql.Rows, fn func(*sql.Rows) error) error {
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// placeholders lists n numbered placeholders from $from: "$3, $4, $5".
func placeholders(from, n int) string {
	p := make([]string, n)
	for i := range p {
		p[i] = fmt.Sprintf("$%d", from+i)
	}
	return strings.Join(p, ", ")
}
