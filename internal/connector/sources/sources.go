// Package sources is the one configuration of every content source and what turns it into
// running sources: which are on, their addresses, rates and credentials.
package sources

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/netip"
	"sync"
	"time"

	"github.com/sightline/sightline/internal/connector"
	"github.com/sightline/sightline/internal/connector/bluesky"
	"github.com/sightline/sightline/internal/connector/gdelt"
	"github.com/sightline/sightline/internal/connector/hackernews"
	"github.com/sightline/sightline/internal/connector/imageboard"
	"github.com/sightline/sightline/internal/connector/lemmy"
	"github.com/sightline/sightline/internal/connector/mastodon"
	"github.com/sightline/sightline/internal/connector/nostr"
	"github.com/sightline/sightline/internal/connector/onion"
	"github.com/sightline/sightline/internal/connector/reddit"
	"github.com/sightline/sightline/internal/connector/rss"
	"github.com/sightline/sightline/internal/connector/scrape"
	"github.com/sightline/sightline/internal/connector/simulator"
	"github.com/sightline/sightline/internal/connector/telegram"
	"github.com/sightline/sightline/internal/outbound"
)

// Config configures every source. Its JSON form is what Load reads.
type Config struct {
	Simulator  simulator.Config  `json:"simulator"`
	RSS        rss.Config        `json:"rss"`
	Bluesky    bluesky.Config    `json:"bluesky"`
	Mastodon   mastodon.Config   `json:"mastodon"`
	HackerNews hackernews.Config `json:"hackernews"`
	Reddit     reddit.Config     `json:"reddit"`
	Lemmy      lemmy.Config      `json:"lemmy"`
	GDELT      gdelt.Config      `json:"gdelt"`
	Imageboard imageboard.Config `json:"imageboard"`
	HTML       scrape.Config     `json:"html"`
	Telegram   telegram.Config   `json:"telegram"`
	Onion      onion.Config      `json:"onion"`
	Nostr      nostr.Config      `json:"nostr"`
}

// Default is a fresh install's configuration: the simulator on, the real connectors
// configured with their public addresses but off.
func Default() Config {
	return Config{
		Simulator:  simulator.DefaultConfig(),
		RSS:        rss.DefaultConfig(),
		Bluesky:    bluesky.DefaultConfig(),
		Mastodon:   mastodon.DefaultConfig(),
		HackerNews: hackernews.DefaultConfig(),
		Reddit:     reddit.DefaultConfig(),
		Lemmy:      lemmy.DefaultConfig(),
		GDELT:      gdelt.DefaultConfig(),
		Imageboard: imageboard.DefaultConfig(),
		HTML:       scrape.DefaultConfig(),
		Telegram:   telegram.DefaultConfig(),
		Onion:      onion.DefaultConfig(),
		Nostr:      nostr.DefaultConfig(),
	}
}

// Load reads a JSON configuration over the defaults: what it leaves out keeps its default, and
// a misspelt key is an error rather than a silently ignored setting.
func Load(r io.Reader) (Config, error) {
	cfg := Default()
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cfg); err != nil {
		return Config{}, fmt.Errorf("source configuration: %w", err)
	}
	return cfg, nil
}

// DefaultRequestTimeout bounds a polling request (and a websocket handshake).
const DefaultRequestTimeout = 30 * time.Second

// The request budget a node's sources share, per host name, whatever their row and tenant:
// HostRequestsPerSecond on average and HostBurst at once (docs/connectors.md).
const (
	HostRequestsPerSecond = 5
	HostBurst             = 30
)

// NewHostBudget is the request budget per host a node's sources share.
func NewHostBudget() *connector.HostBudget {
	return connector.NewHostBudget(HostRequestsPerSecond, HostBurst)
}

// Builder makes sources with what the operator decided for all of them; a node has one.
type Builder struct {
	// Allow is the allowlist of addresses that are not public the sources may reach
	// (--allow-private-networks: on-premises feeds, tests); public addresses are always allowed.
	Allow []netip.Prefix
	// TorSOCKS is the Tor SOCKS5 proxy of the onion sites whose configuration names none
	// (--tor-socks).
	TorSOCKS string
	// Budget is the request budget per host every source built here shares (NewHostBudget);
	// nil means none.
	Budget *connector.HostBudget
	// RequestTimeout bounds a polling request; 0 means DefaultRequestTimeout.
	RequestTimeout time.Duration
	// LiftFloors runs a row at the waits it gives even below its type's floors: tests run
	// sources against their own loopback servers at test speed.
	LiftFloors bool
}

// Build makes the enabled sources. Their requests go through the outbound guard, which dials
// public addresses and the allowlist only, and share the request budget of each host.
func (b Builder) Build(cfg Config, cursors connector.CursorStore) ([]connector.Source, error) {
	var budget func(context.Context, string) error
	if b.Budget != nil {
		budget = b.Budget.Wait
	}
	timeout := cmp.Or(b.RequestTimeout, DefaultRequestTimeout)
	client := outbound.New(outbound.Options{Allow: b.Allow, Timeout: timeout, Budget: budget})
	// Server-sent event streams stay open: their client must not time out.
	streamClient := outbound.New(outbound.Options{Allow: b.Allow, Stream: true, Budget: budget})

	var srcs []connector.Source
	var errs []error
	if cfg.Simulator.Enabled {
		srcs = append(srcs, simulator.New(cfg.Simulator))
	}
	if cfg.RSS.Enabled {
		for _, feed := range cfg.RSS.Feeds {
			src, err := rss.New(feed, cfg.RSS, cursors, client)
			errs = append(errs, err)
			if err == nil {
				srcs = append(srcs, src)
			}
		}
	}
	if cfg.Bluesky.Enabled {
		src, err := bluesky.New(cfg.Bluesky, cursors, client)
		errs = append(errs, err)
		if err == nil {
			srcs = append(srcs, src)
		}
	}
	if cfg.Mastodon.Enabled {
		mastodonClient := client
		if cfg.Mastodon.Stream {
			mastodonClient = streamClient
		}
		for _, tl := range cfg.Mastodon.Timelines {
			src, err := mastodon.New(cfg.Mastodon, tl, cursors, mastodonClient)
			errs = append(errs, err)
			if err == nil {
				srcs = append(srcs, src)
			}
		}
	}
	if cfg.HackerNews.Enabled {
		srcs = append(srcs, hackernews.New(cfg.HackerNews, cursors, client))
	}
	if cfg.Reddit.Enabled {
		src, err := reddit.New(cfg.Reddit, cursors, client)
		errs = append(errs, err)
		if err == nil {
			srcs = append(srcs, src)
		}
	}
	if cfg.Lemmy.Enabled {
		src, err := lemmy.New(cfg.Lemmy, cursors, client)
		errs = append(errs, err)
		if err == nil {
			srcs = append(srcs, src)
		}
	}
	if cfg.GDELT.Enabled {
		src, err := gdelt.New(cfg.GDELT, cursors, client)
		errs = append(errs, err)
		if err == nil {
			srcs = append(srcs, src)
		}
	}
	if cfg.Imageboard.Enabled {
		for _, site := range cfg.Imageboard.Sites {
			src, err := imageboard.New(site, cfg.Imageboard, cursors, client)
			errs = append(errs, err)
			if err == nil {
				srcs = append(srcs, src)
			}
		}
	}
	if cfg.HTML.Enabled {
		for _, page := range cfg.HTML.Pages {
			src, err := scrape.New(page, cfg.HTML, cursors, client)
			errs = append(errs, err)
			if err == nil {
				srcs = append(srcs, src)
			}
		}
	}
	if cfg.Telegram.Enabled {
		src, err := telegram.New(cfg.Telegram, cursors, client)
		errs = append(errs, err)
		if err == nil {
			srcs = append(srcs, src)
		}
	}
	if cfg.Onion.Enabled {
		onionCfg := cfg.Onion
		onionCfg.SOCKS = cmp.Or(onionCfg.SOCKS, b.TorSOCKS)
		onionSrcs, err := onion.New(onionCfg, cursors)
		errs = append(errs, err)
		srcs = append(srcs, onionSrcs...)
	}
	if cfg.Nostr.Enabled {
		src, err := nostr.New(cfg.Nostr, cursors, client)
		errs = append(errs, err)
		if err == nil {
			srcs = append(srcs, src)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return srcs, nil
}

// Run runs every source until ctx ends. A source that cannot run is logged and the others go
// on; Run returns their errors together once all have stopped.
func Run(ctx context.Context, srcs []connector.Source, emit connector.EmitFunc) error {
	var wg sync.WaitGroup
	errs := make([]error, len(srcs))
	for i, src := range srcs {
		wg.Go(func() {
			if err := src.Run(ctx, emit); err != nil {
				slog.Error("source stopped", "source", src.Name(), "err", connector.RedactText(err.Error()))
				errs[i] = fmt.Errorf("%s: %w", src.Name(), err)
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// Stats returns the status of every source, in order.
func Stats(srcs []connector.Source) []connector.Stats {
	stats := make([]connector.Stats, 0, len(srcs))
	for _, src := range srcs {
		if r, ok := src.(connector.Reporter); ok {
			stats = append(stats, r.Stats())
		} else {
			stats = append(stats, connector.Stats{Source: src.Name()})
		}
	}
	return stats
}
