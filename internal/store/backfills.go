package store

import (
	"context"
	"database/sql"
	"errors"

	"github.com/sightline/sightline/internal/monitor"
)

const backfillColumns = `search_id, days, status, scanned, added, started_at, updated_at`

func scanBackfill(row interface{ Scan(...any) error }) (monitor.Backfill, error) {
	var b monitor.Backfill
	var started, updated int64
	err := row.Scan(&b.SearchID, &b.Days, &b.Status, &b.Scanned, &b.Added, &started, &updated)
	b.StartedAt, b.UpdatedAt = fromMillis(started), fromMillis(updated)
	return b, err
}

// Backfill is a search's latest backfill; ok is false when it never had one.
func (s *Store) Backfill(ctx context.Context, searchID int64) (monitor.Backfill, bool, error) {
	b, err := scanBackfill(s.read.QueryRowContext(ctx, `SELECT `+backfillColumns+` FROM monitor_backfills WHERE search_id = $1`, searchID))
	if errors.Is(err, sql.ErrNoRows) {
		return monitor.Backfill{}, false, nil
	}
	return b, err == nil, err
}

// SaveBackfill records a search's backfill, replacing the one before.
func (s *Store) SaveBackfill(ctx context.Context, b monitor.Backfill) error {
	_, err := s.write.ExecContext(ctx, `INSERT INTO monitor_backfills (`+backfillColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (search_id) DO UPDATE SET days = excluded.days, status = excluded.status, scanned = excluded.scanned,
			added = excluded.added, started_at = excluded.started_at, updated_at = excluded.updated_at`,
		b.SearchID, b.Days, b.Status, b.Scanned, b.Added, millis(b.StartedAt), millis(b.UpdatedAt))
	return err
}

// RunningBackfills lists the backfills a node was running when it stopped.
func (s *Store) RunningBackfills(ctx context.Context) ([]monitor.Backfill, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+backfillColumns+` FROM monitor_backfills WHERE status = $1 ORDER BY search_id`,
		monitor.BackfillRunning)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []monitor.Backfill
	for rows.Next() {
		b, err := scanBackfill(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, rows.Err()
}
