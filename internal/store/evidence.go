package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/evidence"
)

const evidenceColumns = `id, tenant_id, organization_id, user_id, captured_by, search_id, kind, target, plan,
	previous_id, state, progress, step, errors, created_at, captured_at, deleted_at, deleted_by`

func scanEvidence(r rowScanner) (evidence.Record, error) {
	var e evidence.Record
	var plan, errs string
	var created, captured, deleted int64
	if err := r.Scan(&e.ID, &e.TenantID, &e.OrganizationID, &e.UserID, &e.CapturedBy, &e.SearchID, &e.Kind, &e.Target,
		&plan, &e.PreviousID, &e.State, &e.Progress, &e.Step, &errs, &created, &captured, &deleted, &e.DeletedBy); err != nil {
		return e, err
	}
	if err := json.Unmarshal([]byte(plan), &e.Plan); err != nil {
		return e, err
	}
	if err := json.Unmarshal([]byte(errs), &e.Errors); err != nil {
		return e, err
	}
	e.CreatedAt, e.CapturedAt, e.DeletedAt = fromMillis(created), fromMillis(captured), fromMillis(deleted)
	return e, nil
}

// insertEvidence inserts the record and its first files in tx; on a conflict of an automatic
// capture (the match has one) it inserts nothing and reports created false.
func insertEvidence(ctx context.Context, tx *sql.Tx, r *evidence.Record) (created bool, err error) {
	plan, err := json.Marshal(r.Plan)
	if err != nil {
		return false, err
	}
	errs, err := json.Marshal(nonNil(r.Errors))
	if err != nil {
		return false, err
	}
	// The organization's newest record of the same thing: this one captures it again.
	err = tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) FROM evidence WHERE organization_id = $1 AND kind = $2
		AND target = $3`, r.OrganizationID, r.Kind, r.Target).Scan(&r.PreviousID)
	if err != nil {
		return false, err
	}
	err = tx.QueryRowContext(ctx, `INSERT INTO evidence (tenant_id, organization_id, user_id, captured_by, search_id, kind,
		target, plan, previous_id, state, errors, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
		ON CONFLICT (search_id, target) WHERE search_id <> 0 DO NOTHING RETURNING id`,
		r.TenantID, r.OrganizationID, r.UserID, r.CapturedBy, r.SearchID, r.Kind, r.Target, string(plan), r.PreviousID,
		r.State, string(errs), millis(r.CreatedAt)).Scan(&r.ID)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return true, insertEvidenceFiles(ctx, tx, r.ID, r.Files)
}

func insertEvidenceFiles(ctx context.Context, tx *sql.Tx, id int64, files []evidence.File) error {
	for _, f := range files {
		if _, err := tx.ExecContext(ctx, `INSERT INTO evidence_files (evidence_id, name, sha256, size, content)
			VALUES ($1, $2, $3, $4, $5)`, id, f.Name, f.SHA256, f.Size, f.Content); err != nil {
			return err
		}
	}
	return nil
}

// CreateEvidence inserts a record with its first files, linked to the organization's newest
// record of the same kind and target.
func (s *Store) CreateEvidence(ctx context.Context, r *evidence.Record) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		_, err := insertEvidence(ctx, tx, r)
		return err
	})
}

// CreateAutoEvidence inserts an automatic capture unless the organization's automatic captures
// of the quota's day reached its limit or the match has one, and moves the search's scan past
// the match. The count and the insert are one transaction, serialized per organization.
func (s *Store) CreateAutoEvidence(ctx context.Context, r *evidence.Record, q evidence.AutoQuota) (created, over bool, err error) {
	matchID, err := strconv.ParseInt(r.Target, 10, 64)
	if err != nil {
		return false, false, err
	}
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		if err := s.lockRows(ctx, tx, `SELECT id FROM organizations WHERE id = $1`, r.OrganizationID); err != nil {
			return err
		}
		if q.Limit > 0 {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM evidence WHERE organization_id = $1 AND search_id <> 0
				AND created_at >= $2 AND created_at < $3`, r.OrganizationID, millis(q.Since), millis(q.Until)).Scan(&n); err != nil {
				return err
			}
			over = n >= q.Limit
		}
		if !over {
			if created, err = insertEvidence(ctx, tx, r); err != nil {
				return err
			}
		}
		return skipAutoMatch(ctx, tx, r.SearchID, matchID)
	})
	return created, over, err
}

// Evidence loads a record with its files' names, hashes and sizes and its timestamps.
func (s *Store) Evidence(ctx context.Context, id int64) (evidence.Record, bool, error) {
	r, err := scanEvidence(s.read.QueryRowContext(ctx, `SELECT `+evidenceColumns+` FROM evidence WHERE id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return evidence.Record{}, false, nil
	}
	if err == nil {
		err = s.evidenceParts(ctx, &r)
	}
	return r, err == nil, err
}

// evidenceParts reads a record's files (without content) and timestamps.
func (s *Store) evidenceParts(ctx context.Context, r *evidence.Record) error {
	rows, err := s.read.QueryContext(ctx, `SELECT name, sha256, size FROM evidence_files WHERE evidence_id = $1 ORDER BY name`, r.ID)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var f evidence.File
		if err := rows.Scan(&f.Name, &f.SHA256, &f.Size); err != nil {
			return err
		}
		r.Files = append(r.Files, f)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	stamps, err := s.read.QueryContext(ctx, `SELECT n, tsa, stamped_at, response FROM evidence_timestamps
		WHERE evidence_id = $1 ORDER BY n`, r.ID)
	if err != nil {
		return err
	}
	defer stamps.Close()
	for stamps.Next() {
		var t evidence.Stamp
		var at int64
		if err := stamps.Scan(&t.N, &t.TSA, &at, &t.Response); err != nil {
			return err
		}
		t.Time = fromMillis(at)
		r.Timestamps = append(r.Timestamps, t)
	}
	return stamps.Err()
}

// EvidenceList is an organization's records, newest first, without files; kind and target
// narrow it when given.
func (s *Store) EvidenceList(ctx context.Context, organizationID int64, kind, target string, limit int) ([]evidence.Record, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+evidenceColumns+` FROM evidence WHERE organization_id = $1
		AND ($2 = '' OR kind = $2) AND ($3 = '' OR target = $3) ORDER BY id DESC LIMIT $4`, organizationID, kind, target, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []evidence.Record{}
	for rows.Next() {
		r, err := scanEvidence(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range out {
		if err := s.evidenceParts(ctx, &out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// EvidenceFile loads one file with its content (nil for a tombstone's).
func (s *Store) EvidenceFile(ctx context.Context, id int64, name string) (evidence.File, bool, error) {
	f := evidence.File{Name: name}
	var gone bool
	err := s.read.QueryRowContext(ctx, `SELECT sha256, size, content, content IS NULL FROM evidence_files
		WHERE evidence_id = $1 AND name = $2`, id, name).Scan(&f.SHA256, &f.Size, &f.Content, &gone)
	if errors.Is(err, sql.ErrNoRows) {
		return f, false, nil
	}
	switch {
	case gone:
		f.Content = nil
	case f.Content == nil:
		f.Content = []byte{} // an empty file, not a tombstone's
	}
	return f, err == nil, err
}

// ClaimEvidence takes the oldest record waiting for a worker: pending, or running under a lease
// that ended (its worker stopped). On PostgreSQL SKIP LOCKED lets several nodes' workers claim
// different rows at once.
func (s *Store) ClaimEvidence(ctx context.Context, claim string, now, leaseUntil time.Time) (evidence.Record, bool, error) {
	r, err := scanEvidence(s.write.QueryRowContext(ctx, `UPDATE evidence SET state = 'running', claim = $1, lease_until = $2
		WHERE id = (SELECT id FROM evidence WHERE state = 'pending' OR (state = 'running' AND lease_until < $3)
			ORDER BY id LIMIT 1`+s.sql.claimLock+`)
		AND (state = 'pending' OR (state = 'running' AND lease_until < $3))
		RETURNING `+evidenceColumns, claim, millis(leaseUntil), millis(now)))
	if errors.Is(err, sql.ErrNoRows) {
		return evidence.Record{}, false, nil
	}
	if err != nil {
		return r, false, err
	}
	// The worker hashes the files the request wrote with its own.
	err = s.evidenceParts(ctx, &r)
	return r, err == nil, err
}

// SetEvidenceProgress records how far a claimed capture got; held is false when the claim was lost.
func (s *Store) SetEvidenceProgress(ctx context.Context, id int64, claim string, progress int, step string) (bool, error) {
	res, err := s.write.ExecContext(ctx, `UPDATE evidence SET progress = $1, step = $2 WHERE id = $3 AND claim = $4
		AND state = 'running'`, progress, step, id, claim)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// ReleaseEvidence puts a claimed record back among the pending ones.
func (s *Store) ReleaseEvidence(ctx context.Context, id int64, claim string) error {
	_, err := s.write.ExecContext(ctx, `UPDATE evidence SET state = 'pending', claim = '', lease_until = 0, progress = 0,
		step = '' WHERE id = $1 AND claim = $2 AND state = 'running'`, id, claim)
	return err
}

// FinishEvidence adds a claimed capture's files and timestamps and records its outcome, in one
// transaction; held is false when another worker took the record over.
func (s *Store) FinishEvidence(ctx context.Context, r evidence.Record, files []evidence.File, stamps []evidence.Stamp, claim string) (bool, error) {
	errs, err := json.Marshal(nonNil(r.Errors))
	if err != nil {
		return false, err
	}
	held := false
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE evidence SET state = $1, progress = $2, step = '', errors = $3,
			captured_at = $4, claim = '', lease_until = 0 WHERE id = $5 AND claim = $6 AND state = 'running'`,
			r.State, r.Progress, string(errs), millis(r.CapturedAt), r.ID, claim)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return err
		}
		held = true
		if err := insertEvidenceFiles(ctx, tx, r.ID, files); err != nil {
			return err
		}
		for _, t := range stamps {
			if _, err := tx.ExecContext(ctx, `INSERT INTO evidence_timestamps (evidence_id, n, tsa, stamped_at, response)
				VALUES ($1, $2, $3, $4, $5)`, r.ID, t.N, t.TSA, millis(t.Time), t.Response); err != nil {
				return err
			}
		}
		return nil
	})
	return held && err == nil, err
}

// DeleteEvidence makes a record a tombstone, with the audit entries: its files' bytes go, their
// names, hashes and sizes and the timestamps stay.
func (s *Store) DeleteEvidence(ctx context.Context, id, by int64, at time.Time, audit ...account.AuditEntry) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE evidence SET state = 'deleted', deleted_at = $1, deleted_by = $2
			WHERE id = $3 AND state <> 'deleted'`, millis(at), by, id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE evidence_files SET content = NULL WHERE evidence_id = $1`, id); err != nil {
			return err
		}
		return insertAudit(ctx, tx, audit...)
	})
}

// SetAutoCapture turns a search's automatic capture on from the next match (mode high or all)
// or off (mode ""), with the audit entries.
func (s *Store) SetAutoCapture(ctx context.Context, a evidence.Auto, audit ...account.AuditEntry) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if a.Mode == "" {
			if _, err := tx.ExecContext(ctx, `DELETE FROM evidence_auto WHERE search_id = $1`, a.SearchID); err != nil {
				return err
			}
			return insertAudit(ctx, tx, audit...)
		}
		// Matches stored before this moment are not captured; a mode change keeps the scan's place.
		if _, err := tx.ExecContext(ctx, `INSERT INTO evidence_auto (search_id, organization_id, tenant_id, mode, after_match_id, set_by)
			VALUES ($1, $2, $3, $4, (SELECT COALESCE(MAX(id), 0) FROM monitor_matches WHERE search_id = $1), $5)
			ON CONFLICT (search_id) DO UPDATE SET mode = excluded.mode, set_by = excluded.set_by`,
			a.SearchID, a.OrganizationID, a.TenantID, a.Mode, a.SetBy); err != nil {
			return err
		}
		return insertAudit(ctx, tx, audit...)
	})
}

// AutoCapture is a search's automatic capture; found is false when it is off.
func (s *Store) AutoCapture(ctx context.Context, searchID int64) (evidence.Auto, bool, error) {
	var a evidence.Auto
	err := s.read.QueryRowContext(ctx, `SELECT search_id, organization_id, tenant_id, mode, after_match_id, set_by
		FROM evidence_auto WHERE search_id = $1`, searchID).Scan(&a.SearchID, &a.OrganizationID, &a.TenantID, &a.Mode,
		&a.AfterMatchID, &a.SetBy)
	if errors.Is(err, sql.ErrNoRows) {
		return a, false, nil
	}
	return a, err == nil, err
}

// AutoMatches are up to limit matches, oldest first, of searches with automatic capture on
// that the scan has not passed yet: each search's next ones through (search_id, id), then the
// oldest of them all.
func (s *Store) AutoMatches(ctx context.Context, limit int) ([]evidence.AutoMatch, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT a.search_id, ms.name, a.organization_id, a.tenant_id, m.id, m.post_id,
		m.threat_score, a.mode
		FROM evidence_auto a JOIN monitor_searches ms ON ms.id = a.search_id
		JOIN monitor_matches m ON m.id IN (SELECT id FROM monitor_matches WHERE search_id = a.search_id
			AND id > a.after_match_id ORDER BY id LIMIT $1)
		ORDER BY m.id LIMIT $1`, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []evidence.AutoMatch
	for rows.Next() {
		var m evidence.AutoMatch
		if err := rows.Scan(&m.SearchID, &m.SearchName, &m.OrganizationID, &m.TenantID, &m.MatchID, &m.PostID, &m.Threat,
			&m.Mode); err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// SkipAutoMatch moves the search's scan past the match.
func (s *Store) SkipAutoMatch(ctx context.Context, searchID, matchID int64) error {
	return skipAutoMatch(ctx, s.write, searchID, matchID)
}

func skipAutoMatch(ctx context.Context, q execer, searchID, matchID int64) error {
	_, err := q.ExecContext(ctx, `UPDATE evidence_auto SET after_match_id = $1 WHERE search_id = $2 AND after_match_id < $1`,
		matchID, searchID)
	return err
}
