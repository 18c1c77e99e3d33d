package store

import (
	"context"
	"strings"
	"time"

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

func (s *Store) CreateSession(ctx context.Context, sess *auth.Session, tokenHash string) error {
	return s.write.QueryRowContext(ctx, `INSERT INTO sessions (token_hash, user_id, ip, user_agent, created_at,
		last_seen_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
		tokenHash, sess.UserID, sess.IP, sess.UserAgent, millis(sess.CreatedAt), millis(sess.LastSeenAt),
		millis(sess.ExpiresAt)).Scan(&sess.ID)
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

func (s *Store) CreateAPIToken(ctx context.Context, t *auth.APIToken, tokenHash string) error {
	return s.write.QueryRowContext(ctx, `INSERT INTO api_tokens (user_id, name, token_hash, scopes, created_at)
		VALUES ($1, $2, $3, $4, $5) RETURNING id`,
		t.UserID, t.Name, tokenHash, strings.Join(t.Scopes, " "), millis(t.CreatedAt)).Scan(&t.ID)
}

func (s *Store) APITokenByHash(ctx context.Context, tokenHash string) (auth.APIToken, error) {
	var t auth.APIToken
	var scopes string
	var created, used, revoked int64
	err := s.read.QueryRowContext(ctx, `SELECT id, user_id, name, scopes, created_at, last_used_at, revoked_at
		FROM api_tokens WHERE token_hash = $1`, tokenHash).
		Scan(&t.ID, &t.UserID, &t.Name, &scopes, &created, &used, &revoked)
	t.Scopes = strings.Fields(scopes)
	t.CreatedAt, t.LastUsedAt, t.RevokedAt = fromMillis(created), fromMillis(used), fromMillis(revoked)
	return t, notFound(err, "API token")
}

func (s *Store) TouchAPIToken(ctx context.Context, id int64, at time.Time) error {
	_, err := s.write.ExecContext(ctx, `UPDATE api_tokens SET last_used_at = $1 WHERE id = $2`, millis(at), id)
	return err
}
