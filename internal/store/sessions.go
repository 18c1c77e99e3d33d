package store

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/auth"
)

const sessionColumns = `id, user_id, ip, user_agent, created_at, last_seen_at, expires_at`

func scanSession(row interface{ Scan(...any) error }) (auth.Session, error) {
	var s auth.Session
	var created, seen, expires int64
	err := row.Scan(&s.ID, &s.UserID, &s.IP, &s.UserAgent, &created, &seen, &expires)
	s.CreatedAt, s.LastSeenAt, s.ExpiresAt = fromMillis(created), fromMillis(seen), fromMillis(expires)
	return s, notFound(err, "session")
}

// CreateSession stores the session and its audit entries (one without a ModelID names the
// session), together.
func (s *Store) CreateSession(ctx context.Context, sess *auth.Session, tokenHash string, audit ...account.AuditEntry) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `INSERT INTO sessions (token_hash, user_id, ip, user_agent, created_at,
			last_seen_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
			tokenHash, sess.UserID, sess.IP, sess.UserAgent, millis(sess.CreatedAt), millis(sess.LastSeenAt),
			millis(sess.ExpiresAt)).Scan(&sess.ID); err != nil {
			return err
		}
		return insertAudit(ctx, tx, withModelID(audit, sess.ID)...)
	})
}

// withModelID names id in the entries that name nothing yet: the row a change just created.
func withModelID(audit []account.AuditEntry, id int64) []account.AuditEntry {
	for i := range audit {
		if audit[i].ModelID == "" {
			audit[i].ModelID = strconv.FormatInt(id, 10)
		}
	}
	return audit
}

func (s *Store) SessionByTokenHash(ctx context.Context, tokenHash string) (auth.Session, error) {
	return scanSession(s.read.QueryRowContext(ctx, `SELECT `+sessionColumns+` FROM sessions WHERE token_hash = $1`, tokenHash))
}

func (s *Store) Session(ctx context.Context, id int64) (auth.Session, error) {
	return scanSession(s.read.QueryRowContext(ctx, `SELECT `+sessionColumns+` FROM sessions WHERE id = $1`, id))
}

func (s *Store) TouchSession(ctx context.Context, id int64, lastSeen, expires time.Time) error {
	_, err := s.write.ExecContext(ctx, `UPDATE sessions SET last_seen_at = $1, expires_at = $2 WHERE id = $3`,
		millis(lastSeen), millis(expires), id)
	return err
}

// UserSessions are a user's sessions, the most recently used first.
func (s *Store) UserSessions(ctx context.Context, userID int64) ([]auth.Session, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+sessionColumns+` FROM sessions WHERE user_id = $1
		ORDER BY last_seen_at DESC, id DESC`, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []auth.Session
	for rows.Next() {
		sess, err := scanSession(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, sess)
	}
	return out, rows.Err()
}

func (s *Store) DeleteSession(ctx context.Context, id int64) error {
	_, err := s.write.ExecContext(ctx, `DELETE FROM sessions WHERE id = $1`, id)
	return err
}

// DeleteExpiredSessions removes sessions past their expiry.
func (s *Store) DeleteExpiredSessions(ctx context.Context, now time.Time) (int64, error) {
	res, err := s.write.ExecContext(ctx, `DELETE FROM sessions WHERE expires_at <= $1`, millis(now))
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// apiTokenColumns read api_tokens as t, with the name of who made the token for someone else.
const apiTokenColumns = `t.id, t.user_id, t.name, t.scopes, t.created_at, t.last_used_at, t.revoked_at, t.expires_at,
	t.created_by, COALESCE((SELECT c.name FROM users c WHERE c.id = t.created_by), '')`

func scanAPIToken(row interface{ Scan(...any) error }) (auth.APIToken, error) {
	var t auth.APIToken
	var scopes string
	var created, used, revoked, expires int64
	err := row.Scan(&t.ID, &t.UserID, &t.Name, &scopes, &created, &used, &revoked, &expires, &t.CreatedBy,
		&t.CreatedByName)
	t.Scopes = strings.Fields(scopes)
	t.CreatedAt, t.LastUsedAt = fromMillis(created), fromMillis(used)
	t.RevokedAt, t.ExpiresAt = fromMillis(revoked), fromMillis(expires)
	return t, notFound(err, "API token")
}

// CreateAPIToken stores the token and its audit entries (one without a ModelID names the
// token), together.
func (s *Store) CreateAPIToken(ctx context.Context, t *auth.APIToken, tokenHash string, audit ...account.AuditEntry) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `INSERT INTO api_tokens (user_id, name, token_hash, scopes, created_at,
			expires_at, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
			t.UserID, t.Name, tokenHash, strings.Join(t.Scopes, " "), millis(t.CreatedAt), millis(t.ExpiresAt),
			t.CreatedBy).Scan(&t.ID); err != nil {
			return err
		}
		return insertAudit(ctx, tx, withModelID(audit, t.ID)...)
	})
}

func (s *Store) APITokenByHash(ctx context.Context, tokenHash string) (auth.APIToken, error) {
	return scanAPIToken(s.read.QueryRowContext(ctx, `SELECT `+apiTokenColumns+` FROM api_tokens t WHERE t.token_hash = $1`,
		tokenHash))
}

// APITokens lists the user's API tokens, revoked and expired ones too, oldest first.
func (s *Store) APITokens(ctx context.Context, userID int64) ([]auth.APIToken, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+apiTokenColumns+` FROM api_tokens t WHERE t.user_id = $1
		ORDER BY t.created_at, t.id`, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var tokens []auth.APIToken
	for rows.Next() {
		t, err := scanAPIToken(rows)
		if err != nil {
			return nil, err
		}
		tokens = append(tokens, t)
	}
	return tokens, rows.Err()
}

// RevokeAPIToken revokes the user's token of that id at at, with its audit entries; revoking a
// revoked token keeps its first revocation time and writes nothing.
func (s *Store) RevokeAPIToken(ctx context.Context, userID, id int64, at time.Time, audit ...account.AuditEntry) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE api_tokens SET revoked_at = $1 WHERE id = $2 AND user_id = $3
			AND revoked_at = 0`, millis(at), id, userID)
		if n, err := rowsAffected(res, err); err != nil || n == 0 {
			return err
		}
		return insertAudit(ctx, tx, audit...)
	})
}

func (s *Store) TouchAPIToken(ctx context.Context, id int64, at time.Time) error {
	_, err := s.write.ExecContext(ctx, `UPDATE api_tokens SET last_used_at = $1 WHERE id = $2`, millis(at), id)
	return err
}
