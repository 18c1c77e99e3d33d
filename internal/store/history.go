package store

import (
	"context"
	"database/sql"
	"github.com/sightline/sightline/internal/search"
	"time"
)

var _ search.HistoryStore = (*Store)(nil)

// AddSearchHistory records a search (at e.CreatedAt, or now when it is zero) and returns its id.
// In the same transaction it deletes the user's entries beyond the newest keep, so a user's
// history never outgrows keep (by more than the inserts running at the same moment).
func (s *Store) AddSearchHistory(ctx context.Context, e search.HistoryEntry, keep int) (int64, error) {
	created := e.CreatedAt
	if created.IsZero() {
		created = time.Now()
	}
	var id int64
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `INSERT INTO search_history (user_id, organization_id, category, request,
			created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
			e.UserID, e.OrganizationID, e.Category, e.Request, millis(created)).Scan(&id); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM search_history WHERE user_id = $1 AND id NOT IN
			(SELECT id FROM search_history WHERE user_id = $2 ORDER BY created_at DESC, id DESC LIMIT $3)`,
			e.UserID, e.UserID, keep)
		return err
	})
	return id, err
}

// DeleteSearchHistoryBefore removes history entries recorded before cutoff, in short
// transactions (the 30-day retention).
func (s *Store) DeleteSearchHistoryBefore(ctx context.Context, cutoff time.Time) (int64, error) {
	return s.deleteInChunks(ctx, `DELETE FROM search_history WHERE id IN
		(SELECT id FROM search_history WHERE created_at < $1 LIMIT $2)`, millis(cutoff))
}

// SearchHistory lists the user's searches, newest first.
func (s *Store) SearchHistory(ctx context.Context, userID int64, limit int) ([]search.HistoryEntry, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT id, user_id, organization_id, category, request, created_at
		FROM search_history WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`, userID, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []search.HistoryEntry
	for rows.Next() {
		var e search.HistoryEntry
		var created int64
		if err := rows.Scan(&e.ID, &e.UserID, &e.OrganizationID, &e.Category, &e.Request, &created); err != nil {
			return nil, err
		}
		e.CreatedAt = fromMillis(created)
		out = append(out, e)
	}
	return out, rows.Err()
}
