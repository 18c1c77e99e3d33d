package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// Load returns the source's saved cursor, or "" when it has none (connector.CursorStore).
func (s *Store) Load(ctx context.Context, source string) (string, error) {
	var cursor string
	err := s.read.QueryRowContext(ctx, `SELECT cursor FROM source_cursors WHERE source = $1`, source).Scan(&cursor)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return cursor, err
}

// Save stores the source's cursor (connector.CursorStore).
func (s *Store) Save(ctx context.Context, source, cursor string) error {
	_, err := s.write.ExecContext(ctx, `INSERT INTO source_cursors (source, cursor, updated_at) VALUES ($1, $2, $3)
		ON CONFLICT (source) DO UPDATE SET cursor = excluded.cursor, updated_at = excluded.updated_at`,
		source, cursor, time.Now().UnixMilli())
	return err
}
