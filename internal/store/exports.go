package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"

	"github.com/sightline/sightline/internal/export"
)

const exportColumns = `id, organization_id, user_id, source, format, columns, request, email, email_status, status,
	post_count, error, created_at, finished_at, expires_at, file_path`

type rowScanner interface{ Scan(dest ...any) error }

func scanExport(r rowScanner) (export.Export, error) {
	var e export.Export
	var columns, request string
	var created, finished, expires int64
	if err := r.Scan(&e.ID, &e.OrganizationID, &e.UserID, &e.Source, &e.Format, &columns, &request, &e.Email,
		&e.EmailStatus, &e.Status, &e.PostCount, &e.Error, &created, &finished, &expires, &e.File); err != nil {
		return e, err
	}
	if err := json.Unmarshal([]byte(columns), &e.Columns); err != nil {
		return e, err
	}
	e.Request = json.RawMessage(request)
	e.CreatedAt, e.FinishedAt, e.ExpiresAt = fromMillis(created), fromMillis(finished), fromMillis(expires)
	return e, nil
}

// CreateExport inserts an export unless the user's exports of the quota's day would pass its
// limit with it. The check and the insert are one transaction, serialized per user (SQLite's
// one writer; on PostgreSQL a lock on the user's row), so two requests at once cannot both pass.
func (s *Store) CreateExport(ctx context.Context, e export.Export, q export.Quota) (export.Export, error) {
	columns, err := json.Marshal(e.Columns)
	if err != nil {
		return e, err
	}
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		if err := s.lockRows(ctx, tx, `SELECT id FROM users WHERE id = $1`, e.UserID); err != nil {
			return err
		}
		used, err := exportedPosts(ctx, tx, e.UserID, q.Since, q.Until, 0)
		if err != nil {
			return err
		}
		if used+e.PostCount > q.Limit {
			return &export.OverQuota{Remaining: max(0, q.Limit-used)}
		}
		return tx.QueryRowContext(ctx, `INSERT INTO exports (organization_id, user_id, source, format, columns, request,
			email, email_status, status, post_count, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
			RETURNING id`, e.OrganizationID, e.UserID, e.Source, e.Format, string(columns), string(e.Request), e.Email,
			e.EmailStatus, e.Status, e.PostCount, millis(e.CreatedAt), millis(e.ExpiresAt)).Scan(&e.ID)
	})
	return e, err
}

type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func exportedPosts(ctx context.Context, db queryer, userID int64, since, until time.Time, except int64) (int, error) {
	var n int
	err := db.QueryRowContext(ctx, `SELECT COALESCE(SUM(post_count), 0) FROM exports WHERE user_id = $1
		AND created_at >= $2 AND created_at < $3 AND status <> 'failed' AND id <> $4`,
		userID, millis(since), millis(until), except).Scan(&n)
	return n, err
}

// ExportedPosts sums the posts of the user's exports created in [since, until) that did not
// fail, leaving out the export except.
func (s *Store) ExportedPosts(ctx context.Context, userID int64, since, until time.Time, except int64) (int, error) {
	return exportedPosts(ctx, s.read, userID, since, until, except)
}

// Exports lists the user's exports created since, newest first.
func (s *Store) Exports(ctx context.Context, userID int64, since time.Time) ([]export.Export, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+exportColumns+` FROM exports WHERE user_id = $1 AND created_at >= $2
		ORDER BY created_at DESC, id DESC`, userID, millis(since))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []export.Export{}
	for rows.Next() {
		e, err := scanExport(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// Export returns one export; found is false when there is none with that id.
func (s *Store) Export(ctx context.Context, id int64) (export.Export, bool, error) {
	e, err := scanExport(s.read.QueryRowContext(ctx, `SELECT `+exportColumns+` FROM exports WHERE id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return export.Export{}, false, nil
	}
	return e, err == nil, err
}

// ClaimExport takes the oldest export waiting for a worker: pending, or running under a lease
// that ended (its worker stopped). SQLite's one writer makes the update atomic; on PostgreSQL
// SKIP LOCKED lets the workers of several nodes claim different rows at once.
func (s *Store) ClaimExport(ctx context.Context, claim string, now, leaseUntil time.Time) (export.Export, bool, error) {
	e, err := scanExport(s.write.QueryRowContext(ctx, `UPDATE exports SET status = 'running', claim = $1, lease_until = $2
		WHERE id = (SELECT id FROM exports WHERE status = 'pending' OR (status = 'running' AND lease_until < $3)
			ORDER BY id LIMIT 1`+s.sql.claimLock+`)
		AND (status = 'pending' OR (status = 'running' AND lease_until < $3))
		RETURNING `+exportColumns, claim, millis(leaseUntil), millis(now)))
	if errors.Is(err, sql.ErrNoRows) {
		return export.Export{}, false, nil
	}
	return e, err == nil, err
}

// RenewExport extends a claim's lease; held is false when the claim is no longer the export's.
func (s *Store) RenewExport(ctx context.Context, id int64, claim string, leaseUntil time.Time) (bool, error) {
	res, err := s.write.ExecContext(ctx, `UPDATE exports SET lease_until = $1 WHERE id = $2 AND claim = $3 AND status = 'running'`,
		millis(leaseUntil), id, claim)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// ReleaseExport puts a claimed export back among the pending ones.
func (s *Store) ReleaseExport(ctx context.Context, id int64, claim string) error {
	_, err := s.write.ExecContext(ctx, `UPDATE exports SET status = 'pending', claim = '', lease_until = 0
		WHERE id = $1 AND claim = $2 AND status = 'running'`, id, claim)
	return err
}

// FinishExport records a claimed export's outcome; held is false when another worker took it.
func (s *Store) FinishExport(ctx context.Context, e export.Export, claim string) (bool, error) {
	res, err := s.write.ExecContext(ctx, `UPDATE exports SET status = $1, post_count = $2, error = $3, finished_at = $4,
		file_path = $5, email_status = $6, claim = '', lease_until = 0 WHERE id = $7 AND claim = $8 AND status = 'running'`,
		e.Status, e.PostCount, e.Error, millis(e.FinishedAt), e.File, e.EmailStatus, e.ID, claim)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// SetExportEmailStatus records what became of the e-mail of an export.
func (s *Store) SetExportEmailStatus(ctx context.Context, id int64, status string) error {
	_, err := s.write.ExecContext(ctx, `UPDATE exports SET email_status = $1 WHERE id = $2`, status, id)
	return err
}

// ExpiredExports lists the exports whose time ran out at now.
func (s *Store) ExpiredExports(ctx context.Context, now time.Time) ([]export.Export, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+exportColumns+` FROM exports WHERE expires_at <= $1 ORDER BY id`, millis(now))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []export.Export
	for rows.Next() {
		e, err := scanExport(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// DeleteExport removes an export's row.
func (s *Store) DeleteExport(ctx context.Context, id int64) error {
	_, err := s.write.ExecContext(ctx, `DELETE FROM exports WHERE id = $1`, id)
	return err
}
