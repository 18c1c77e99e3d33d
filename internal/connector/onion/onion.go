// Package onion reads onion services (RSS and Atom feeds, or web pages by CSS selectors)
// through a Tor SOCKS5 proxy. The feeds and pages are read by the rss and scrape connectors;
// this package gives them a client that reaches .onion addresses through the proxy only.
package onion

import (
	"cmp"
	"fmt"
	"net/url"
	"time"

	"github.com/sightline/sightline/internal/connector"
	"github.com/sightline/sightline/internal/connector/rss"
	"github.com/sightline/sightline/internal/connector/scrape"
	"github.com/sightline/sightline/internal/outbound"
)

// Site is one onion service page.
type Site struct {
	// Name identifies the site among the sources ("rss:onion:" or "html:onion:" + Name).
	Name string `json:"name"`
	// URL is an http:// address of a .onion host.
	URL string `json:"url"`
	// Format is "rss" (RSS or Atom) or "html" (read with Selectors).
	Format    string           `json:"format"`
	Selectors scrape.Selectors `json:"selectors"`
	// Provider is the catalogue provider of its posts: tor by default, or darkweb,
	// marketplaces, hacking, leaks, forum...
	Provider      string             `json:"provider"`
	Board         string             `json:"board"`
	CommunityKind string             `json:"communityKind"`
	Interval      connector.Duration `json:"interval,omitzero"`
}

// Config configures the onion sites.
type Config struct {
	Enabled bool `json:"enabled"`
	// SOCKS is the Tor SOCKS5 proxy's address; the sources' builder fills it from --tor-socks
	// when the configuration names none.
	SOCKS    string             `json:"socks"`
	Sites    []Site             `json:"sites"`
	Interval connector.Duration `json:"interval"`
	Backoff  connector.Backoff  `json:"backoff"`
}

// DefaultConfig polls every fifteen minutes, with no sites until some are configured.
func DefaultConfig() Config {
	return Config{Interval: connector.Duration(15 * time.Minute), Backoff: connector.DefaultBackoff}
}

// requestTimeout bounds a request: circuits to onion services are slow to build.
const requestTimeout = 90 * time.Second

// New makes the sources of cfg's sites, reading through cfg.SOCKS.
func New(cfg Config, cursors connector.CursorStore) ([]connector.Source, error) {
	if cfg.SOCKS == "" {
		return nil, fmt.Errorf("onion: sites need a Tor SOCKS proxy (--tor-socks 127.0.0.1:9050)")
	}
	client := outbound.New(outbound.Options{TorSOCKS: cfg.SOCKS, Timeout: requestTimeout})
	var srcs []connector.Source
	for _, site := range cfg.Sites {
		u, err := url.Parse(site.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || !outbound.IsOnion(u.Hostname()) {
			return nil, fmt.Errorf("onion: site %s: %q is not an http address of a .onion host", site.Name, outbound.RedactURL(site.URL))
		}
		provider := cmp.Or(site.Provider, "tor")
		switch site.Format {
		case "rss":
			src, err := rss.New(rss.Feed{Name: "onion:" + site.Name, URL: site.URL, Provider: provider, Interval: site.Interval},
				rss.Config{Interval: cfg.Interval, Backoff: cfg.Backoff}, cursors, client)
			if err != nil {
				return nil, fmt.Errorf("onion: %w", err)
			}
			srcs = append(srcs, src)
		case "html":
			src, err := scrape.New(scrape.Page{Name: "onion:" + site.Name, URL: site.URL, Provider: provider, Board: site.Board,
				CommunityKind: site.CommunityKind, Selectors: site.Selectors, Interval: site.Interval},
				scrape.Config{Interval: cfg.Interval, Backoff: cfg.Backoff}, cursors, client)
			if err != nil {
				return nil, fmt.Errorf("onion: %w", err)
			}
			srcs = append(srcs, src)
		default:
			return nil, fmt.Errorf("onion: site %s: format %q is not rss or html", site.Name, site.Format)
		}
	}
	return srcs, nil
}
