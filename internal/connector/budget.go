package connector

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"golang.org/x/time/rate"
)

// HostBudget is a request budget per host, shared by every source of every tenant that uses
// it: a token bucket per host name (ports and schemes share it), so that however many rows
// point at one host, it is asked at most Rate times a second on average, Burst at once.
type HostBudget struct {
	rate  rate.Limit
	burst int

	mu    sync.Mutex
	hosts map[string]*rate.Limiter
}

// NewHostBudget allows each host perSecond requests a second on average and burst at once.
func NewHostBudget(perSecond float64, burst int) *HostBudget {
	return &HostBudget{rate: rate.Limit(perSecond), burst: burst, hosts: map[string]*rate.Limiter{}}
}

// forgetAbove is how many hosts the budget remembers before it forgets those whose bucket is
// full again (not asked lately): the map stays bounded however many hosts sources name.
const forgetAbove = 4096

// Wait takes one request of host's budget, waiting until there is one. It fails at once,
// without waiting, when the wait would outlast ctx's deadline (a test fetch), and when ctx ends.
func (b *HostBudget) Wait(ctx context.Context, host string) error {
	host = strings.ToLower(host)
	b.mu.Lock()
	l := b.hosts[host]
	if l == nil {
		if len(b.hosts) >= forgetAbove {
			for h, other := range b.hosts {
				if other.Tokens() >= float64(b.burst) {
					delete(b.hosts, h)
				}
			}
		}
		l = rate.NewLimiter(b.rate, b.burst)
		b.hosts[host] = l
	}
	b.mu.Unlock()
	if err := l.Wait(ctx); err != nil {
		return fmt.Errorf("the request budget of %s is spent for now (%g requests a second for all sources together): %w",
			host, float64(b.rate), err)
	}
	return nil
}
