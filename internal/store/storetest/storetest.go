// Package storetest gives tests a real, migrated, empty store on every backend: SQLite in a
// temporary directory and PostgreSQL in a database of its own, cloned from a migrated template
// (template.go). PostgreSQL tests skip when no server answers, except on CI (CI=true), where
// they fail instead; SIGHTLINE_TEST_POSTGRES=off skips them on purpose (make check).
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/sealed"
	"github.com/sightline/sightline/internal/store"
)

// Off is the SIGHTLINE_TEST_POSTGRES value that turns the PostgreSQL tests off, CI or not.
const Off = "off"

// PostgresURL is the server the PostgreSQL tests use; SIGHTLINE_TEST_POSTGRES overrides it.
func PostgresURL() string {
	if u := os.Getenv("SIGHTLINE_TEST_POSTGRES"); u != "" {
		return u
	}
	return "postgres://127.0.0.1:5432/test?sslmode=disable"
}

// ForEach runs fn as a subtest on each backend with a fresh store.
func ForEach(t *testing.T, fn func(t *testing.T, s *store.Store)) {
	t.Helper()
	for _, d := range []store.Dialect{store.SQLite, store.Postgres} {
		t.Run(string(d), func(t *testing.T) { fn(t, Open(t, d)) })
	}
}

// Open returns a migrated, empty store of the dialect with a fresh secret key, closed and
// removed when t ends. Its database is a copy of one migrated once per process (Migrated,
// MigratedSQLite): what migrating a fresh one leaves, without the migrations' cost per test.
func Open(t testing.TB, d store.Dialect) *store.Store {
	t.Helper()
	var dsn string
	if d == store.Postgres {
		dsn = Migrated(t)
	} else {
		dsn = MigratedSQLite(t)
	}
	s, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if err := s.UseSecretKey(context.Background(), NewKey(t)); err != nil {
		t.Fatal(err)
	}
	return s
}

// OpenPostgres is Open for PostgreSQL with runtime parameters added to the connection URL,
// such as sightline.posts_index=rum to ask for the RUM full-text index.
func OpenPostgres(t testing.TB, params map[string]string) *store.Store {
	t.Helper()
	u, err := url.Parse(DSN(t, store.Postgres))
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	for k, v := range params {
		q.Set(k, v)
	}
	u.RawQuery = q.Encode()
	s, err := store.Open(context.Background(), u.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if err := s.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s
}

// NewKey returns a fresh secret key for sealing a store's secrets.
func NewKey(t testing.TB) *sealed.Key {
	t.Helper()
	k, err := sealed.ParseKey(sealed.GenerateText())
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// Admin connects to the PostgreSQL server the tests use (PostgresURL), closed when t ends. Without
// a server that answers the test is skipped, except on CI (CI=true), where it fails; with
// SIGHTLINE_TEST_POSTGRES=off it is skipped.
func Admin(t testing.TB) *sql.DB {
	t.Helper()
	base := PostgresURL()
	if base == Off {
		t.Skip("PostgreSQL tests are off (SIGHTLINE_TEST_POSTGRES=off)")
	}
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := admin.PingContext(ctx); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("PostgreSQL at %s is required on CI: %v", base, err)
		}
		t.Skipf("PostgreSQL at %s not reachable: %v", base, err)
	}
	return admin
}

// DSN returns a connection string for a fresh, empty database of the dialect: a SQLite file in
// a temporary directory, or a new PostgreSQL schema dropped when t ends.
func DSN(t testing.TB, d store.Dialect) string {
	t.Helper()
	if d == store.SQLite {
		return sqlitePath(t)
	}
	admin := Admin(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	suffix := make([]byte, 6)
	rand.Read(suffix)
	schema := "test_" + hex.EncodeToString(suffix)
	if _, err := admin.ExecContext(ctx, `CREATE SCHEMA `+schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Exec(`DROP SCHEMA ` + schema + ` CASCADE`) })
	u, err := url.Parse(PostgresURL())
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// sqlitePath is a new SQLite file's path in a directory removed when t ends. Not under
// t.TempDir(), whose name is the test's and may hold '#' (a repeated subtest's name) or '%',
// which the store's file: URI would read as a fragment or an escape: every repeated subtest
// would then open the same file, cut at the '#'.
func sqlitePath(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "sightline-store-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return filepath.Join(dir, "sightline.db")
}
