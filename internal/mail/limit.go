package mail

import (
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/sightline/sightline/internal/problem"
)

// Limits bound the e-mail that people make Sightline send (alert tests, invitations, export
// links): a token bucket per user and one per organization, each holding Burst and refilled at
// PerHour. A person never meets them; a script looping on "send test" meets the user's within
// seconds, and a whole organization's scripts meet the organization's.
type Limits struct {
	UserPerHour, UserBurst int
	OrgPerHour, OrgBurst   int
}

// DefaultLimits: 10 at once and 20 an hour per user; 50 at once and 200 an hour per
// organization.
var DefaultLimits = Limits{UserPerHour: 20, UserBurst: 10, OrgPerHour: 200, OrgBurst: 50}

// Messages of a refusal, in the words of the spec's search limit (search-side.md section 8).
const (
	MsgUserRateLimited = "You've exceeded the e-mail rate limit. Try again in a few minutes."
	MsgOrgRateLimited  = "Your organization has exceeded its e-mail rate limit. Try again in a few minutes."
)

// Limiter applies Limits on this node (as the search and translation limits are).
type Limiter struct {
	limits Limits
	mu     sync.Mutex
	users  map[int64]*rate.Limiter
	orgs   map[int64]*rate.Limiter
	// Now is the clock (time.Now), for tests.
	Now func() time.Time
}

// maxBuckets is how many buckets of each kind are kept before the full ones (idle long enough
// that a fresh bucket equals them) are forgotten.
const maxBuckets = 10_000

// NewLimiter returns a limiter; zero fields of limits take DefaultLimits'.
func NewLimiter(limits Limits) *Limiter {
	d := DefaultLimits
	if limits.UserPerHour <= 0 {
		limits.UserPerHour = d.UserPerHour
	}
	if limits.UserBurst <= 0 {
		limits.UserBurst = d.UserBurst
	}
	if limits.OrgPerHour <= 0 {
		limits.OrgPerHour = d.OrgPerHour
	}
	if limits.OrgBurst <= 0 {
		limits.OrgBurst = d.OrgBurst
	}
	return &Limiter{limits: limits, users: map[int64]*rate.Limiter{}, orgs: map[int64]*rate.Limiter{}, Now: time.Now}
}

// Take counts one e-mail the user of the organization asks for, or refuses it with a 429 that
// says when the next one passes. A refused e-mail takes nothing from either bucket.
func (l *Limiter) Take(userID, organizationID int64) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.Now()
	user := bucket(l.users, userID, l.limits.UserPerHour, l.limits.UserBurst, now)
	org := bucket(l.orgs, organizationID, l.limits.OrgPerHour, l.limits.OrgBurst, now)
	if wait := shortfall(user, now); wait > 0 {
		return problem.RateLimited(MsgUserRateLimited, wait)
	}
	if wait := shortfall(org, now); wait > 0 {
		return problem.RateLimited(MsgOrgRateLimited, wait)
	}
	user.AllowN(now, 1)
	org.AllowN(now, 1)
	return nil
}

// TakeOrganization counts one e-mail the organization sends without a person asking at that
// moment (a scheduled alert), against its bucket only.
func (l *Limiter) TakeOrganization(organizationID int64) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.Now()
	org := bucket(l.orgs, organizationID, l.limits.OrgPerHour, l.limits.OrgBurst, now)
	if wait := shortfall(org, now); wait > 0 {
		return problem.RateLimited(MsgOrgRateLimited, wait)
	}
	org.AllowN(now, 1)
	return nil
}

func bucket(m map[int64]*rate.Limiter, id int64, perHour, burst int, now time.Time) *rate.Limiter {
	b := m[id]
	if b != nil {
		return b
	}
	if len(m) >= maxBuckets {
		for k, v := range m {
			if v.TokensAt(now) >= float64(v.Burst()) {
				delete(m, k)
			}
		}
	}
	b = rate.NewLimiter(rate.Limit(float64(perHour)/3600), burst)
	m[id] = b
	return b
}

// shortfall is how long until the bucket holds a whole token; 0 when it does.
func shortfall(b *rate.Limiter, now time.Time) time.Duration {
	missing := 1 - b.TokensAt(now)
	if missing <= 0 {
		return 0
	}
	return time.Duration(math.Ceil(missing/float64(b.Limit()))) * time.Second
}
