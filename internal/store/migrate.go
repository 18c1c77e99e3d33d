package store

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Migrations are numbered files in migrations/: NNNN_name.sql for both dialects, or
// NNNN_name.sqlite.sql and NNNN_name.postgres.sql where they must differ. In shared files,
// {{id}} stands for an auto-incrementing integer primary key and {{blob}} for binary data.
//
//go:embed migrations/*.sql
var migrationFiles embed.FS

type migration struct {
	version int
	name    string
	sql     string
}

func (s *Store) migrations() ([]migration, error) {
	entries, err := fs.ReadDir(migrationFiles, "migrations")
	if err != nil {
		return nil, err
	}
	byVersion := map[int]migration{}
	for _, e := range entries {
		name := strings.TrimSuffix(e.Name(), ".sql")
		if d, ok := strings.CutSuffix(name, "."+string(s.dialect)); ok {
			name = d
		} else if strings.HasSuffix(name, ".sqlite") || strings.HasSuffix(name, ".postgres") {
			continue // the other dialect's file
		}
		num, _, ok := strings.Cut(name, "_")
		version, err := strconv.Atoi(num)
		if !ok || err != nil {
			return nil, fmt.Errorf("store: migration %q is not named NNNN_name.sql", e.Name())
		}
		if _, dup := byVersion[version]; dup {
			return nil, fmt.Errorf("store: two migrations numbered %d", version)
		}
		body, err := fs.ReadFile(migrationFiles, "migrations/"+e.Name())
		if err != nil {
			return nil, err
		}
		byVersion[version] = migration{version: version, name: name, sql: s.expand(string(body))}
	}
	list := make([]migration, 0, len(byVersion))
	for _, m := range byVersion {
		list = append(list, m)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].version < list[j].version })
	return list, nil
}

func (s *Store) expand(body string) string {
	return strings.NewReplacer("{{id}}", s.sql.idType, "{{blob}}", s.sql.blobType).Replace(body)
}

// Migrate applies every migration not yet applied, each in its own transaction. On PostgreSQL
// an advisory lock keeps two nodes starting together from migrating at once.
func (s *Store) Migrate(ctx context.Context) error { return s.migrateTo(ctx, math.MaxInt) }

// migrateTo applies the migrations up to version; tests use it to fill a database as an older
// version left it.
func (s *Store) migrateTo(ctx context.Context, version int) error {
	list, err := s.migrations()
	if err != nil {
		return err
	}
	list = slices.DeleteFunc(list, func(m migration) bool { return m.version > version })
	if _, err := s.write.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`); err != nil {
		return fmt.Errorf("store: create schema_migrations: %w", err)
	}
	for _, m := range list {
		err := s.inTx(ctx, func(tx *sql.Tx) error {
			if s.sql.migrationLock != "" {
				if _, err := tx.ExecContext(ctx, s.sql.migrationLock); err != nil {
					return err
				}
			}
			var applied int
			if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM schema_migrations WHERE version = $1`, m.version).Scan(&applied); err != nil {
				return err
			}
			if applied > 0 {
				return nil
			}
			if _, err := tx.ExecContext(ctx, m.sql); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)`,
				m.version, m.name, time.Now().UnixMilli())
			return err
		})
		if err != nil {
			return fmt.Errorf("store: migration %s: %w", m.name, err)
		}
	}
	s.searchIndexMu.Lock()
	s.searchIndexKnown = false // a migration may have changed the posts' full-text index
	s.searchIndexMu.Unlock()
	return nil
}

// SchemaVersion is the highest applied migration.
func (s *Store) SchemaVersion(ctx context.Context) (int, error) {
	var v sql.NullInt64
	err := s.read.QueryRowContext(ctx, `SELECT MAX(version) FROM schema_migrations`).Scan(&v)
	return int(v.Int64), err
}
