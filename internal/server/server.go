// Package server assembles a running Sightline node from its configuration: the store, the
// domain services, the HTTP API with the embedded web app, and a graceful shutdown.
package server

import (
	"context"
	"errors"
	"fmt"
	"github.com/sightline/sightline/internal/alerts"
	"github.com/sightline/sightline/internal/alerts/channel/webhook"
	"github.com/sightline/sightline/internal/asset"
	"github.com/sightline/sightline/internal/assistant"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/announce"
	"github.com/sightline/sightline/internal/api"
	"github.com/sightline/sightline/internal/audit"
	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/backtest"
	"github.com/sightline/sightline/internal/basemap"
	"github.com/sightline/sightline/internal/cases"
	"github.com/sightline/sightline/internal/connector"
	"github.com/sightline/sightline/internal/connector/simulator"
	"github.com/sightline/sightline/internal/connector/sources"
	"github.com/sightline/sightline/internal/enrich"
	"github.com/sightline/sightline/internal/evidence"
	"github.com/sightline/sightline/internal/export"
	"github.com/sightline/sightline/internal/filters"
	"github.com/sightline/sightline/internal/geo"
	"github.com/sightline/sightline/internal/imageproxy"
	"github.com/sightline/sightline/internal/ingest"
	"github.com/sightline/sightline/internal/live"
	"github.com/sightline/sightline/internal/mail"
	"github.com/sightline/sightline/internal/members"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/outbound"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/sealed"
	"github.com/sightline/sightline/internal/search"
	"github.com/sightline/sightline/internal/social"
	"github.com/sightline/sightline/internal/sourcing"
	"github.com/sightline/sightline/internal/spike"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/story"
	"github.com/sightline/sightline/internal/stream"
	"github.com/sightline/sightline/internal/support"
	"github.com/sightline/sightline/internal/tenant"
	"github.com/sightline/sightline/internal/translate"
	"github.com/sightline/sightline/internal/trend"
	"github.com/sightline/sightline/internal/usage"
	"github.com/sightline/sightline/web"
)

// Config is a node's configuration; every field has a flag and an environment variable.
type Config struct {
	Addr    string
	DataDir string
	// DB is a postgres:// URL or a SQLite path; empty means sightline.db in DataDir.
	DB string
	// NATS is "embedded" or a nats:// URL of an external cluster (several, comma-separated).
	NATS string
	// NATSReplicas is how many servers of an external cluster keep each stream (1 when 0): 3
	// on a three-server cluster, so that losing one server loses no post.
	NATSReplicas int
	// NATSMaxBytes caps the stream of posts waiting to be stored (stream.Config.MaxBytes).
	NATSMaxBytes int64
	// LagWarning is how many posts waiting for the storage stage make the pipeline count as
	// behind (ingest.DefaultLagWarning when 0).
	LagWarning uint64
	// AlertScanInterval is how often every search's alerts are looked at, a safety net for the
	// new matches the percolator tells the alerts of (alerts.DefaultScanEvery when 0).
	AlertScanInterval time.Duration
	// LiveKey is the live channel's app key; empty means one generated once and shared by every
	// node through the store.
	LiveKey string
	// LiveQueue is how many messages a live socket may have waiting (live.Config.QueueSize).
	LiveQueue int

	// Sources configures the content sources: Simulator on/off and its rate override the
	// JSON file at SourcesFile (when given), which overrides the defaults. The file's other
	// sources, or without a file the default public set when DefaultSources, seed the default
	// tenant's sources table once (docs/connectors.md); from then on tenant admins manage them
	// at /sources. DefaultSources is false in the zero Config, so tests never reach the
	// internet; serve turns it on unless --sources none.
	Simulator      bool
	SimulatorRate  float64
	SourcesFile    string
	DefaultSources bool

	// AllowPrivateNetworks is the operator's allowlist of addresses that are not public which
	// sources (their polls and test fetches) may reach: an on-premises feed, tests;
	// outbound.Everywhere for all of them. By default sources reach public addresses only.
	AllowPrivateNetworks []netip.Prefix
	// AllowPrivateWebhooks is the allowlist of webhook destinations that are not public (an
	// on-premises SIEM). The image proxy has none: it reaches public addresses only. No caller
	// ever reaches a cloud metadata address.
	AllowPrivateWebhooks []netip.Prefix

	// TorSOCKS is a Tor SOCKS5 proxy's address: onion sources read .onion sites through it.
	TorSOCKS string

	// PhotonURL is a Photon server (docs/geocoder.md) that answers address autocomplete and
	// lookups instead of the embedded gazetteer; places mentioned in posts stay with the
	// gazetteer. Empty means the gazetteer for everything.
	PhotonURL string

	// AdminEmail and AdminPassword create the first administrator on a store with no users.
	AdminEmail    string
	AdminPassword string
	// SupportEmail, when set, is the default tenant's support contact (Help's "Contact us"), in
	// place of the first administrator's address that setup gives it.
	SupportEmail string

	// SecretKeyFile holds the key that seals the server's secrets in the store; SecretKey is
	// the key itself (base64, from SIGHTLINE_SECRET_KEY). With neither, the key is the file
	// secret.key in DataDir, generated on first start.
	SecretKeyFile string
	SecretKey     string

	// TrustedProxies are the reverse proxies whose X-Forwarded-For and X-Forwarded-Proto count.
	TrustedProxies []netip.Prefix

	// Caps bound what each organization holds (0: no cap); serve's flags default to
	// account.DefaultCaps.
	Caps account.Caps

	// PublicURL is the app's address as users reach it, for links in e-mails and live events;
	// empty means the listen address (PublicURLOrDefault).
	PublicURL string

	// SMTPURL is the mail server (smtp:// with STARTTLS when offered, smtps:// for TLS from the
	// start); empty turns e-mail off. MailFrom is the sender of every e-mail.
	SMTPURL  string
	MailFrom string

	// OAuthConfig is the file of OAuth 2 apps users may connect their social accounts through
	// (docs/social.md); empty means none.
	OAuthConfig string

	// LLMURL is an OpenAI-compatible chat-completions server (its API base, such as
	// http://127.0.0.1:11434/v1) the assistant and AI summaries use; empty means the embedded
	// extractive engine. LLMModel names the model, LLMKey is its bearer key if it wants one.
	LLMURL   string
	LLMModel string
	LLMKey   string
	// AssistantQuota is each organization's questions and analyses an hour (0: no quota); serve's
	// flag defaults to assistant.DefaultOrgPerHour. AssistantConcurrency is how many the node
	// works on at once (0: 4 with a language model, the number of cores without).
	AssistantQuota       int
	AssistantConcurrency int
	// TranslateURL is a LibreTranslate-compatible server (docs/translation.md); empty turns
	// translation off. TranslateKey is its API key, if it asks for one.
	TranslateURL string
	TranslateKey string

	// TSA are the RFC 3161 timestamp authorities evidence captures are timestamped by
	// (--tsa-url); none leaves them untimestamped, saying so. EvidenceQuota is each
	// organization's automatic captures a UTC day (0: no quota).
	TSA           []string
	EvidenceQuota int
	// Chromium is the headless browser's path (--chromium) that evidence captures take their
	// screenshot and PDF with and case exports print their report with; "" runs none, and
	// captures and exports say so.
	Chromium string

	// Retention is how long posts and everything derived from them are kept (--retention in
	// days); 0 means ingest.Retention, 30 days.
	Retention time.Duration

	// Portals are the addresses of the other products (Compliance, My RFIs, Intel Reports); a
	// portal without one is not linked.
	Portals api.Portals

	// BaseMap is the map's base layer: a tile server or a PMTiles archive (docs/maps.md); the
	// zero value is the offline country outlines.
	BaseMap basemap.Options
}

// DefaultMailFrom is the sender when --mail-from is not given.
const DefaultMailFrom = "Sightline <sightline@localhost>"

// PublicURLOrDefault is PublicURL, or http:// and the listen address when none is set.
func (c Config) PublicURLOrDefault() string {
	if c.PublicURL != "" {
		return strings.TrimRight(c.PublicURL, "/")
	}
	host, port, err := net.SplitHostPort(c.Addr)
	if err != nil {
		return "http://" + c.Addr
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}

// DSN is the store's connection string after defaults.
func (c Config) DSN() string {
	if c.DB != "" {
		return c.DB
	}
	return filepath.Join(c.DataDir, "sightline.db")
}

// OpenStore makes the data dir, opens the store, migrates it and unlocks its sealed secrets.
func OpenStore(ctx context.Context, c Config) (*store.Store, error) {
	if err := os.MkdirAll(c.DataDir, 0o750); err != nil {
		return nil, fmt.Errorf("data dir: %w", err)
	}
	key, err := sealed.Load(sealed.Source{File: c.SecretKeyFile, Env: c.SecretKey, DataDir: c.DataDir})
	if err != nil {
		return nil, err
	}
	s, err := store.Open(ctx, c.DSN())
	if err != nil {
		return nil, err
	}
	if err := s.Migrate(ctx); err != nil {
		s.Close()
		return nil, err
	}
	if err := s.UseSecretKey(ctx, key); err != nil {
		s.Close()
		if errors.Is(err, sealed.ErrWrongKey) {
			return nil, fmt.Errorf("%w; every node sharing a database must be given the same key "+
				"(--secret-key-file or SIGHTLINE_SECRET_KEY); a single machine keeps it in %s in the data dir",
				err, sealed.DefaultKeyFile)
		}
		return nil, err
	}
	s.SetCaps(c.Caps)
	return s, nil
}

// Node is a started Sightline node.
type Node struct {
	Store    *store.Store
	Stream   *stream.Stream
	Accounts *account.Service
	Auth     *auth.Service
	Ingest   *ingest.Service
	Pipeline *ingest.Pipeline
	// Watch tells when the pipeline is behind or its stream nearly full.
	Watch *ingest.Watch
	// Sources are the node's own sources (the simulator); Managed runs the sources table's.
	Sources    []connector.Source
	Managed    *sourcing.Manager
	SourceRows *sourcing.Service
	Geocoder   geo.Geocoder
	// Gazetteer is the embedded geocoder, which names points and places in posts whatever Geocoder is.
	Gazetteer  *geo.Gazetteer
	BaseMap    *basemap.Map
	Monitor    *monitor.Service
	Percolator *monitor.Percolator
	// Stories is the pipeline's stories stage (benchmarks observe it).
	Stories *story.Stage
	// Backfills fill saved searches' inboxes from stored posts when they are saved.
	Backfills *backtest.Backfills
	Filters   *filters.Service
	Exports   *export.Service
	Evidence  *evidence.Service
	Alerts    *alerts.Service
	Spikes    *spike.Service
	Assistant *assistant.Service
	// Mail sends e-mail through the operator's SMTP server; nil when e-mail is off.
	Mail    mail.Sender
	Live    *live.Hub
	Handler http.Handler
	log     *slog.Logger
	// retention is how long posts are kept (Config.Retention).
	retention time.Duration
	// simulatorRate is the simulator's configured rate, posts per second, when it runs.
	simulatorRate float64
}

// retention is how long posts are kept: the operator's choice, or ingest.Retention.
func (c Config) retention() time.Duration {
	if c.Retention <= 0 {
		return ingest.Retention
	}
	return c.Retention
}

// New opens the store and builds the services and the HTTP handler.
func New(ctx context.Context, c Config, log *slog.Logger) (n *Node, err error) {
	if c.PhotonURL != "" {
		if u, err := url.Parse(c.PhotonURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("photon url %q: not an absolute http or https address", c.PhotonURL)
		}
	}
	var networks []social.Provider
	if c.OAuthConfig != "" {
		if networks, err = social.LoadConfig(c.OAuthConfig); err != nil {
			return nil, fmt.Errorf("oauth config: %w", err)
		}
	}
	s, err := OpenStore(ctx, c)
	if err != nil {
		return nil, err
	}
	n = &Node{Store: s, log: log, retention: c.retention()}
	// Every failure below returns a nil node: close the one being built.
	building := n
	defer func() {
		if err != nil {
			building.Close()
		}
	}()
	if n.BaseMap, err = basemap.Open(c.BaseMap); err != nil {
		return nil, err
	}
	if b := n.BaseMap.Base(); b.Kind != basemap.Outlines {
		log.Info("the map's base layer", "kind", b.Kind, "max_zoom", b.MaxZoom) // the URL may hold a key
	}
	n.Accounts = account.NewService(s)
	if c.AdminEmail != "" && c.AdminPassword != "" {
		created, err := n.Accounts.Bootstrap(ctx, c.AdminEmail, c.AdminPassword)
		if err != nil {
			return nil, fmt.Errorf("create the first administrator: %w", err)
		}
		if created {
			log.Info("created the first administrator", "email", c.AdminEmail, "tenant", account.DefaultTenant,
				"organization", account.DefaultOrganization)
		}
	}
	if c.SupportEmail != "" {
		if err := s.SetTenantSupportEmail(ctx, account.DefaultTenant, c.SupportEmail); err != nil {
			return nil, fmt.Errorf("set the support address: %w", err)
		}
	}
	if n.Stream, err = stream.Open(ctx, stream.Config{URL: c.NATS, DataDir: c.DataDir, Replicas: c.NATSReplicas,
		MaxBytes: c.NATSMaxBytes, Consumers: []string{ingest.StoreDurable}}, log); err != nil {
		return nil, err
	}
	st := n.Stream
	if err := s.EnsurePartitions(ctx, time.Now().Add(-c.retention()-24*time.Hour), time.Now().Add(48*time.Hour)); err != nil {
		return nil, err
	}
	creds, err := live.LoadCredentials(ctx, s, c.LiveKey)
	if err != nil {
		return nil, fmt.Errorf("live channel: %w", err)
	}
	hubConn, err := st.Connect("sightline-live", nats.NoEcho())
	if err != nil {
		return nil, fmt.Errorf("live channel: %w", err)
	}
	if n.Live, err = live.NewHub(hubConn, live.Config{Credentials: creds, QueueSize: c.LiveQueue}, log); err != nil {
		return nil, fmt.Errorf("live channel: %w", err)
	}
	hub := n.Live
	if n.Auth, err = auth.New(ctx, s, auth.Options{SessionEnded: func(ctx context.Context, sess auth.Session) {
		if err := hub.CloseUser(ctx, sess.UserID); err != nil {
			log.Warn("live: close the sockets of an ended session", "user", sess.UserID, "err", err)
		}
	}}); err != nil {
		return nil, err
	}
	seeds, err := sourceSeeds(c)
	if err != nil {
		return nil, err
	}
	// One builder for the node's sources and the table's: one request budget per host.
	builder := sources.Builder{Allow: c.AllowPrivateNetworks, TorSOCKS: c.TorSOCKS, Budget: sources.NewHostBudget()}
	if n.Sources, err = buildSources(builder, seeds.node); err != nil {
		return nil, err
	}
	n.simulatorRate = seeds.node.Simulator.PostsPerSecond()
	gazetteer, err := geo.LoadGazetteer()
	if err != nil {
		return nil, err
	}
	n.Geocoder, n.Gazetteer = gazetteer, gazetteer
	if c.PhotonURL != "" {
		// An operator-configured backend, trusted as the translation server is.
		n.Geocoder = geo.NewPhoton(c.PhotonURL, "", gazetteer)
		log.Info("addresses are geocoded by Photon", "url", c.PhotonURL)
	}
	n.Ingest = ingest.NewService(st, enrich.New(gazetteer), c.retention()).WithDeletions(s)
	if c.SMTPURL == "" {
		log.Info("E-mail delivery is off (no --smtp-url)")
	} else {
		from := c.MailFrom
		if from == "" {
			from = DefaultMailFrom
		}
		smtp, err := mail.NewSMTP(c.SMTPURL, from)
		if err != nil {
			return nil, err
		}
		n.Mail = smtp
	}
	// One e-mail limit per node for every mail path people trigger (docs/decisions.md).
	mailLimit := mail.NewLimiter(mail.DefaultLimits)
	// The alert channels, which the Monitor checks destinations against and the alerts send through.
	channels := alerts.Channels(alerts.ChannelDeps{Store: s, Mail: n.Mail, MailLimit: mailLimit,
		Webhooks: webhook.NewClient(c.AllowPrivateWebhooks), PublicURL: c.PublicURLOrDefault(), Logger: log})
	// The percolator tells this node's alert service of the matches it stores.
	newMatches := alerts.NewSignal()
	// The percolator hears of every change to searches and lists, so it comes before the
	// services that make them; it reads lists and counts through readers that change nothing.
	n.Percolator = monitor.NewPercolator(monitor.PercolatorDeps{Store: s, Lists: filters.MatchingLists{Store: s},
		Conn: st.Conn(), Notifier: n.Live, Counts: monitor.NewService(monitor.Deps{Store: s, Inbox: s}), Stored: newMatches,
		Stories: story.NewService(s), Logger: log})
	percolator := n.Percolator
	n.Filters = filters.NewService(s, func(ctx context.Context, searchIDs []int64) {
		for _, id := range searchIDs {
			percolator.SearchChanged(ctx, id)
		}
	})
	n.Backfills = backtest.NewBackfills(backtest.BackfillDeps{Store: s, Lists: filters.MatchingLists{Store: s},
		Writer: n.Percolator, Notifier: n.Live, Logger: log})
	n.Monitor = monitor.NewService(monitor.Deps{Store: s, Inbox: s, Layouts: s, FilterLists: n.Filters, Changes: n.Percolator,
		Notifier: n.Live, Channels: channels, Backfill: n.Backfills})
	if err := n.Percolator.Load(ctx); err != nil {
		return nil, err
	}
	n.Pipeline = ingest.NewPipeline(st, s, log, n.Percolator.Stage)
	// The window is rebuilt from the store; on PostgreSQL every node stores its batches in the
	// cluster's story order (docs/stories.md, "Where the state lives").
	stories := story.NewStage()
	if err := n.Pipeline.LoadStories(ctx, stories, s, story.Since(time.Now())); err != nil {
		return nil, err
	}
	n.Stories = stories
	n.Watch = ingest.NewWatch(st.Health, c.LagWarning, log)
	operator := sourcing.NewOperator(s)
	build := func(r sourcing.Source, cursors connector.CursorStore, prefix string) ([]connector.Source, error) {
		// A build has no request to take a context from; the operator's tenant is read once.
		shared, err := operator.Shares(context.Background(), r.TenantID)
		if err != nil {
			return nil, err
		}
		if !shared {
			if err := sources.CheckTenantProviders(r.Type, r.Name, r.Config); err != nil {
				return nil, err
			}
		}
		return builder.BuildRow(r.Type, r.Name, r.Config, cursors, prefix)
	}
	n.Managed = sourcing.NewManager(s, build, s, n.Ingest.EmitFrom, operator, log)
	n.Managed.Deletions = n.Ingest.DeleteFrom
	n.SourceRows = sourcing.NewService(sourcing.Deps{Store: s, Build: build, Interval: builder.Interval,
		Changed: n.Managed.Changed, Check: sources.CheckFloors})
	if err := n.seedSources(ctx, seeds.rows); err != nil {
		return nil, err
	}
	searches := search.NewService(s, search.Options{Retention: c.retention(), FilterLists: n.Filters})
	var engine assistant.Engine = assistant.Extractive{}
	if c.LLMURL != "" {
		engine = assistant.NewLLM(c.LLMURL, c.LLMModel, c.LLMKey)
		log.Info("the assistant answers through a language model", "model", c.LLMModel)
	}
	quota := c.AssistantQuota
	if quota == 0 {
		quota = -1 // no quota
	}
	n.Assistant = assistant.NewService(s, searches, engine, assistant.Limits{OrgPerHour: quota, Concurrent: c.AssistantConcurrency}, log)
	n.Alerts = alerts.NewService(alerts.Deps{Store: s, Matches: n.Monitor, Channels: channels, Signal: newMatches, Stories: story.NewService(s),
		ScanEvery: c.AlertScanInterval, PublicURL: c.PublicURLOrDefault(), Spikes: s, Logger: log, Summarizer: n.Assistant.Engine()})
	n.Spikes = &spike.Service{Store: s, Searches: n.Monitor, Logger: log, Now: time.Now, Found: n.Alerts.SpikesFound}
	// Without a server, translations made while there was one are still read by exports.
	translator := translate.NewService(nil, s)
	if c.TranslateURL == "" {
		log.Info("Translation is off (no --translate-url)")
	} else {
		backend, err := translate.NewLibreTranslate(c.TranslateURL, c.TranslateKey)
		if err != nil {
			return nil, err
		}
		translator = translate.NewService(backend, s)
	}
	if n.Exports, err = export.NewService(export.Deps{Store: s, Users: s, Matches: n.Monitor, Beacon: searches,
		Live: n.Live, Mail: n.Mail, MailLimit: mailLimit, Translations: translator, Dir: filepath.Join(c.DataDir, "exports"), PublicURL: c.PublicURLOrDefault(), Logger: log}); err != nil {
		return nil, err
	}
	evidenceQuota := c.EvidenceQuota
	if evidenceQuota == 0 {
		evidenceQuota = -1 // no quota
	}
	browser := c.Chromium
	if browser != "" && !evidence.UsableChromium(browser) {
		log.Warn("no Chromium at " + browser + " (--chromium): evidence captures have no screenshot or PDF, case exports no PDF")
		browser = ""
	}
	// Captures reach private addresses only within the sources' allowlist, as the sources do.
	n.Evidence = evidence.NewService(evidence.Deps{Store: s, Posts: s, Matches: n.Monitor, Stories: story.NewService(s),
		Users: s, Live: n.Live, Fetch: outbound.New(outbound.Options{Allow: c.AllowPrivateNetworks, TorSOCKS: c.TorSOCKS, Logger: log}),
		TSA: c.TSA, Browser: browser, AutoQuota: evidenceQuota, Logger: log})
	if len(c.TSA) == 0 {
		log.Info("Evidence captures are not timestamped (no --tsa-url)")
	}
	if c.Chromium == "" {
		log.Info("Evidence captures have no screenshot or PDF and case exports no PDF (--chromium off)")
	}

	// Cases: the report's PDF is printed by the same Chromium.
	var pdf cases.PDFRenderer
	if chromium := cases.NewChromiumPDF(browser); chromium != nil {
		pdf = chromium
	}
	storyService := story.NewService(s)
	caseWork := cases.NewService(cases.Deps{Store: s, Stories: storyService, Searches: n.Monitor, Live: n.Live, Mail: n.Mail,
		MailLimit: mailLimit, PublicURL: c.PublicURLOrDefault(), PDF: pdf, Evidence: n.Evidence, Logger: log})

	app, built := web.App()
	if !built {
		log.Warn("the web app is not built into this binary; run `make build`")
	}
	n.Handler = api.New(api.Deps{
		Accounts:      n.Accounts,
		AuditLog:      audit.NewLog(s),
		Announcements: announce.NewService(s),
		Auth:          n.Auth,
		Ingest:        n.Ingest,
		IngestStats:   n.ingestStats,
		Search:        searches,
		SearchLimiter: search.NewLimiter(),
		Backtest:      backtest.NewService(n.Monitor, s),
		History:       search.NewHistory(s),
		Flags:         search.NewFlags(s),
		Marks:         search.NewMarks(s),
		Places:        search.NewPlaces(s),
		Exports:       n.Exports,
		Evidence:      n.Evidence,
		Stories:       storyService,
		Spikes:        n.Spikes,
		Trends:        &trend.Service{Store: s, Searches: n.Monitor, Now: time.Now},
		Cases:         caseWork,
		Members: members.NewService(members.Deps{Store: s, Access: n.Auth, Mail: n.Mail, MailLimit: mailLimit,
			PublicURL: c.PublicURLOrDefault(), Logger: log}),
		Support:          support.NewService(support.Deps{Profiles: n.Accounts, Mail: n.Mail, MailLimit: mailLimit}),
		Usage:            usage.NewService(s, log),
		Sources:          n.SourceRows,
		PipelineWarnings: n.Watch.Warnings,
		BuiltInSources:   n.builtInSources,
		SourceTypes:      sources.Types(),
		Alerts:           n.Alerts,
		Assistant:        n.Assistant,
		EmailDelivery:    n.Mail != nil,
		Translate:        translator,
		Portals:          c.Portals,
		Social:           social.NewService(s, networks, c.PublicURLOrDefault()),
		Tenant:           tenant.NewService(s, n.Accounts, n.Auth),
		Geocoder:         n.Geocoder,
		Reverse:          n.Gazetteer,
		BaseMap:          n.BaseMap,
		Monitor:          n.Monitor,
		Filters:          n.Filters,
		Locations:        filters.NewLocations(s, n.Geocoder),
		Assets:           asset.NewService(s),
		Live:             n.Live,
		ImageProxy:       imageproxy.New(imageproxy.Options{}),
		Health:           s.Ping,
		App:              api.AppHandler(app, built),
		Logger:           log,

		TrustedProxies: c.TrustedProxies,
	})
	return n, nil
}

// seeded is what the source configuration gives: the node's own sources (the simulator) and
// the rows to seed the sources table with.
type seeded struct {
	node sources.Config
	rows []sources.Seed
}

// sourceSeeds reads the source configuration: the file when given, else the default public
// set when DefaultSources.
func sourceSeeds(c Config) (seeded, error) {
	cfg := sources.Default()
	var rows []sources.Seed
	if c.SourcesFile != "" {
		f, err := os.Open(c.SourcesFile)
		if err != nil {
			return seeded{}, err
		}
		defer f.Close()
		if cfg, err = sources.Load(f); err != nil {
			return seeded{}, err
		}
		if rows, err = sources.Seeds(cfg); err != nil {
			return seeded{}, err
		}
	} else if c.DefaultSources {
		rows = sources.DefaultSeeds()
	}
	// The node runs the simulator only; the rest run from the table.
	node := sources.Default()
	node.Simulator = cfg.Simulator
	node.Simulator.Enabled = c.Simulator
	if c.SimulatorRate > 0 {
		node.Simulator.Rate = c.SimulatorRate
	}
	return seeded{node: node, rows: rows}, nil
}

// buildSources makes the node's own sources.
func buildSources(builder sources.Builder, cfg sources.Config) ([]connector.Source, error) {
	srcs, err := builder.Build(cfg, nil)
	for i, src := range srcs {
		srcs[i] = connector.Supervise(src)
	}
	return srcs, err
}

// seedSources creates the rows in the default tenant's sources table, once.
func (n *Node) seedSources(ctx context.Context, rows []sources.Seed) error {
	if len(rows) == 0 {
		return nil
	}
	tenant, err := n.Store.TenantByName(ctx, account.DefaultTenant)
	if problem.Is(err, problem.KindNotFound) {
		tenant = account.Tenant{Name: account.DefaultTenant, LogoutAllowed: true}
		err = n.Store.CreateTenant(ctx, &tenant)
	}
	if err != nil {
		return err
	}
	seeds := make([]sourcing.Seed, 0, len(rows))
	for _, r := range rows {
		seeds = append(seeds, sourcing.Seed{Type: r.Type, Name: r.Name, Config: r.Config, Enabled: r.Enabled})
	}
	created, err := n.SourceRows.Seed(ctx, tenant.ID, seeds)
	if err != nil {
		n.log.Warn("some sources could not be seeded", "err", err)
	}
	if created {
		n.log.Info("seeded the content sources", "tenant", account.DefaultTenant, "sources", len(seeds))
	}
	return nil
}

func (n *Node) ingestStats(ctx context.Context, scope ingest.Scope) (ingest.Stats, error) {
	return ingest.CollectStats(ctx, n.Store, scope, ingest.StatsSources{Connectors: sources.Stats(n.Sources),
		Managed: n.SourceRows.ConnectorStats, Health: n.Stream.Health, Warnings: n.Watch.Warnings})
}

// builtInSources are the node's own sources with their rates and the tenant's ingest sources.
func (n *Node) builtInSources(ctx context.Context, tenantID int64) ([]ingest.BuiltInSource, error) {
	node := []ingest.NodeSource{}
	for _, st := range sources.Stats(n.Sources) {
		// The simulator is the only source the node runs itself (sourceSeeds).
		if st.Source == simulator.Name {
			node = append(node, ingest.NodeSource{Stats: st, Rate: n.simulatorRate})
		}
	}
	return ingest.BuiltInSources(ctx, n.Store, tenantID, node, time.Now())
}

// Close releases the node's resources.
func (n *Node) Close() error {
	if n.Stream != nil {
		n.Stream.Close()
	}
	if n.BaseMap != nil {
		n.BaseMap.Close()
	}
	return n.Store.Close()
}

// Serve listens on addr until ctx ends, then shuts down gracefully. ready, if not nil, receives
// the bound address once listening.
func (n *Node) Serve(ctx context.Context, addr string, ready func(net.Addr)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	return n.ServeListener(ctx, ln, ready)
}

// ServeListener is Serve on a listener already bound (and closes it): a caller that binds port 0
// before New knows the port the system chose, for Config.Addr and the links it makes.
func (n *Node) ServeListener(ctx context.Context, ln net.Listener, ready func(net.Addr)) error {
	srv := &http.Server{
		Handler:           n.Handler,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(n.log.Handler(), slog.LevelWarn),
	}
	if ready != nil {
		ready(ln.Addr())
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	work, stopWork := context.WithCancel(context.Background())
	done := n.runBackground(work)
	defer func() {
		stopWork()
		<-done
	}()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	n.log.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	// Live sockets are hijacked connections the HTTP server does not track: close them first,
	// with 4200 so that browsers reconnect, to another node or to this one once it is back.
	if err := n.Live.Shutdown(shutdownCtx); err != nil {
		n.log.Warn("live sockets did not all close in time", "err", err)
	}
	err := srv.Shutdown(shutdownCtx)
	if e := <-errc; !errors.Is(e, http.ErrServerClosed) {
		err = errors.Join(err, e)
	}
	return err
}

// watchInterval is how often the pipeline watch looks at the stream.
const watchInterval = 15 * time.Second

// runBackground starts the pipeline, the sources and the periodic jobs; the returned channel
// closes when all of them have stopped after ctx ended.
func (n *Node) runBackground(ctx context.Context) <-chan struct{} {
	done := make(chan struct{})
	var wg sync.WaitGroup
	start := func(name string, fn func(context.Context) error) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := fn(ctx); err != nil && ctx.Err() == nil {
				n.log.Error("background work stopped", "what", name, "err", err)
			}
		}()
	}
	start("pipeline", n.Pipeline.Run)
	start("pipeline watch", func(ctx context.Context) error {
		n.Watch.Run(ctx, watchInterval)
		return nil
	})
	start("retention", func(ctx context.Context) error {
		ingest.RunRetention(ctx, []ingest.Expiry{
			{What: "matches", Delete: n.Store.DeleteMatchesBefore},
			{What: "posts", Delete: n.Store.DeletePostsBefore},
			{What: "search history", Delete: n.Store.DeleteSearchHistoryBefore},
			{What: "flags", Delete: n.Store.DeleteFlagsBefore},
			{What: "beacon marks", Delete: n.Store.DeleteMarksBefore},
			{What: "removed places", Delete: n.Store.DeletePlaceRemovalsBefore},
			{What: "assistant conversations", Delete: n.Store.DeleteConversationsBefore},
		}, n.retention, time.Hour, n.log)
		return nil
	})
	start("percolator", n.Percolator.Run)
	start("backfills", n.Backfills.Run)
	start("sessions", func(ctx context.Context) error { n.sweepSessions(ctx); return nil })
	start("exports", n.Exports.Run)
	start("evidence", func(ctx context.Context) error { n.Evidence.Run(ctx); return nil })
	start("automatic evidence", func(ctx context.Context) error { n.Evidence.RunAuto(ctx, 10*time.Second); return nil })
	start("alerts", n.Alerts.Run)
	start("spikes", n.Spikes.Run)
	start("expired exports", func(ctx context.Context) error { n.Exports.RunSweeper(ctx, time.Hour); return nil })
	for _, src := range n.Sources {
		start("source "+src.Name(), func(ctx context.Context) error { return src.Run(ctx, n.Ingest.Emit) })
	}
	start("sources", n.Managed.Run)
	go func() {
		wg.Wait()
		close(done)
	}()
	return done
}

// sweepSessions deletes expired sessions hourly.
func (n *Node) sweepSessions(ctx context.Context) {
	t := time.NewTicker(time.Hour)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			if _, err := n.Store.DeleteExpiredSessions(ctx, now); err != nil && ctx.Err() == nil {
				n.log.Warn("sweep expired sessions", "err", err)
			}
		}
	}
}
