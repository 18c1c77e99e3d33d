package auth_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/password"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// Parallel wrong guesses for one account must not all reach the hash: each attempt is counted
// before hashing, so the account's five attempts are all that run.
func TestParallelGuessesReachTheHashAtMostFiveTimes(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		a, _, _ := newService(t, s, "owner@acme.test")
		var hashes atomic.Int32
		auth.SetVerify(a, func(encoded, plain string) (bool, error) {
			hashes.Add(1)
			return password.Verify(encoded, plain)
		})
		const guesses = 40
		errs := make([]error, guesses)
		var start, done sync.WaitGroup
		start.Add(1)
		for i := range guesses {
			done.Go(func() {
				start.Wait()
				_, errs[i] = a.Login(context.Background(), auth.Credentials{Email: "owner@acme.test",
					Password: fmt.Sprintf("wrong-%d", i), IP: "203.0.113.7"})
			})
		}
		start.Done()
		done.Wait()

		var unauthenticated, limited int
		for _, err := range errs {
			p, _ := problem.As(err)
			switch {
			case p == nil:
				t.Fatalf("a wrong password signed in or failed without a problem: %v", err)
			case p.Kind == problem.KindUnauthenticated:
				unauthenticated++
			case p.Kind == problem.KindRateLimited && p.RetryAfter > 0:
				limited++
			default:
				t.Errorf("unexpected answer %v (kind %d, retry after %v)", p, p.Kind, p.RetryAfter)
			}
		}
		if n := hashes.Load(); n > 5 || int(n) != unauthenticated {
			t.Errorf("%d guesses reached the hash and %d were answered 401; want at most 5, the same", n, unauthenticated)
		}
		if limited != guesses-unauthenticated {
			t.Errorf("%d answered 429, want the other %d", limited, guesses-unauthenticated)
		}
	})
}

// When every hash slot is taken, a sign-in is answered 429 at once instead of queueing a hash.
func TestSignInBusyWhenEveryHashSlotIsTaken(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		a, _, _ := newService(t, s, "owner@acme.test")
		entered, release := make(chan struct{}), make(chan struct{})
		auth.SetVerify(a, func(encoded, plain string) (bool, error) {
			entered <- struct{}{}
			<-release
			return false, nil
		})
		slots := auth.HashSlots(a)
		if slots < 2 {
			t.Fatalf("%d hash slots, want about two per core", slots)
		}
		var held sync.WaitGroup
		for i := range slots {
			held.Go(func() {
				a.Login(context.Background(), auth.Credentials{Email: fmt.Sprintf("user%d@acme.test", i),
					Password: "wrong-password", IP: fmt.Sprintf("203.0.113.%d", i%250)})
			})
			<-entered
		}
		_, err := a.Login(context.Background(), auth.Credentials{Email: "owner@acme.test", Password: testPassword,
			IP: "198.51.100.1"})
		p, _ := problem.As(err)
		if p == nil || p.Kind != problem.KindRateLimited || p.RetryAfter <= 0 || p.Message != auth.MsgSignInBusy {
			t.Errorf("sign-in with every slot taken: %v, want 429 %q with a Retry-After", err, auth.MsgSignInBusy)
		}
		close(release)
		held.Wait()
		auth.SetVerify(a, password.Verify)
		if _, err := a.Login(context.Background(), auth.Credentials{Email: "owner@acme.test", Password: testPassword,
			IP: "198.51.100.1"}); err != nil {
			t.Errorf("sign-in once the slots are free: %v", err)
		}
	})
}

// The throttle slows a guesser, not the owner: failures delay the next attempt of the address
// that failed (up to 15 minutes) and, past many, of the account or the address (up to a minute),
// and the right password from an address that did not fail, or once the delay is over, signs in.
func TestTheOwnerIsNotLockedOut(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		tests := []struct {
			name string
			// guess makes the failed attempts, on the clock c.
			guess func(a *auth.Service, email string)
			// from is where the owner signs in; wait is whether they are told to wait first, at
			// most maxWait.
			from    string
			wait    bool
			maxWait time.Duration
		}{
			{"40 guesses from one address, the owner elsewhere", func(a *auth.Service, email string) {
				for i := range 40 {
					a.Login(ctx, auth.Credentials{Email: email, Password: fmt.Sprintf("wrong-%d", i), IP: "203.0.113.7"})
				}
			}, "198.51.100.1", false, 0},
			{"40 guesses from one address, the owner there after the delay", func(a *auth.Service, email string) {
				for i := range 40 {
					a.Login(ctx, auth.Credentials{Email: email, Password: fmt.Sprintf("wrong-%d", i), IP: "203.0.113.7"})
				}
			}, "203.0.113.7", true, 15 * time.Minute},
			{"one guess from each of 25 addresses", func(a *auth.Service, email string) {
				for i := range 25 {
					a.Login(ctx, auth.Credentials{Email: email, Password: "wrong-password", IP: fmt.Sprintf("203.0.113.%d", i)})
				}
			}, "198.51.100.1", true, time.Minute},
			{"35 accounts tried from the owner's address", func(a *auth.Service, email string) {
				for i := range 35 {
					a.Login(ctx, auth.Credentials{Email: fmt.Sprintf("someone-%d@acme.test", i), Password: "Winter2026!!",
						IP: "192.0.2.1"})
				}
			}, "192.0.2.1", true, time.Minute},
		}
		for i, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				email := fmt.Sprintf("owner-%d@acme.test", i)
				a, c, _ := newService(t, s, email)
				tt.guess(a, email)
				right := auth.Credentials{Email: email, Password: testPassword, IP: tt.from}
				_, err := a.Login(ctx, right)
				p, _ := problem.As(err)
				switch {
				case !tt.wait && err != nil:
					t.Fatalf("the right password from an address that did not fail: %v", err)
				case tt.wait && (p == nil || p.Kind != problem.KindRateLimited || p.RetryAfter <= 0):
					t.Fatalf("the right password during the delay: %v, want 429 with a Retry-After", err)
				case tt.wait:
					if p.RetryAfter > tt.maxWait {
						t.Errorf("told to wait %v, more than %v", p.RetryAfter, tt.maxWait)
					}
					c.t = c.t.Add(p.RetryAfter)
					if _, err := a.Login(ctx, right); err != nil {
						t.Errorf("the right password once the delay is over: %v", err)
					}
				}
			})
		}
	})
}

// A guesser who waits out the longest delay gets one more try, not a fresh set of free ones.
func TestWaitingOutTheDelayEarnsNoFreeTries(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		a, c, _ := newService(t, s, "owner@acme.test")
		guess := func() error {
			_, err := a.Login(ctx, auth.Credentials{Email: "owner@acme.test", Password: "wrong-password", IP: "203.0.113.7"})
			return err
		}
		// Guess whenever allowed until the delay has grown to its longest.
		var wait time.Duration
		for range 40 {
			p, _ := problem.As(guess())
			if p != nil && p.Kind == problem.KindRateLimited {
				wait = p.RetryAfter
				if wait >= 15*time.Minute {
					break
				}
				c.t = c.t.Add(wait)
			}
		}
		if wait < 15*time.Minute {
			t.Fatalf("the delay grew to %v, want 15 minutes", wait)
		}
		c.t = c.t.Add(wait)
		if p, _ := problem.As(guess()); p == nil || p.Kind != problem.KindUnauthenticated {
			t.Fatalf("the guess after the delay = %v, want 401", p)
		}
		if p, _ := problem.As(guess()); p == nil || p.Kind != problem.KindRateLimited {
			t.Errorf("the next guess at once = %v, want 429: waiting out the delay gave fresh tries", p)
		}
	})
}
