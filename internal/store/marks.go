package store

import (
	"context"
	"time"

	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/search"
)

var _ search.MarkStore = (*Store)(nil)

// MarkPost marks a post read, or deleted, for a user; other marks are kept.
func (s *Store) MarkPost(ctx context.Context, userID int64, p post.Post, mark search.Mark) error {
	column := "is_read"
	if mark == search.MarkDeleted {
		column = "is_deleted"
	}
	_, err := s.write.ExecContext(ctx, `INSERT INTO beacon_marks (user_id, post_id, published_at, `+column+`)
		VALUES ($1, $2, $3, TRUE) ON CONFLICT (user_id, post_id) DO UPDATE SET `+column+` = TRUE`,
		userID, p.ID, millis(p.PublishedAt))
	return err
}

// MarkUnread marks posts unread for a user; a post never read is left as it is.
func (s *Store) MarkUnread(ctx context.Context, userID int64, postIDs []string) error {
	if len(postIDs) == 0 {
		return nil
	}
	args := []any{userID}
	for _, id := range postIDs {
		args = append(args, id)
	}
	_, err := s.write.ExecContext(ctx, `UPDATE beacon_marks SET is_read = FALSE
		WHERE user_id = $1 AND post_id IN (`+placeholders(2, len(postIDs))+`)`, args...)
	return err
}

// PostMarks returns a user's marks of the named posts; a post without any is left out.
func (s *Store) PostMarks(ctx context.Context, userID int64, postIDs []string) (map[string]search.Marks, error) {
	out := map[string]search.Marks{}
	if len(postIDs) == 0 {
		return out, nil
	}
	args := []any{userID}
	for _, id := range postIDs {
		args = append(args, id)
	}
	rows, err := s.read.QueryContext(ctx, `SELECT post_id, is_read, is_deleted FROM beacon_marks
		WHERE user_id = $1 AND post_id IN (`+placeholders(2, len(postIDs))+`)`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var m search.Marks
		if err := rows.Scan(&id, &m.Read, &m.Deleted); err != nil {
			return nil, err
		}
		out[id] = m
	}
	return out, rows.Err()
}

// DeleteMarksBefore removes marks of posts published before cutoff, which retention has removed
// or is removing.
func (s *Store) DeleteMarksBefore(ctx context.Context, cutoff time.Time) (int64, error) {
	return s.deleteInChunks(ctx, `DELETE FROM beacon_marks WHERE (user_id, post_id) IN
		(SELECT user_id, post_id FROM beacon_marks WHERE published_at < $1 LIMIT $2)`, millis(cutoff))
}
