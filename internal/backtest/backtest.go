// Package backtest previews a saved search before it is saved: it runs the draft, with the
// percolator's own matcher, over the posts already stored in a window and says how many it
// would have matched, per day, with the first of them (docs/monitor-api.md, "Backtest").
package backtest

import (
	"context"
	"math"
	"slices"
	"time"

	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/percolate"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/query"
	"github.com/sightline/sightline/internal/search"
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
	// Expected is what to expect a day, from the last ExpectedDays days.
	Expected Expectation `json:"expected"`
	// Backfill[d-1] is how many matches the last d days hold (24-hour periods up to To):
	// what saving the search with backfillDays d brings into its inbox. It has one entry a
	// day of the window, or when truncated, a whole day the scan covered.
	Backfill []int `json:"backfill"`
}

// ExpectedDays is how many recent days the expectation is drawn from.
const ExpectedDays = 7

// Expectation is the matches a day over the last days (24-hour periods up to the window's
// end): their mean and the fewest and most of one day. Days is how many it drew from: fewer
// than ExpectedDays when the window or a truncated scan covered fewer; with none whole, the
// mean is ExpectedPerDay and the range that rounded.
type Expectation struct {
	PerDay float64 `json:"perDay"`
	Low    int     `json:"low"`
	High   int     `json:"high"`
	Days   int     `json:"days"`
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
	q := candidates(m, actor.TenantID, s.now(), days)
	return s.scan(ctx, matcher, q, days, time.FixedZone("", r.UTCOffsetMinutes*60))
}

// candidates are the stored posts search m may match, newest first, among those of the last
// days up to now that a reader of tenant may see: the preview's and the backfill's.
func candidates(m monitor.Search, tenant int64, now time.Time, days int) search.PostQuery {
	to := now.UTC()
	q := search.PostQuery{Tenant: tenant, From: to.Add(-time.Duration(days) * day), To: to, Providers: m.Providers,
		ImagesOnly: m.ImagesOnly, VideosOnly: m.VideoOnly, Sort: post.SortPublishedDesc}
	if m.Keywords != "" {
		// The full-text index narrows to a superset of the matches; the matcher decides.
		q.Keywords, _ = query.Parse(m.Keywords, query.ModeSavedSearch)
	}
	return q
}

const day = 24 * time.Hour

// scan verifies the window's candidates newest first, until none are left or a bound is met.
func (s *Service) scan(ctx context.Context, matcher *percolate.Compiled, q search.PostQuery, days int, zone *time.Location) (Result, error) {
	res := Result{Samples: []post.Post{}, From: q.From.Unix(), To: q.To.Unix()}
	perDay := map[string]int{}
	daysBack := make([]int, days) // daysBack[i]: matches published i to i+1 days before q.To
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
				daysBack[min(int(q.To.Sub(c.Post.PublishedAt)/day), days-1)]++
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
	whole := days
	if res.Truncated {
		whole = int(q.To.Sub(covered) / day)
	}
	res.Expected = expect(daysBack[:whole], res.ExpectedPerDay)
	res.Backfill = make([]int, whole)
	for i, n := range daysBack[:whole] {
		res.Backfill[i] = n
		if i > 0 {
			res.Backfill[i] += res.Backfill[i-1]
		}
	}
	for d := covered.In(zone); ; d = d.AddDate(0, 0, 1) {
		date := d.Format(time.DateOnly)
		res.PerDay = append(res.PerDay, Day{Date: date, Count: perDay[date]})
		if date == q.To.In(zone).Format(time.DateOnly) {
			break
		}
	}
	return res, nil
}

// expect draws the expectation from the most recent of the whole days' counts, newest first;
// without any, from the rate of the part of a day covered.
func expect(daysBack []int, rate float64) Expectation {
	recent := daysBack[:min(len(daysBack), ExpectedDays)]
	if len(recent) == 0 {
		n := int(math.Round(rate))
		return Expectation{PerDay: rate, Low: n, High: n}
	}
	e := Expectation{Low: slices.Min(recent), High: slices.Max(recent), Days: len(recent)}
	total := 0
	for _, n := range recent {
		total += n
	}
	e.PerDay = float64(total) / float64(len(recent))
	return e
}
