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
