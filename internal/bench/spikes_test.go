package bench

import "testing"

// A small replay of the spike benchmark meets the targets.
func TestSpikesSmall(t *testing.T) {
	res := Spikes(SpikesConfig{Series: 20, Weeks: 5, BurstsPerWeek: 2, Seed: 3})
	if res.Bursts < 100 || res.Recall < SpikeRecallTarget || res.FalsePerSeriesWeek > FalseSpikesPerWeek {
		t.Errorf("%+v: want recall ≥ %.2f and at most %.0f false spike per series-week", res, SpikeRecallTarget, FalseSpikesPerWeek)
	}
}
