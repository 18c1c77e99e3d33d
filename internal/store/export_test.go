package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/alerts"
	"github.com/sightline/sightline/internal/monitor"
)

// SetWalk sets how many rows a PostgreSQL search reads in time order before it leaves the rest
// to the full-text index, so that tests reach the second step with a few posts.
func (s *Store) SetWalk(n int) { s.walk = n }

// CountMatchesByScan counts the user's matches of each search the plain way, from every match
// and its state, for tests to check the kept counts against.
func (s *Store) CountMatchesByScan(ctx context.Context, userID int64, searchIDs []int64, providers []string) (map[int64]monitor.Counts, error) {
	of := ""
	if len(providers) > 0 {
		of = " AND m.provider IN ('" + strings.Join(providers, "', '") + "')"
	}
	rows, err := s.read.QueryContext(ctx, `SELECT m.search_id,
		SUM(CASE WHEN COALESCE(st.is_deleted, FALSE) THEN 0 ELSE 1 END),
		SUM(CASE WHEN NOT COALESCE(st.is_deleted, FALSE) AND NOT COALESCE(st.is_read, FALSE) THEN 1 ELSE 0 END),
		SUM(CASE WHEN COALESCE(st.is_deleted, FALSE) THEN 1 ELSE 0 END),
		SUM(CASE WHEN NOT COALESCE(st.is_deleted, FALSE) AND COALESCE(st.is_flagged, FALSE) THEN 1 ELSE 0 END)
		FROM monitor_matches m LEFT JOIN monitor_match_states st ON st.match_id = m.id AND st.user_id = $1
		WHERE m.search_id IN (`+idList(searchIDs)+`)`+of+` GROUP BY m.search_id`, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]monitor.Counts{}
	for rows.Next() {
		var id int64
		var c monitor.Counts
		if err := rows.Scan(&id, &c.TotalCount, &c.UnreadCount, &c.DeletedCount, &c.FlaggedCount); err != nil {
			return nil, err
		}
		out[id] = c
	}
	return out, rows.Err()
}

// MigrateTo applies the migrations up to version.
func (s *Store) MigrateTo(ctx context.Context, version int) error { return s.migrateTo(ctx, version) }

// Exec runs a statement on the writer, for tests that write as an older version did.
func (s *Store) Exec(ctx context.Context, query string, args ...any) error {
	_, err := s.write.ExecContext(ctx, query, args...)
	return err
}

// QueryRow runs a statement on the writer and scans its one row, for tests that write as an
// older version did and need what it returned.
func (s *Store) QueryRow(ctx context.Context, query string, args []any, dest ...any) error {
	return s.write.QueryRowContext(ctx, query, args...).Scan(dest...)
}

// SetStretch sets how many rows after the walk a PostgreSQL search reads through the time
// index's bitmap, so that tests reach every step with a few posts.
func (s *Store) SetStretch(n int) { s.stretch = n }

// WaitUpkeep waits for the running analysis or vacuum of a partition (analyze.go), and for the
// ones it starts, to finish.
func (s *Store) WaitUpkeep() {
	s.growth.mu.Lock()
	defer s.growth.mu.Unlock()
	s.growth.wait()
}

// SetSettle sets how long inserts must pause before the store vacuums what it inserted.
func (s *Store) SetSettle(d time.Duration) {
	s.growth.mu.Lock()
	defer s.growth.mu.Unlock()
	s.growth.settle = d
}

// VacuumCount is how many times a table of the store's schema was vacuumed by hand (VACUUM).
func (s *Store) VacuumCount(ctx context.Context, table string) (int64, error) {
	var n int64
	err := s.read.QueryRowContext(ctx, `SELECT COALESCE(SUM(vacuum_count), 0) FROM pg_stat_user_tables
		WHERE schemaname = current_schema() AND relname = $1`, table).Scan(&n)
	return n, err
}

// AnalyzeCount is how many times a table of the store's schema was analyzed by hand (ANALYZE).
func (s *Store) AnalyzeCount(ctx context.Context, table string) (int64, error) {
	var n int64
	err := s.read.QueryRowContext(ctx, `SELECT COALESCE(SUM(analyze_count), 0) FROM pg_stat_user_tables
		WHERE schemaname = current_schema() AND relname = $1`, table).Scan(&n)
	return n, err
}

// Rows is every row of the tables, printed in one text, for tests that check a refused change
// left nothing behind.
func (s *Store) Rows(ctx context.Context, tables ...string) (string, error) {
	var b strings.Builder
	for _, table := range tables {
		rows, err := s.write.QueryContext(ctx, `SELECT * FROM `+table+` ORDER BY 1`)
		if err != nil {
			return "", err
		}
		columns, err := rows.Columns()
		if err != nil {
			rows.Close()
			return "", err
		}
		fmt.Fprintf(&b, "%s %v\n", table, columns)
		for rows.Next() {
			values := make([]any, len(columns))
			for i := range values {
				values[i] = new(any)
			}
			if err := rows.Scan(values...); err != nil {
				rows.Close()
				return "", err
			}
			for _, v := range values {
				fmt.Fprintf(&b, "%v|", *(v.(*any)))
			}
			b.WriteString("\n")
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

// CreateDeliveryAsOf0015 writes a delivery and its matches with the columns of migration 0015,
// as a node of that version did, for upgrade tests at a schema that has no later columns.
func (s *Store) CreateDeliveryAsOf0015(ctx context.Context, d *alerts.Delivery, matchIDs []int64) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `INSERT INTO alert_deliveries (search_id, organization_id, type, destination_type,
			destination, match_count, status, attempts, next_attempt_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, 0, $8, $9)
			RETURNING id`, d.SearchID, d.OrganizationID, d.Type, d.Destination.Type, d.Destination.Address, d.MatchCount,
			d.Status, millis(d.NextAttemptAt), millis(d.CreatedAt)).Scan(&d.ID); err != nil {
			return err
		}
		for _, id := range matchIDs {
			if _, err := tx.ExecContext(ctx, `INSERT INTO alert_delivery_matches (search_id, type, destination, match_id, delivery_id)
				VALUES ($1, $2, $3, $4, $5)`, d.SearchID, d.Type, d.Destination.Address, id, d.ID); err != nil {
				return err
			}
		}
		return nil
	})
}
