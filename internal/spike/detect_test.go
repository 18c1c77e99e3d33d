package spike_test

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/spike"
)

var monday = time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC)

// TestDetect replays simulated series (nights, weekends, slow growth, bursts) and checks which
// spikes come out: the bursts, once each, and nothing the usual rhythm explains.
func TestDetect(t *testing.T) {
	day := 24 * time.Hour
	week := 7 * day
	at := func(d, h int) time.Time { return monday.Add(time.Duration(d)*day + time.Duration(h)*time.Hour) }
	burst := func(t time.Time, length time.Duration, factor float64) []spike.Burst {
		return []spike.Burst{{At: t, Length: length, Factor: factor}}
	}
	tests := []struct {
		name    string
		profile spike.Profile
		length  time.Duration
		want    []time.Time // the bursts' starts, one spike each
	}{
		{"flat", spike.Profile{PerHour: 40}, 5 * week, nil},
		{"quiet nights", spike.Profile{PerHour: 120, Night: 0.05}, 5 * week, nil},
		{"quiet weekends", spike.Profile{PerHour: 80, Night: 0.3, Weekend: 0.2}, 5 * week, nil},
		// The first Monday after a first quiet weekend, on the fallback baseline, is no spike.
		{"weekends before an hour of the week is known", spike.Profile{PerHour: 80, Weekend: 0.2}, 10 * day, nil},
		{"slow growth", spike.Profile{PerHour: 60, Night: 0.4, GrowthPerWeek: 0.1}, 5 * week, nil},
		{"a quiet search's few posts", spike.Profile{PerHour: 0.5}, 5 * week, nil},
		{"a burst at noon", spike.Profile{PerHour: 50, Night: 0.2, Bursts: burst(at(30, 12), time.Hour, 3)},
			5 * week, []time.Time{at(30, 12)}},
		{"a burst on a Saturday", spike.Profile{PerHour: 100, Weekend: 0.3, Bursts: burst(at(33, 14), time.Hour, 3)},
			5 * week, []time.Time{at(33, 14)}},
		{"a burst in the first week, on the fallback baseline", spike.Profile{PerHour: 40, Night: 0.5,
			Bursts: burst(at(4, 15), time.Hour, 3)}, 6 * day, []time.Time{at(4, 15)}},
		{"a burst in a quiet night", spike.Profile{PerHour: 200, Night: 0.1, Bursts: burst(at(25, 3), time.Hour, 4)},
			5 * week, []time.Time{at(25, 3)}},
		{"a quarter hour's burst", spike.Profile{PerHour: 40, Bursts: burst(at(29, 10), spike.Slot, 8)},
			5 * week, []time.Time{at(29, 10)}},
		{"a burst of three hours is one spike", spike.Profile{PerHour: 40, Bursts: burst(at(29, 10), 3*time.Hour, 3)},
			5 * week, []time.Time{at(29, 10)}},
		{"a burst before the minimum history is history", spike.Profile{PerHour: 40, Bursts: burst(at(1, 12), time.Hour, 5)},
			2 * week, nil},
		{"a burst under the absolute floor", spike.Profile{PerHour: 1, Bursts: burst(at(29, 10), time.Hour, 5)},
			5 * week, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Poisson noise makes the odd false spike; the target is at most one per series and
			// week, and a row allows one over all its seeds' weeks.
			unexplained := 0
			for seed := range uint64(5) {
				s := tt.profile.Simulate(monday, tt.length, rand.New(rand.NewPCG(seed, 1)))
				found := spike.Detect(s, monday, spike.Defaults)
				for _, b := range tt.want {
					n := 0
					for _, f := range found {
						if f.Start.Before(b.Add(time.Hour)) && b.Before(f.End) {
							n++
						}
					}
					if n != 1 {
						t.Errorf("seed %d: %d spikes around the burst at %s, want 1: %+v", seed, n, b, found)
					}
				}
				for _, f := range found {
					var burst *spike.Burst
					for i, b := range tt.profile.Bursts {
						if f.Start.Before(b.At.Add(b.Length)) && b.At.Before(f.End) {
							burst = &tt.profile.Bursts[i]
						}
					}
					if burst == nil || !slices.Contains(tt.want, burst.At) {
						unexplained++
						continue
					}
					if f.Start.Before(burst.At.Add(-spike.Slot)) || f.End.After(burst.At.Add(burst.Length+time.Hour)) {
						t.Errorf("seed %d: spike %s–%s, want one within the burst at %s for %s", seed, f.Start, f.End, burst.At, burst.Length)
					}
					if float64(f.Count) <= f.High || f.Low > f.Expected || f.Expected > f.High || f.Score < spike.Defaults.Start {
						t.Errorf("seed %d: spike counts %d against %.1f in [%.1f, %.1f], score %.1f", seed, f.Count, f.Expected, f.Low, f.High, f.Score)
					}
				}
			}
			if unexplained > 1 {
				t.Errorf("%d spikes no burst explains over 5 seeds", unexplained)
			}
		})
	}
}

// TestDetectFlatNoise is the property that a flat noisy series, at any rate, makes no spike.
func TestDetectFlatNoise(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for range 40 {
		rate := 0.2 + rng.Float64()*400
		s := spike.Profile{PerHour: rate}.Simulate(monday, 4*7*24*time.Hour, rng)
		if found := spike.Detect(s, monday, spike.Defaults); len(found) > 0 {
			t.Errorf("%.1f posts an hour, flat: spikes %+v", rate, found)
		}
	}
}

// TestDetectFrom checks that detecting over a recent stretch finds the spikes of a whole run
// that end in it: the alerts' runs and the API see the same spikes.
func TestDetectFrom(t *testing.T) {
	prof := spike.Profile{PerHour: 50, Night: 0.3, Bursts: []spike.Burst{{At: monday.Add(20*24*time.Hour + 14*time.Hour), Length: time.Hour, Factor: 3}}}
	s := prof.Simulate(monday, 21*24*time.Hour, rand.New(rand.NewPCG(3, 3)))
	all := spike.Detect(s, monday, spike.Defaults)
	recent := spike.Detect(s, monday.Add(20*24*time.Hour), spike.Defaults)
	if len(all) != 1 || len(recent) != 1 || all[0] != recent[0] {
		t.Errorf("whole run %+v, recent day %+v; want the same one spike", all, recent)
	}
}
