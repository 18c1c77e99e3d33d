package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/sightline/sightline/internal/translate"
)

// translationLifetime is how long a cached translation is kept: as long as the posts it is of.
const translationLifetime = 30 * 24 * time.Hour

// CachedTranslation returns the stored translation of k, if any.
func (s *Store) CachedTranslation(ctx context.Context, k translate.Key) (string, bool, error) {
	var text string
	err := s.read.QueryRowContext(ctx, `SELECT translation FROM translations
		WHERE text_hash = $1 AND source = $2 AND target = $3 AND format = $4`,
		k.TextHash, k.Source, k.Target, k.Format).Scan(&text)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	return text, err == nil, err
}

// SaveTranslation stores a translation (replacing an older one of the same key) and sweeps
// those past their lifetime.
func (s *Store) SaveTranslation(ctx context.Context, k translate.Key, translation string) error {
	now := time.Now()
	if _, err := s.write.ExecContext(ctx, `DELETE FROM translations WHERE created_at < $1`,
		millis(now.Add(-translationLifetime))); err != nil {
		return err
	}
	_, err := s.write.ExecContext(ctx, `INSERT INTO translations (text_hash, source, target, format, translation, created_at)
		VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT (text_hash, source, target, format) DO UPDATE SET translation = excluded.translation, created_at = excluded.created_at`,
		k.TextHash, k.Source, k.Target, k.Format, translation, millis(now))
	return err
}
