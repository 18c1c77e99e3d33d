// Package wait is the tests' one way to wait for something that happens in another goroutine,
// process or node: poll a condition, or receive from a channel, until one deadline passes. One
// policy for every test, generous enough that a machine three times slower than a developer's
// still passes: a test that works waits only as long as the event takes, and the deadline is
// spent only by a test that fails. Only tests import it.
package wait

import (
	"context"
	"errors"
	"testing"
	"time"
)

// Deadline is how long any wait lasts before the test fails. The slowest event a test waits
// for, a cluster node starting under the race detector on a loaded two-core machine, takes
// about 20 seconds; this leaves room for a machine three times slower.
const Deadline = 2 * time.Minute

// poll is the pause between two checks of a condition: short enough to add no visible time
// to a test, long enough not to steal the CPU from what the test waits for.
const poll = 10 * time.Millisecond

// For polls done until it reports true, failing the test when Deadline passes first.
func For(t testing.TB, what string, done func() bool) {
	t.Helper()
	if err := until(func() error {
		if done() {
			return nil
		}
		return errNotYet
	}); err != nil {
		t.Fatalf("%s did not happen within %s", what, Deadline)
	}
}

// ForNil polls try until it returns nil, failing the test with try's last error when Deadline
// passes first.
func ForNil(t testing.TB, what string, try func() error) {
	t.Helper()
	if err := until(try); err != nil {
		t.Fatalf("%s did not happen within %s: %v", what, Deadline, err)
	}
}

// ForProgress polls try until it returns nil, failing the test with try's last error when
// Deadline passes without progress: the deadline starts again each time try's error says
// something new ("1,901 of 6,500 delivered" becoming "1,950 of 6,500"). For waits on work whose
// length grows with the machine's slowness (thousands of posts or deliveries through a
// cluster), where a fixed deadline fails a slow machine that is still getting there.
func ForProgress(t testing.TB, what string, try func() error) {
	t.Helper()
	if err := untilStill(try, Deadline); err != nil {
		t.Fatalf("%s made no progress for %s: %v", what, Deadline, err)
	}
}

var errNotYet = errors.New("not yet")

// until polls try until it returns nil or Deadline passes, and returns its last error.
func until(try func() error) error {
	deadline := time.Now().Add(Deadline)
	for {
		err := try()
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(poll)
	}
}

// untilStill polls try until it returns nil or still passes with try's error unchanged, and
// returns its last error.
func untilStill(try func() error, still time.Duration) error {
	var last string
	deadline := time.Now().Add(still)
	for {
		err := try()
		if err == nil {
			return nil
		}
		if err.Error() != last {
			last, deadline = err.Error(), time.Now().Add(still)
		} else if time.Now().After(deadline) {
			return err
		}
		time.Sleep(poll)
	}
}

// Receive returns the next value from ch, failing the test when Deadline passes first.
func Receive[T any](t testing.TB, what string, ch <-chan T) T {
	t.Helper()
	timer := time.NewTimer(Deadline)
	defer timer.Stop()
	select {
	case v := <-ch:
		return v
	case <-timer.C:
		t.Fatalf("%s did not happen within %s", what, Deadline)
		var zero T
		return zero
	}
}

// Context returns a context that ends at Deadline, or when the test ends: for the calls a test
// makes that wait on their own (a client reading the next frame, a dial).
func Context(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), Deadline)
	t.Cleanup(cancel)
	return ctx
}
