package store

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/sightline/sightline/internal/post"
)

// MatchedPosts are up to limit distinct posts matched by any of the searches and published in
// [from, to), newest first: the organization's matches trends are found in.
func (s *Store) MatchedPosts(ctx context.Context, searchIDs []int64, from, to time.Time, limit int) ([]post.Post, error) {
	if len(searchIDs) == 0 {
		return []post.Post{}, nil
	}
	posts, err := postDocs(s.read.QueryContext(ctx, `SELECT p.doc FROM posts p JOIN (SELECT DISTINCT post_id, published_at
		FROM monitor_matches WHERE search_id IN (`+idList(searchIDs)+`) AND published_at >= $1 AND published_at < $2) m
		ON `+s.sql.postJoin("m")+` ORDER BY p.published_at DESC LIMIT `+strconv.Itoa(limit), millis(from), millis(to)))
	if err != nil {
		return nil, fmt.Errorf("matched posts: %w", err)
	}
	return posts, nil
}

// VisiblePosts are up to limit posts the tenant's users may see (shared or the tenant's own),
// published in [from, to), newest first.
func (s *Store) VisiblePosts(ctx context.Context, tenantID int64, from, to time.Time, limit int) ([]post.Post, error) {
	posts, err := postDocs(s.read.QueryContext(ctx, `SELECT doc FROM posts WHERE tenant_id IN (0, $1)
		AND published_at >= $2 AND published_at < $3 ORDER BY published_at DESC LIMIT `+strconv.Itoa(limit),
		tenantID, millis(from), millis(to)))
	if err != nil {
		return nil, fmt.Errorf("visible posts: %w", err)
	}
	return posts, nil
}
