package auth_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

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
