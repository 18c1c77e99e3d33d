package storetest_test

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// A store copied from the template is what migrating an empty database leaves: the same
// migrations applied, the same tables, columns, indexes and rows; and each copy is its own.
func TestCopiesAreFreshlyMigratedStores(t *testing.T) {
	ctx := context.Background()
	for _, d := range []store.Dialect{store.SQLite, store.Postgres} {
		t.Run(string(d), func(t *testing.T) {
			var copyDSN string
			if d == store.Postgres {
				copyDSN = storetest.Migrated(t)
			} else {
				copyDSN = storetest.MigratedSQLite(t)
			}
			freshDSN := storetest.DSN(t, d)
			fresh, err := store.Open(ctx, freshDSN)
			if err != nil {
				t.Fatal(err)
			}
			defer fresh.Close()
			if err := fresh.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			copied, err := store.Open(ctx, copyDSN)
			if err != nil {
				t.Fatal(err)
			}
			defer copied.Close()
			want, err := fresh.SchemaVersion(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if got, err := copied.SchemaVersion(ctx); err != nil || got != want {
				t.Fatalf("the copy's schema version is %d (%v), want %d", got, err, want)
			}
			if got, want := describe(t, d, copyDSN), describe(t, d, freshDSN); got != want {
				t.Fatalf("the copy differs from a freshly migrated store:\ncopy:\n%s\nfresh:\n%s", got, want)
			}
			// Another copy is another database: what one test writes, the next does not see.
			if err := copied.CreateTenant(ctx, &account.Tenant{Name: "copied"}); err != nil {
				t.Fatal(err)
			}
			otherDSN := storetest.MigratedSQLite(t)
			if d == store.Postgres {
				otherDSN = storetest.Migrated(t)
			}
			for dsn, want := range map[string]int{copyDSN: 1, otherDSN: 0} {
				if got := count(t, d, dsn, `SELECT COUNT(*) FROM tenants WHERE name = 'copied'`); got != want {
					t.Errorf("%d tenants named copied, want %d", got, want)
				}
			}
		})
	}
}

func count(t *testing.T, d store.Dialect, dsn, query string) int {
	t.Helper()
	driver := "sqlite"
	if d == store.Postgres {
		driver = "pgx"
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(query).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// describe lists a database's tables, columns and indexes, and its rows' count per table.
func describe(t *testing.T, d store.Dialect, dsn string) string {
	t.Helper()
	driver, query := "sqlite", `SELECT type || ' ' || name || ': ' || COALESCE(sql, '') FROM sqlite_master
		WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name`
	if d == store.Postgres {
		driver, query = "pgx", `SELECT 'column ' || table_name || '.' || column_name || ' ' || data_type || ' ' || COALESCE(column_default, '')
			FROM information_schema.columns WHERE table_schema = current_schema()
			UNION ALL SELECT 'index ' || tablename || ': ' || indexdef FROM pg_indexes WHERE schemaname = current_schema()
			ORDER BY 1`
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var out, tables []string
	rows, err := db.Query(query)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		// Schemas differ in name only (a fresh PostgreSQL store lives in a schema of its own, a
		// copy in its database's public one).
		if u, err := url.Parse(dsn); err == nil && u.Query().Get("search_path") != "" {
			line = strings.ReplaceAll(line, u.Query().Get("search_path")+".", "")
		}
		line = strings.ReplaceAll(line, " public.", " ")
		out = append(out, line)
		if name, ok := strings.CutPrefix(line, "table "); ok {
			tables = append(tables, strings.SplitN(name, ":", 2)[0])
		}
	}
	rows.Close()
	if d == store.Postgres {
		trows, err := db.Query(`SELECT table_name FROM information_schema.tables
			WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1`)
		if err != nil {
			t.Fatal(err)
		}
		for trows.Next() {
			var name string
			trows.Scan(&name)
			tables = append(tables, name)
		}
		trows.Close()
	}
	for _, table := range tables {
		var n int
		if err := db.QueryRow(`SELECT COUNT(*) FROM ` + table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if table == "schema_migrations" {
			continue // the same versions (SchemaVersion above); applied_at differs
		}
		out = append(out, fmt.Sprintf("%s: %d rows", table, n))
	}
	return strings.Join(out, "\n")
}

// A subtest run twice under one name is named name#01 the second time; its SQLite store is a
// store of its own all the same (a '#' in the file's path would cut the store's file: URI short,
// and both would open one file).
func TestRepeatedSubtestsGetStoresOfTheirOwn(t *testing.T) {
	ctx := context.Background()
	for i := range 2 {
		t.Run("same name", func(t *testing.T) {
			s := storetest.Open(t, store.SQLite)
			tenant := &account.Tenant{Name: "repeated"}
			if err := s.CreateTenant(ctx, tenant); err != nil {
				t.Fatalf("run %d: %v", i, err)
			}
		})
	}
}
