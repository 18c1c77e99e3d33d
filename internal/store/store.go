// Package store is Sightline's store of record: SQLite (the default, one file in the data dir)
// or PostgreSQL (scaled out), behind one implementation. SQL is written once in the dialect both
// understand ($1 placeholders, RETURNING, ON CONFLICT); where they spell a thing differently the
// statement takes the piece from the store's dialect (dialect.go), and where they differ in
// strategy (partitions, full-text and spatial side tables) a local branch on the database does.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/sightline/sightline/internal/sealed"
	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/sightline/sightline/internal/account"
)

// Dialect names the database behind a Store.
type Dialect string

const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
)

// Store is the connection to the store of record.
type Store struct {
	dialect Dialect
	sql     *dialect
	// write takes every statement that changes data. On SQLite it is a single connection, so
	// writers queue in Go instead of failing with SQLITE_BUSY; read is a pool of read-only
	// connections that WAL lets run beside it. On PostgreSQL both are the same pool.
	write *sql.DB
	read  *sql.DB
	// walk and stretch are how many rows of a window a PostgreSQL search reads in time order
	// (pgWalk) and then through the time index's bitmap (pgStretch).
	walk, stretch int
	// key seals server secrets and TOTP secrets (UseSecretKey).
	key *sealed.Key
	// caps bound what each organization holds (SetCaps); the zero value bounds nothing.
	caps account.Caps
	// partitions remembers the PostgreSQL day partitions this store created or found, so
	// inserts rarely touch the catalogue. It belongs to the store, not the process: two stores
	// (tests, or a store reopened at a freed address) must never share what they know.
	partitions sync.Map
	// rum is the RUM extension's schema when the posts' full-text index is RUM (rumSchema).
	// growth drives the PostgreSQL partitions' analyses and vacuums after bulk loads (analyze.go).
	growth           *growth
	searchIndexMu    sync.Mutex
	searchIndexKnown bool
	rum              string
}

// Open connects to dsn: a postgres:// or postgresql:// URL selects PostgreSQL; anything else
// is a SQLite file path, optionally prefixed with sqlite://. It does not migrate.
func Open(ctx context.Context, dsn string) (*Store, error) {
	var s *Store
	var err error
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		s, err = openPostgres(dsn)
	} else {
		s, err = openSQLite(strings.TrimPrefix(dsn, "sqlite://"))
	}
	if err != nil {
		return nil, err
	}
	pingCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := s.write.PingContext(pingCtx); err != nil {
		s.Close()
		return nil, fmt.Errorf("store: connect to %s: %w", s.dialect, err)
	}
	return s, nil
}

func openPostgres(dsn string) (*Store, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, err
	}
	// Statements are prepared and cached, and after a few runs PostgreSQL would plan them once
	// for any arguments. A search's plan depends on how common its words are, so plan each run.
	if _, set := cfg.RuntimeParams["plan_cache_mode"]; !set {
		cfg.RuntimeParams["plan_cache_mode"] = "force_custom_plan"
	}
	db := stdlib.OpenDB(*cfg)
	db.SetMaxOpenConns(20)
	db.SetMaxIdleConns(10)
	db.SetConnMaxIdleTime(5 * time.Minute)
	return &Store{dialect: Postgres, sql: &postgresDialect, write: db, read: db, walk: pgWalk, stretch: pgStretch, growth: newGrowth()}, nil
}

func openSQLite(path string) (*Store, error) {
	if path == "" {
		return nil, errors.New("store: empty SQLite path")
	}
	// The one writer gets the larger page cache: inserts land all over the posts' id index,
	// which outgrows a small cache at a few hundred thousand posts.
	write, err := sql.Open("sqlite", sqliteDSN(path, "cache_size(-262144)", "wal_autocheckpoint(10000)")+"&_txlock=immediate")
	if err != nil {
		return nil, err
	}
	write.SetMaxOpenConns(1)
	read, err := sql.Open("sqlite", SQLiteReadDSN(path))
	if err != nil {
		write.Close()
		return nil, err
	}
	read.SetMaxOpenConns(4)
	return &Store{dialect: SQLite, sql: &sqliteDialect, write: write, read: read}, nil
}

// SQLiteReadDSN is how the store's read pool opens the SQLite file at path (the benchmarks'
// peer queries open it so too). The file is memory-mapped: a search's total reads the row of
// every match it counts, mostly outside the page cache, and a mapped page is read without a
// system call and a copy (the capped counts of common words took about half the CPU).
func SQLiteReadDSN(path string) string {
	return sqliteDSN(path, "cache_size(-65536)", "mmap_size(17179869184)", "query_only(1)")
}

func sqliteDSN(path string, extra ...string) string {
	pragmas := url.Values{}
	for _, p := range append([]string{"journal_mode(WAL)", "busy_timeout(10000)", "foreign_keys(1)",
		"synchronous(NORMAL)", "temp_store(MEMORY)"}, extra...) {
		pragmas.Add("_pragma", p)
	}
	return "file:" + path + "?" + pragmas.Encode()
}

// Dialect reports which database is behind the store.
func (s *Store) Dialect() Dialect { return s.dialect }

// Close closes every connection.
func (s *Store) Close() error {
	if s.growth != nil {
		s.growth.close()
	}
	err := s.write.Close()
	if s.read != s.write {
		err = errors.Join(err, s.read.Close())
	}
	return err
}

// Ping checks the database answers.
func (s *Store) Ping(ctx context.Context) error { return s.read.PingContext(ctx) }

// inTx runs fn in a write transaction, committing when fn returns nil.
func (s *Store) inTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// millis stores times as integer Unix milliseconds, the one representation both dialects sort
// and compare the same way.
func millis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

func fromMillis(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}

// isUniqueViolation reports whether err is a unique-constraint failure in either dialect.
func isUniqueViolation(err error) bool {
	if err == nil {
		return false
	}
	msg := err.Error()
	return strings.Contains(msg, "UNIQUE constraint failed") || strings.Contains(msg, "SQLSTATE 23505")
}

// idList writes ids as the literal list of an IN (...). Integers cannot carry SQL, and inline
// they cost nothing to bind: the SQLite driver binds each numbered parameter by name, which is
// quadratic in their number, and both databases cap how many a statement may have.
func idList(ids []int64) string {
	b := make([]byte, 0, 8*len(ids))
	for i, id := range ids {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = strconv.AppendInt(b, id, 10)
	}
	return string(b)
}
