package auth

import (
	"runtime"
	"sync"
	"time"

	"github.com/sightline/sightline/internal/password"
	"github.com/sightline/sightline/internal/problem"
)

// Sign-in throttling: an account is locked after accountLimit attempts within window, and an
// address after addressLimit attempts (one address may try many accounts). An attempt is counted
// before the password is hashed, so parallel guesses cannot all pass the check before the first
// failure lands; a successful sign-in gives its attempts back. Counts live in memory per node; in
// a cluster each node throttles on its own, which still caps guessing.
const (
	throttleWindow = 15 * time.Minute
	accountLimit   = 5
	addressLimit   = 30
)

// MsgSignInBusy answers a sign-in that found every password-hash slot taken.
const MsgSignInBusy = "Too many sign-ins at once. Try again in a moment."

// Throttle counts sign-in attempts per key and bounds the password hashes running at once.
type Throttle struct {
	mu      sync.Mutex
	entries map[string]*throttleEntry
	// hashing holds a slot per password hash in progress: each takes 19 MiB and a core for tens
	// of milliseconds, so an unbounded burst of sign-ins would exhaust the node.
	hashing chan struct{}
	verify  func(encoded, plain string) (bool, error)
}

type throttleEntry struct {
	attempts int
	since    time.Time
}

func NewThrottle() *Throttle {
	return &Throttle{entries: map[string]*throttleEntry{}, hashing: make(chan struct{}, 2*runtime.GOMAXPROCS(0)),
		verify: password.Verify}
}

func limitFor(key string) int {
	if len(key) > 3 && key[:3] == "ip:" {
		return addressLimit
	}
	return accountLimit
}

// Attempt counts an attempt against every key, or, when any key has used up its attempts,
// counts nothing and returns how long the longest-blocked key must still wait.
func (t *Throttle) Attempt(now time.Time, keys ...string) time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	var wait time.Duration
	for _, k := range keys {
		if e := t.entries[k]; e != nil && now.Sub(e.since) < throttleWindow && e.attempts >= limitFor(k) {
			wait = max(wait, throttleWindow-now.Sub(e.since))
		}
	}
	if wait > 0 {
		return wait
	}
	for _, k := range keys {
		e := t.entries[k]
		if e == nil || now.Sub(e.since) >= throttleWindow {
			e = &throttleEntry{since: now}
			t.entries[k] = e
		}
		e.attempts++
	}
	if len(t.entries) > 100_000 { // forget expired entries rather than grow without bound
		for k, e := range t.entries {
			if now.Sub(e.since) >= throttleWindow {
				delete(t.entries, k)
			}
		}
	}
	return 0
}

// Release gives back an attempt that was no guess: the node was busy, or the password was right.
func (t *Throttle) Release(keys ...string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, k := range keys {
		if e := t.entries[k]; e != nil && e.attempts > 0 {
			e.attempts--
		}
	}
}

// Reset forgets a key's attempts (after a successful sign-in).
func (t *Throttle) Reset(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.entries, key)
}

// Verify checks plain against the encoded hash in one of the node's hash slots, or answers 429
// at once when every slot is taken.
func (t *Throttle) Verify(encoded, plain string) (bool, error) {
	select {
	case t.hashing <- struct{}{}:
	default:
		return false, problem.RateLimited(MsgSignInBusy, time.Second)
	}
	defer func() { <-t.hashing }()
	return t.verify(encoded, plain)
}
