package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/problem"
)

// StartMFAEnrolment stores a new TOTP secret (sealed) for a user who has two-step verification
// off, replacing any enrolment not yet confirmed, and forgets the last accepted time step (it
// belonged to an earlier secret). A user who has it on gets a Conflict.
func (s *Store) StartMFAEnrolment(ctx context.Context, userID int64, secret string) error {
	box, err := s.sealMFA(secret)
	if err != nil {
		return err
	}
	res, err := s.write.ExecContext(ctx, `UPDATE users SET mfa_secret = $1, mfa_last_step = 0
		WHERE id = $2 AND is_mfa_enabled = $3`, box, userID, false)
	return oneRow(res, err, "Two-step verification is already on.")
}

// EnableMFA turns on the user's pending enrolment and replaces their recovery codes with these
// hashes, with the audit entries, together. A user with no pending enrolment gets a Conflict.
func (s *Store) EnableMFA(ctx context.Context, userID int64, codeHashes []string, audit ...account.AuditEntry) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE users SET is_mfa_enabled = $1
			WHERE id = $2 AND is_mfa_enabled = $3 AND mfa_secret <> ''`, true, userID, false)
		if err := oneRow(res, err, "Start turning on two-step verification first."); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM mfa_recovery_codes WHERE user_id = $1`, userID); err != nil {
			return err
		}
		for _, h := range codeHashes {
			if _, err := tx.ExecContext(ctx, `INSERT INTO mfa_recovery_codes (user_id, code_hash) VALUES ($1, $2)`,
				userID, h); err != nil {
				return err
			}
		}
		return insertAudit(ctx, tx, audit...)
	})
}

// DisableMFA turns two-step verification off (the secret, a pending enrolment and the recovery
// codes are deleted), with the audit entries, together.
func (s *Store) DisableMFA(ctx context.Context, userID int64, audit ...account.AuditEntry) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE users SET is_mfa_enabled = $1, mfa_secret = '', mfa_last_step = 0
			WHERE id = $2`, false, userID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM mfa_recovery_codes WHERE user_id = $1`, userID); err != nil {
			return err
		}
		return insertAudit(ctx, tx, audit...)
	})
}

// UseRecoveryCode spends the user's unused recovery code with that hash, writing the audit
// entries when it did, and reports whether there was one. One conditional update, so two
// sign-ins cannot both spend it.
func (s *Store) UseRecoveryCode(ctx context.Context, userID int64, codeHash string, at time.Time, audit ...account.AuditEntry) (bool, error) {
	used := false
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE mfa_recovery_codes SET used_at = $1
			WHERE user_id = $2 AND code_hash = $3 AND used_at = 0`, millis(at), userID, codeHash)
		if n, err := rowsAffected(res, err); err != nil || n != 1 {
			return err
		}
		used = true
		return insertAudit(ctx, tx, audit...)
	})
	return used && err == nil, err
}

// RecoveryCodesLeft counts the user's unused recovery codes.
func (s *Store) RecoveryCodesLeft(ctx context.Context, userID int64) (int, error) {
	var n int
	err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM mfa_recovery_codes WHERE user_id = $1 AND used_at = 0`,
		userID).Scan(&n)
	return n, err
}

// UpdateUserContact stores the user's name and username and writes the audit entries, together.
// The entries go first, so a user renaming themselves is recorded under the name they had.
func (s *Store) UpdateUserContact(ctx context.Context, userID int64, name, username string, audit ...account.AuditEntry) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if err := insertAudit(ctx, tx, audit...); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `UPDATE users SET name = $1, username = $2 WHERE id = $3`, name, username, userID)
		if n, err := rowsAffected(res, err); err != nil {
			return err
		} else if n == 0 {
			return problem.NotFound("The user was not found.")
		}
		return nil
	})
}

// oneRow turns an update that changed no row into a Conflict with message.
func oneRow(res sql.Result, err error, message string) error {
	n, err := rowsAffected(res, err)
	if err != nil {
		return err
	}
	if n == 0 {
		return problem.Conflict(message)
	}
	return nil
}

func rowsAffected(res sql.Result, err error) (int64, error) {
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
