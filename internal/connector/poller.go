package connector

import (
	"context"
	"log/slog"
	"time"
)

// Poller runs a source's rounds (one poll of an API, or one streaming connection) until its
// context ends: after a round that succeeds it waits Interval; after one that fails it waits
// the server's Retry-After when there is one, otherwise the next backoff delay. A failed round
// that made progress first (a stream that ran, then dropped) starts the backoff over.
type Poller struct {
	Status   *Status
	Backoff  Backoff
	Interval time.Duration
	// Sleep waits d or until ctx ends; nil means Sleep. Tests pass one that records the waits.
	Sleep func(ctx context.Context, d time.Duration) error
}

// UnreachableRetry is the shortest wait before a source whose address does not answer tries
// again.
const UnreachableRetry = time.Minute

// Run calls round until ctx ends, then returns nil.
func (p Poller) Run(ctx context.Context, round func(context.Context) error) error {
	sleep := p.Sleep
	if sleep == nil {
		sleep = Sleep
	}
	attempt := 0
	for ctx.Err() == nil {
		before := p.Status.progressMark()
		err := round(ctx)
		if ctx.Err() != nil {
			break
		}
		wait := p.Interval
		if err == nil {
			attempt = 0
			p.Status.Succeeded()
		} else {
			if p.Status.progressMark() != before {
				attempt = 0
			}
			attempt++
			p.Status.Failed(err)
			wait = p.Backoff.Delay(attempt)
			if retryAfter, ok := RetryAfter(err); ok {
				wait = retryAfter
			} else if IsUnreachable(err) {
				// An address that does not answer (offline, a provider down) is not helped by
				// quick retries: wait at least UnreachableRetry, within the backoff's cap.
				wait = max(wait, min(UnreachableRetry, time.Duration(max(p.Backoff.Max, p.Backoff.Initial))))
			}
			// The first failure of a run is worth a warning; the retries that follow it are
			// in the source's health, and would fill the log. An address that does not answer
			// is the sources manager's to say (sourcing.Manager): once for the source, or, when
			// no public address answers at all, one line for the whole server instead of one a
			// source (issue 28: an offline start logged 30 warnings).
			level := slog.LevelDebug
			if attempt == 1 && !IsUnreachable(err) {
				level = slog.LevelWarn
			}
			slog.Log(ctx, level, "source round failed", "source", p.Status.Stats().Source, "err", RedactText(err.Error()), "retry_in", wait)
		}
		if sleep(ctx, wait) != nil {
			break
		}
	}
	return nil
}

// Sleep waits d, or returns ctx's error if ctx ends first.
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
