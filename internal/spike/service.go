package spike

import (
	"cmp"
	"context"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/assistant"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/post"
)

// Series names: the whole search, one data source, one mentioned place.
const (
	SeriesSearch   = ""
	providerPrefix = "provider:"
	placePrefix    = "place:"
)

// ProviderSeries and PlaceSeries name the series of one data source and one mentioned place.
func ProviderSeries(provider string) string { return providerPrefix + provider }
func PlaceSeries(name, countryCode string) string {
	return placePrefix + name + "|" + countryCode
}

// Spike is a stored spike of a saved search's series.
type Spike struct {
	ID       int64
	SearchID int64
	Series   string
	Found
	// StoryIDs are the stories with most posts in the spike, most first; Samples some of
	// their posts.
	StoryIDs   []string
	Samples    []Sample
	DetectedAt time.Time
}

// Sample is one post behind a spike, as its list shows it.
type Sample struct {
	PostID      string    `json:"postId"`
	StoryID     string    `json:"storyId"`
	Provider    string    `json:"provider"`
	Author      string    `json:"author"`
	Text        string    `json:"text"`
	URL         string    `json:"url"`
	PublishedAt time.Time `json:"publishedAt"`
}

// Bounds of detection.
const (
	// Lookback is the stretch each run detects over: spikes ending in it are written again
	// with their latest figures; older ones stay as they were.
	Lookback = 24 * time.Hour
	// Every is how often a node detects.
	Every = time.Minute
	// maxStories and maxSamples bound what a spike names; postsRead the posts read to find them.
	maxStories, maxSamples, postsRead = 5, 5, 500
)

// Store keeps the counts spikes are found in and the spikes.
type Store interface {
	// SpikeSeries are the search's counts per quarter hour of publication from since to now,
	// by series.
	SpikeSeries(ctx context.Context, searchID int64, since, now time.Time) (map[string]Series, error)
	// SpikePosts are up to limit of the search's matched posts published in [from, to) of a
	// series, newest first.
	SpikePosts(ctx context.Context, searchID int64, series string, from, to time.Time, limit int) ([]post.Post, error)
	// SaveSpikes writes spikes by search, series and start: new ones are added, known ones
	// updated. It returns the new ones, with their ids.
	SaveSpikes(ctx context.Context, spikes []Spike) ([]Spike, error)
	// Spikes are the search's spikes overlapping [from, to), oldest first.
	Spikes(ctx context.Context, searchID int64, from, to time.Time) ([]Spike, error)
	Searches(ctx context.Context, organizationID int64) ([]monitor.Search, error)
}

// Searches checks a reader's access to a saved search (*monitor.Service).
type Searches interface {
	Search(ctx context.Context, actor authz.Actor, id int64) (monitor.SearchView, error)
}

// Service detects, keeps and lists spikes.
type Service struct {
	Store    Store
	Searches Searches
	Params   Params
	Logger   *slog.Logger
	Now      func() time.Time
	// Found is told of new spikes after each run (the spike alerts); nil tells no one.
	Found func(ctx context.Context, spikes []Spike)
}

// MaxRange bounds the span one request lists spikes of.
const MaxRange = 31 * 24 * time.Hour

// List is the search's spikes overlapping [from, to) for a reader of the search: another
// organization's search is not found.
func (s *Service) List(ctx context.Context, actor authz.Actor, searchID int64, from, to time.Time) ([]Spike, error) {
	if _, err := s.Searches.Search(ctx, actor, searchID); err != nil {
		return nil, err
	}
	return s.Store.Spikes(ctx, searchID, from, to)
}

// Run detects every Every until ctx ends.
func (s *Service) Run(ctx context.Context) error {
	t := time.NewTicker(Every)
	defer t.Stop()
	for {
		if err := s.DetectAll(ctx); err != nil && ctx.Err() == nil {
			s.Logger.Warn("spikes: detect", "err", err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
}

// DetectAll detects the spikes of every enabled saved search and tells Found of new ones.
func (s *Service) DetectAll(ctx context.Context) error {
	searches, err := s.Store.Searches(ctx, 0)
	if err != nil {
		return err
	}
	now := s.Now().UTC()
	var found []Spike
	for _, m := range searches {
		if !m.Enabled {
			continue
		}
		added, err := s.Detect(ctx, m.ID, now)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			s.Logger.Warn("spikes: detect a search's spikes", "search", m.ID, "err", err)
		}
		found = append(found, added...)
	}
	if len(found) > 0 && s.Found != nil {
		s.Found(ctx, found)
	}
	return nil
}

// Detect finds the search's spikes ending in the last Lookback before now, names the stories
// and posts behind them and saves them; it returns the new ones.
func (s *Service) Detect(ctx context.Context, searchID int64, now time.Time) ([]Spike, error) {
	p := s.Params
	if p == (Params{}) {
		p = Defaults
	}
	history := time.Duration(p.Weeks*7+1) * 24 * time.Hour
	series, err := s.Store.SpikeSeries(ctx, searchID, now.Add(-history), now)
	if err != nil {
		return nil, err
	}
	var spikes []Spike
	for _, name := range slices.Sorted(mapKeys(series)) {
		for _, f := range Detect(series[name], now.Add(-Lookback), p) {
			sp := Spike{SearchID: searchID, Series: name, Found: f, DetectedAt: now}
			posts, err := s.Store.SpikePosts(ctx, searchID, name, f.Start, f.End, postsRead)
			if err != nil {
				return nil, err
			}
			sp.StoryIDs, sp.Samples = behind(posts)
			spikes = append(spikes, sp)
		}
	}
	if len(spikes) == 0 {
		return nil, nil
	}
	return s.Store.SaveSpikes(ctx, spikes)
}

// behind are the stories with most of the posts, most first, and a sample of posts: the
// newest of each of those stories in turn.
func behind(posts []post.Post) ([]string, []Sample) {
	counts := map[string]int{}
	for _, p := range posts {
		counts[storyOf(p)]++
	}
	stories := slices.SortedFunc(mapKeys(counts), func(a, b string) int {
		return cmp.Or(cmp.Compare(counts[b], counts[a]), strings.Compare(a, b))
	})
	stories = stories[:min(len(stories), maxStories)]
	samples := []Sample{}
	for _, id := range stories {
		for _, p := range posts {
			if storyOf(p) == id && len(samples) < maxSamples {
				samples = append(samples, SampleOf(p))
				break
			}
		}
	}
	return stories, samples
}

// storyOf is the post's story: its own id for a post stored before stories.
func storyOf(p post.Post) string { return cmp.Or(p.StoryID, p.ID) }

// SampleOf is a post as a spike or trend shows it.
func SampleOf(p post.Post) Sample {
	return Sample{PostID: p.ID, StoryID: storyOf(p), Provider: p.Provider, Author: cmp.Or(p.AuthorName, p.AuthorScreenName),
		Text: assistant.Excerpt(assistant.Text(p), 280), URL: p.PostLink, PublishedAt: p.PublishedAt.UTC()}
}

// InSeries says whether a post belongs to a series of its search.
func InSeries(p post.Post, series string) bool {
	switch {
	case series == SeriesSearch:
		return true
	case strings.HasPrefix(series, providerPrefix):
		return p.Provider == strings.TrimPrefix(series, providerPrefix)
	case strings.HasPrefix(series, placePrefix):
		for _, l := range p.MentionedLocations {
			if PlaceSeries(l.Name, l.CountryCode) == series {
				return true
			}
		}
	}
	return false
}

// Describe is a series for people: its kind (search, provider, place) and name.
func Describe(series string) (kind, name string) {
	switch {
	case strings.HasPrefix(series, providerPrefix):
		return "provider", strings.TrimPrefix(series, providerPrefix)
	case strings.HasPrefix(series, placePrefix):
		name, _, _ = strings.Cut(strings.TrimPrefix(series, placePrefix), "|")
		return "place", name
	}
	return "search", ""
}

func mapKeys[K comparable, V any](m map[K]V) func(func(K) bool) {
	return func(yield func(K) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}
