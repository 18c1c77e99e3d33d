package store

import (
	"context"
	"database/sql"
	"time"

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
// hashes, together. A user with no pending enrolment gets a Conflict.
func (s *Store) EnableMFA(ctx context.Context, userID int64, codeHashes []string) error {
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
		return nil
	})
}

// DisableMFA turns two-step verification off: the secret and the recovery codes are deleted.
func (s *Store) DisableMFA(ctx context.Context, userID int64) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE users SET is_mfa_enabled = $1, mfa_secret = '', mfa_last_step = 0
			WHERE id = $2`, false, userID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM mfa_recovery_codes WHERE user_id = $1`, userID)
		return err
	})
}

// UseRecoveryCode spends the user's unused recovery code with that hash and reports whether
// there was one. One conditional update, so two sign-ins cannot both spend it.
func (s *Store) UseRecoveryCode(ctx context.Context, userID int64, codeHash string, at time.Time) (bool, error) {
	res, err := s.write.ExecContext(ctx, `UPDATE mfa_recovery_codes SET used_at = $1
		WHERE user_id = $2 AND code_hash = $3 AND used_at = 0`, millis(at), userID, codeHash)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// RecoveryCodesLeft counts the user's unused recovery codes.
func (s *Store) RecoveryCodesLeft(ctx context.Context, userID int64) (int, error) {
	var n int
	err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM mfa_recovery_codes WHERE user_id = $1 AND used_at = 0`,
		userID).Scan(&n)
	return n, err
}

// UpdateUserContact stores the user's name and username.
func (s *Store) UpdateUserContact(ctx context.Context, userID int64, name, username string) error {
	res, err := s.write.ExecContext(ctx, `UPDATE users SET name = $1, username = $2 WHERE id = $3`, name, username, userID)
	if n, _ := rowsAffected(res, err); err == nil && n == 0 {
		return problem.NotFound("The user was not found.")
	}
	return err
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
