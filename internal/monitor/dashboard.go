package monitor

import (
	"context"
	"slices"
	"time"

	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/post"
)

// The dashboard's windows (monitor-area.md section 2): top authors come from the most recent
// results; locations, the heatmap and the timeline from the last 30 UTC days, today included;
// new results from the last day.
const (
	DashboardRecentResults = 200
	DashboardDays          = 30
	DashboardNewWindow     = 24 * time.Hour
	DashboardTopN          = 10
	DashboardThreatTop     = 5
	DashboardSpikeDays     = 7
	DashboardSpikes        = 20
)

// Dashboard is every widget's data over a user's chosen searches, leaving out the matches the
// user deleted.
type Dashboard struct {
	ResultCount int64 `json:"resultCount"`
	UnreadCount int64 `json:"unreadCount"`
	// NewCount counts the results stored in the last DashboardNewWindow.
	NewCount int64 `json:"newCount"`
	// TopAuthors come from the DashboardRecentResults most recent results.
	TopAuthors   []AuthorCount   `json:"topAuthors"`
	TopProviders []ProviderCount `json:"topProviders"`
	// TopMentionedLocations are the places named in results of the last DashboardDays days.
	TopMentionedLocations []LocationCount `json:"topMentionedLocations"`
	// Heatmap counts the last DashboardDays days by UTC weekday and hour; empty cells are left out.
	Heatmap []HeatmapCell `json:"heatmap"`
	// Timeline counts results per UTC day and search over the last DashboardDays days.
	Timeline []TimelinePoint    `json:"timeline"`
	Threat   ThreatDistribution `json:"threat"`
	// Spikes are the searches' spikes of the last DashboardSpikeDays days, newest first, at
	// most DashboardSpikes (docs/spikes.md).
	Spikes []DashboardSpike `json:"spikes"`
}

// DashboardSpike is one spike on the dashboard: of a search, one of its data sources (kind
// provider) or one place its posts mention (kind place); times are Unix seconds.
type DashboardSpike struct {
	ID              int64   `json:"id"`
	MonitorSearchID int64   `json:"monitorSearchId"`
	Kind            string  `json:"kind"`
	Name            string  `json:"name"`
	Start           int64   `json:"start"`
	End             int64   `json:"end"`
	Count           int64   `json:"count"`
	Expected        float64 `json:"expected"`
	Score           float64 `json:"score"`
}

type AuthorCount struct {
	Name       string `json:"name"`
	ScreenName string `json:"screenName"`
	Provider   string `json:"provider"`
	Count      int64  `json:"count"`
}

type ProviderCount struct {
	Provider string `json:"provider"`
	Count    int64  `json:"count"`
}

type LocationCount struct {
	Name        string  `json:"name"`
	CountryCode string  `json:"countryCode"`
	Lat         float64 `json:"lat"`
	Lon         float64 `json:"lon"`
	Count       int64   `json:"count"`
}

// HeatmapCell counts results published on a weekday (0 Sunday) at an hour, in UTC.
type HeatmapCell struct {
	Weekday int   `json:"weekday"`
	Hour    int   `json:"hour"`
	Count   int64 `json:"count"`
}

// TimelinePoint counts a search's results published on a UTC day (YYYY-MM-DD).
type TimelinePoint struct {
	Date            string `json:"date"`
	MonitorSearchID int64  `json:"monitorSearchId"`
	Count           int64  `json:"count"`
}

type ThreatBucket struct {
	From  int   `json:"from"`
	To    int   `json:"to"`
	Count int64 `json:"count"`
}

// ThreatPost is one of the highest-scoring results with the reasons of its score.
type ThreatPost struct {
	MatchID         int64     `json:"matchId"`
	MonitorSearchID int64     `json:"monitorSearchId"`
	Score           int       `json:"score"`
	Reasons         []string  `json:"reasons"`
	Post            post.Post `json:"post"`
}

type ThreatDistribution struct {
	Buckets []ThreatBucket `json:"buckets"`
	Top     []ThreatPost   `json:"top"`
}

// Dashboard is the dashboard over the actor's visible searches of searchIDs (all when empty);
// ids the actor cannot see are left out, as the inbox does.
func (s *Service) Dashboard(ctx context.Context, actor authz.Actor, searchIDs []int64) (Dashboard, error) {
	edit, _, err := s.visible(ctx, actor)
	if err != nil {
		return Dashboard{}, err
	}
	d, err := s.inbox.Dashboard(ctx, actor.UserID, scope(edit, searchIDs), s.now())
	if err != nil {
		return Dashboard{}, err
	}
	// What names or shows posts of providers the actor's subscriptions no longer reach leaves
	// the lists; the kept per-search counts (totals, heatmap, timeline, threat distribution,
	// places) do not say which provider they are of, and still count them.
	d.TopProviders = slices.DeleteFunc(d.TopProviders, func(p ProviderCount) bool { return !authz.CanSeeProvider(actor, p.Provider) })
	d.TopAuthors = slices.DeleteFunc(d.TopAuthors, func(a AuthorCount) bool { return !authz.CanSeeProvider(actor, a.Provider) })
	d.Threat.Top = slices.DeleteFunc(d.Threat.Top, func(t ThreatPost) bool { return !authz.CanSeeProvider(actor, t.Post.Provider) })
	return d, nil
}
