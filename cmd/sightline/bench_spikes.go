package main

import (
	"fmt"

	"github.com/sightline/sightline/internal/bench"
)

func benchSpikes(args []string) error {
	fs := benchFlagSet("bench spikes", "Replay spike detection on simulated weeks of posts with injected 3× bursts.")
	var cfg bench.SpikesConfig
	fs.IntVar(&cfg.Series, "series", 200, "simulated series (a saved search, provider or place each)")
	fs.IntVar(&cfg.Weeks, "weeks", 6, "simulated weeks per series")
	fs.IntVar(&cfg.BurstsPerWeek, "bursts-per-week", 2, "3× bursts of an hour injected per series and week")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "workload seed")
	if err := parseBenchFlags(fs, args); err != nil {
		return err
	}
	res := bench.Spikes(cfg)
	if err := report(res); err != nil {
		return err
	}
	if res.Recall < bench.SpikeRecallTarget || res.FalsePerSeriesWeek > bench.FalseSpikesPerWeek {
		return fmt.Errorf("spike detection misses its targets: recall %.3f, %.3f false spikes per series per week", res.Recall, res.FalsePerSeriesWeek)
	}
	return nil
}
