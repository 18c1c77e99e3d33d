package connector

import (
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
	s.progress++
}

// Failed records an error.
func (s *Status) Failed(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stats.LastError = err.Error()
	s.stats.LastErrorAt = time.Now().UTC()
}

// Emitted records a post handed to the pipeline.
func (s *Status) Emitted(published time.Time) {
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stats.Count++
	s.stats.LastSuccess = now.UTC()
	s.stats.LagSeconds = max(0, now.Sub(published).Seconds())
	s.progress++
}

// Skipped records a malformed item that was dropped.
func (s *Status) Skipped(reason error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stats.Skipped++
	s.stats.LastSkip = reason.Error()
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
