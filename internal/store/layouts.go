package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"

	"github.com/sightline/sightline/internal/monitor"
)

// DashboardLayout returns the user's saved dashboard layout; found is false when there is none.
func (s *Store) DashboardLayout(ctx context.Context, userID int64) (monitor.Layout, bool, error) {
	var raw string
	err := s.read.QueryRowContext(ctx, `SELECT layout FROM dashboard_layouts WHERE user_id = $1`, userID).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) {
		return monitor.Layout{}, false, nil
	}
	if err != nil {
		return monitor.Layout{}, false, err
	}
	var l monitor.Layout
	if err := json.Unmarshal([]byte(raw), &l); err != nil {
		return monitor.Layout{}, false, err
	}
	return l, true, nil
}

// SaveDashboardLayout stores the user's layout in place of any earlier one.
func (s *Store) SaveDashboardLayout(ctx context.Context, userID int64, l monitor.Layout) error {
	raw, err := json.Marshal(l)
	if err != nil {
		return err
	}
	_, err = s.write.ExecContext(ctx, `INSERT INTO dashboard_layouts (user_id, layout, updated_at) VALUES ($1, $2, $3)
		ON CONFLICT (user_id) DO UPDATE SET layout = excluded.layout, updated_at = excluded.updated_at`,
		userID, string(raw), millis(time.Now()))
	return err
}
