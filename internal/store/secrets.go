package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/sealed"
)

// Purposes bind each sealed value to its place, so one moved elsewhere does not open.
const (
	serverSecretPurpose = "server_secrets:"
	mfaSecretPurpose    = "users.mfa_secret"
)

var errNoSecretKey = errors.New("store: no secret key: server secrets and TOTP secrets are sealed with one (UseSecretKey)")

// UseSecretKey sets the key that seals server secrets and users' TOTP secrets, seals in place
// any stored in plaintext by an older release, and checks the key opens every sealed one: a node
// given another node's database with a different key fails here, before it serves anything.
func (s *Store) UseSecretKey(ctx context.Context, k *sealed.Key) error {
	s.key = k
	if err := s.sealServerSecrets(ctx); err != nil {
		return err
	}
	if err := s.sealMFASecrets(ctx); err != nil {
		return err
	}
	return s.sealSourceCredentials(ctx)
}

// sealSourceCredentials seals in place the credentials of sources stored in plaintext by an
// older release, and checks the key opens every sealed one.
func (s *Store) sealSourceCredentials(ctx context.Context) error {
	rows, err := s.read.QueryContext(ctx, `SELECT id, tenant_id, config FROM sources`)
	if err != nil {
		return err
	}
	type row struct {
		id, tenantID int64
		config       string
	}
	var stored []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.id, &r.tenantID, &r.config); err != nil {
			rows.Close()
			return err
		}
		stored = append(stored, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, r := range stored {
		if _, err := s.openSourceConfig(r.tenantID, json.RawMessage(r.config)); err != nil {
			return fmt.Errorf("store: the credentials of source %d: %w", r.id, err)
		}
		box, err := s.sealSourceConfig(r.tenantID, json.RawMessage(r.config))
		if err != nil {
			return err
		}
		if box == r.config {
			continue
		}
		// Only if unchanged: another node starting at once may have sealed it already.
		if _, err := s.write.ExecContext(ctx, `UPDATE sources SET config = $1 WHERE id = $2 AND config = $3`,
			box, r.id, r.config); err != nil {
			return err
		}
	}
	return nil
}

func (s *Store) sealServerSecrets(ctx context.Context) error {
	rows, err := s.read.QueryContext(ctx, `SELECT name, value FROM server_secrets`)
	if err != nil {
		return err
	}
	stored := map[string]string{}
	for rows.Next() {
		var name, value string
		if err := rows.Scan(&name, &value); err != nil {
			rows.Close()
			return err
		}
		stored[name] = value
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for name, value := range stored {
		if sealed.IsSealed(value) {
			if _, err := s.key.Open(serverSecretPurpose+name, value); err != nil {
				return fmt.Errorf("store: server secret %q: %w", name, err)
			}
			continue
		}
		box, err := s.key.Seal(serverSecretPurpose+name, value)
		if err != nil {
			return err
		}
		// Only if still plaintext: another node starting at once may have sealed it already.
		if _, err := s.write.ExecContext(ctx, `UPDATE server_secrets SET value = $1 WHERE name = $2 AND value = $3`,
			box, name, value); err != nil {
			return err
		}
	}
	return nil
}

func (s *Store) sealMFASecrets(ctx context.Context) error {
	rows, err := s.read.QueryContext(ctx, `SELECT id, mfa_secret FROM users WHERE mfa_secret <> ''`)
	if err != nil {
		return err
	}
	stored := map[int64]string{}
	for rows.Next() {
		var id int64
		var value string
		if err := rows.Scan(&id, &value); err != nil {
			rows.Close()
			return err
		}
		stored[id] = value
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for id, value := range stored {
		if sealed.IsSealed(value) {
			if _, err := s.key.Open(mfaSecretPurpose, value); err != nil {
				return fmt.Errorf("store: TOTP secret of user %d: %w", id, err)
			}
			continue
		}
		box, err := s.key.Seal(mfaSecretPurpose, value)
		if err != nil {
			return err
		}
		if _, err := s.write.ExecContext(ctx, `UPDATE users SET mfa_secret = $1 WHERE id = $2 AND mfa_secret = $3`,
			box, id, value); err != nil {
			return err
		}
	}
	return nil
}

// sealMFA seals a TOTP secret for storage; none stays empty.
func (s *Store) sealMFA(secret string) (string, error) {
	if secret == "" {
		return "", nil
	}
	if s.key == nil {
		return "", errNoSecretKey
	}
	return s.key.Seal(mfaSecretPurpose, secret)
}

// openUser opens the TOTP secret of a user just read.
func (s *Store) openUser(u account.User, err error) (account.User, error) {
	if err != nil || u.MFASecret == "" {
		return u, err
	}
	if s.key == nil {
		return u, errNoSecretKey
	}
	if !sealed.IsSealed(u.MFASecret) {
		return u, nil // written by an older release after this node sealed the rest
	}
	if u.MFASecret, err = s.key.Open(mfaSecretPurpose, u.MFASecret); err != nil {
		return u, fmt.Errorf("store: TOTP secret of user %d: %w", u.ID, err)
	}
	return u, nil
}

// Secret returns the named server secret, storing generate()'s value (sealed) the first time it
// is asked for. Every node of a cluster reads the same value.
func (s *Store) Secret(ctx context.Context, name string, generate func() (string, error)) (string, error) {
	if s.key == nil {
		return "", errNoSecretKey
	}
	var value string
	err := s.read.QueryRowContext(ctx, `SELECT value FROM server_secrets WHERE name = $1`, name).Scan(&value)
	if errors.Is(err, sql.ErrNoRows) {
		value, err = s.storeSecret(ctx, name, generate)
	}
	if err != nil {
		return "", err
	}
	if !sealed.IsSealed(value) {
		return value, nil
	}
	plain, err := s.key.Open(serverSecretPurpose+name, value)
	if err != nil {
		return "", fmt.Errorf("store: server secret %q: %w", name, err)
	}
	return plain, nil
}

// storeSecret stores generate()'s value, sealed, as the named secret and returns the stored
// value: another node may have stored its own first, and every node uses the stored one.
func (s *Store) storeSecret(ctx context.Context, name string, generate func() (string, error)) (string, error) {
	fresh, err := generate()
	if err != nil {
		return "", err
	}
	box, err := s.key.Seal(serverSecretPurpose+name, fresh)
	if err != nil {
		return "", err
	}
	if _, err := s.write.ExecContext(ctx, `INSERT INTO server_secrets (name, value) VALUES ($1, $2)
		ON CONFLICT (name) DO NOTHING`, name, box); err != nil {
		return "", err
	}
	var value string
	err = s.write.QueryRowContext(ctx, `SELECT value FROM server_secrets WHERE name = $1`, name).Scan(&value)
	return value, err
}

const webhookSecretPurpose = "organization webhook secret"

// SetWebhookSecret seals and stores an organization's webhook signing secret, with the audit
// entries.
func (s *Store) SetWebhookSecret(ctx context.Context, organizationID int64, secret string, audit ...account.AuditEntry) error {
	if s.key == nil {
		return errNoSecretKey
	}
	box, err := s.key.Seal(webhookSecretPurpose, secret)
	if err != nil {
		return err
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE organizations SET webhook_secret = $1 WHERE id = $2`, box, organizationID)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return notFound(errors.Join(sql.ErrNoRows, err), "organization")
		}
		return insertAudit(ctx, tx, audit...)
	})
}

// WebhookSecret is an organization's webhook signing secret, opened; "" when it has none.
func (s *Store) WebhookSecret(ctx context.Context, organizationID int64) (string, error) {
	o, err := s.Organization(ctx, organizationID)
	if err != nil || o.WebhookSecret == "" {
		return "", err
	}
	if s.key == nil {
		return "", errNoSecretKey
	}
	if !sealed.IsSealed(o.WebhookSecret) {
		return o.WebhookSecret, nil
	}
	return s.key.Open(webhookSecretPurpose, o.WebhookSecret)
}
