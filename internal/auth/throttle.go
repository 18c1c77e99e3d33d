package auth

import (
	"sync"
	"time"
)

// Sign-in throttling: an account is locked after accountLimit failures within window, and an
// address after addressLimit failures (one address may try many accounts). Counts live in
// memory per node; in a cluster each node throttles on its own, which still caps guessing.
const (
	throttleWindow = 15 * time.Minute
	accountLimit   = 5
	addressLimit   = 30
)

// Throttle counts failed sign-ins per key.
type Throttle struct {
	mu      sync.Mutex
	entries map[string]*throttleEntry
}

type throttleEntry struct {
	failures int
	since    time.Time
}

func NewThrottle() *Throttle { return &Throttle{entries: map[string]*throttleEntry{}} }

func limitFor(key string) int {
	if len(key) > 3 && key[:3] == "ip:" {
		return addressLimit
	}
	return accountLimit
}

// Blocked returns how long the longest-blocked key must still wait, or 0.
func (t *Throttle) Blocked(now time.Time, keys ...string) time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	var wait time.Duration
	for _, k := range keys {
		e := t.entries[k]
		if e == nil || now.Sub(e.since) >= throttleWindow {
			continue
		}
		if e.failures >= limitFor(k) {
			wait = max(wait, throttleWindow-now.Sub(e.since))
		}
	}
	return wait
}

// Fail records a failed attempt for each key.
func (t *Throttle) Fail(now time.Time, keys ...string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, k := range keys {
		e := t.entries[k]
		if e == nil || now.Sub(e.since) >= throttleWindow {
			e = &throttleEntry{since: now}
			t.entries[k] = e
		}
		e.failures++
	}
	if len(t.entries) > 100_000 { // forget expired entries rather than grow without bound
		for k, e := range t.entries {
			if now.Sub(e.since) >= throttleWindow {
				delete(t.entries, k)
			}
		}
	}
}

// Reset forgets a key's failures (after a successful sign-in).
func (t *Throttle) Reset(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.entries, key)
}
