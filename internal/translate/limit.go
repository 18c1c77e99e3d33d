package translate

import (
	"sync"
	"time"

	"github.com/sightline/sightline/internal/problem"
	"golang.org/x/time/rate"
)

// Per-user limit on calls to the translation server: a token bucket refilled at 60 a minute
// holding 60, so a page of posts opening in the user's language at once passes and a script
// translating in a loop is held to one a second. Answers from the cache cost the server nothing
// and are not counted. Buckets live in memory per node, as the search limits do.
const (
	PerMinute = 60
	Burst     = 60
)

// MsgRateLimited answers a request past the limit, in the words of the spec's search limit
// (search-side.md section 8 has none for translation).
const MsgRateLimited = "You've exceeded the translation rate limit. Try again in a minute."

// RateLimitError is a call refused by the limit; Wait is when the next one will pass.
// Limiter holds a token bucket per user.
type Limiter struct {
	mu    sync.Mutex
	users map[int64]*rate.Limiter
	// Now is the clock (time.Now), for tests.
	Now func() time.Time
}

// maxIdleUsers is how many buckets are kept before the full ones (users idle for a minute,
// whose bucket a fresh one equals) are forgotten.
const maxIdleUsers = 10_000

func NewLimiter() *Limiter {
	return &Limiter{users: map[int64]*rate.Limiter{}, Now: time.Now}
}

// Allow takes a call from the user's bucket, or says how long until one is there.
func (l *Limiter) Allow(userID int64) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.Now()
	b := l.users[userID]
	if b == nil {
		if len(l.users) >= maxIdleUsers {
			for id, u := range l.users {
				if u.TokensAt(now) >= Burst {
					delete(l.users, id)
				}
			}
		}
		b = rate.NewLimiter(rate.Limit(float64(PerMinute)/60), Burst)
		l.users[userID] = b
	}
	r := b.ReserveN(now, 1)
	if wait := r.DelayFrom(now); wait > 0 {
		r.CancelAt(now)
		return problem.RateLimited(MsgRateLimited, wait)
	}
	return nil
}
