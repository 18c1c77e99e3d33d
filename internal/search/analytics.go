package search

import (
	"cmp"
	"context"
	"math"
	"time"

	"github.com/sightline/sightline/internal/percolate"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/provider"
)

// Analytics bounds. A search can match most of a million posts, more than can be read in the
// time a page waits: the analysis reads the newest matches for a while, then an even sample of
// the older ones, and scales the sample's counts up by its share.
const (
	WordCloudSize = 100
	DailyDays     = 7
	// maxAnalyzed bounds the candidates the reading of the newest matches reads.
	maxAnalyzed    = 20_000
	analyticsBatch = 500
	minWordRunes   = 3
)

// AnalyticsLimits bound the work of one analysis.
type AnalyticsLimits struct {
	// Newest bounds the reading of the newest matches, Sample the reading of the sample of the
	// older ones.
	Newest, Sample time.Duration
	// Total bounds the whole analysis: what the reading leaves of it is what counting the days
	// not reached may take.
	Total time.Duration
	// SampleSize is how many candidates the sample of the older matches aims at.
	SampleSize int
	// ReadTimeout, when set, bounds each read of candidates instead of what is left of its
	// budget, and counting the candidates to sample instead of fullTextCountBudget: tests on a
	// clock of their own set it, so that a busy machine's real one does not cut them short
	// (issue 26: a slow PostgreSQL count left the sample out).
	ReadTimeout time.Duration
}

// DefaultAnalyticsLimits answer within half a second. A sample of 3,000 is enough for the
// hundredth word of a cloud, used by one post in a hundred, to be counted within about a fifth.
func DefaultAnalyticsLimits() AnalyticsLimits {
	return AnalyticsLimits{Newest: 150 * time.Millisecond, Sample: 250 * time.Millisecond, Total: 450 * time.Millisecond,
		SampleSize: 3000}
}

// firstReadTimeout is what the first read of the newest matches may take whatever the budget:
// a busy node answers an analysis late rather than empty.
const firstReadTimeout = 5 * time.Second

// fullTextCountBudget bounds counting the candidates to sample; minSampled is the smallest
// sample that may stand for the older matches.
const (
	fullTextCountBudget = 100 * time.Millisecond
	minSampled          = 100
)

// Analytics is what a search's results are about: their most used words and how many there
// were each day of the last week.
type Analytics struct {
	WordCloud []WordCount `json:"wordCloud"`
	Daily     []DayCount  `json:"daily"`
	// Analyzed is how many matching posts were read: the newest, then Sampled of the older
	// ones, a SampleRate share of them, each counting for 1/SampleRate posts.
	Analyzed   int     `json:"analyzed"`
	Sampled    int     `json:"sampled"`
	SampleRate float64 `json:"sampleRate"`
	// Complete is true when the counts cover every matching post, read or sampled; false when
	// even the sample could not be read back to the window's start, and the word cloud is of
	// the posts published since Reached.
	Complete bool      `json:"complete"`
	Reached  time.Time `json:"reached"`
	// DailyIsEstimate is true when some day's count is estimated rather than counted.
	DailyIsEstimate bool `json:"dailyIsEstimate"`
}

// WordCount is a word and the number of matching posts that use it.
type WordCount struct {
	Word  string `json:"word"`
	Count int    `json:"count"`
}

// DayCount is the number of matching posts published on a UTC day (YYYY-MM-DD).
type DayCount struct {
	Date  string `json:"date"`
	Count int    `json:"count"`
}

// tally is what a reading counted among the matches it read, each match counting for the
// posts it stands for: 1, or 1/rate in a sample.
type tally struct {
	matched    int     // matches read
	standFor   float64 // the matching posts they stand for
	lowestRate float64 // of the reads
	daily      []float64
	words      map[string]*wordUse // by folded word
	posts      int                 // whose words were counted, numbering them for wordUse.last
	scratch    []byte              // a word's folded form, looked up (words.go)
}

func newTally(days int) *tally {
	return &tally{daily: make([]float64, days), words: map[string]*wordUse{}}
}

// add adds o's counts.
func (t *tally) add(o *tally) {
	t.matched += o.matched
	t.standFor += o.standFor
	for i, n := range o.daily {
		t.daily[i] += n
	}
	t.addWords(o)
}

// reading reads a search's candidates newest first, a batch at a time, and counts the matches.
type reading struct {
	s    *Service
	p    *prepared
	q    PostQuery
	days []time.Time
	// How far it went: the candidates read, the last one's time and position, and whether
	// the window's start was reached.
	scanned  int
	reached  time.Time
	last     *Cursor
	finished bool
}

// batch reads up to limit candidates after the last one read, those in the hash range, into
// t, each match counting for weight. A read that outlasts the time left is cut short and
// counts for nothing; ok is false then. (One read can take long: a word in most posts,
// sorted by time.)
func (r *reading) batch(ctx context.Context, left time.Duration, sample HashRange, limit int, weight float64, t *tally) (n int, ok bool, err error) {
	q := r.q
	q.After, q.Sample, q.Limit = r.last, sample, limit
	if r.s.analytics.ReadTimeout > 0 {
		left = r.s.analytics.ReadTimeout
	}
	readCtx, cancel := context.WithTimeout(ctx, left)
	defer cancel()
	candidates, err := r.s.store.CandidatePosts(readCtx, q)
	if err != nil && ctx.Err() == nil && readCtx.Err() != nil {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	for i, c := range candidates {
		r.scanned++
		r.reached, r.last = c.Post.PublishedAt, &candidates[i].Cursor
		if !r.p.compiled.Match(percolate.DocOf(c.Post), r.p.to) {
			continue
		}
		t.matched++
		t.standFor += weight
		if d := dayIndex(r.days, c.Post.PublishedAt); d >= 0 {
			t.daily[d] += weight
		}
		t.countWords(c.Post, weight)
	}
	r.finished = len(candidates) < limit
	return len(candidates), true, nil
}

// Analyze reads a search's matches for the word cloud and the daily graph: every match when
// they can be read in time; otherwise the newest, then an even sample of the older ones.
func (s *Service) Analyze(ctx context.Context, e provider.Entitlements, category provider.Category, r Request) (Analytics, error) {
	a, err := s.analyze(ctx, e, category, r)
	return a, unavailable(err)
}

func (s *Service) analyze(ctx context.Context, e provider.Entitlements, category provider.Category, r Request) (Analytics, error) {
	p, err := s.prepare(e, category, r)
	if err != nil {
		return Analytics{}, err
	}
	days := lastDays(p.to, DailyDays)
	rd := &reading{s: s, p: p, days: days, reached: p.to,
		q: PostQuery{Tenant: e.Tenant, Keywords: p.keywords, From: p.from, To: p.to, Providers: p.providers,
			ImagesOnly: r.ImagesOnly, VideosOnly: r.VideosOnly, MinThreat: r.MinThreatScore, Within: p.within,
			CommunityKinds: p.communities, DiscoveredFrom: p.crawledFrom, DiscoveredTo: p.crawledTo,
			Sort: post.SortPublishedDesc}}
	started := s.now()
	total := newTally(len(days))
	deadline := started.Add(s.analytics.Newest)
	for now, first := s.now(), true; !rd.finished && rd.scanned < maxAnalyzed && (first || now.Before(deadline)); now, first = s.now(), false {
		left := deadline.Sub(now)
		if first {
			left = max(left, firstReadTimeout)
		}
		if _, ok, err := rd.batch(ctx, left, HashRange{}, analyticsBatch, 1, total); err != nil {
			return Analytics{}, err
		} else if !ok {
			break
		}
	}
	newest := *rd
	newestTook := s.now().Sub(started)
	a := Analytics{SampleRate: 1}
	if !rd.finished && rd.scanned > 0 {
		sample, err := s.sampleOlder(ctx, rd, newestTook)
		if err != nil {
			return Analytics{}, err
		}
		if sample.lowestRate == 1 || sample.matched >= minSampled {
			total.add(sample)
			if sample.lowestRate < 1 && sample.matched > 0 {
				a.Sampled, a.SampleRate = sample.matched, float64(sample.matched)/sample.standFor
			}
		} else {
			*rd = newest // too few to stand for the older matches: left out
		}
	}
	a.Complete, a.Reached = rd.finished, rd.reached
	if rd.finished {
		a.Reached = p.from
	}
	a.Analyzed = total.matched
	a.DailyIsEstimate = !a.Complete || a.SampleRate < 1
	if !a.Complete && rd.scanned > 0 && !a.Reached.Before(days[0]) {
		left := s.analytics.Total - s.now().Sub(started)
		if err := s.estimateUnread(ctx, rd, total, left); err != nil {
			return Analytics{}, err
		}
	}
	a.WordCloud = topWords(total.words, WordCloudSize)
	a.Daily = make([]DayCount, len(days))
	for i, day := range days {
		a.Daily[i] = DayCount{Date: day.Format(time.DateOnly), Count: int(math.Round(total.daily[i]))}
	}
	return a, nil
}

// sampleOlder reads an even sample of the candidates older than the last one read, back to
// the window's start, for at most the sample budget, and counts each match for the posts it stands
// for. It reads newest first, a batch at a time, each at the rate that spreads what the time
// left can read (the sample size at most) over the candidates left: the samples of the batches'
// stretches of time add up, each post counting for 1/rate of its own batch. The candidates are
// counted in the full-text index; for a search without full text they are guessed from the
// newest: as many in the older time as in theirs.
func (s *Service) sampleOlder(ctx context.Context, rd *reading, newestTook time.Duration) (*tally, error) {
	older := rd.q
	older.To = rd.reached
	countCtx, cancel := context.WithTimeout(ctx, cmp.Or(s.analytics.ReadTimeout, fullTextCountBudget))
	n, ok, err := s.store.CountFullText(countCtx, older)
	cancel()
	switch {
	case err != nil && (ctx.Err() != nil || countCtx.Err() == nil):
		return nil, err
	case err != nil:
		// Too many to count in time, so to sample in time: nothing read, the newest stand.
		return newTally(len(rd.days)), nil
	case !ok:
		span := max(rd.p.to.Sub(rd.reached), time.Millisecond)
		n = int(float64(rd.scanned) * float64(rd.reached.Sub(rd.p.from)) / float64(span))
	}
	left := float64(max(n, 1))
	sample := newTally(len(rd.days))
	started := s.now()
	deadline := started.Add(s.analytics.Sample)
	// A sampled candidate costs more than one of the newest (the rows are far apart): a first
	// guess, then what the sample's own reads took.
	perRow := max(newestTook, time.Millisecond) * 3 / time.Duration(rd.scanned)
	read := 0
	for !rd.finished {
		now := s.now()
		if !now.Before(deadline) {
			break
		}
		if read > 0 {
			perRow = max(now.Sub(started)/time.Duration(read), time.Microsecond)
		}
		afford := float64(deadline.Sub(now)) / float64(perRow) * 0.8
		rate := min(1, min(afford, float64(s.analytics.SampleSize-read))/left)
		if rate <= 0 {
			break
		}
		got, ok, err := rd.batch(ctx, deadline.Sub(now), HashRange{0, rate}, max(analyticsBatch, int(afford)/2), 1/rate, sample)
		if err != nil || !ok {
			return sample, err
		}
		read += got
		left = max(left-float64(got)/rate, 1)
		sample.lowestRate = min(sample.lowestRate, rate)
	}
	return sample, nil
}

// estimateUnread adds to t's daily counts the days the reading did not reach: their
// candidates counted (in one pass), times the share of the read candidates that matched. When
// even the count would take longer than budget, the rate of the matches read is carried over
// instead.
func (s *Service) estimateUnread(ctx context.Context, rd *reading, t *tally, budget time.Duration) error {
	from := latest(rd.days[0], rd.p.from)
	// Up to just before the last post read: those at that instant were partly read.
	to := rd.reached.Add(-time.Millisecond)
	if to.Before(from) {
		return nil
	}
	cq := rd.q
	cq.From, cq.To = from, to
	countCtx, cancel := context.WithTimeout(ctx, max(budget, 0))
	counts, err := s.store.CountCandidatesByDay(countCtx, cq)
	cancel()
	matchedShare := float64(t.matched) / float64(rd.scanned)
	daily := t.daily
	switch {
	case err == nil:
		for i, day := range rd.days {
			daily[i] += float64(counts[day.Unix()/86400]) * matchedShare
		}
	case ctx.Err() == nil && countCtx.Err() != nil:
		var read float64
		for _, n := range daily {
			read += n
		}
		perMs := read / float64(max(rd.p.to.Sub(rd.reached).Milliseconds(), 1))
		for i, day := range rd.days {
			start, end := latest(day, from), earliestOf(day.Add(24*time.Hour), to)
			if end.After(start) {
				daily[i] += perMs * float64(end.Sub(start).Milliseconds())
			}
		}
	default:
		return err
	}
	return nil
}

// lastDays is the start of each of the n UTC days up to and including the one holding end,
// oldest first.
func lastDays(end time.Time, n int) []time.Time {
	last := end.UTC().Truncate(24 * time.Hour)
	days := make([]time.Time, n)
	for i := range days {
		days[i] = last.AddDate(0, 0, i-n+1)
	}
	return days
}

func latest(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func earliestOf(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

func dayIndex(days []time.Time, t time.Time) int {
	i := int(t.UTC().Sub(days[0]) / (24 * time.Hour))
	if t.Before(days[0]) || i >= len(days) {
		return -1
	}
	return i
}
