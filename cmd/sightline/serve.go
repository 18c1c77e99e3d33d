package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"math"
	"net"
	"net/mail"
	"net/url"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/alerts"
	"github.com/sightline/sightline/internal/api"
	"github.com/sightline/sightline/internal/assistant"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/evidence"
	"github.com/sightline/sightline/internal/ingest"
	"github.com/sightline/sightline/internal/live"
	"github.com/sightline/sightline/internal/server"
)

// serveOptions are what serve's flags fill.
type serveOptions struct {
	store               storeFlags
	cfg                 server.Config
	logLevel, logFormat string
}

// serveFlags is serve's flag set, writing into o: the README's configuration table lists
// every one of them (TestReadmeConfigurationTable).
func serveFlags(o *serveOptions) *flag.FlagSet {
	fs := newFlagSet("serve", "Run the Sightline server with its embedded web app.")
	o.store.register(fs)
	cfg := &o.cfg
	fs.StringVar(&cfg.Addr, "addr", "127.0.0.1:8080", "address to listen on")
	fs.StringVar(&cfg.NATS, "nats", "embedded", `message backbone: "embedded" or the nats:// URLs of an external cluster, comma-separated`)
	fs.IntVar(&cfg.NATSReplicas, "nats-replicas", 1, "servers of the external NATS cluster that keep each stream: 3 on a three-server cluster, "+
		"so that losing one loses nothing (ignored with embedded)")
	fs.Func("nats-max-bytes", "cap of the stream of posts waiting to be stored, as 512MiB, 8GiB or bytes; a full stream refuses new "+
		"posts (503) rather than dropping old ones (default 8GiB, at most half of what JetStream may store on the embedded server's disk)",
		func(v string) (err error) {
			cfg.NATSMaxBytes, err = parseBytes(v)
			return err
		})
	fs.Func("lag-warning", fmt.Sprintf("posts waiting to be stored above which the pipeline counts as behind: the log, the ingest "+
		"stats and the tenant admins' sources badge say so (default %d)", ingest.DefaultLagWarning), func(v string) (err error) {
		cfg.LagWarning, err = strconv.ParseUint(v, 10, 64)
		if err != nil || cfg.LagWarning == 0 {
			return errors.New("a whole number of posts, 1 or more")
		}
		return nil
	})
	fs.DurationVar(&cfg.AlertScanInterval, "alert-scan-interval", alerts.DefaultScanEvery, "how often every saved search's "+
		"alerts are looked at, a safety net: the matches a node stores reach its alerts at once")
	fs.StringVar(&cfg.LiveKey, "live-key", "", "app key of the live channel (default: generated once and kept in the store)")
	fs.Func("live-queue", fmt.Sprintf("messages a live socket may have waiting before it is closed as too slow to take them (4100: "+
		"the client reconnects and reloads) (default %d)", live.DefaultQueueSize), func(v string) (err error) {
		cfg.LiveQueue, err = strconv.Atoi(v)
		if err != nil || cfg.LiveQueue < 1 {
			return errors.New("a whole number of messages, 1 or more")
		}
		return nil
	})
	fs.StringVar(&cfg.AdminEmail, "admin-email", "", "e-mail of the first administrator, created when no user exists")
	fs.StringVar(&cfg.AdminPassword, "admin-password", "", "password of the first administrator")
	fs.Func("support-email", "address Help offers for support in the default tenant (default: the first administrator's)",
		func(v string) error {
			a, err := mail.ParseAddress(v)
			if err != nil || a.Name != "" {
				return errors.New("an e-mail address, such as support@example.com")
			}
			cfg.SupportEmail = a.Address
			return nil
		})
	cfg.Simulator = true
	fs.Var(switchFlag{&cfg.Simulator}, "simulator", "run the demo-data simulator: on or off")
	fs.Float64Var(&cfg.SimulatorRate, "simulator-rate", 5, "simulated posts per second")
	fs.StringVar(&cfg.SourcesFile, "sources", "", `JSON file of content sources that seeds the sources table on first start, or "none"; `+
		"without it the default public sources are seeded (see docs/connectors.md)")
	fs.Func("trusted-proxies", "comma-separated CIDR ranges of reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed",
		func(v string) (err error) {
			cfg.TrustedProxies, err = api.ParseTrustedProxies(v)
			return err
		})
	fs.Var(allowlistFlag{&cfg.AllowPrivateNetworks, true}, "allow-private-networks",
		"addresses and CIDR ranges that are not public which sources may reach (on-premises feeds): 127.0.0.1/32,10.1.2.0/24; "+
			`"on" for every one, "off" for none. Cloud metadata addresses are never reached; the image proxy reaches public addresses only`)
	fs.Var(allowlistFlag{value: &cfg.AllowPrivateWebhooks}, "allow-private-webhooks",
		"addresses and CIDR ranges that are not public which webhooks may be sent to (an on-premises SIEM): 10.1.2.7/32; \"off\" for none")
	fs.StringVar(&cfg.TorSOCKS, "tor-socks", "", "Tor SOCKS5 proxy (127.0.0.1:9050) through which onion sources read .onion sites; without it .onion addresses are refused")
	fs.StringVar(&cfg.PhotonURL, "photon-url", "", "Photon server (http://photon:2322) that answers address autocomplete and lookups "+
		"instead of the embedded gazetteer (docs/geocoder.md)")
	fs.Int64Var(&cfg.Caps.SavedSearches, "max-saved-searches", account.DefaultCaps.SavedSearches, "saved searches one organization may hold (0: no cap)")
	fs.Int64Var(&cfg.Caps.Groups, "max-groups", account.DefaultCaps.Groups, "search groups one organization may hold, Uncategorized not counted (0: no cap)")
	fs.Int64Var(&cfg.Caps.FilterLists, "max-filter-lists", account.DefaultCaps.FilterLists, "filter lists one organization may hold (0: no cap)")
	fs.Int64Var(&cfg.Caps.FilterListEntries, "max-filter-list-entries", account.DefaultCaps.FilterListEntries, "entries of all filter lists of one organization together (0: no cap)")
	fs.Int64Var(&cfg.Caps.SourcesPerTenant, "max-sources-per-tenant", account.DefaultCaps.SourcesPerTenant, "content sources one tenant may add (0: no cap)")
	fs.StringVar(&cfg.SMTPURL, "smtp-url", "", "mail server for alerts, export links and invitations: smtp://user:password@host:port "+
		"(STARTTLS when offered) or smtps://... (TLS from the start); without it e-mail is off")
	fs.StringVar(&cfg.MailFrom, "mail-from", server.DefaultMailFrom, "sender of every e-mail")
	fs.StringVar(&cfg.PublicURL, "public-url", "", "the app's address as users reach it, for links in e-mails (default: the listen address)")
	fs.StringVar(&cfg.OAuthConfig, "oauth-config", "", "JSON file of the OAuth 2 apps users may connect their social accounts through (docs/social.md)")
	fs.StringVar(&cfg.LLMURL, "llm-url", "", "OpenAI-compatible chat-completions server the assistant and AI summaries use, as its API base "+
		"(http://127.0.0.1:11434/v1); without it the embedded extractive engine answers (docs/assistant.md)")
	fs.StringVar(&cfg.LLMModel, "llm-model", "", "the model --llm-url serves")
	fs.StringVar(&cfg.LLMKey, "llm-key", "", "bearer key of --llm-url, if it wants one")
	fs.IntVar(&cfg.AssistantQuota, "assistant-quota", assistant.DefaultOrgPerHour, "assistant questions and post analyses one organization may ask an hour, on each node (0: no quota)")
	fs.IntVar(&cfg.AssistantConcurrency, "assistant-concurrency", 0, "assistant questions and post analyses one node works on at once; more wait up to 10 s, then get 429 (0: 4 with --llm-url, else the number of cores)")
	fs.Func("tsa-url", "RFC 3161 timestamp authority that timestamps evidence captures (https://freetsa.org/tsr); "+
		"repeat the flag or separate URLs with commas for several (docs/evidence.md); without one captures are not timestamped",
		func(v string) error {
			for _, u := range strings.Split(v, ",") {
				if u = strings.TrimSpace(u); u == "" {
					continue
				}
				if p, err := url.Parse(u); err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
					return fmt.Errorf("%q is not an absolute http or https address", u)
				}
				cfg.TSA = append(cfg.TSA, u)
			}
			return nil
		})
	cfg.Chromium = evidence.DefaultChromium
	fs.Func("chromium", "headless Chromium that takes evidence captures' screenshots and PDFs and prints case reports as PDF "+
		"(default "+evidence.DefaultChromium+"); off runs none",
		func(v string) error {
			switch v = strings.TrimSpace(v); v {
			case "off":
				cfg.Chromium = ""
			case "":
				return errors.New("give a path to Chromium, or off")
			default:
				cfg.Chromium = v
			}
			return nil
		})
	fs.IntVar(&cfg.EvidenceQuota, "evidence-quota", evidence.DefaultAutoQuota, "automatic evidence captures (saved searches that capture their matches) one organization gets a UTC day (0: no quota)")
	fs.StringVar(&cfg.TranslateURL, "translate-url", "", "LibreTranslate-compatible server that translates posts and keywords "+
		"(docs/translation.md); without it translation is off")
	fs.StringVar(&cfg.TranslateKey, "translate-key", "", "API key of the translation server, if it asks for one")
	fs.Func("retention", fmt.Sprintf("days of posts to keep, from %d to %d; searches reach that far back and older posts are deleted (default %d)",
		int(ingest.MinRetention.Hours()/24), int(ingest.MaxRetention.Hours()/24), int(ingest.Retention.Hours()/24)),
		func(v string) (err error) {
			cfg.Retention, err = parseRetention(v)
			return err
		})
	cfg.Portals = api.Portals{}
	portal := func(p authz.Portal) func(string) error {
		return func(v string) (err error) {
			cfg.Portals[p], err = api.ParsePortalURL(v)
			return err
		}
	}
	fs.Func("compliance-url", "address of the Compliance product, linked from the navigation (default: not linked)", portal(authz.PortalCompliance))
	fs.Func("rfi-url", "address of the My RFIs portal, linked for users with RFI access (default: not linked)", portal(authz.PortalRFI))
	fs.Func("intel-reports-url", "address of the Intel Reports portal, linked for users with its access (default: not linked)", portal(authz.PortalIntelReports))
	fs.StringVar(&cfg.BaseMap.TilesURL, "map-tiles-url", "", "tile server for the map's base layer, as a template: "+
		"https://tiles.example/{z}/{x}/{y}.png for pictures, .../{z}/{x}/{y}.mvt or .pbf for Protomaps vector tiles; "+
		"its origin is added to the security policy (docs/maps.md) (default: the offline country outlines)")
	fs.StringVar(&cfg.BaseMap.Attribution, "map-tiles-attribution", "", "text the map shows for its tiles' source and licence, "+
		"with --map-tiles-url or --map-pmtiles (© OpenStreetMap contributors)")
	fs.StringVar(&cfg.BaseMap.PMTiles, "map-pmtiles", "", "PMTiles v3 file, vector or pictures, that Sightline serves to signed-in "+
		"users as the map's base layer, instead of --map-tiles-url (docs/maps.md)")
	fs.StringVar(&o.logLevel, "log-level", "info", "debug, info, warn or error")
	fs.StringVar(&o.logFormat, "log-format", "text", "text or json")
	return fs
}

func runServe(args []string) error {
	var o serveOptions
	if err := parseFlags(serveFlags(&o), args); err != nil {
		return err
	}
	cfg, logLevel, logFormat := o.cfg, o.logLevel, o.logFormat
	o.store.apply(&cfg)
	if cfg.LLMURL != "" && cfg.LLMModel == "" {
		return fmt.Errorf("--llm-url needs --llm-model")
	}
	switch cfg.SourcesFile {
	case "none":
		cfg.SourcesFile = ""
	case "":
		cfg.DefaultSources = true
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serve(ctx, cfg, newLogger(logLevel, logFormat))
}

// serve runs the node until ctx ends. It binds cfg.Addr before the node is built, so that with
// port 0 (127.0.0.1:0, a port the system chooses) the links the node makes name the port bound,
// and it logs the address once, when it serves: "sightline is listening" url=http://host:port,
// the line a caller that asked for port 0 reads the port from (the browser tests do).
func serve(ctx context.Context, cfg server.Config, log *slog.Logger) error {
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	cfg.Addr = ln.Addr().String()
	node, err := server.New(ctx, cfg, log)
	if err != nil {
		ln.Close()
		return err
	}
	defer node.Close()
	return node.ServeListener(ctx, ln, func(addr net.Addr) {
		log.Info("sightline is listening", "url", "http://"+addr.String(), "store", string(node.Store.Dialect()))
	})
}

func newLogger(level, format string) *slog.Logger {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		l = slog.LevelInfo
	}
	opts := &slog.HandlerOptions{Level: l}
	if format == "json" {
		return slog.New(slog.NewJSONHandler(os.Stderr, opts))
	}
	return slog.New(slog.NewTextHandler(os.Stderr, opts))
}

// parseRetention reads --retention: a whole number of days within ingest's bounds.
func parseRetention(v string) (time.Duration, error) {
	days, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), "d"))
	lo, hi := int(ingest.MinRetention.Hours()/24), int(ingest.MaxRetention.Hours()/24)
	if err != nil || days < lo || days > hi {
		return 0, fmt.Errorf("%q is not a number of days from %d to %d", v, lo, hi)
	}
	return time.Duration(days) * 24 * time.Hour, nil
}

// parseBytes reads a size: a whole number of bytes, or of KiB, MiB, GiB or TiB.
func parseBytes(v string) (int64, error) {
	number, unit := v, int64(1)
	for i, suffix := range []string{"KiB", "MiB", "GiB", "TiB"} {
		if n, ok := strings.CutSuffix(v, suffix); ok {
			number, unit = n, 1<<(10*(i+1))
			break
		}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(number), 10, 64)
	if err != nil || n < 1 || n > math.MaxInt64/unit {
		return 0, errors.New("a size such as 512MiB, 8GiB or a number of bytes")
	}
	return n * unit, nil
}
