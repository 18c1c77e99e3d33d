package store

import (
	"context"
	"time"
)

// SearchHistoryEntry is one search a user ran.
type SearchHistoryEntry struct {
	ID             int64
	UserID         int64
	OrganizationID int64
	Category       string
	Request        string // the request as JSON
	CreatedAt      time.Time
}

// AddSearchHistory records a search and returns its id.
func (s *Store) AddSearchHistory(ctx context.Context, e SearchHistoryEntry) (int64, error) {
	var id int64
	err := s.write.QueryRowContext(ctx, `INSERT INTO search_history (user_id, organization_id, category, request,
		created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
		e.UserID, e.OrganizationID, e.Category, e.Request, millis(time.Now())).Scan(&id)
	return id, err
}

// SearchHistory lists the user's searches, newest first.
func (s *Store) SearchHistory(ctx context.Context, userID int64, limit int) ([]SearchHistoryEntry, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT id, user_id, organization_id, category, request, created_at
		FROM search_history WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`, userID, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []SearchHistoryEntry
	for rows.Next() {
		var e SearchHistoryEntry
		var created int64
		if err := rows.Scan(&e.ID, &e.UserID, &e.OrganizationID, &e.Category, &e.Request, &created); err != nil {
			return nil, err
		}
		e.CreatedAt = fromMillis(created)
		out = append(out, e)
	}
	return out, rows.Err()
}
