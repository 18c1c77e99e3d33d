package auth_test

import (
	"context"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

const testPassword = "correct-horse-9"

// clock is a settable time for the service.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

// newService makes the auth service over s with one user, on a clock the test moves.
func newService(t *testing.T, s *store.Store, email string) (*auth.Service, *clock, account.User) {
	t.Helper()
	ctx := context.Background()
	u, err := account.NewService(s).CreateUser(ctx, account.NewUser{Organization: "Acme", Email: email,
		Password: testPassword, Role: account.RoleOwner})
	if err != nil {
		t.Fatal(err)
	}
	a, err := auth.New(ctx, s, auth.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Five seconds into a TOTP step, so one step either side is unambiguous.
	c := &clock{t: time.Unix(1_800_000_000/30*30+5, 0).UTC()}
	a.SetClock(c.now)
	return a, c, u
}

// A TOTP code works once: its replay, and any code of a step at or before the last accepted
// one, is refused.
func TestTOTPCodeWorksOnce(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		a, c, u := newService(t, s, "mfa@acme.test")
		key, err := totp.Generate(totp.GenerateOpts{Issuer: "Sightline", AccountName: u.Email})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.StartMFAEnrolment(ctx, u.ID, key.Secret()); err != nil {
			t.Fatal(err)
		}
		if err := s.EnableMFA(ctx, u.ID, nil); err != nil {
			t.Fatal(err)
		}
		start := c.t.Unix() / 30
		steps := []struct {
			name    string
			advance time.Duration // moves the clock before the attempt
			step    int64         // of the code, relative to the first attempt's step
			want    bool
		}{
			{"the current code", 0, 0, true},
			{"the same code again", 0, 0, false},
			{"the previous step's code", 0, -1, false},
			{"the next step's code (clock drift)", 0, 1, true},
			{"the current code after the next step's", 0, 0, false},
			{"a minute later, that step's code", time.Minute, 2, true},
			{"a minute later, the same code again", 0, 2, false},
		}
		for _, st := range steps {
			c.t = c.t.Add(st.advance)
			code, err := totp.GenerateCodeCustom(key.Secret(), time.Unix((start+st.step)*30, 0), totp.ValidateOpts{})
			if err != nil {
				t.Fatal(err)
			}
			_, err = a.Login(ctx, auth.Credentials{Email: u.Email, Password: testPassword, OTP: code, IP: "192.0.2.1"})
			if st.want && err != nil {
				t.Errorf("%s: refused: %v", st.name, err)
			}
			if p, _ := problem.As(err); !st.want && (p == nil || p.Message != auth.MsgOTPInvalid) {
				t.Errorf("%s: got %v, want %q", st.name, err, auth.MsgOTPInvalid)
			}
		}
	})
}

// A session ends 30 days after sign-in however busy it is, and its bearer tokens with it.
func TestSessionAbsoluteLifetime(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		a, c, u := newService(t, s, "busy@acme.test")
		login, err := a.Login(ctx, auth.Credentials{Email: u.Email, Password: testPassword, IP: "192.0.2.1"})
		if err != nil {
			t.Fatal(err)
		}
		signedIn := c.t
		// Used every day: the idle limit (14 days) never comes.
		for c.t = signedIn; c.t.Before(signedIn.Add(auth.SessionMaxAge)); c.t = c.t.Add(24 * time.Hour) {
			if _, err := a.SessionIdentity(ctx, login.SessionToken); err != nil {
				t.Fatalf("day %d: %v", int(c.t.Sub(signedIn).Hours()/24), err)
			}
		}
		c.t = signedIn.Add(auth.SessionMaxAge - time.Minute)
		bearer, err := a.RefreshBearer(ctx, login.SessionToken)
		if err != nil {
			t.Fatalf("refresh a minute before the end: %v", err)
		}
		c.t = signedIn.Add(auth.SessionMaxAge)
		if _, err := a.SessionIdentity(ctx, login.SessionToken); !problem.Is(err, problem.KindUnauthenticated) {
			t.Errorf("session after 30 days = %v, want unauthenticated", err)
		}
		if _, err := a.BearerIdentity(ctx, bearer.Token); !problem.Is(err, problem.KindUnauthenticated) {
			t.Errorf("bearer of a session past 30 days = %v, want unauthenticated", err)
		}
		if _, err := a.RefreshBearer(ctx, login.SessionToken); !problem.Is(err, problem.KindUnauthenticated) {
			t.Errorf("refresh after 30 days = %v, want unauthenticated", err)
		}
	})
}

// An API token stops working when it expires or is revoked, at once.
func TestAPITokenExpiryAndRevocation(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		a, c, u := newService(t, s, "script@acme.test")
		created := c.t
		expiring, _, err := a.CreateAPITokenUntil(ctx, u.Email, "hourly", nil, created.Add(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		forever, _, err := a.CreateAPIToken(ctx, u.Email, "nightly", nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := a.CreateAPITokenUntil(ctx, u.Email, "stale", nil, created.Add(-time.Second)); !problem.Is(err, problem.KindInvalid) {
			t.Errorf("a token expiring in the past = %v, want invalid", err)
		}
		works := func(token string) bool {
			_, err := a.BearerIdentity(ctx, token)
			if err != nil && !problem.Is(err, problem.KindUnauthenticated) {
				t.Fatal(err)
			}
			return err == nil
		}
		steps := []struct {
			name              string
			at                time.Duration
			revoke            string
			expiring, forever bool
		}{
			{"fresh", 0, "", true, true},
			{"a minute before expiry", time.Hour - time.Minute, "", true, true},
			{"at expiry", time.Hour, "", false, true},
			{"after revoking nightly", time.Hour, "nightly", false, false},
		}
		for _, st := range steps {
			c.t = created.Add(st.at)
			if st.revoke != "" {
				if n, err := a.RevokeAPIToken(ctx, u.Email, st.revoke); err != nil || n != 1 {
					t.Fatalf("revoke %s = %d, %v", st.revoke, n, err)
				}
			}
			if got := works(expiring); got != st.expiring {
				t.Errorf("%s: expiring token works = %v, want %v", st.name, got, st.expiring)
			}
			if got := works(forever); got != st.forever {
				t.Errorf("%s: unexpiring token works = %v, want %v", st.name, got, st.forever)
			}
		}
		if _, err := a.RevokeAPIToken(ctx, u.Email, "nightly"); !problem.Is(err, problem.KindNotFound) {
			t.Errorf("revoking it again = %v, want not found", err)
		}
		tokens, err := a.APITokens(ctx, u.Email)
		if err != nil || len(tokens) != 2 {
			t.Fatalf("list = %v, %v", tokens, err)
		}
		if !tokens[0].ExpiresAt.Equal(created.Add(time.Hour)) || tokens[1].RevokedAt.IsZero() || !tokens[1].ExpiresAt.IsZero() {
			t.Errorf("list = %+v", tokens)
		}
	})
}
