package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

func TestMigrateIsIdempotent(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		before, err := s.SchemaVersion(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Migrate(ctx); err != nil {
			t.Fatalf("second Migrate: %v", err)
		}
		after, _ := s.SchemaVersion(ctx)
		if before == 0 || before != after {
			t.Errorf("schema version %d then %d; want the same, non-zero", before, after)
		}
	})
}

// openAtVersion opens the store at dsn with the migrations up to version applied, as an older
// release left it; it closes when the test ends.
func openAtVersion(t *testing.T, dsn string, version int) *store.Store {
	t.Helper()
	ctx := context.Background()
	s, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if err := s.MigrateTo(ctx, version); err != nil {
		t.Fatal(err)
	}
	return s
}

func seedUser(t testing.TB, s *store.Store, email string) account.User {
	t.Helper()
	ctx := context.Background()
	tenant := account.Tenant{Name: "t-" + email, LogoutAllowed: true}
	if err := s.CreateTenant(ctx, &tenant); err != nil {
		t.Fatal(err)
	}
	org := account.Organization{TenantID: tenant.ID, Name: "Org of " + email, FeatureFlags: map[string]bool{"share_searches": true}}
	if err := s.CreateOrganization(ctx, &org); err != nil {
		t.Fatal(err)
	}
	u := account.User{TenantID: tenant.ID, OrganizationID: org.ID, Email: email, Username: "u", PasswordHash: "h",
		Permissions: []string{"CTI_RFI_READ"}, DisplayTheme: account.ThemeDark, MediaSensitivity: account.MediaBlur}
	if err := s.CreateUser(ctx, &u, account.RoleOwner); err != nil {
		t.Fatal(err)
	}
	return u
}

func TestAccountsRoundTrip(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := seedUser(t, s, "ana@example.test")

		got, err := s.UserByEmail(ctx, "  ANA@example.test ")
		if err != nil {
			t.Fatal(err)
		}
		if got.ID != u.ID || got.DisplayTheme != account.ThemeDark || len(got.Permissions) != 1 {
			t.Errorf("UserByEmail = %+v", got)
		}
		org, err := s.Organization(ctx, u.OrganizationID)
		if err != nil || !org.FeatureFlags["share_searches"] {
			t.Errorf("Organization = %+v, %v", org, err)
		}
		role, err := s.MembershipRole(ctx, u.OrganizationID, u.ID)
		if err != nil || role != account.RoleOwner {
			t.Errorf("MembershipRole = %q, %v", role, err)
		}
		members, err := s.Members(ctx, u.OrganizationID)
		if err != nil || len(members) != 1 || members[0].Email != u.Email {
			t.Errorf("Members = %+v, %v", members, err)
		}

		dup := u
		dup.ID = 0
		err = s.CreateUser(ctx, &dup, account.RoleMember)
		if !problem.Is(err, problem.KindInvalid) {
			t.Errorf("duplicate e-mail: err = %v, want an invalid-field problem", err)
		}
		if _, err := s.User(ctx, 99999); !problem.Is(err, problem.KindNotFound) {
			t.Errorf("missing user: err = %v, want not found", err)
		}
	})
}

// The operator's support address (--support-email) replaces the one setup gave the tenant; a
// tenant that does not exist yet is no error.
func TestTenantSupportEmail(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		tenant := account.Tenant{Name: "default", SupportEmail: "admin@acme.test"}
		if err := s.CreateTenant(ctx, &tenant); err != nil {
			t.Fatal(err)
		}
		if err := s.SetTenantSupportEmail(ctx, "default", "help@acme.test"); err != nil {
			t.Fatal(err)
		}
		if got, err := s.TenantByName(ctx, "default"); err != nil || got.SupportEmail != "help@acme.test" {
			t.Errorf("tenant = %+v, %v; want help@acme.test", got, err)
		}
		if err := s.SetTenantSupportEmail(ctx, "absent", "help@acme.test"); err != nil {
			t.Errorf("an absent tenant: %v", err)
		}
	})
}

func TestSessionsAndTokens(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := seedUser(t, s, "bo@example.test")
		now := time.Now().UTC().Truncate(time.Millisecond)
		sess := auth.Session{UserID: u.ID, IP: "127.0.0.1", CreatedAt: now, LastSeenAt: now, ExpiresAt: now.Add(time.Hour)}
		if err := s.CreateSession(ctx, &sess, "hash-1"); err != nil {
			t.Fatal(err)
		}
		got, err := s.SessionByTokenHash(ctx, "hash-1")
		if err != nil || got.ID != sess.ID || !got.ExpiresAt.Equal(sess.ExpiresAt) {
			t.Fatalf("SessionByTokenHash = %+v, %v", got, err)
		}
		if n, err := s.DeleteExpiredSessions(ctx, now.Add(2*time.Hour)); err != nil || n != 1 {
			t.Errorf("DeleteExpiredSessions = %d, %v; want 1", n, err)
		}

		tok := auth.APIToken{UserID: u.ID, Name: "ci", Scopes: []string{"ingest"}, CreatedAt: now}
		if err := s.CreateAPIToken(ctx, &tok, "token-hash"); err != nil {
			t.Fatal(err)
		}
		gotTok, err := s.APITokenByHash(ctx, "token-hash")
		if err != nil || gotTok.Name != "ci" || len(gotTok.Scopes) != 1 || gotTok.Scopes[0] != "ingest" {
			t.Errorf("APITokenByHash = %+v, %v", gotTok, err)
		}
	})
}

func TestSecretIsStable(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		calls := 0
		gen := func() (string, error) { calls++; return "value-" + string(rune('a'+calls)), nil }
		a, err := s.Secret(ctx, "k", gen)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := s.Secret(ctx, "k", gen)
		if a != b || calls != 1 {
			t.Errorf("Secret gave %q then %q after %d generations", a, b, calls)
		}
	})
}

func TestSourceCursors(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		if c, err := s.Load(ctx, "rss:feed"); err != nil || c != "" {
			t.Errorf("Load of a new source = %q, %v; want empty", c, err)
		}
		for _, want := range []string{"cursor-1", "cursor-2"} {
			if err := s.Save(ctx, "rss:feed", want); err != nil {
				t.Fatal(err)
			}
			if got, _ := s.Load(ctx, "rss:feed"); got != want {
				t.Errorf("Load = %q, want %q", got, want)
			}
		}
	})
}
