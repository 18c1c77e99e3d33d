package connector

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"
)

// PanicMessage is what a source that panicked reports as its last error: the panic's value may
// quote what the source read or its settings, so it goes to the server's log only.
const PanicMessage = "The source stopped on an internal error (the server's log has the details); it is restarted."

// Supervise returns src run under a supervisor: a panic in its Run is recovered, recorded as a
// failed round with PanicMessage (so its health shows it), and the source is started again after
// a backoff, while every other source goes on. A source that made progress since its last panic
// starts the backoff over.
func Supervise(src Source) Source {
	return &supervised{Source: src, backoff: DefaultBackoff}
}

type supervised struct {
	Source
	backoff Backoff

	mu sync.Mutex
	// panics counts every panic; inARow those since the source last succeeded.
	panics, inARow int64
	lastPanic      time.Time
}

func (s *supervised) Run(ctx context.Context, emit EmitFunc) error {
	attempt := 0
	for {
		err, panicked := s.runOnce(ctx, emit)
		if !panicked || ctx.Err() != nil {
			return err
		}
		if s.progressedSincePanic() {
			attempt = 0
		}
		attempt++
		s.mu.Lock()
		s.panics++
		s.inARow++
		s.lastPanic = time.Now().UTC()
		s.mu.Unlock()
		if Sleep(ctx, s.backoff.Delay(attempt)) != nil {
			return nil
		}
	}
}

func (s *supervised) runOnce(ctx context.Context, emit EmitFunc) (err error, panicked bool) {
	defer func() {
		if r := recover(); r != nil {
			slog.Error("source panicked; it is restarted", "source", s.Name(), "panic", RedactText(fmt.Sprint(r)), "stack", string(debug.Stack()))
			err, panicked = nil, true
		}
	}()
	return s.Source.Run(ctx, emit), false
}

// progressedSincePanic reports whether the source succeeded since it last panicked.
func (s *supervised) progressedSincePanic() bool {
	inner := s.inner()
	s.mu.Lock()
	defer s.mu.Unlock()
	if inner.LastSuccess.After(s.lastPanic) {
		s.inARow = 0
		return true
	}
	return false
}

func (s *supervised) inner() Stats {
	if r, ok := s.Source.(Reporter); ok {
		return r.Stats()
	}
	return Stats{Source: s.Name()}
}

// Stats are the source's own, with its panics counted as failed rounds; the latest panic is
// its last error until the source succeeds again.
func (s *supervised) Stats() Stats {
	st := s.inner()
	s.mu.Lock()
	defer s.mu.Unlock()
	st.Retries += s.panics
	if s.inARow > 0 && s.lastPanic.After(st.LastSuccess) {
		st.LastError, st.LastErrorAt = PanicMessage, s.lastPanic
		st.Failures += s.inARow
		st.Unreachable = false
	}
	return st
}
