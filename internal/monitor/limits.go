package monitor

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/sightline/sightline/internal/problem"
)

// Streaming and firehose limits: matches per search per hour (monitor-area.md section 4). The
// raised limit applies while an override is active (24 hours for streaming, 6 for the firehose).
const (
	StreamingLowerLimit = 2000
	StreamingUpperLimit = 10000
	GnipLowerLimit      = 1000
	GnipUpperLimit      = 5000
	gnipProvider        = "gnip"
)

// Limit overrides (monitor-area.md section 4).
const (
	StreamingOverride = 24 * time.Hour
	GnipOverride      = 6 * time.Hour
)

// streamingBlocked says the search collects nothing: it is over its raised limit, or over its
// normal limit with no override running.
func streamingBlocked(m Search, now time.Time) bool {
	return m.StreamingUpperLimitExceeded || (m.StreamingLowerLimitExceeded && !now.Before(m.StreamingOverrideUntil))
}

// gnipBlocked says the search leaves the firehose out, by the same rule as streamingBlocked.
func gnipBlocked(m Search, now time.Time) bool {
	return m.GnipUpperLimitExceeded || (m.GnipLowerLimitExceeded && !now.Before(m.GnipOverrideUntil))
}

// overrideStreaming raises the search's streaming limit for StreamingOverride, which
// reactivates a search stopped at its normal limit, or lowers it back.
func overrideStreaming(m *Search, increase bool, now time.Time) {
	m.StreamingOverrideUntil = time.Time{}
	if increase {
		m.StreamingOverrideUntil = now.Add(StreamingOverride)
		m.StreamingLowerLimitExceeded = false
	}
	m.GnipLowerLimitExceeded = !increase // the spec's rule for either override
}

// overrideGnip raises the search's firehose limit for GnipOverride, or lowers it back.
func overrideGnip(m *Search, increase bool, now time.Time) {
	m.GnipOverrideUntil = time.Time{}
	if increase {
		m.GnipOverrideUntil = now.Add(GnipOverride)
	}
	m.GnipLowerLimitExceeded = !increase
}

// Data limit messages (monitor-area.md section 8).
const (
	msgDataLimitTitle  = "Data Limits Reached"
	msgDataLimitDetail = "Your organization has collected its %d results for this month. Contact support to raise the limit."
)

// checkDataLimit refuses to resume collecting when the organization's monthly data is used up.
func (s *Service) checkDataLimit(ctx context.Context, organizationID int64) error {
	org, err := s.store.Organization(ctx, organizationID)
	if err != nil || org.MonthlyDataLimit <= 0 {
		return err
	}
	n, err := s.store.CountMatchesSince(ctx, organizationID, MonthStart(s.now()))
	if err != nil {
		return err
	}
	if n >= org.MonthlyDataLimit {
		return problem.LimitExceeded(msgDataLimitTitle, fmt.Sprintf(msgDataLimitDetail, org.MonthlyDataLimit))
	}
	return nil
}

// MonthStart is the first instant of t's month in UTC, where monthly data limits restart.
func MonthStart(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
}

// MonthlyUsage reports an organization's matches stored since month began and its monthly data
// limit (0: unlimited).
type MonthlyUsage func(ctx context.Context, organizationID int64, month time.Time) (used, limit int64, err error)

// Limits counts what each saved search stored this hour and each organization this month, and
// decides which new matches may still be stored. It counts only the matches the store reports
// as new, so a batch delivered again is not counted again. Matches admitted but not yet
// settled are held against the limits, so batches stored side by side cannot overshoot them.
type Limits struct {
	usage MonthlyUsage

	mu     sync.Mutex
	hours  map[int64]*hourCount  // search → its current hour
	months map[int64]*monthCount // organization → its current month
}

type hourCount struct {
	start               time.Time
	total, gnip         int64 // stored
	heldTotal, heldGnip int64 // admitted, not settled yet
}

type monthCount struct {
	month             time.Time
	used, held, limit int64
}

// NewLimits makes the counters; usage tells an organization's month when it is first seen.
func NewLimits(usage MonthlyUsage) *Limits {
	return &Limits{usage: usage, hours: map[int64]*hourCount{}, months: map[int64]*monthCount{}}
}

// Grant is the outcome of Admit: the matches to store, held against the limits until Settle.
type Grant struct {
	Matches  []Match
	limits   *Limits
	now      time.Time
	searches map[int64]Search
	hours    map[int64]*hourCount
	months   map[int64]*monthCount
}

// Admit keeps, in order, the matches that their organization's monthly data limit and their
// search's hourly limits still allow. searches holds the search of every match.
func (l *Limits) Admit(ctx context.Context, matches []Match, searches map[int64]Search, now time.Time) *Grant {
	g := &Grant{limits: l, now: now, searches: map[int64]Search{}, hours: map[int64]*hourCount{},
		months: map[int64]*monthCount{}}
	for _, m := range matches {
		if _, seen := g.months[m.OrganizationID]; !seen {
			g.months[m.OrganizationID] = l.month(ctx, m.OrganizationID, now)
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, m := range matches {
		s := searches[m.SearchID]
		h := g.hours[m.SearchID]
		if h == nil {
			h = l.hour(m.SearchID, now)
			g.hours[m.SearchID], g.searches[m.SearchID] = h, s
		}
		gnip := m.Provider == gnipProvider
		if mc := g.months[m.OrganizationID]; mc != nil && mc.limit > 0 && mc.used+mc.held >= mc.limit {
			continue
		}
		if streamingBlocked(s, now) || h.total+h.heldTotal >= streamingLimit(s, now) {
			continue
		}
		if gnip && (gnipBlocked(s, now) || h.gnip+h.heldGnip >= gnipLimit(s, now)) {
			continue
		}
		if mc := g.months[m.OrganizationID]; mc != nil {
			mc.held++
		}
		h.heldTotal++
		if gnip {
			h.heldGnip++
		}
		g.Matches = append(g.Matches, m)
	}
	return g
}

// Settle counts the matches the store reported as new (none when storing failed), releases
// what Admit held, and returns the searches whose limit flags change, with their new flags.
func (g *Grant) Settle(created []Match) []Search {
	l := g.limits
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, m := range g.Matches {
		if mc := g.months[m.OrganizationID]; mc != nil {
			mc.held--
		}
		h := g.hours[m.SearchID]
		h.heldTotal--
		if m.Provider == gnipProvider {
			h.heldGnip--
		}
	}
	for _, m := range created {
		if mc := g.months[m.OrganizationID]; mc != nil {
			mc.used++
		}
		if h := g.hours[m.SearchID]; h != nil {
			h.total++
			if m.Provider == gnipProvider {
				h.gnip++
			}
		}
	}
	var changed []Search
	for id, s := range g.searches {
		if next, ok := flagsAfter(s, g.hours[id], g.now); ok {
			changed = append(changed, next)
		}
	}
	return changed
}

// flagsAfter marks the limits the search's hour has reached, and says whether that changes it.
func flagsAfter(s Search, h *hourCount, now time.Time) (Search, bool) {
	next := s
	if h.total >= streamingLimit(s, now) {
		if now.Before(s.StreamingOverrideUntil) {
			next.StreamingUpperLimitExceeded = true
		} else {
			next.StreamingLowerLimitExceeded = true
		}
	}
	if h.gnip >= gnipLimit(s, now) {
		if now.Before(s.GnipOverrideUntil) {
			next.GnipUpperLimitExceeded = true
		} else {
			next.GnipLowerLimitExceeded = true
		}
	}
	changed := next.StreamingLowerLimitExceeded != s.StreamingLowerLimitExceeded ||
		next.StreamingUpperLimitExceeded != s.StreamingUpperLimitExceeded ||
		next.GnipLowerLimitExceeded != s.GnipLowerLimitExceeded || next.GnipUpperLimitExceeded != s.GnipUpperLimitExceeded
	return next, changed
}

func streamingLimit(s Search, now time.Time) int64 {
	if now.Before(s.StreamingOverrideUntil) {
		return StreamingUpperLimit
	}
	return StreamingLowerLimit
}

func gnipLimit(s Search, now time.Time) int64 {
	if now.Before(s.GnipOverrideUntil) {
		return GnipUpperLimit
	}
	return GnipLowerLimit
}

// hour is the search's count for the hour at now; an hour starts with its first match. Call
// with l.mu held.
func (l *Limits) hour(searchID int64, now time.Time) *hourCount {
	h := l.hours[searchID]
	if h == nil || (now.Sub(h.start) >= time.Hour && h.heldTotal == 0) {
		h = &hourCount{start: now}
		l.hours[searchID] = h
	}
	return h
}

// month is the organization's count for now's month, read from the store when it is first
// needed; nil (no limit applied) when the store cannot tell.
func (l *Limits) month(ctx context.Context, organizationID int64, now time.Time) *monthCount {
	start := MonthStart(now)
	l.mu.Lock()
	mc := l.months[organizationID]
	l.mu.Unlock()
	if mc != nil && mc.month.Equal(start) {
		return mc
	}
	used, limit, err := l.usage(ctx, organizationID, start)
	if err != nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if mc := l.months[organizationID]; mc != nil && mc.month.Equal(start) {
		return mc // another batch read it meanwhile
	}
	mc = &monthCount{month: start, used: used, limit: limit}
	l.months[organizationID] = mc
	return mc
}
