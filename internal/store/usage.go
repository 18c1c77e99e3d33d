package store

import (
	"context"
	"time"

	"github.com/sightline/sightline/internal/usage"
)

// AddUsage adds to a member's monthly counts of a product.
func (s *Store) AddUsage(ctx context.Context, organizationID, userID int64, product string, month int, c usage.Counts) error {
	_, err := s.write.ExecContext(ctx, `INSERT INTO usage_months (organization_id, user_id, product, month, searches,
		results, exports) VALUES ($1, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (organization_id, product, month, user_id) DO UPDATE SET
		searches = usage_months.searches + excluded.searches, results = usage_months.results + excluded.results,
		exports = usage_months.exports + excluded.exports`,
		organizationID, userID, product, month, c.Searches, c.Matches, c.Exports)
	return err
}

// Usage lists the organization's counts of a product for months from..to inclusive.
func (s *Store) Usage(ctx context.Context, organizationID int64, product string, from, to int) ([]usage.Row, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT month, user_id, searches, results, exports FROM usage_months
		WHERE organization_id = $1 AND product = $2 AND month >= $3 AND month <= $4`, organizationID, product, from, to)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []usage.Row
	for rows.Next() {
		var r usage.Row
		if err := rows.Scan(&r.Month, &r.UserID, &r.Searches, &r.Matches, &r.Exports); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// MatchesStored counts, by owner, the matches the organization's saved searches stored in
// [from, to), from the hourly counts the dashboard keeps.
func (s *Store) MatchesStored(ctx context.Context, organizationID int64, from, to time.Time) (map[int64]int64, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT s.owner_id, SUM(h.match_count) FROM monitor_match_stored_hours h
		JOIN monitor_searches s ON s.id = h.search_id
		WHERE s.organization_id = $1 AND h.hour >= $2 AND h.hour < $3 GROUP BY s.owner_id`,
		organizationID, millis(from)/hourMillis, millis(to)/hourMillis)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]int64{}
	for rows.Next() {
		var owner, n int64
		if err := rows.Scan(&owner, &n); err != nil {
			return nil, err
		}
		out[owner] = n
	}
	return out, rows.Err()
}
