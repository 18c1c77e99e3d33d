package store

import (
	"context"
	"database/sql"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/social"
)

const (
	socialTokenPurpose    = "social_accounts.token"
	socialVerifierPurpose = "social_pending.verifier"
)

// AddSocialPending records a connection begun at a provider, dropping those that expired.
func (s *Store) AddSocialPending(ctx context.Context, p social.Pending) error {
	if s.key == nil {
		return errNoSecretKey
	}
	verifier, err := s.key.Seal(socialVerifierPurpose, p.Verifier)
	if err != nil {
		return err
	}
	// Abandoned connections are swept as new ones begin: p's begins now.
	now := p.ExpiresAt.Add(-social.StateLifetime)
	if _, err := s.write.ExecContext(ctx, `DELETE FROM social_pending WHERE expires_at < $1`, millis(now)); err != nil {
		return err
	}
	_, err = s.write.ExecContext(ctx, `INSERT INTO social_pending (state_hash, user_id, provider, verifier, expires_at)
		VALUES ($1, $2, $3, $4, $5)`, p.StateHash, p.UserID, p.Provider, verifier, millis(p.ExpiresAt))
	return err
}

// TakeSocialPending removes the pending connection and returns it; a state is good once.
func (s *Store) TakeSocialPending(ctx context.Context, stateHash string) (social.Pending, error) {
	if s.key == nil {
		return social.Pending{}, errNoSecretKey
	}
	p := social.Pending{StateHash: stateHash}
	var verifier string
	var expires int64
	err := s.write.QueryRowContext(ctx, `DELETE FROM social_pending WHERE state_hash = $1
		RETURNING user_id, provider, verifier, expires_at`, stateHash).Scan(&p.UserID, &p.Provider, &verifier, &expires)
	if err != nil {
		return p, notFound(err, "connection request")
	}
	p.ExpiresAt = fromMillis(expires)
	p.Verifier, err = s.key.Open(socialVerifierPurpose, verifier)
	return p, err
}

// SaveSocialAccount stores a connected account, with the audit entries (one without a ModelID
// names the account); connecting the same account again replaces its token.
func (s *Store) SaveSocialAccount(ctx context.Context, a *social.Account, audit ...account.AuditEntry) error {
	if s.key == nil {
		return errNoSecretKey
	}
	token, err := s.key.Seal(socialTokenPurpose, a.Token)
	if err != nil {
		return err
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `INSERT INTO social_accounts (user_id, provider, account_id, account_name,
			token, connected_at) VALUES ($1, $2, $3, $4, $5, $6)
			ON CONFLICT (user_id, provider, account_id) DO UPDATE SET account_name = excluded.account_name,
			token = excluded.token, connected_at = excluded.connected_at RETURNING id`,
			a.UserID, a.Provider, a.AccountID, a.AccountName, token, millis(a.ConnectedAt)).Scan(&a.ID); err != nil {
			return err
		}
		return insertAudit(ctx, tx, withModelID(audit, a.ID)...)
	})
}

const socialAccountColumns = `id, user_id, provider, account_id, account_name, token, connected_at`

func (s *Store) scanSocialAccount(row interface{ Scan(...any) error }) (social.Account, error) {
	var a social.Account
	var token string
	var connected int64
	if err := row.Scan(&a.ID, &a.UserID, &a.Provider, &a.AccountID, &a.AccountName, &token, &connected); err != nil {
		return a, err
	}
	a.ConnectedAt = fromMillis(connected)
	if s.key == nil {
		return a, errNoSecretKey
	}
	var err error
	a.Token, err = s.key.Open(socialTokenPurpose, token)
	return a, err
}

// SocialAccounts are the user's connected accounts, oldest first.
func (s *Store) SocialAccounts(ctx context.Context, userID int64) ([]social.Account, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+socialAccountColumns+` FROM social_accounts WHERE user_id = $1
		ORDER BY connected_at, id`, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	accounts := []social.Account{}
	for rows.Next() {
		a, err := s.scanSocialAccount(rows)
		if err != nil {
			return nil, err
		}
		accounts = append(accounts, a)
	}
	return accounts, rows.Err()
}

// SocialAccount is one connected account.
func (s *Store) SocialAccount(ctx context.Context, id int64) (social.Account, error) {
	a, err := s.scanSocialAccount(s.read.QueryRowContext(ctx, `SELECT `+socialAccountColumns+`
		FROM social_accounts WHERE id = $1`, id))
	return a, notFound(err, "social account")
}

// DeleteSocialAccount forgets a connected account and its token, with the audit entries.
func (s *Store) DeleteSocialAccount(ctx context.Context, id int64, audit ...account.AuditEntry) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM social_accounts WHERE id = $1`, id)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return notFound(sql.ErrNoRows, "social account")
		}
		return insertAudit(ctx, tx, audit...)
	})
}

var _ social.Store = (*Store)(nil)
