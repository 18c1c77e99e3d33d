package storetest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/store"
)

// A PostgreSQL store for a test is a database of its own created from a template that the
// store's migrations were applied to once: CREATE DATABASE ... TEMPLATE copies it in a fraction
// of a second, where migrating a fresh schema took 0.5-4 s (48 migrations, each a transaction
// behind the store's advisory lock, which every test process on the server shares).
//
// The template's name carries a digest of the migration files, so a changed or added migration
// gets a template of its own, and runs built from different trees (other worktrees on the same
// server) never use one another's. It is built under a temporary name and renamed when complete,
// so a half-migrated template is never copied.
//
// DROP DATABASE waits for a checkpoint (seconds on a loaded machine, 33 s once), so a test's
// database is dropped in the background when the test ends, not in the test's time; databases
// that a test process left behind when it exited (its last drops) are dropped by the next
// process that builds its template, once they are ten minutes old and nobody is connected to them.

const (
	templatePrefix = "sightline_tmpl_"
	clonePrefix    = "sightline_test_"
	leftoverAge    = 10 * time.Minute
)

var (
	templateMu   sync.Mutex
	templateName string // set once built or found
)

// Migrated returns the connection string of a new PostgreSQL database holding a freshly
// migrated, empty store, dropped after t ends. Like Admin, it skips or fails t without a server.
func Migrated(t testing.TB) string {
	t.Helper()
	admin := Admin(t)
	ctx := context.Background()
	tmpl, err := migratedTemplate(ctx, admin)
	if err != nil {
		t.Fatal(err)
	}
	name := clonePrefix + strconv.FormatInt(time.Now().Unix(), 10) + "_" + randomHex(4)
	if _, err := admin.ExecContext(ctx, `CREATE DATABASE `+name+` TEMPLATE `+tmpl); err != nil {
		t.Fatalf("storetest: copy the migrated template %s: %v", tmpl, err)
	}
	t.Cleanup(func() { dropLater(name) })
	return databaseURL(t, name)
}

// migratedTemplate returns the name of the template for the migrations of this tree, building
// it when the server has none.
func migratedTemplate(ctx context.Context, admin *sql.DB) (string, error) {
	templateMu.Lock()
	defer templateMu.Unlock()
	if templateName != "" {
		return templateName, nil
	}
	digest, err := migrationsDigest()
	if err != nil {
		return "", err
	}
	name := templatePrefix + digest
	var exists bool
	if err := admin.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)`, name).Scan(&exists); err != nil {
		return "", err
	}
	if !exists {
		if err := buildTemplate(ctx, admin, name); err != nil {
			return "", err
		}
	}
	go dropLeftovers()
	templateName = name
	return name, nil
}

// buildTemplate migrates a new database under a temporary name and renames it to name; when
// another process finished the same template first, its copy is used and this one dropped.
func buildTemplate(ctx context.Context, admin *sql.DB, name string) error {
	building := clonePrefix + strconv.FormatInt(time.Now().Unix(), 10) + "_b" + randomHex(4)
	if _, err := admin.ExecContext(ctx, `CREATE DATABASE `+building); err != nil {
		return fmt.Errorf("storetest: create %s: %w", building, err)
	}
	dsn, err := databaseURLString(building)
	if err != nil {
		return err
	}
	s, err := store.Open(ctx, dsn)
	if err != nil {
		return err
	}
	err = s.Migrate(ctx)
	s.Close()
	if err != nil {
		return fmt.Errorf("storetest: migrate the template: %w", err)
	}
	// The store's connections are closed; the server may take a moment to end their backends,
	// and a database cannot be renamed while anyone is connected to it.
	var renameErr error
	for range 100 {
		_, renameErr = admin.ExecContext(ctx, `ALTER DATABASE `+building+` RENAME TO `+name)
		if renameErr == nil || !strings.Contains(renameErr.Error(), "being accessed by other users") {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if renameErr != nil {
		var exists bool
		if err := admin.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)`, name).Scan(&exists); err == nil && exists {
			dropLater(building) // another process built it first
			return nil
		}
		return fmt.Errorf("storetest: rename the template: %w", renameErr)
	}
	return nil
}

// migrationsDigest is a digest of the store's migration files, read from the source tree.
func migrationsDigest() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", fmt.Errorf("storetest: cannot find the migrations")
	}
	dir := filepath.Join(filepath.Dir(file), "..", "migrations")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		body, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", n, len(body))
		h.Write(body)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// dropLater drops a test's database in the background: DROP DATABASE waits for a checkpoint.
// WITH (FORCE) ends connections the closed store's pool has not finished closing.
func dropLater(name string) {
	go func() {
		admin, err := sql.Open("pgx", PostgresURL())
		if err != nil {
			return
		}
		defer admin.Close()
		admin.Exec(`DROP DATABASE IF EXISTS ` + name + ` WITH (FORCE)`)
	}()
}

// dropLeftovers drops the test databases that processes which have exited left behind: those
// ten minutes old that nobody is connected to (without FORCE, DROP DATABASE refuses one in use).
func dropLeftovers() {
	admin, err := sql.Open("pgx", PostgresURL())
	if err != nil {
		return
	}
	defer admin.Close()
	rows, err := admin.Query(`SELECT datname FROM pg_database WHERE datname LIKE $1`, clonePrefix+"%")
	if err != nil {
		return
	}
	var old []string
	for rows.Next() {
		var name string
		if rows.Scan(&name) != nil {
			continue
		}
		stamp, _, _ := strings.Cut(strings.TrimPrefix(name, clonePrefix), "_")
		sec, err := strconv.ParseInt(stamp, 10, 64)
		if err == nil && time.Since(time.Unix(sec, 0)) > leftoverAge {
			old = append(old, name)
		}
	}
	rows.Close()
	for _, name := range old {
		admin.Exec(`DROP DATABASE IF EXISTS ` + name)
	}
}

var (
	sqliteMu       sync.Mutex
	sqliteTemplate []byte // a migrated SQLite database, built once per process
)

// MigratedSQLite returns the path of a new SQLite database in a temporary directory holding a
// freshly migrated, empty store: a copy of one migrated once per process (48 migrations took
// 0.07-0.13 s per test on the quiet machine, ten times that on the loaded one).
func MigratedSQLite(t testing.TB) string {
	t.Helper()
	sqliteMu.Lock()
	defer sqliteMu.Unlock()
	if sqliteTemplate == nil {
		body, err := buildSQLiteTemplate()
		if err != nil {
			t.Fatal(err)
		}
		sqliteTemplate = body
	}
	path := sqlitePath(t)
	if err := os.WriteFile(path, sqliteTemplate, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// buildSQLiteTemplate migrates a database and returns it as one file: VACUUM INTO writes what
// is committed, write-ahead log included, into a database without a log.
func buildSQLiteTemplate() ([]byte, error) {
	dir, err := os.MkdirTemp("", "sightline-storetest-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	ctx := context.Background()
	s, err := store.Open(ctx, filepath.Join(dir, "migrated.db"))
	if err != nil {
		return nil, err
	}
	err = s.Migrate(ctx)
	s.Close()
	if err != nil {
		return nil, fmt.Errorf("storetest: migrate the SQLite template: %w", err)
	}
	db, err := sql.Open("sqlite", filepath.Join(dir, "migrated.db"))
	if err != nil {
		return nil, err
	}
	defer db.Close()
	out := filepath.Join(dir, "template.db")
	if _, err := db.ExecContext(ctx, `VACUUM INTO '`+out+`'`); err != nil {
		return nil, fmt.Errorf("storetest: copy the SQLite template: %w", err)
	}
	return os.ReadFile(out)
}

func databaseURL(t testing.TB, name string) string {
	t.Helper()
	u, err := databaseURLString(name)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// databaseURLString is PostgresURL with its database replaced by name.
func databaseURLString(name string) (string, error) {
	u, err := url.Parse(PostgresURL())
	if err != nil {
		return "", err
	}
	u.Path = "/" + name
	return u.String(), nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
