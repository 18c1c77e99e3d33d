package ingest

import (
	"context"
	"sort"
	"time"

	"github.com/sightline/sightline/internal/connector"
)

// StatsStore is what the stats read from the store.
type StatsStore interface {
	CountPosts(ctx context.Context) (int64, map[string]int64, error)
	CountPostsDiscoveredSince(ctx context.Context, t time.Time) (map[string]int64, error)
}

// ProviderStats are one provider's stored posts and recent rate.
type ProviderStats struct {
	Provider string `json:"provider"`
	Count    int64  `json:"count"`
	// PerMinute is the rate over the last five minutes.
	PerMinute float64 `json:"perMinute"`
}

// Stats is the state of ingestion: what is stored, how fast it comes, and each connector.
type Stats struct {
	TotalPosts int64             `json:"totalPosts"`
	Providers  []ProviderStats   `json:"providers"`
	Connectors []connector.Stats `json:"connectors"`
	// PipelineLag is how many posts are on the stream but not yet stored.
	PipelineLag uint64 `json:"pipelineLag"`
}

const rateWindow = 5 * time.Minute

// CollectStats gathers the stats.
func CollectStats(ctx context.Context, st StatsStore, connectors []connector.Stats, lag func(context.Context) (uint64, error)) (Stats, error) {
	total, byProvider, err := st.CountPosts(ctx)
	if err != nil {
		return Stats{}, err
	}
	recent, err := st.CountPostsDiscoveredSince(ctx, time.Now().Add(-rateWindow))
	if err != nil {
		return Stats{}, err
	}
	stats := Stats{TotalPosts: total, Providers: []ProviderStats{}, Connectors: connectors}
	if stats.Connectors == nil {
		stats.Connectors = []connector.Stats{}
	}
	for provider, n := range byProvider {
		stats.Providers = append(stats.Providers, ProviderStats{Provider: provider, Count: n,
			PerMinute: float64(recent[provider]) / rateWindow.Minutes()})
	}
	sort.Slice(stats.Providers, func(i, j int) bool { return stats.Providers[i].Count > stats.Providers[j].Count })
	if lag != nil {
		if stats.PipelineLag, err = lag(ctx); err != nil {
			return Stats{}, err
		}
	}
	return stats, nil
}
