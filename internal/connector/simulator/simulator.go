// Package simulator is the demo source that gives a fresh install a live, realistic stream:
// recurring authors on many providers writing in many languages, threads and boards, posts
// geotagged around real cities, photos and videos with detected objects, bursts around invented
// events, and some threatening content. Every post is marked as demo data.
package simulator

import (
	"context"
	"log/slog"
	"time"

	"github.com/sightline/sightline/internal/connector"
)

// Name is the source's name.
const Name = "simulator"

// Config configures the simulator.
type Config struct {
	Enabled bool `json:"enabled"`
	// Rate is posts per second.
	Rate float64 `json:"rate"`
	// Seed makes the stream repeatable; 0 picks one from the clock, so that restarts do not
	// repeat post ids.
	Seed uint64 `json:"seed"`
}

// DefaultConfig is on, at about five posts a second.
func DefaultConfig() Config {
	return Config{Enabled: true, Rate: 5}
}

// PostsPerSecond is the rate the simulator runs at: Rate, or the default's when unset.
func (c Config) PostsPerSecond() float64 {
	if c.Rate <= 0 {
		return DefaultConfig().Rate
	}
	return c.Rate
}

// Simulator is the demo source.
type Simulator struct {
	rate      float64
	generator *Generator
	status    *connector.Status
	backoff   connector.Backoff
}

// New returns a simulator.
func New(cfg Config) *Simulator {
	seed := cfg.Seed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	return &Simulator{rate: cfg.PostsPerSecond(), generator: NewGenerator(seed), status: connector.NewStatus(Name), backoff: connector.DefaultBackoff}
}

func (s *Simulator) Name() string { return Name }

func (s *Simulator) Stats() connector.Stats { return s.status.Stats() }

// Run emits posts at the configured rate until ctx ends. A post the pipeline does not take is
// offered again after a backoff, so the stream has no holes.
func (s *Simulator) Run(ctx context.Context, emit connector.EmitFunc) error {
	tick := time.NewTicker(time.Duration(float64(time.Second) / s.rate))
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
		p := s.generator.Next(time.Now())
		for attempt := 1; ; attempt++ {
			err := connector.Send(ctx, s.status, emit, p)
			if err == nil {
				break
			}
			if ctx.Err() != nil {
				return nil
			}
			s.status.Failed(err)
			wait := s.backoff.Delay(attempt)
			slog.Warn("simulator: the pipeline did not take a post", "err", err, "retry_in", wait)
			if connector.Sleep(ctx, wait) != nil {
				return nil
			}
		}
	}
}
