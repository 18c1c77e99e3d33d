package store_test

import (
	"context"
	"errors"
	"testing"

	"github.com/sightline/sightline/internal/sealed"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

const plainTOTP = "JBSWY3DPEHPK3PXP"

func noGenerate(t *testing.T) func() (string, error) {
	return func() (string, error) {
		t.Error("a stored secret was generated anew")
		return "new", nil
	}
}

// What the store holds of a secret or a TOTP secret is sealed; the store hands back the
// plaintext.
func TestSecretsAreSealedAtRest(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		value, err := s.Secret(ctx, "bearer_signing_key", func() (string, error) { return "fresh-signing-key", nil })
		if err != nil || value != "fresh-signing-key" {
			t.Fatalf("Secret = %q, %v", value, err)
		}
		if again, err := s.Secret(ctx, "bearer_signing_key", noGenerate(t)); err != nil || again != value {
			t.Errorf("Secret again = %q, %v", again, err)
		}
		u := seedUser(t, s, "mfa@acme.test")
		if err := s.StartMFAEnrolment(ctx, u.ID, plainTOTP); err != nil {
			t.Fatal(err)
		}
		if err := s.EnableMFA(ctx, u.ID, nil); err != nil {
			t.Fatal(err)
		}
		if got, err := s.User(ctx, u.ID); err != nil || got.MFASecret != plainTOTP {
			t.Errorf("User's TOTP secret = %q, %v", got.MFASecret, err)
		}
		for what, query := range map[string]string{
			"signing key": `SELECT value FROM server_secrets WHERE name = 'bearer_signing_key'`,
			"TOTP secret": `SELECT mfa_secret FROM users WHERE email = 'mfa@acme.test'`,
		} {
			raw, err := s.RawString(ctx, query)
			if err != nil || !sealed.IsSealed(raw) {
				t.Errorf("the stored %s is %q (%v), not sealed", what, raw, err)
			}
		}
	})
}

// A database made by the previous release, secrets in plaintext, keeps working: its secrets
// are sealed in place on start. A node with another key then refuses to start.
func TestPlaintextSecretsOfThePreviousReleaseAreSealed(t *testing.T) {
	for _, d := range []store.Dialect{store.SQLite, store.Postgres} {
		t.Run(string(d), func(t *testing.T) {
			ctx := context.Background()
			dsn := storetest.DSN(t, d)
			old := openAtVersion(t, dsn, 7)
			u := seedUser(t, old, "mfa@acme.test")
			for _, q := range []string{
				`INSERT INTO server_secrets (name, value) VALUES ('bearer_signing_key', 'old-signing-key'),
					('live_app_secret', 'old-live-secret')`,
				`UPDATE users SET is_mfa_enabled = TRUE, mfa_secret = '` + plainTOTP + `'`,
			} {
				if err := old.Exec(ctx, q); err != nil {
					t.Fatal(err)
				}
			}

			key := storetest.NewKey(t)
			s, err := store.Open(ctx, dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if err := s.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			if err := s.UseSecretKey(ctx, key); err != nil {
				t.Fatal(err)
			}
			for name, want := range map[string]string{"bearer_signing_key": "old-signing-key", "live_app_secret": "old-live-secret"} {
				if got, err := s.Secret(ctx, name, noGenerate(t)); err != nil || got != want {
					t.Errorf("%s = %q, %v; want %q", name, got, err, want)
				}
				raw, err := s.RawString(ctx, `SELECT value FROM server_secrets WHERE name = $1`, name)
				if err != nil || !sealed.IsSealed(raw) {
					t.Errorf("%s is stored as %q (%v), not sealed", name, raw, err)
				}
			}
			if got, err := s.User(ctx, u.ID); err != nil || got.MFASecret != plainTOTP {
				t.Errorf("TOTP secret = %q, %v", got.MFASecret, err)
			}
			if raw, err := s.RawString(ctx, `SELECT mfa_secret FROM users WHERE id = $1`, u.ID); err != nil || !sealed.IsSealed(raw) {
				t.Errorf("TOTP secret is stored as %q (%v), not sealed", raw, err)
			}

			// A second start with the same key finds nothing to seal; one with another key fails.
			if err := s.UseSecretKey(ctx, key); err != nil {
				t.Errorf("the same key again: %v", err)
			}
			other, err := store.Open(ctx, dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer other.Close()
			if err := other.UseSecretKey(ctx, storetest.NewKey(t)); !errors.Is(err, sealed.ErrWrongKey) {
				t.Errorf("another key = %v, want ErrWrongKey", err)
			}
		})
	}
}

// A TOTP step is accepted once, and never one at or before the last accepted.
func TestAcceptTOTPStep(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := seedUser(t, s, "mfa@acme.test")
		for _, st := range []struct {
			step int64
			want bool
		}{{100, true}, {100, false}, {99, false}, {101, true}, {100, false}, {105, true}} {
			if got, err := s.AcceptTOTPStep(ctx, u.ID, st.step); err != nil || got != st.want {
				t.Errorf("step %d = %v, %v; want %v", st.step, got, err, st.want)
			}
		}
	})
}
