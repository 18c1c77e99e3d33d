package ingest

import (
	"context"
	"sort"
	"time"

	"github.com/sightline/sightline/internal/connector"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/stream"
)

// StatsStore is what the stats read from the store.
type StatsStore interface {
	CountConnectorPosts(ctx context.Context, tenantID int64, since time.Time) (total, recent map[string]int64, err error)
	CountSourcePosts(ctx context.Context, tenantID, userID int64, since time.Time) ([]store.SourceCount, error)
}

// ProviderStats are one provider's stored posts and recent rate.
type ProviderStats struct {
	Provider string `json:"provider"`
	Count    int64  `json:"count"`
	// PerMinute is the rate over the last five minutes.
	PerMinute float64 `json:"perMinute"`
}

// SourceStats are the stored posts one ingest source (an API token's name, of one user) pushed.
type SourceStats struct {
	Source    string  `json:"source"`
	UserID    int64   `json:"userId"`
	Count     int64   `json:"count"`
	PerMinute float64 `json:"perMinute"`
}

// Stats is the state of ingestion as one tenant may see it: what is stored, how fast it comes,
// the tenant's connectors and ingest sources, and the shared pipeline's health. Nothing in it
// names or counts another tenant's sources: the totals count the connectors' posts and the
// tenant's own ingested ones. An operator's stats hold only their own sources' posts (the totals
// and providers count those) and leave out the connectors and the pipeline.
type Stats struct {
	TotalPosts int64             `json:"totalPosts"`
	Providers  []ProviderStats   `json:"providers"`
	Sources    []SourceStats     `json:"sources"`
	Connectors []connector.Stats `json:"connectors,omitzero"`
	// PipelineLag is how many posts are on the stream but not yet stored.
	PipelineLag *uint64 `json:"pipelineLag,omitzero"`
	// Consumers is each stage's lag; DeadLettered counts the posts a stage gave up on, kept in
	// the dead-letter stream for inspection.
	Consumers    []stream.ConsumerLag `json:"consumers,omitzero"`
	DeadLettered *uint64              `json:"deadLettered,omitzero"`
	// Warnings say when the pipeline is behind or its stream nearly full (Watch).
	Warnings []Warning `json:"warnings"`
}

// Scope says whose figures CollectStats gathers.
type Scope struct {
	// TenantID is the caller's tenant: only its sources are counted and named.
	TenantID int64
	// UserID limits the figures to the posts this user pushed; 0 is the whole tenant's.
	UserID int64
}

// StatsSources are where the figures beyond the store come from.
type StatsSources struct {
	// Connectors are the node's own sources, shared by every tenant (the simulator).
	Connectors []connector.Stats
	// Managed reports the tenant's own sources.
	Managed func(ctx context.Context, tenantID int64) ([]connector.Stats, error)
	// Health reports the stream's consumers and dead letters.
	Health func(context.Context) (stream.Health, error)
	// Warnings are the pipeline watch's (none when nil).
	Warnings func() []Warning
}

const rateWindow = 5 * time.Minute

// CollectStats gathers the stats for scope.
func CollectStats(ctx context.Context, st StatsStore, scope Scope, from StatsSources) (Stats, error) {
	since := time.Now().Add(-rateWindow)
	sources, err := st.CountSourcePosts(ctx, scope.TenantID, scope.UserID, since)
	if err != nil {
		return Stats{}, err
	}
	stats := Stats{Providers: []ProviderStats{}, Sources: []SourceStats{}, Warnings: []Warning{}}
	if from.Warnings != nil {
		stats.Warnings = from.Warnings()
	}
	type sourceKey struct {
		user   int64
		source string
	}
	bySource := map[sourceKey]*SourceStats{}
	for _, c := range sources {
		k := sourceKey{c.UserID, c.Source}
		if bySource[k] == nil {
			bySource[k] = &SourceStats{Source: c.Source, UserID: c.UserID}
		}
		bySource[k].Count += c.Count
		bySource[k].PerMinute += float64(c.Recent) / rateWindow.Minutes()
	}
	for _, s := range bySource {
		stats.Sources = append(stats.Sources, *s)
	}
	sort.Slice(stats.Sources, func(i, j int) bool { return stats.Sources[i].Count > stats.Sources[j].Count })

	total, recent := map[string]int64{}, map[string]int64{}
	if scope.UserID == 0 {
		if total, recent, err = st.CountConnectorPosts(ctx, scope.TenantID, since); err != nil {
			return Stats{}, err
		}
	}
	for _, c := range sources {
		total[c.Provider] += c.Count
		recent[c.Provider] += c.Recent
	}
	stats.setProviders(total, recent)
	if scope.UserID != 0 {
		return stats, nil
	}

	stats.Connectors = append([]connector.Stats{}, from.Connectors...)
	if from.Managed != nil {
		managed, err := from.Managed(ctx, scope.TenantID)
		if err != nil {
			return Stats{}, err
		}
		stats.Connectors = append(stats.Connectors, managed...)
	}
	if from.Health != nil {
		h, err := from.Health(ctx)
		if err != nil {
			return Stats{}, err
		}
		for _, c := range h.Consumers {
			if c.Name == StoreDurable {
				lag := c.Lag()
				stats.PipelineLag = &lag
			}
		}
		stats.Consumers, stats.DeadLettered = h.Consumers, &h.DeadLettered
	}
	return stats, nil
}

func (s *Stats) setProviders(count, recent map[string]int64) {
	for provider, n := range count {
		s.TotalPosts += n
		s.Providers = append(s.Providers, ProviderStats{Provider: provider, Count: n,
			PerMinute: float64(recent[provider]) / rateWindow.Minutes()})
	}
	sort.Slice(s.Providers, func(i, j int) bool { return s.Providers[i].Count > s.Providers[j].Count })
}

// Kinds of built-in source.
const (
	BuiltInNode   = "node"   // one of the node's own sources (the simulator), shared by every tenant
	BuiltInIngest = "ingest" // a name the tenant's API tokens push posts under (/api/v1/ingest)
)

// States of a built-in source.
const (
	BuiltInRunning = "running" // emitting (the node's own) or pushed posts in the last hour (ingest)
	BuiltInFailing = "failing" // the node's own source's last round failed
	BuiltInIdle    = "idle"    // an ingest source with no post in the last hour
)

// NodeSource is one of the node's own sources as it runs: its status and the rate it is
// configured to emit at, in posts per second.
type NodeSource struct {
	Stats connector.Stats
	Rate  float64
}

// BuiltInSource is a source that is not a row of the sources table, listed read-only with the
// tenant's sources: flags configure the node's own, API tokens push the ingest ones.
type BuiltInSource struct {
	Kind string `json:"kind"`
	Name string `json:"name"`
	// UserID is whose token pushes an ingest source's posts (0 for the node's own).
	UserID int64  `json:"userId,omitempty"`
	State  string `json:"state"`
	// RatePerSecond is the node's own source's configured rate; null for an ingest source, whose
	// pace is its pusher's.
	RatePerSecond *float64 `json:"ratePerSecond"`
	// ItemsLastHour are the ingest source's posts stored in the last hour; null for the node's
	// own, whose status counts since the node started (Count) and not by the hour.
	ItemsLastHour *int64 `json:"itemsLastHour"`
	// Count is what the node's own source emitted since the node started, or every post an
	// ingest source has stored.
	Count       int64     `json:"count"`
	LastSuccess time.Time `json:"lastSuccess,omitzero"`
	LastError   string    `json:"lastError,omitempty"`
}

// BuiltInSources lists the node's own sources (every tenant sees them: they feed everyone) and
// the ingest sources of tenantID only, busiest first.
func BuiltInSources(ctx context.Context, st StatsStore, tenantID int64, node []NodeSource, now time.Time) ([]BuiltInSource, error) {
	out := make([]BuiltInSource, 0, len(node))
	for _, n := range node {
		rate := n.Rate
		s := BuiltInSource{Kind: BuiltInNode, Name: n.Stats.Source, State: BuiltInRunning, RatePerSecond: &rate,
			Count: n.Stats.Count, LastSuccess: n.Stats.LastSuccess}
		if n.Stats.Failures > 0 {
			s.State, s.LastError = BuiltInFailing, connector.RedactText(n.Stats.LastError)
		}
		out = append(out, s)
	}
	counts, err := st.CountSourcePosts(ctx, tenantID, 0, now.Add(-time.Hour))
	if err != nil {
		return nil, err
	}
	// The store counts by provider too; a source is its user and name.
	type key struct {
		user int64
		name string
	}
	index := map[key]int{}
	var pushed []BuiltInSource
	for _, c := range counts {
		k := key{c.UserID, c.Source}
		i, seen := index[k]
		if !seen {
			i = len(pushed)
			index[k] = i
			pushed = append(pushed, BuiltInSource{Kind: BuiltInIngest, Name: c.Source, UserID: c.UserID,
				ItemsLastHour: new(int64)})
		}
		pushed[i].Count += c.Count
		*pushed[i].ItemsLastHour += c.Recent
	}
	for i := range pushed {
		pushed[i].State = BuiltInIdle
		if *pushed[i].ItemsLastHour > 0 {
			pushed[i].State = BuiltInRunning
		}
	}
	sort.SliceStable(pushed, func(i, j int) bool { return *pushed[i].ItemsLastHour > *pushed[j].ItemsLastHour })
	return append(out, pushed...), nil
}
