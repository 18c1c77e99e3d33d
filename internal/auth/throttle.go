package auth

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/sightline/sightline/internal/password"
	"github.com/sightline/sightline/internal/problem"
)

// Sign-in throttling (docs/sign-in.md) slows a guesser down without locking the owner out. Each
// failed attempt counts against three keys: the (account, address) pair, the account and the
// address. Past a key's free failures, its next attempt must wait a delay that doubles with every
// further failure, up to the key's cap; an attempt made before then is answered 429 without
// reaching the password hash and counts nothing. The pair's delay grows far (a guesser on one
// address is held back for up to 15 minutes a try), the account's and the address's stay short
// (a minute at most), so the right password from another address, or from the same one once the
// delay is over, signs in. An attempt is counted before the password is hashed, so parallel
// guesses cannot all pass before the first failure lands; an attempt that was no guess (the
// right password, a busy node) is given back. A key is forgotten when throttleWindow passes after
// its delay ended without another failure (so a guesser waiting out the longest delay does not
// earn fresh free tries). Counts live in memory per node; in a cluster each node throttles on
// its own.
const throttleWindow = 15 * time.Minute

// throttlePolicy is how one kind of key slows down: free failures, then base, doubling, to limit.
type throttlePolicy struct {
	free  int
	base  time.Duration
	limit time.Duration
}

var (
	pairPolicy    = throttlePolicy{free: 5, base: time.Second, limit: throttleWindow}
	accountPolicy = throttlePolicy{free: 20, base: time.Second, limit: time.Minute}
	addressPolicy = throttlePolicy{free: 30, base: time.Second, limit: time.Minute}
)

// delay is how long after its last counted failure a key with failures must wait.
func (p throttlePolicy) delay(failures int) time.Duration {
	if failures < p.free {
		return 0
	}
	d := p.base
	for range failures - p.free {
		if d >= p.limit {
			break
		}
		d *= 2
	}
	return min(d, p.limit)
}

// signInKeys are the throttle keys of an attempt on account (an e-mail address) from address.
func signInKeys(account, address string) []string {
	account = strings.ToLower(strings.TrimSpace(account))
	return []string{"pair:" + account + "\x00" + address, "account:" + account, "ip:" + address}
}

func policyFor(key string) throttlePolicy {
	switch {
	case strings.HasPrefix(key, "pair:"):
		return pairPolicy
	case strings.HasPrefix(key, "account:"):
		return accountPolicy
	}
	return addressPolicy
}

// MsgSignInBusy answers a sign-in that found every password-hash slot taken.
const MsgSignInBusy = "Too many sign-ins at once. Try again in a moment."

// Throttle counts failed sign-in attempts per key and bounds the password hashes running at once.
type Throttle struct {
	mu      sync.Mutex
	entries map[string]*throttleEntry
	// hashing holds a slot per password hash in progress: each takes 19 MiB and a core for tens
	// of milliseconds, so an unbounded burst of sign-ins would exhaust the node.
	hashing chan struct{}
	verify  func(encoded, plain string) (bool, error)
}

type throttleEntry struct {
	failures int
	last     time.Time
}

func NewThrottle() *Throttle {
	return &Throttle{entries: map[string]*throttleEntry{}, hashing: make(chan struct{}, 2*runtime.GOMAXPROCS(0)),
		verify: password.Verify}
}

// Attempt counts an attempt against every key, or, when any key's delay is not over, counts
// nothing and returns how long the longest-delayed key must still wait.
func (t *Throttle) Attempt(now time.Time, keys ...string) time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	var wait time.Duration
	for _, k := range keys {
		e := t.live(now, k)
		if e == nil {
			continue
		}
		if ready := e.last.Add(policyFor(k).delay(e.failures)); now.Before(ready) {
			wait = max(wait, ready.Sub(now))
		}
	}
	if wait > 0 {
		return wait
	}
	for _, k := range keys {
		e := t.live(now, k)
		if e == nil {
			e = &throttleEntry{}
			t.entries[k] = e
		}
		e.failures++
		e.last = now
	}
	if len(t.entries) > 100_000 { // forget expired entries rather than grow without bound
		for k := range t.entries {
			t.live(now, k)
		}
	}
	return 0
}

// live is the key's entry, nil (and forgotten) once throttleWindow has passed since its delay ended.
func (t *Throttle) live(now time.Time, key string) *throttleEntry {
	e := t.entries[key]
	if e != nil && now.Sub(e.last) >= policyFor(key).delay(e.failures)+throttleWindow {
		delete(t.entries, key)
		return nil
	}
	return e
}

// Release gives back an attempt that was no guess: the node was busy, or the password was right.
func (t *Throttle) Release(keys ...string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, k := range keys {
		if e := t.entries[k]; e != nil && e.failures > 0 {
			e.failures--
		}
	}
}

// Succeeded forgets the failures of the (account, address) pair that just proved it knows the
// secret and gives the attempt back to the account and the address. The account keeps the other
// addresses' failures: the owner signing in does not give a guesser elsewhere a fresh start.
func (t *Throttle) Succeeded(keys []string) {
	t.mu.Lock()
	delete(t.entries, keys[0])
	t.mu.Unlock()
	t.Release(keys[1:]...)
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

// tooManyAttempts is the 429 of a throttled attempt (what: "sign-in attempts", "attempts"),
// saying how long to wait.
func tooManyAttempts(what string, wait time.Duration) error {
	var after string
	switch secs := int(wait.Round(time.Second) / time.Second); {
	case secs <= 1:
		after = "a second"
	case secs < 60:
		after = fmt.Sprintf("%d seconds", secs)
	default:
		after = fmt.Sprintf("%d minutes", int(wait.Minutes()+0.999))
	}
	return problem.RateLimited("Too many "+what+". Try again in "+after+".", wait)
}
