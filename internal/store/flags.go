package store

import (
	"context"
	"time"

	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/search"
)

var _ search.FlagStore = (*Store)(nil)

// FlagPost flags a post for a user; flagging it again changes nothing.
func (s *Store) FlagPost(ctx context.Context, userID int64, p post.Post) error {
	_, err := s.write.ExecContext(ctx, `INSERT INTO beacon_flags (user_id, post_id, published_at, created_at)
		VALUES ($1, $2, $3, $4) ON CONFLICT (user_id, post_id) DO NOTHING`, userID, p.ID, millis(p.PublishedAt),
		millis(time.Now()))
	return err
}

// UnflagPost removes a user's flag of a post.
func (s *Store) UnflagPost(ctx context.Context, userID int64, postID string) error {
	_, err := s.write.ExecContext(ctx, `DELETE FROM beacon_flags WHERE user_id = $1 AND post_id = $2`, userID, postID)
	return err
}

// ClearFlags removes all of a user's flags.
func (s *Store) ClearFlags(ctx context.Context, userID int64) error {
	_, err := s.write.ExecContext(ctx, `DELETE FROM beacon_flags WHERE user_id = $1`, userID)
	return err
}

// CountFlags counts a user's flags.
func (s *Store) CountFlags(ctx context.Context, userID int64) (int, error) {
	var n int
	err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM beacon_flags WHERE user_id = $1`, userID).Scan(&n)
	return n, err
}

// FlaggedPosts lists a user's flagged posts that are still stored and that a user of the
// tenant may see, most recently flagged first.
func (s *Store) FlaggedPosts(ctx context.Context, userID, tenant int64, limit int) ([]post.Post, error) {
	flagged, err := postDocs(s.read.QueryContext(ctx, `SELECT p.doc FROM beacon_flags f `+s.sql.joinPost("f", "doc", "p.tenant_id IN (0, $3)")+`
		WHERE f.user_id = $1 ORDER BY f.created_at DESC, f.post_id LIMIT $2`, userID, limit, tenant))
	if err != nil {
		return nil, err
	}
	return flagged, s.hideRemovedPlaces(ctx, tenant, pointers(flagged)...)
}

// DeleteFlagsBefore removes flags of posts published before cutoff, which retention has removed
// or is removing.
func (s *Store) DeleteFlagsBefore(ctx context.Context, cutoff time.Time) (int64, error) {
	return s.deleteInChunks(ctx, `DELETE FROM beacon_flags WHERE (user_id, post_id) IN
		(SELECT user_id, post_id FROM beacon_flags WHERE published_at < $1 LIMIT $2)`, millis(cutoff))
}
