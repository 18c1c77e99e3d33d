package spike

import (
	"math"
	"math/rand/v2"
	"time"
)

// Profile is a simulated kind of post: a Poisson stream whose hourly rate follows the day and
// the week, grows slowly, and bursts at chosen times. The tests and `sightline bench spikes`
// replay detection on such series.
type Profile struct {
	// PerHour is the rate at the busiest hour of a weekday.
	PerHour float64
	// Night is the share of PerHour left at the quietest hour (1: no daily rhythm).
	Night float64
	// Weekend is the share of the weekday rate on Saturdays and Sundays.
	Weekend float64
	// GrowthPerWeek is the rate's growth a week (0.1: 10 % more each week).
	GrowthPerWeek float64
	Bursts        []Burst
}

// Burst multiplies the rate by Factor for Length from At.
type Burst struct {
	At     time.Time
	Length time.Duration
	Factor float64
}

// Rate is the expected number of posts an hour at t, for a series starting at start.
func (p Profile) Rate(start, t time.Time) float64 {
	night := p.Night
	if night == 0 {
		night = 1
	}
	hour := float64(t.Hour()) + float64(t.Minute())/60
	// Quietest at 04:00, busiest at 16:00.
	day := night + (1-night)*(1-math.Cos(2*math.Pi*(hour-4)/24))/2
	week := 1.0
	if wd := t.Weekday(); (wd == time.Saturday || wd == time.Sunday) && p.Weekend > 0 {
		week = p.Weekend
	}
	growth := math.Pow(1+p.GrowthPerWeek, t.Sub(start).Hours()/(24*7))
	rate := p.PerHour * day * week * growth
	for _, b := range p.Bursts {
		if !t.Before(b.At) && t.Before(b.At.Add(b.Length)) {
			rate *= b.Factor
		}
	}
	return rate
}

// Simulate draws a series of the profile's posts over the given time from start (a multiple of
// Slot), from rng.
func (p Profile) Simulate(start time.Time, length time.Duration, rng *rand.Rand) Series {
	s := Series{Start: start, Counts: make([]int64, int(length/Slot))}
	for i := range s.Counts {
		mid := s.at(i).Add(Slot / 2)
		s.Counts[i] = poisson(rng, p.Rate(start, mid)*Slot.Hours())
	}
	return s
}

// poisson draws a Poisson count of mean lambda: Knuth's product of uniforms for small means,
// the normal approximation beyond.
func poisson(rng *rand.Rand, lambda float64) int64 {
	if lambda > 60 {
		return max(0, int64(math.Round(lambda+math.Sqrt(lambda)*rng.NormFloat64())))
	}
	limit, prod, n := math.Exp(-lambda), rng.Float64(), int64(0)
	for prod > limit {
		prod *= rng.Float64()
		n++
	}
	return n
}
