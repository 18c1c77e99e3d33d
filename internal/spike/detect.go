// Package spike finds spikes in a saved search's matches: hours (and quarter hours) whose count
// of posts, by publication time, rises well above what that hour of the week usually brings
// (docs/spikes.md). Detection is a pure function of the counts, so every node, the API and the
// alerts agree on the same spikes, and the benchmark replays it on simulated series.
package spike

import (
	"math"
	"slices"
	"time"
)

// Slot is the grain of a series: counts are kept per quarter hour.
const Slot = 15 * time.Minute

const (
	slotsPerHour = int(time.Hour / Slot)
	slotsPerDay  = 24 * slotsPerHour
	slotsPerWeek = 7 * slotsPerDay
)

// Params tune detection; Defaults are the ones Sightline runs with and the benchmark measures.
type Params struct {
	// Weeks is how many past weeks give the baseline of an hour of the week; WeekSamples how
	// many hour windows (three a week: the hour and those either side) must lie in the history
	// before that baseline is used.
	Weeks, WeekSamples int
	// Days is how many past days give the fallback baseline, the search's overall rate at an
	// hour of the day, used while an hour of the week has too few samples (days of the same
	// kind, weekday or weekend, over twice as many days first); DaySamples how many hour windows
	// (three a day) must lie in the history.
	Days, DaySamples int
	// MinHistory is the history needed before anything is called a spike; it must give every
	// hour of the day DaySamples.
	MinHistory time.Duration
	// HourFloor and QuarterFloor are the absolute floors: a last hour (quarter hour) below
	// them is never a spike, however quiet the search usually is.
	HourFloor, QuarterFloor int64
	// Ratio is the relative floor: the count must be at least Ratio times the expected one.
	Ratio float64
	// Start and End are the hysteresis: a spike starts when the last hour's score reaches Start
	// (the last quarter hour's QuarterStart: its fewer posts are noisier) and ends when neither
	// window's score reaches End.
	Start, QuarterStart, End float64
	// Band is how many deviations either side of the expected count make its range.
	Band float64
}

// Defaults are the parameters Sightline detects with.
var Defaults = Params{
	Weeks: 4, WeekSamples: 8,
	Days: 7, DaySamples: 6,
	MinHistory:   3 * 24 * time.Hour,
	HourFloor:    10,
	QuarterFloor: 6,
	Ratio:        2,
	Start:        3.5,
	QuarterStart: 5,
	End:          2,
	Band:         2,
}

// Series is one kind of post's counts per Slot, the first at Start (a multiple of Slot).
type Series struct {
	Start  time.Time
	Counts []int64
}

// Found is a spike of a series: the slots [First, Last] were above their baseline.
type Found struct {
	Start, End time.Time
	Count      int64
	// Expected is the count the baseline expects over the spike; Low and High its range.
	Expected, Low, High float64
	// Score is the highest robust score a window reached during the spike.
	Score float64
}

// baseline is what a window of one hour is expected to hold: the median of its samples, and how
// much more than a Poisson count it varies (at least 1), widened by how little a median of
// few samples is to be trusted.
type baseline struct {
	median, spread float64
}

// score is how far a count x stands above the baseline's share of it (1 for an hour, 1/4 for a
// quarter), in deviations of the count's square root: Anscombe's transform, under which a
// Poisson count of any mean has unit variance, so quiet and busy searches share thresholds.
func (b baseline) score(x, share float64) float64 {
	return 2 * (math.Sqrt(x+3.0/8) - math.Sqrt(b.median*share+3.0/8)) / b.spread
}

// deviation is the standard deviation of a count whose expectation is m under the baseline.
func (b baseline) deviation(m float64) float64 { return math.Sqrt(max(m, 1)) * b.spread }

// series is a Series with its running sums, so any window's count is one subtraction.
type series struct {
	Series
	sums []int64 // sums[i] is the count of slots before i
}

// Detect finds the spikes of s whose windows end at or after from. Windows before from only
// serve as history, so a caller re-running detection over a recent stretch gets the same
// spikes for it.
func Detect(raw Series, from time.Time, p Params) []Found {
	s := series{Series: raw, sums: make([]int64, len(raw.Counts)+1)}
	for i, n := range raw.Counts {
		s.sums[i+1] = s.sums[i] + n
	}
	var out []Found
	var cur *Found
	lastHigh := 0 // the current spike's last quarter still above its share of the baseline
	for i := max(0, int(from.Sub(s.Start)/Slot)); i < len(s.Counts); i++ {
		b, ok := s.baseline(i, p)
		if !ok {
			continue
		}
		hour, q := float64(s.window(i, slotsPerHour)), float64(s.Counts[i])
		hourScore, qScore := b.score(hour, 1), b.score(q, quarter)
		if cur == nil {
			byHour := hour >= float64(p.HourFloor) && hour >= p.Ratio*b.median && hourScore >= p.Start
			byQuarter := s.Counts[i] >= p.QuarterFloor && q >= p.Ratio*b.median*quarter && qScore >= p.QuarterStart
			if !byHour && !byQuarter {
				continue
			}
			// The spike starts at the first quarter of the triggering window above its share.
			start := i
			if !byQuarter {
				start = max(i-slotsPerHour+1, 0)
				for start < i && b.score(float64(s.Counts[start]), quarter) < p.End {
					start++
				}
			}
			cur, lastHigh = &Found{Start: s.at(start)}, start
		} else if hourScore < p.End && qScore < p.End {
			out = append(out, s.finish(*cur, lastHigh, p))
			cur = nil
			continue
		}
		cur.Score = max(cur.Score, hourScore, qScore)
		if qScore >= p.End {
			lastHigh = i
		}
	}
	if cur != nil {
		out = append(out, s.finish(*cur, lastHigh, p))
	}
	return out
}

// quarter is a quarter hour's share of an hour's baseline.
var quarter = 1 / float64(slotsPerHour)

// finish ends a spike after its last quarter above the baseline (the quarters after it, kept
// open by the lagging hour window, are not part of it) and counts it against the expectation.
func (s series) finish(f Found, last int, p Params) Found {
	f.End = s.at(last + 1)
	var variance float64
	for j := s.index(f.Start); j <= last; j++ {
		f.Count += s.Counts[j]
		if b, ok := s.baseline(j, p); ok {
			m := b.median * quarter
			f.Expected += m
			sd := b.deviation(m)
			variance += sd * sd
		}
	}
	sd := math.Sqrt(variance)
	f.Low, f.High = max(0, f.Expected-p.Band*sd), f.Expected+p.Band*sd
	return f
}

func (s Series) at(i int) time.Time { return s.Start.Add(time.Duration(i) * Slot) }

func (s Series) index(t time.Time) int { return int(t.Sub(s.Start) / Slot) }

// window is the count of the n slots ending at i (those before the series' start count nothing).
func (s series) window(i, n int) int64 { return s.sums[i+1] - s.sums[max(0, i-n+1)] }

// baseline is the expected count of the hour ending at slot i: the same hour of the week over
// past weeks, each scaled by how the week before it compares with the week before i (so slow
// growth is not a spike); while too few weeks are known, the same hour of the day over past
// days of the same kind (weekdays or weekend days); while too few of those are, over every past
// day. False when the history is shorter than MinHistory.
func (s series) baseline(i int, p Params) (baseline, bool) {
	history := i + 1 - slotsPerHour // whole quarters known before this window
	if history < 0 || time.Duration(history)*Slot < p.MinHistory {
		return baseline{}, false
	}
	samples := s.samples(i, slotsPerWeek, p.Weeks, nil)
	if len(samples) >= p.WeekSamples {
		if now := s.weekBefore(i); now > 0 {
			for j := range samples {
				if then := s.weekBefore(i - (j+1)*slotsPerWeek); then > 0 {
					samples[j] *= min(max(float64(now)/float64(then), 0.5), 2)
				}
			}
		}
	} else {
		// A window is of the same kind when its first and last quarters are, so the hour that
		// turns Friday into Saturday is compared with such hours only.
		kind := func(e int) [2]bool { return [2]bool{isWeekend(s.at(e - slotsPerHour + 1)), isWeekend(s.at(e))} }
		now := kind(i)
		samples = s.samples(i, slotsPerDay, 2*p.Days, func(e int) bool { return kind(e) == now })
		if len(samples) < p.DaySamples {
			samples = s.samples(i, slotsPerDay, p.Days, nil)
		}
	}
	if len(samples) < p.DaySamples {
		return baseline{}, false
	}
	return robust(samples), true
}

// weekBefore is the count of the week before the hour ending at slot i, 0 when the series does
// not reach back that far.
func (s series) weekBefore(i int) int64 {
	end := i - slotsPerHour
	if end-slotsPerWeek+1 < 0 {
		return 0
	}
	return s.window(end, slotsPerWeek)
}

func isWeekend(t time.Time) bool { return t.Weekday() == time.Saturday || t.Weekday() == time.Sunday }

// samples are the hour windows ending n, 2n, ... k·n slots before i that lie in the series and
// that keep accepts (nil: all), each with the hours either side of it: three times the
// samples make a steadier median, and a day's rhythm changes little from one hour to the next.
func (s series) samples(i, n, k int, keep func(end int) bool) []float64 {
	var out []float64
	for j := 1; j <= k; j++ {
		end := i - j*n
		if end-slotsPerHour+1 < 0 {
			break
		}
		for _, e := range [3]int{end - slotsPerHour, end, end + slotsPerHour} {
			if e-slotsPerHour+1 >= 0 && e <= i-slotsPerHour && (keep == nil || keep(e)) {
				out = append(out, float64(s.window(e, slotsPerHour)))
			}
		}
	}
	return out
}

// robust is the samples' median and spread: their median absolute deviation, scaled to a
// normal's, against a Poisson count's square root (at least 1), widened by the standard error
// of a median of n samples (√(π/2n) of a deviation).
func robust(samples []float64) baseline {
	m := median(samples)
	dev := make([]float64, len(samples))
	for i, v := range samples {
		dev[i] = math.Abs(v - m)
	}
	over := max(1, 1.4826*median(dev)/math.Sqrt(max(m, 1)))
	return baseline{median: m, spread: over * math.Sqrt(1+math.Pi/(2*float64(len(samples))))}
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	v = slices.Clone(v)
	slices.Sort(v)
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return (v[n/2-1] + v[n/2]) / 2
}
