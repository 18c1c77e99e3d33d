package search

import (
	"sync"
	"time"

	"github.com/sightline/sightline/internal/problem"
)

// Messages of search-side.md section 8.
const (
	MsgRateLimited = "You've exceeded the search rate limit. Try again in a few minutes."
	MsgSpam        = "Please wait while your previous searches finish before you start another."
)

// Per-user limits: searches per minute, and searches running at once. They protect the store
// from one user's runaway script; people searching by hand never meet them.
const (
	PerMinute  = 60
	concurrent = 4
)

// Limiter applies the per-user search limits on this node.
type Limiter struct {
	mu      sync.Mutex
	users   map[int64]*usage
	running map[int64]int
	// Now is the limiter's clock, time.Now unless a test sets one that stands still.
	Now func() time.Time
}

type usage struct {
	windowStart time.Time
	count       int
}

func NewLimiter() *Limiter {
	return &Limiter{users: map[int64]*usage{}, running: map[int64]int{}, Now: time.Now}
}

// Begin admits a search by the user or says why not; call the returned func when it ends.
func (l *Limiter) Begin(userID int64) (func(), error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.Now()
	u := l.users[userID]
	if u == nil || now.Sub(u.windowStart) >= time.Minute {
		u = &usage{windowStart: now}
		l.users[userID] = u
	}
	if u.count >= PerMinute {
		return nil, problem.RateLimited(MsgRateLimited, time.Minute-now.Sub(u.windowStart))
	}
	if l.running[userID] >= concurrent {
		return nil, problem.RateLimited(MsgSpam, time.Second)
	}
	u.count++
	l.running[userID]++
	return func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.running[userID]--; l.running[userID] <= 0 {
			delete(l.running, userID)
		}
	}, nil
}
