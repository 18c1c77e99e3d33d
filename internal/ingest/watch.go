package ingest

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/sightline/sightline/internal/stream"
)

// DefaultLagWarning is how many posts may wait on the stream for the storage stage before the
// pipeline counts as behind (--lag-warning): at the simulator's and public sources' rates, a
// backlog this long is minutes of posts, not a passing burst.
const DefaultLagWarning = 50_000

// fullWarning is the share of the stream's cap at which the stream counts as nearly full.
const fullWarning = 0.9

// Warning kinds.
const (
	WarningLag  = "pipeline-lag"
	WarningFull = "stream-full"
)

// Warning is something about the pipeline that tenant admins and operators are told of: in the
// ingest stats and on the top bar's sources badge.
type Warning struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

// Watch looks at the stream's health every interval and keeps the warnings it finds. It logs a
// warning when it appears and once more when it clears, never at every look.
type Watch struct {
	health     func(context.Context) (stream.Health, error)
	lagWarning uint64
	log        *slog.Logger

	mu       sync.Mutex
	warnings []Warning
}

// NewWatch watches what health reports; lagWarning is DefaultLagWarning when 0.
func NewWatch(health func(context.Context) (stream.Health, error), lagWarning uint64, log *slog.Logger) *Watch {
	if lagWarning == 0 {
		lagWarning = DefaultLagWarning
	}
	return &Watch{health: health, lagWarning: lagWarning, log: log, warnings: []Warning{}}
}

// Warnings are the warnings of the last look.
func (w *Watch) Warnings() []Warning {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.warnings)
}

// Run looks every interval until ctx ends.
func (w *Watch) Run(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if err := w.Check(ctx); err != nil && ctx.Err() == nil {
			w.log.Warn("pipeline watch: the stream's health", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Check looks once.
func (w *Watch) Check(ctx context.Context) error {
	h, err := w.health(ctx)
	if err != nil {
		return err
	}
	warnings := []Warning{}
	var lag uint64
	for _, c := range h.Consumers {
		if c.Name == StoreDurable {
			lag = c.Lag()
		}
	}
	if lag > w.lagWarning {
		warnings = append(warnings, Warning{Kind: WarningLag, Message: fmt.Sprintf("New posts are delayed: more "+
			"than %d are waiting to be stored and matched against saved searches.", w.lagWarning)})
	}
	if h.MaxBytes > 0 && float64(h.Bytes) >= fullWarning*float64(h.MaxBytes) {
		share := min(100, int(100*float64(h.Bytes)/float64(h.MaxBytes)))
		warnings = append(warnings, Warning{Kind: WarningFull, Message: fmt.Sprintf("The queue of posts waiting to "+
			"be stored is %d%% full; when it is full, new posts are refused until the pipeline catches up.", share)})
	}

	w.mu.Lock()
	before := w.warnings
	w.warnings = warnings
	w.mu.Unlock()
	find := func(ws []Warning, kind string) int {
		return slices.IndexFunc(ws, func(x Warning) bool { return x.Kind == kind })
	}
	for _, kind := range []string{WarningLag, WarningFull} {
		switch now, was := find(warnings, kind), find(before, kind); {
		case now >= 0 && was < 0:
			w.log.Warn("ingest pipeline: "+warnings[now].Message, "warning", kind, "lag", lag, "bytes", h.Bytes, "max_bytes", h.MaxBytes)
		case was >= 0 && now < 0:
			w.log.Info("ingest pipeline: the warning cleared", "warning", kind, "lag", lag, "bytes", h.Bytes, "max_bytes", h.MaxBytes)
		}
	}
	return nil
}
