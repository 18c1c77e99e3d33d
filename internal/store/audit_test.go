package store_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/audit"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// The audit log is append-only: the database itself refuses to change or remove a row.
func TestAuditLogIsAppendOnly(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		if err := s.AddAudit(ctx, account.AuditEntry{TenantID: 1, Model: "search", Action: "updated",
			PreviousValue: `{"keywords":"a"}`, NewValue: `{"keywords":"b"}`}); err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{
			`UPDATE audit_log SET new_value = 'forged'`,
			`DELETE FROM audit_log`,
			`DELETE FROM audit_log WHERE tenant_id = 1`,
		} {
			err := s.Exec(ctx, q)
			if err == nil || !strings.Contains(err.Error(), "append-only") {
				t.Errorf("%s: err = %v, want the append-only refusal", q, err)
			}
		}
		if s.Dialect() == store.Postgres {
			if err := s.Exec(ctx, `TRUNCATE audit_log`); err == nil {
				t.Error("TRUNCATE audit_log was allowed")
			}
		}
		rows, total, err := s.AuditRows(ctx, audit.Query{TenantID: 1, Limit: 10})
		if err != nil || total != 1 || rows[0].NewValue != `{"keywords":"b"}` {
			t.Errorf("after the refused changes: %v %d %v", rows, total, err)
		}
	})
}

// AuditRows filters by model, action, user and time, pages newest first and keeps tenants apart.
func TestAuditRowsFilters(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		base := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
		add := func(tenant, user int64, model, action string, day int) {
			if err := s.AddAudit(ctx, account.AuditEntry{TenantID: tenant, UserID: user, Model: model, Action: action,
				CreatedAt: base.AddDate(0, 0, day)}); err != nil {
				t.Fatal(err)
			}
		}
		add(1, 10, "search", "created", 0)
		add(1, 10, "search", "updated", 1)
		add(1, 11, "group", "created", 2)
		add(1, 11, "search", "deleted", 3)
		add(2, 20, "search", "created", 3)
		tests := []struct {
			name string
			q    audit.Query
			want []string // model/action, newest first
			all  int
		}{
			{"tenant 1", audit.Query{TenantID: 1}, []string{"search/deleted", "group/created", "search/updated", "search/created"}, 4},
			{"model", audit.Query{TenantID: 1, Model: "search"}, []string{"search/deleted", "search/updated", "search/created"}, 3},
			{"action", audit.Query{TenantID: 1, Action: "created"}, []string{"group/created", "search/created"}, 2},
			{"user", audit.Query{TenantID: 1, UserID: 11}, []string{"search/deleted", "group/created"}, 2},
			{"from and to", audit.Query{TenantID: 1, From: base.AddDate(0, 0, 1), To: base.AddDate(0, 0, 3)},
				[]string{"group/created", "search/updated"}, 2},
			{"page 2 of 2", audit.Query{TenantID: 1, Offset: 2, Limit: 2}, []string{"search/updated", "search/created"}, 4},
			{"other tenant", audit.Query{TenantID: 2}, []string{"search/created"}, 1},
			{"no such tenant", audit.Query{TenantID: 3}, nil, 0},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				if tt.q.Limit == 0 {
					tt.q.Limit = 50
				}
				rows, total, err := s.AuditRows(ctx, tt.q)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, r := range rows {
					got = append(got, r.Model+"/"+r.Action)
				}
				if strings.Join(got, ",") != strings.Join(tt.want, ",") || total != tt.all {
					t.Errorf("rows = %v (total %d), want %v (total %d)", got, total, tt.want, tt.all)
				}
			})
		}
	})
}
