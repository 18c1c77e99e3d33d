// Package backtest previews a saved search before it is saved: it runs the draft, with the
// percolator's own matcher, over the posts already stored in a window and says how many it
// would have matched, per day, with the first of them (docs/monitor-api.md, "Backtest").
package backtest

import (
	"context"
	"github.com/sightline/sightline/internal/search"
	"time"

	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/percolate"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/query"
)

// Bounds of one backtest.
const (
	DefaultDays = 30 // the window, as the inbox keeps matches (monitor.Retention)
	MaxDays     = 30 // posts are kept 30 days (ingest.Retention)
	Samples     = 20
	// MaxCandidates and Budget bound the work: past either, the scan stops, the reply says
	// truncated and the rate is extrapolated from the part of the window it covered.
	MaxCandidates = 50_000
	Budget        = 600 * time.Millisecond
	batch         = 1000
	maxUTCOffset  = 14 * 60
)

// Request is a draft search (the create payload, monitorSearchId for an edit) and its window.
type Request struct {
	monitor.DraftInput
	// Days is the window: the last Days days up to now (DefaultDays when 0).
	Days int `json:"days,omitempty"`
	// UTCOffsetMinutes places day boundaries in the viewer's time zone (east of UTC positive).
	UTCOffsetMinutes int `json:"utcOffsetMinutes,omitempty"`
}

// Day is the matches of one calendar day.
type Day struct {
	Date  string `json:"date"` // YYYY-MM-DD in the request's offset
	Count int    `json:"count"`
}

// Result is what a backtest found.
type Result struct {
	Count  int   `json:"count"`
	PerDay []Day `json:"perDay"`
	// ExpectedPerDay is Count divided by the days the scan covered: the whole window, or when
	// truncated, the time from the oldest post scanned to the window's end.
	ExpectedPerDay float64     `json:"expectedPerDay"`
	Samples        []post.Post `json:"samples"`
	Truncated      bool        `json:"truncated"`
	Scanned        int         `json:"scanned"`
	// From and To are the window, CoveredFrom how far back the scan reached (From unless
	// truncated); Unix seconds.
	From        int64 `json:"from"`
	To          int64 `json:"to"`
	CoveredFrom int64 `json:"coveredFrom"`
}

// Drafts validates draft searches (monitor.Service).
type Drafts interface {
	Draft(ctx context.Context, actor authz.Actor, in monitor.DraftInput) (monitor.Search, []percolate.FilterList, error)
}

// Store finds candidate posts (store.Store).
type Store interface {
	CandidatePosts(ctx context.Context, q search.PostQuery) ([]search.Candidate, error)
}

// Service runs backtests.
type Service struct {
	drafts        Drafts
	store         Store
	now           func() time.Time
	maxCandidates int
	budget        time.Duration
}

func NewService(d Drafts, s Store) *Service {
	return &Service{drafts: d, store: s, now: time.Now, maxCandidates: MaxCandidates, budget: Budget}
}

// Run validates the draft as creating it would (422 with every problem) and runs it.
func (s *Service) Run(ctx context.Context, actor authz.Actor, r Request) (Result, error) {
	days := r.Days
	if days == 0 {
		days = DefaultDays
	}
	if days < 1 || days > MaxDays {
		return Result{}, problem.InvalidField("days", "Preview between 1 and 30 days.")
	}
	if r.UTCOffsetMinutes < -maxUTCOffset || r.UTCOffsetMinutes > maxUTCOffset {
		return Result{}, problem.InvalidField("utcOffsetMinutes", "The time zone offset is out of range.")
	}
	m, lists, err := s.drafts.Draft(ctx, actor, r.DraftInput)
	if err != nil {
		return Result{}, err
	}
	matcher, err := monitor.DraftMatcher(m, lists)
	if err != nil {
		return Result{}, err
	}
	to := s.now().UTC()
	from := to.Add(-time.Duration(days) * 24 * time.Hour)
	q := search.PostQuery{Tenant: actor.TenantID, From: from, To: to, Providers: m.Providers, ImagesOnly: m.ImagesOnly,
		VideosOnly: m.VideoOnly, Sort: post.SortPublishedDesc}
	if m.Keywords != "" {
		// The full-text index narrows to a superset of the matches; the matcher decides.
		q.Keywords, _ = query.Parse(m.Keywords, query.ModeSavedSearch)
	}
	return s.scan(ctx, matcher, q, time.FixedZone("", r.UTCOffsetMinutes*60))
}

// scan verifies the window's candidates newest first, until none are left or a bound is met.
func (s *Service) scan(ctx context.Context, matcher *percolate.Compiled, q search.PostQuery, zone *time.Location) (Result, error) {
	res := Result{Samples: []post.Post{}, From: q.From.Unix(), To: q.To.Unix()}
	perDay := map[string]int{}
	covered := q.From
	var verifiedTo time.Time // the publication time of the oldest candidate verified
	started := s.now()
	// One read of candidates can itself outlast the budget (a term in most posts, sorted by
	// time): the budget bounds the reads too, and a read it cuts short ends the scan.
	readCtx, cancel := context.WithDeadline(ctx, started.Add(s.budget))
	defer cancel()
	for {
		q.Limit = min(batch, s.maxCandidates-res.Scanned)
		candidates, err := s.store.CandidatePosts(readCtx, q)
		if err != nil && ctx.Err() == nil && readCtx.Err() != nil {
			// Every candidate newer than the last one verified was verified, and none before it.
			res.Truncated, covered = true, q.To
			if q.After != nil {
				covered = verifiedTo
			}
			break
		}
		if err != nil {
			return Result{}, err
		}
		for _, c := range candidates {
			res.Scanned++
			if matcher.Match(percolate.DocOf(c.Post), q.To) {
				res.Count++
				perDay[c.Post.PublishedAt.In(zone).Format(time.DateOnly)]++
				if len(res.Samples) < Samples {
					res.Samples = append(res.Samples, c.Post)
				}
			}
		}
		if len(candidates) < q.Limit {
			break
		}
		last := candidates[len(candidates)-1]
		verifiedTo = last.Post.PublishedAt
		if res.Scanned >= s.maxCandidates || s.now().Sub(started) >= s.budget {
			// Every candidate newer than the last one scanned was verified.
			res.Truncated, covered = true, last.Post.PublishedAt
			break
		}
		q.After = &last.Cursor
	}
	res.CoveredFrom = covered.Unix()
	span := max(q.To.Sub(covered), time.Minute)
	res.ExpectedPerDay = float64(res.Count) / (span.Hours() / 24)
	for d := covered.In(zone); ; d = d.AddDate(0, 0, 1) {
		date := d.Format(time.DateOnly)
		res.PerDay = append(res.PerDay, Day{Date: date, Count: perDay[date]})
		if date == q.To.In(zone).Format(time.DateOnly) {
			break
		}
	}
	return res, nil
}
