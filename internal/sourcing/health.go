package sourcing

import (
	"strconv"
	"time"

	"github.com/sightline/sightline/internal/connector"
)

// States of a source's health.
const (
	StateOK          = "ok"          // fetching and emitting as usual
	StateDegraded    = "degraded"    // the last round failed, or a silence much longer than usual
	StateFailing     = "failing"     // three rounds or more failed in a row, or it cannot run
	StateUnreachable = "unreachable" // its address does not answer (offline, or the provider is down)
	StateDisabled    = "disabled"    // switched off
	StatePending     = "pending"     // on, and no node has reported on it yet
)

// failingAfter is how many failed rounds in a row make a source failing rather than degraded.
const failingAfter = 3

// staleAfter is how long without a report means no node runs the source.
const staleAfter = 2 * time.Minute

// View is a source with its assessed health.
type View struct {
	Source
	Health Health
}

// Health is a source's assessed health (GET /api/v1/sources/health).
type Health struct {
	ID          int64     `json:"id"`
	Name        string    `json:"name"`
	Type        string    `json:"type"`
	State       string    `json:"state"`
	Message     string    `json:"message,omitempty"`
	LastSuccess time.Time `json:"lastSuccess,omitzero"`
	LastError   *Error    `json:"lastError,omitempty"`
	// ItemsLastHour is the sum of Minutes: items emitted in each of the last 60 minutes.
	ItemsLastHour int64   `json:"itemsLastHour"`
	Minutes       []int64 `json:"minutes"`
	// LagSeconds is now minus the newest item's publication; null before any item.
	LagSeconds *float64 `json:"lagSeconds"`
	// SilenceSeconds is how long since the last item; Gap says it is much longer than usual.
	SilenceSeconds *float64 `json:"silenceSeconds"`
	Gap            bool     `json:"gap"`
	// Retries counts failed rounds retried; DeadLettered counts items dropped as malformed or
	// refused by the pipeline, LastDeadLetter says why the last one was.
	Retries        int64     `json:"retries"`
	DeadLettered   int64     `json:"deadLettered"`
	LastDeadLetter string    `json:"lastDeadLetter,omitempty"`
	ReportedAt     time.Time `json:"reportedAt,omitzero"`
}

// Error is a failure and when it happened.
type Error struct {
	At      time.Time `json:"at"`
	Message string    `json:"message"`
}

// Assess judges a source's health from its last report; every is its poll interval (0 for a
// stream).
func Assess(r Source, every time.Duration, now time.Time) Health {
	rep := r.Report
	st := rep.Stats
	// Errors are redacted again as they are shown: a report written by an older release kept
	// whole addresses.
	h := Health{ID: r.ID, Name: r.Name, Type: r.Type, LastSuccess: st.LastSuccess, Retries: st.Retries,
		DeadLettered: st.Skipped, LastDeadLetter: connector.RedactText(st.LastSkip), ReportedAt: rep.ReportedAt, Minutes: minutesAt(rep, now)}
	for _, n := range h.Minutes {
		h.ItemsLastHour += n
	}
	if st.LastError != "" {
		h.LastError = &Error{At: st.LastErrorAt, Message: connector.RedactText(st.LastError)}
	}
	if rep.BuildError != "" {
		h.LastError = &Error{At: rep.ReportedAt, Message: connector.RedactText(rep.BuildError)}
	}
	if !st.NewestPublished.IsZero() {
		lag := max(0, now.Sub(st.NewestPublished).Seconds())
		h.LagSeconds = &lag
	}
	if !rep.LastItemAt.IsZero() {
		silence := max(0, now.Sub(rep.LastItemAt).Seconds())
		h.SilenceSeconds = &silence
		h.Gap = time.Duration(silence*float64(time.Second)) > gapAfter(h.Minutes, every)
	}
	switch {
	case !r.Enabled:
		h.State, h.Message = StateDisabled, "Switched off."
	case rep.ReportedAt.IsZero():
		h.State, h.Message = StatePending, "Starting: no fetch has finished yet."
	case rep.BuildError != "":
		h.State, h.Message = StateFailing, "It cannot run with these settings."
	case now.Sub(rep.ReportedAt) > staleAfter:
		h.State, h.Message = StateDegraded, "No node has reported on it since "+rep.ReportedAt.UTC().Format(time.RFC3339)+"."
	case st.Failures > 0 && st.Unreachable:
		h.State, h.Message = StateUnreachable, "Its address does not answer: the network is offline or the provider is down."
	case st.Failures >= failingAfter:
		h.State, h.Message = StateFailing, "The last "+strconv.FormatInt(st.Failures, 10)+" fetches failed."
	case st.Failures > 0:
		h.State, h.Message = StateDegraded, "The last fetch failed; it is being retried."
	case h.Gap:
		h.State, h.Message = StateDegraded, "Silent for much longer than usual."
	case st.LastSuccess.IsZero():
		h.State, h.Message = StatePending, "Starting: no fetch has finished yet."
	default:
		h.State = StateOK
	}
	return h
}

// gapAfter is how long a silence must last to be a gap: ten times the usual spacing of items
// over the last hour, at least three poll intervals and at least ten minutes.
func gapAfter(minutes []int64, every time.Duration) time.Duration {
	var items int64
	for _, n := range minutes {
		items += n
	}
	usual := time.Hour
	if items > 0 {
		usual = time.Hour / time.Duration(items)
	}
	return max(10*usual, 3*every, 10*time.Minute)
}

// minutesAt shifts the report's per-minute counts to end at now's minute: minutes since the
// report count zero.
func minutesAt(rep Report, now time.Time) []int64 {
	out := make([]int64, 60)
	if len(rep.Minutes) == 0 || rep.ReportedAt.IsZero() {
		return out
	}
	shift := int(now.Truncate(time.Minute).Sub(rep.ReportedAt.Truncate(time.Minute)) / time.Minute)
	shift = max(shift, 0)
	for i, n := range rep.Minutes {
		if j := i - shift + (60 - len(rep.Minutes)); j >= 0 && j < 60 {
			out[j] = n
		}
	}
	return out
}

// OfflineMessage is what the sources page and the log say once when Offline holds.
const OfflineMessage = "This server cannot reach the internet: public sources are paused and tried again every minute. " +
	"Check that the server can resolve and reach public addresses (DNS, firewall, proxy), or switch off the sources it cannot use; " +
	"the simulator and ingest tokens go on."

// minOfflineSources is how many public sources must all fail to reach their addresses before
// the server, rather than those providers, is taken to be offline.
const minOfflineSources = 3

// Reaching reports whether some public source shows the network works: it succeeded once, or
// failed in a way only an answering address can (a refusal, a bad page).
func Reaching(rows []Source) bool {
	for _, r := range rows {
		st := r.Report.Stats
		if r.Enabled && r.Type != "onion" && (!st.LastSuccess.IsZero() || (st.Failures > 0 && !st.Unreachable)) {
			return true
		}
	}
	return false
}

// Offline reports whether the server looks cut off from the internet: at least three public
// sources (onion sites, reached through Tor, are not) have run, every one failed because its
// address did not answer, and none has ever succeeded. One provider down is that provider's
// problem, and any success or any other failure (a refusal, a bad page) means the network works.
func Offline(rows []Source) bool {
	cut := 0
	for _, r := range rows {
		st := r.Report.Stats
		switch {
		case !r.Enabled || r.Type == "onion" || (st.Failures == 0 && st.LastSuccess.IsZero()):
			continue // off, outside the internet, or not run yet
		case !st.LastSuccess.IsZero() || !st.Unreachable:
			return false
		}
		cut++
	}
	return cut >= minOfflineSources
}
