// Package rss reads RSS 2.0, RSS 1.0 and Atom feeds: news sites, blogs and YouTube channel
// feeds, with their GeoRSS and W3C geo points. Each feed is its own source with its own
// cursor, polled with conditional requests.
package rss

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/sightline/sightline/internal/connector"
	"github.com/sightline/sightline/internal/outbound"
	"github.com/sightline/sightline/internal/provider"
)

// Feed configures one feed.
type Feed struct {
	// Name identifies the feed among the sources ("rss:" + Name) and keys its cursor.
	Name string `json:"name"`
	URL  string `json:"url"`
	// Provider is the provider its posts carry: news (the default), blogs or youtube.
	Provider string `json:"provider"`
	// Interval overrides the configuration's poll interval for this feed.
	Interval connector.Duration `json:"interval,omitzero"`
}

// Config configures the feeds.
type Config struct {
	Enabled  bool               `json:"enabled"`
	Feeds    []Feed             `json:"feeds"`
	Interval connector.Duration `json:"interval"`
	Backoff  connector.Backoff  `json:"backoff"`
}

// DefaultConfig polls every five minutes, with no feeds until some are configured.
func DefaultConfig() Config {
	return Config{Interval: connector.Duration(5 * time.Minute), Backoff: connector.DefaultBackoff}
}

// maxFeedSize bounds a feed document.
const maxFeedSize = 16 << 20

// maxSeen bounds the item keys kept in the cursor; a feed holds far fewer items than this.
const maxSeen = 2_000

// Source polls one feed.
type Source struct {
	feed     Feed
	base     *url.URL
	interval time.Duration
	backoff  connector.Backoff
	client   *outbound.Client
	cursors  connector.CursorStore
	status   *connector.Status
	sleep    func(context.Context, time.Duration) error
}

// New returns the source of one feed of cfg.
func New(feed Feed, cfg Config, cursors connector.CursorStore, client *outbound.Client) (*Source, error) {
	if feed.Name == "" || feed.URL == "" {
		return nil, fmt.Errorf("rss: a feed needs a name and a url")
	}
	// The feed's address is also the base its items' relative links are resolved against.
	base, err := url.Parse(feed.URL)
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return nil, fmt.Errorf("rss: feed %s: %q is not an absolute http or https URL", feed.Name, outbound.RedactURL(feed.URL))
	}
	if feed.Provider == "" {
		feed.Provider = "news"
	}
	if !provider.Known(feed.Provider) {
		return nil, fmt.Errorf("rss: feed %s: provider %q is not a known provider", feed.Name, feed.Provider)
	}
	interval := time.Duration(cfg.Interval)
	if feed.Interval > 0 {
		interval = time.Duration(feed.Interval)
	}
	s := &Source{feed: feed, base: base, interval: interval, backoff: cfg.Backoff, client: client, cursors: cursors}
	s.status = connector.NewStatus(s.Name())
	return s, nil
}

func (s *Source) Name() string { return "rss:" + s.feed.Name }

func (s *Source) Stats() connector.Stats { return s.status.Stats() }

// cursor is what the source keeps between polls: the validators for a conditional request and
// the keys of the items already emitted that the feed still lists.
type cursor struct {
	ETag         string   `json:"etag,omitempty"`
	LastModified string   `json:"lastModified,omitempty"`
	Seen         []string `json:"seen,omitempty"`
}

// Run polls the feed until ctx ends.
func (s *Source) Run(ctx context.Context, emit connector.EmitFunc) error {
	var cur cursor
	poller := connector.Poller{Status: s.status, Backoff: s.backoff, Interval: s.interval, Sleep: s.sleep}
	return poller.RunWithCursor(ctx, s.cursors, s.Name(), &cur, func(ctx context.Context) error {
		return s.poll(ctx, emit, &cur)
	})
}

// poll fetches the feed once and emits the items not seen before, oldest first.
func (s *Source) poll(ctx context.Context, emit connector.EmitFunc, cur *cursor) error {
	header := http.Header{"Accept": {"application/rss+xml, application/atom+xml, application/xml;q=0.9, */*;q=0.8"}}
	if cur.ETag != "" {
		header.Set("If-None-Match", cur.ETag)
	}
	if cur.LastModified != "" {
		header.Set("If-Modified-Since", cur.LastModified)
	}
	resp, err := connector.Get(ctx, s.client, s.feed.URL, header)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotModified {
		return nil
	}
	body, err := outbound.ReadAll(resp.Body, maxFeedSize)
	if err != nil {
		return fmt.Errorf("reading %s: %w", outbound.RedactURL(s.feed.URL), err)
	}
	entries, err := parse(body, s.base, s.feed.Provider, time.Now())
	if err != nil {
		return fmt.Errorf("%s: %w", outbound.RedactURL(s.feed.URL), err)
	}
	// Emit in publication order so the stream reads like the feed's history.
	slices.SortStableFunc(entries, func(a, b entry) int { return a.post.PublishedAt.Compare(b.post.PublishedAt) })

	seen := map[string]bool{}
	for _, k := range cur.Seen {
		seen[k] = true
	}
	var stillListed []string
	complete := false
	defer func() {
		if complete {
			// Keep only keys the feed still lists: older ones cannot come back.
			cur.Seen = stillListed
		} else {
			// Stopped part-way: the items not reached yet may still be in the old keys.
			cur.Seen = slices.Collect(maps.Keys(seen))
		}
		cur.Seen = cur.Seen[max(0, len(cur.Seen)-maxSeen):]
	}()
	for _, e := range entries {
		if seen[e.key] {
			stillListed = append(stillListed, e.key)
			continue
		}
		if e.malformed != nil {
			s.status.Skipped(fmt.Errorf("item %s: %w", e.key, e.malformed))
		} else if err := connector.Send(ctx, s.status, emit, e.post); err != nil {
			return err
		}
		seen[e.key] = true
		stillListed = append(stillListed, e.key)
	}
	complete = true
	cur.ETag = resp.Header.Get("ETag")
	cur.LastModified = resp.Header.Get("Last-Modified")
	return nil
}
