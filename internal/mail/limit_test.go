package mail

import (
	"testing"
	"time"

	"github.com/sightline/sightline/internal/problem"
)

// The buckets refill at their hourly rate; a refusal says how long until the next mail passes,
// takes nothing from either bucket, and names the bucket that refused.
func TestLimiterRefillsAndRefusesWithoutTaking(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	l := NewLimiter(Limits{UserPerHour: 60, UserBurst: 2, OrgPerHour: 60, OrgBurst: 3})
	l.Now = func() time.Time { return now }
	take := func(user int64) error { return l.Take(user, 1) }
	for _, step := range []struct {
		user    int64
		advance time.Duration
		refusal string
		wait    time.Duration
	}{
		{user: 1},
		{user: 1},
		{user: 1, refusal: MsgUserRateLimited, wait: time.Minute},
		{user: 2},
		{user: 2, refusal: MsgOrgRateLimited, wait: time.Minute},
		{user: 1, advance: 30 * time.Second, refusal: MsgUserRateLimited, wait: 30 * time.Second},
		{user: 1, advance: 30 * time.Second},
		{user: 2, refusal: MsgOrgRateLimited, wait: time.Minute},
	} {
		now = now.Add(step.advance)
		err := take(step.user)
		if step.refusal == "" {
			if err != nil {
				t.Fatalf("user %d at %s: %v", step.user, now.Format(time.TimeOnly), err)
			}
			continue
		}
		p, ok := err.(*problem.Problem)
		if !ok || p.Kind != problem.KindRateLimited || p.Message != step.refusal || p.RetryAfter != step.wait {
			t.Fatalf("user %d at %s: %#v, want %q after %s", step.user, now.Format(time.TimeOnly), err, step.refusal, step.wait)
		}
	}
}
