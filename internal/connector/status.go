package connector

import (
	"errors"
	"net"
	"sync"
	"time"
)

// Stats is a source's status as GET /api/v1/ingest/stats reports it.
type Stats struct {
	Source      string    `json:"source"`
	LastSuccess time.Time `json:"lastSuccess,omitzero"`
	LastError   string    `json:"lastError,omitempty"`
	LastErrorAt time.Time `json:"lastErrorAt,omitzero"`
	// LagSeconds is how old the last emitted post was when it was emitted: how far behind its
	// provider the source runs.
	LagSeconds float64 `json:"lagSeconds"`
	Count      int64   `json:"count"`
	// Skipped counts malformed items that were dropped; LastSkip says why the last one was.
	Skipped  int64  `json:"skipped"`
	LastSkip string `json:"lastSkip,omitempty"`
	// Retries counts failed rounds, each retried after a backoff; Failures is how many of the
	// latest rounds failed in a row (0 after a success).
	Retries  int64 `json:"retries"`
	Failures int64 `json:"failures"`
	// Unreachable says the last failure was the provider's address not answering at all (no
	// such host, connection refused, no route): offline, or the provider is down.
	Unreachable bool `json:"unreachable,omitempty"`
	// NewestPublished is the publication time of the newest post emitted.
	NewestPublished time.Time `json:"newestPublished,omitzero"`
}

// Status is a source's live status, updated by the source and read by anyone, concurrently.
type Status struct {
	mu    sync.Mutex
	stats Stats
	// progress changes whenever the source succeeds or emits, so a retry loop can tell a
	// connection that worked for a while before dropping from one that never worked.
	progress uint64
}

// NewStatus returns the status of the source with this name.
func NewStatus(source string) *Status {
	return &Status{stats: Stats{Source: source}}
}

// Succeeded records a successful round (a page fetched, a connection made).
func (s *Status) Succeeded() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stats.LastSuccess = time.Now().UTC()
	s.stats.Failures = 0
	s.stats.Unreachable = false
	s.progress++
}

// Failed records an error, its addresses redacted to their scheme and host (RedactText).
func (s *Status) Failed(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stats.LastError = RedactText(err.Error())
	s.stats.LastErrorAt = time.Now().UTC()
	s.stats.Retries++
	s.stats.Failures++
	s.stats.Unreachable = IsUnreachable(err)
}

// IsUnreachable reports whether err is an address that does not answer: a name that does not
// resolve, or a connection refused or without a route. A timeout is not: something answered,
// too slowly.
func IsUnreachable(err error) bool {
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return !dns.IsTimeout
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return !op.Timeout()
	}
	return false
}

// Emitted records a post handed to the pipeline.
func (s *Status) Emitted(published time.Time) {
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stats.Count++
	s.stats.LastSuccess = now.UTC()
	s.stats.LagSeconds = max(0, now.Sub(published).Seconds())
	if published.After(s.stats.NewestPublished) {
		s.stats.NewestPublished = published.UTC()
	}
	s.progress++
}

// Skipped records a malformed item that was dropped, its reason's addresses redacted.
func (s *Status) Skipped(reason error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stats.Skipped++
	s.stats.LastSkip = RedactText(reason.Error())
}

// Stats returns a copy of the current status.
func (s *Status) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
}

func (s *Status) progressMark() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.progress
}
