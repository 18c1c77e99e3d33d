package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"
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

// translationBatch is how many keys one read of CachedTranslations looks up.
const translationBatch = 500

// CachedTranslations returns the stored translations of the keys it finds, reading them a
// batch at a time through the primary key.
func (s *Store) CachedTranslations(ctx context.Context, keys []translate.Key) (map[translate.Key]string, error) {
	out := map[translate.Key]string{}
	wanted := make(map[translate.Key]bool, len(keys))
	// Keys of one target and format (an export asks for one of each) are read together.
	groups := map[[2]string][]translate.Key{}
	for _, k := range keys {
		if !isHexHash(k.TextHash) {
			continue // not a key KeyOf makes: nothing is stored under it
		}
		wanted[k] = true
		g := [2]string{k.Target, k.Format}
		groups[g] = append(groups[g], k)
	}
	for g, group := range groups {
		for len(group) > 0 {
			batch := group[:min(len(group), translationBatch)]
			group = group[len(batch):]
			hashes := make([]string, len(batch))
			for i, k := range batch {
				hashes[i] = "'" + k.TextHash + "'"
			}
			// Hex digits cannot carry SQL, and inline they cost nothing to bind (see idList).
			rows, err := s.read.QueryContext(ctx, `SELECT text_hash, source, translation FROM translations
				WHERE target = $1 AND format = $2 AND text_hash IN (`+strings.Join(hashes, ", ")+`)`, g[0], g[1])
			if err != nil {
				return nil, err
			}
			for rows.Next() {
				k := translate.Key{Target: g[0], Format: g[1]}
				var text string
				if err := rows.Scan(&k.TextHash, &k.Source, &text); err != nil {
					rows.Close()
					return nil, err
				}
				if wanted[k] { // a row of another source language than asked is not an answer
					out[k] = text
				}
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// isHexHash reports whether h is a hex SHA-256 as KeyOf writes it.
func isHexHash(h string) bool {
	if len(h) != 64 {
		return false
	}
	for i := 0; i < len(h); i++ {
		if c := h[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
