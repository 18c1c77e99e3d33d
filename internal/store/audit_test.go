package store_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/audit"
	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/members"
	"github.com/sightline/sightline/internal/social"
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

// refuseAudit makes the database refuse every new audit row, as a full disk or a lost
// connection would refuse it in the middle of a change.
func refuseAudit(t *testing.T, s *store.Store) {
	t.Helper()
	ctx := context.Background()
	stmts := []string{`CREATE TRIGGER audit_down BEFORE INSERT ON audit_log BEGIN SELECT RAISE(ABORT, 'audit down'); END`}
	if s.Dialect() == store.Postgres {
		stmts = []string{
			`CREATE FUNCTION audit_down() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit down'; END $$`,
			`CREATE TRIGGER audit_down BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_down()`,
		}
	}
	for _, q := range stmts {
		if err := s.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
}

// A change to accounts, memberships, tenants, tokens or two-step verification is stored with its
// audit entry or not at all: when the entry cannot be written, the change fails with the error
// and nothing of it remains.
func TestAuditIsWrittenWithTheChange(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		accounts := account.NewService(s)
		u, err := accounts.CreateUser(ctx, account.NewUser{Organization: "Acme", Email: "owner@acme.test",
			Password: "correct-horse-9", Role: account.RoleOwner})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := accounts.CreateUser(ctx, account.NewUser{Organization: "Acme", Email: "member@acme.test",
			Password: "correct-horse-9", Role: account.RoleMember}); err != nil {
			t.Fatal(err)
		}
		member, _ := s.UserByEmail(ctx, "member@acme.test")
		token := auth.APIToken{UserID: u.ID, Name: "kept", CreatedAt: time.Now()}
		if err := s.CreateAPIToken(ctx, &token, "kept-hash"); err != nil {
			t.Fatal(err)
		}
		inv := members.Invitation{OrganizationID: u.OrganizationID, Email: "new@acme.test", Role: account.RoleMember,
			CreatedAt: time.Now(), ExpiresAt: time.Now().Add(time.Hour)}
		if err := s.CreateInvitation(ctx, &inv, "invitation-hash"); err != nil {
			t.Fatal(err)
		}
		if err := s.StartMFAEnrolment(ctx, u.ID, "JBSWY3DPEHPK3PXP"); err != nil {
			t.Fatal(err)
		}
		linked := social.Account{UserID: u.ID, Provider: "mastodon", AccountID: "1", Token: "{}", ConnectedAt: time.Now()}
		if err := s.SaveSocialAccount(ctx, &linked); err != nil {
			t.Fatal(err)
		}
		refuseAudit(t, s)
		entry := account.AuditEntry{TenantID: u.TenantID, OrganizationID: u.OrganizationID, UserID: u.ID, Model: "test", Action: "changed"}
		now := time.Now()
		changes := []struct {
			name   string
			change func() error
			// unchanged reports what of the change remains, "" when nothing does.
			unchanged func() string
		}{
			{"create a user", func() error {
				_, err := accounts.CreateUser(ctx, account.NewUser{Organization: "Acme", Email: "x@acme.test",
					Password: "correct-horse-9", Role: account.RoleMember})
				return err
			}, func() string {
				if _, err := s.UserByEmail(ctx, "x@acme.test"); err == nil {
					return "the user exists"
				}
				return ""
			}},
			{"rename", func() error { _, err := accounts.UpdateContact(ctx, u.ID, "Renamed", "renamed"); return err },
				func() string {
					if got, _ := s.User(ctx, u.ID); got.Name != u.Name {
						return "renamed to " + got.Name
					}
					return ""
				}},
			{"change a setting", func() error { _, err := accounts.SetDisplayTheme(ctx, u.ID, account.ThemeDark); return err },
				func() string {
					if got, _ := s.User(ctx, u.ID); got.DisplayTheme == account.ThemeDark {
						return "the theme changed"
					}
					return ""
				}},
			{"change the password", func() error { return s.SetPasswordHash(ctx, u.ID, "new-hash", entry) }, func() string {
				if got, _ := s.User(ctx, u.ID); got.PasswordHash == "new-hash" {
					return "the password changed"
				}
				return ""
			}},
			{"make a token", func() error {
				return s.CreateAPIToken(ctx, &auth.APIToken{UserID: u.ID, Name: "lost", CreatedAt: now}, "lost-hash", entry)
			}, func() string {
				if _, err := s.APITokenByHash(ctx, "lost-hash"); err == nil {
					return "the token exists"
				}
				return ""
			}},
			{"revoke a token", func() error { return s.RevokeAPIToken(ctx, u.ID, token.ID, now, entry) }, func() string {
				if got, _ := s.APIToken(ctx, token.ID); !got.RevokedAt.IsZero() {
					return "the token is revoked"
				}
				return ""
			}},
			{"turn two-step verification on", func() error { return s.EnableMFA(ctx, u.ID, []string{"h"}, entry) }, func() string {
				if got, _ := s.User(ctx, u.ID); got.IsMFAEnabled {
					return "it is on"
				}
				return ""
			}},
			{"sign in", func() error {
				return s.CreateSession(ctx, &auth.Session{UserID: u.ID, CreatedAt: now, LastSeenAt: now, ExpiresAt: now.Add(time.Hour)},
					"session-hash", entry)
			}, func() string {
				if _, err := s.SessionByTokenHash(ctx, "session-hash"); err == nil {
					return "the session exists"
				}
				return ""
			}},
			{"invite", func() error {
				return s.CreateInvitation(ctx, &members.Invitation{OrganizationID: u.OrganizationID, Email: "lost@acme.test",
					Role: account.RoleMember, CreatedAt: now, ExpiresAt: now.Add(time.Hour)}, "lost-invitation", entry)
			}, func() string {
				if _, err := s.InvitationByTokenHash(ctx, "lost-invitation"); err == nil {
					return "the invitation exists"
				}
				return ""
			}},
			{"withdraw an invitation", func() error { return s.RevokeInvitation(ctx, inv.ID, now, entry) }, func() string {
				if got, _ := s.Invitation(ctx, inv.ID); !got.RevokedAt.IsZero() {
					return "the invitation is withdrawn"
				}
				return ""
			}},
			{"accept an invitation", func() error {
				return s.AcceptInvitation(ctx, inv, &account.User{TenantID: u.TenantID, OrganizationID: u.OrganizationID,
					Name: "New", Email: "new@acme.test", Username: "new", PasswordHash: "h"}, now, entry)
			}, func() string {
				if _, err := s.UserByEmail(ctx, "new@acme.test"); err == nil {
					return "the invitee has an account"
				}
				return ""
			}},
			{"change a member's role", func() error {
				return s.SetMemberRole(ctx, u.OrganizationID, member.ID, account.RoleAdmin, entry)
			}, func() string {
				if role, _ := s.MembershipRole(ctx, u.OrganizationID, member.ID); role != account.RoleMember {
					return "the role is " + string(role)
				}
				return ""
			}},
			{"remove a member", func() error { return s.RemoveMember(ctx, u.OrganizationID, member.ID, entry) }, func() string {
				if _, err := s.MembershipRole(ctx, u.OrganizationID, member.ID); err != nil {
					return "the member is gone"
				}
				return ""
			}},
			{"change a user's access", func() error { return s.UpdateUserAccess(ctx, member.ID, account.ACL{}, entry) }, func() string {
				if got, _ := s.User(ctx, member.ID); !got.ACL.Beacon {
					return "the access changed"
				}
				return ""
			}},
			{"disable a user", func() error { return s.SetUserDisabled(ctx, member.ID, now, entry) }, func() string {
				if got, _ := s.User(ctx, member.ID); got.Disabled() {
					return "the user is disabled"
				}
				return ""
			}},
			{"connect a social account", func() error {
				return s.SaveSocialAccount(ctx, &social.Account{UserID: u.ID, Provider: "mastodon", AccountID: "2",
					Token: "{}", ConnectedAt: now}, entry)
			}, func() string {
				if list, _ := s.SocialAccounts(ctx, u.ID); len(list) != 1 {
					return "the account is connected"
				}
				return ""
			}},
			{"disconnect a social account", func() error { return s.DeleteSocialAccount(ctx, linked.ID, entry) }, func() string {
				if _, err := s.SocialAccount(ctx, linked.ID); err != nil {
					return "the account is gone"
				}
				return ""
			}},
			{"switch an organization's flag", func() error {
				_, err := s.ChangeOrganization(ctx, u.OrganizationID, func(o *account.Organization) ([]account.AuditEntry, error) {
					o.IsUSPICompliant = !o.IsUSPICompliant
					return []account.AuditEntry{entry}, nil
				})
				return err
			}, func() string {
				if o, _ := s.Organization(ctx, u.OrganizationID); o.IsUSPICompliant {
					return "the setting changed"
				}
				return ""
			}},
		}
		for _, c := range changes {
			err := c.change()
			if err == nil || !strings.Contains(err.Error(), "audit down") {
				t.Errorf("%s without its audit entry: err = %v, want the audit's error", c.name, err)
			}
			if left := c.unchanged(); left != "" {
				t.Errorf("%s without its audit entry: %s", c.name, left)
			}
		}
	})
}

// An audit row keeps the name its actor had when it was written: renaming the actor later does
// not rewrite history.
func TestAuditKeepsTheActorsNameAtTheTime(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		accounts := account.NewService(s)
		u, err := accounts.CreateUser(ctx, account.NewUser{Organization: "Acme", Email: "alice@acme.test", Name: "Alice",
			Password: "correct-horse-9", Role: account.RoleOwner})
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"Mallory", "Eve"} {
			if _, err := accounts.UpdateContact(ctx, u.ID, name, strings.ToLower(name)); err != nil {
				t.Fatal(err)
			}
		}
		rows, _, err := s.AuditRows(ctx, audit.Query{TenantID: u.TenantID, Model: "user", Action: "updated", Limit: 10})
		if err != nil || len(rows) != 2 {
			t.Fatalf("rows = %+v %v", rows, err)
		}
		// Newest first: Mallory renamed herself to Eve, after Alice had renamed herself to Mallory.
		if rows[0].UserName != "Mallory" || rows[1].UserName != "Alice" {
			t.Errorf("the renames are shown as %q's and %q's, want Mallory's and Alice's", rows[0].UserName, rows[1].UserName)
		}
	})
}
