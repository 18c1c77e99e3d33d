// Package api is Sightline's HTTP interface: one routing table, thin handlers that decode the
// request, make one domain call and encode the reply. Rules live in the domain packages;
// permission decisions in internal/authz.
package api

import (
	"context"
	"github.com/sightline/sightline/internal/alerts"
	"github.com/sightline/sightline/internal/asset"
	"log/slog"
	"net/http"
	"net/netip"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/announce"
	"github.com/sightline/sightline/internal/assistant"
	"github.com/sightline/sightline/internal/audit"
	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/backtest"
	"github.com/sightline/sightline/internal/basemap"
	"github.com/sightline/sightline/internal/cases"
	"github.com/sightline/sightline/internal/evidence"
	"github.com/sightline/sightline/internal/export"
	"github.com/sightline/sightline/internal/filters"
	"github.com/sightline/sightline/internal/geo"
	"github.com/sightline/sightline/internal/imageproxy"
	"github.com/sightline/sightline/internal/ingest"
	"github.com/sightline/sightline/internal/live"
	"github.com/sightline/sightline/internal/members"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/search"
	"github.com/sightline/sightline/internal/social"
	"github.com/sightline/sightline/internal/sourcing"
	"github.com/sightline/sightline/internal/spike"
	"github.com/sightline/sightline/internal/story"
	"github.com/sightline/sightline/internal/support"
	"github.com/sightline/sightline/internal/tenant"
	"github.com/sightline/sightline/internal/translate"
	"github.com/sightline/sightline/internal/trend"
	"github.com/sightline/sightline/internal/usage"
)

// Deps are the domain services the API calls.
type Deps struct {
	// EmailDelivery says the server can send e-mail (--smtp-url); the profile tells the app.
	EmailDelivery bool
	// Social connects users' accounts on the networks the operator configured (--oauth-config).
	Social *social.Service
	// Tenant is the tenant portal: organizations, users and API tokens (docs/tenant-api.md).
	Tenant *tenant.Service
	// Translate translates through the operator's server (--translate-url) and lists a
	// document's entities; nil is a server without translation.
	Translate *translate.Service
	// Portals are the other products' addresses; the profile says which exist.
	Portals  Portals
	Accounts *account.Service
	// AuditLog serves the tenant's audit log to tenant admins; Announcements the tenant's notes.
	AuditLog      *audit.Log
	Announcements *announce.Service
	Alerts        *alerts.Service
	Auth          *auth.Service
	Ingest        *ingest.Service
	// IngestStats reports the state of ingestion, for one tenant or for one user's sources.
	IngestStats func(ctx context.Context, scope ingest.Scope) (ingest.Stats, error)
	// PipelineWarnings are the pipeline watch's warnings, shown with the sources' health (none
	// when nil).
	PipelineWarnings func() []ingest.Warning
	// BuiltInSources are the sources that are not rows of a tenant's sources table: the node's
	// own (the simulator) and the tenant's ingest sources (none when nil).
	BuiltInSources func(ctx context.Context, tenantID int64) ([]ingest.BuiltInSource, error)
	Geocoder       geo.Geocoder
	// Reverse names a point (GET /api/v1/geocode/reverse): the embedded gazetteer.
	Reverse       geo.Reverser
	Monitor       *monitor.Service
	Filters       *filters.Service
	Locations     *filters.Locations
	Assets        *asset.Service
	Search        *search.Service
	SearchLimiter *search.Limiter
	Backtest      *backtest.Service // previews draft saved searches over stored posts
	History       *search.History
	Flags         *search.Flags
	Marks         *search.MarkService
	// Places takes places off posts for a tenant and puts them back (issue 27).
	Places *search.Places
	// Members invites people to organizations and removes them (docs/settings-api.md).
	Members *members.Service
	// Support mails the help drawer's requests to the tenant's support address.
	Support *support.Service
	// Usage counts searches, results and exports by month for the statistics.
	Usage *usage.Service
	// Assistant answers questions from stored posts and analyses posts (issue 15).
	Assistant *assistant.Service
	// Sources are the tenant's content sources (issue 16); SourceTypes the types they may have.
	Sources     *sourcing.Service
	SourceTypes []string
	// Exports writes chosen posts to files in the background (issue 13).
	Exports *export.Service
	// Evidence captures posts, matches, stories and pages, and serves the records (issue 32).
	Evidence *evidence.Service
	// Cases are the organization's investigations (issue 32, docs/cases-api.md).
	Cases *cases.Service
	// Stories serves the events posts report, each over the posts a reader may see (issue 30).
	Stories *story.Service
	// Spikes lists saved searches' spikes; Trends emerging terms (issue 31).
	Spikes *spike.Service
	Trends *trend.Service
	Health func(ctx context.Context) error
	// ImageProxy fetches posts' pictures; nil gets one that reaches public addresses only.
	ImageProxy *imageproxy.Proxy
	// BaseMap is the operator's choice of base map (--map-tiles-url, --map-pmtiles); nil is the
	// offline outlines.
	BaseMap *basemap.Map
	// Live is the node's live channel (docs/live.md).
	Live *live.Hub
	// App serves the embedded web app for every path the API does not own.
	App    http.Handler
	Logger *slog.Logger
	// TrustedProxies are the reverse proxies whose X-Forwarded-For and X-Forwarded-Proto count.
	TrustedProxies []netip.Prefix
	// BodyReadTimeout bounds how long a request body may take to arrive (or pause, for the
	// ingest stream); DefaultBodyReadTimeout when 0.
	BodyReadTimeout time.Duration
}

// API holds the handlers' dependencies.
type API struct {
	Deps
}

// RequestTimeout bounds every API request; long-lived streams opt out.
const RequestTimeout = 60 * time.Second

// New builds the HTTP handler with every route.
func New(d Deps) http.Handler {
	if d.ImageProxy == nil {
		d.ImageProxy = imageproxy.New(imageproxy.Options{})
	}
	if d.Translate == nil {
		d.Translate = translate.NewService(nil, nil)
	}
	if d.SearchLimiter == nil {
		d.SearchLimiter = search.NewLimiter()
	}
	if d.BaseMap == nil {
		d.BaseMap = basemap.OutlinesOnly()
	}
	a := &API{Deps: d}
	mux := http.NewServeMux()

	mux.HandleFunc("GET /healthz", a.handle(a.healthz))

	// Sign-in, tokens and sign-out (search-side.md sections 4, 7).
	mux.HandleFunc("POST /api/v1/auth/login", a.handle(a.login))
	mux.HandleFunc("PUT /api/v1/token", a.handle(a.refreshToken))
	mux.HandleFunc("GET /logout", a.handle(a.logout))

	// Settings (search-side.md section 7).
	mux.HandleFunc("GET /api/v1/settings/profile/current", a.user(a.currentProfile))
	mux.HandleFunc("PATCH /api/v1/settings/profile/update/display-theme", a.user(a.updateDisplayTheme))
	mux.HandleFunc("PATCH /api/v1/settings/profile/update/media-sensitivity", a.user(a.updateMediaSensitivity))
	mux.HandleFunc("PATCH /api/v1/settings/profile/update/{switch}", a.user(a.toggleSetting))
	mux.HandleFunc("PUT /api/v1/settings/profile/password", a.user(a.changePassword))
	mux.HandleFunc("PUT /api/v1/settings/profile/mfa", a.user(a.updateMFA))
	mux.HandleFunc("PUT /api/v1/settings/profile/contact", a.user(a.updateContact))
	mux.HandleFunc("GET /api/v1/settings/profile/state", a.user(a.profileState))
	mux.HandleFunc("GET /api/v1/settings/sessions", a.user(a.sessions))
	mux.HandleFunc("DELETE /api/v1/settings/sessions", a.user(a.endOtherSessions))
	mux.HandleFunc("DELETE /api/v1/settings/sessions/{id}", a.user(a.endSession))
	mux.HandleFunc("GET /api/v1/settings/tokens", a.user(a.ownTokens))
	mux.HandleFunc("DELETE /api/v1/settings/tokens/{id}", a.user(a.revokeOwnToken))
	mux.HandleFunc("GET /api/v1/settings/social/providers", a.user(a.socialProviders))
	mux.HandleFunc("GET /api/v1/settings/social/integrations", a.user(a.socialIntegrations))
	if d.Social != nil {
		mux.HandleFunc("GET /api/v1/settings/social/connect/{provider}", a.user(a.connectSocial))
		mux.HandleFunc("GET /api/v1/settings/social/callback/{provider}", a.user(a.socialCallback))
		mux.HandleFunc("DELETE /api/v1/settings/social/logout/{id}", a.user(a.disconnectSocial))
	}
	mux.HandleFunc("GET /api/v1/settings/organizations/current", a.user(a.currentOrganization))
	mux.HandleFunc("PUT /api/v1/settings/organizations/{orgId}/webhook", a.user(a.rotateWebhookSecret))
	// Members and invitations (docs/settings-api.md); the invitation link's page and calls are public.
	mux.HandleFunc("GET /api/v1/settings/organizations/{orgId}/invitations", a.user(a.invitations))
	mux.HandleFunc("POST /api/v1/settings/organizations/{orgId}/invitations", a.user(a.invite))
	mux.HandleFunc("DELETE /api/v1/settings/organizations/invitations/{id}", a.user(a.revokeInvitation))
	mux.HandleFunc("DELETE /api/v1/settings/organizations/{orgId}/members/{userId}", a.user(a.removeMember))
	mux.HandleFunc("PUT /api/v1/settings/organizations/{orgId}/members/{userId}", a.user(a.setMemberRole))
	mux.HandleFunc("GET /api/v1/invitations/{token}", a.handle(a.openInvitation))
	mux.HandleFunc("POST /api/v1/support", a.user(a.writeSupport))
	mux.HandleFunc("POST /api/v1/invitations/{token}/accept", a.handle(a.acceptInvitation))
	mux.HandleFunc("GET /api/v1/settings/organizations/{orgId}/statistics/{product}/{counts}", a.user(a.statistics))

	// Tenant portal, for tenant admins (search-side.md sections 2 and 6; docs/tenant-api.md).
	if d.Tenant != nil {
		mux.HandleFunc("GET /api/v1/tenant/organizations", a.user(a.tenantOrganizations))
		mux.HandleFunc("PUT /api/v1/tenant/organizations/{id}/feature-flags/{flag}", a.user(a.setTenantFeatureFlag))
		mux.HandleFunc("PUT /api/v1/tenant/organizations/{id}/settings/{setting}", a.user(a.setTenantOrganizationSetting))
		mux.HandleFunc("PUT /api/v1/tenant/organizations/{id}/limits", a.user(a.setTenantOrganizationLimits))
		mux.HandleFunc("GET /api/v1/tenant/users", a.user(a.tenantUsers))
		mux.HandleFunc("POST /api/v1/tenant/users", a.user(a.createTenantUser))
		mux.HandleFunc("PUT /api/v1/tenant/users/{id}", a.user(a.updateTenantUser))
		mux.HandleFunc("PUT /api/v1/tenant/users/{id}/disable", a.user(a.disableTenantUser))
		mux.HandleFunc("PUT /api/v1/tenant/users/{id}/enable", a.user(a.enableTenantUser))
		mux.HandleFunc("PUT /api/v1/tenant/users/{id}/reset-mfa", a.user(a.resetTenantUserMFA))
		mux.HandleFunc("GET /api/v1/tenant/tokens", a.user(a.tenantTokens))
		mux.HandleFunc("POST /api/v1/tenant/tokens", a.user(a.createTenantToken))
		mux.HandleFunc("DELETE /api/v1/tenant/tokens/{id}", a.user(a.revokeTenantToken))
	}

	// Tenant portal: audit logs and announcements (docs/tenant-api.md).
	mux.HandleFunc("GET /api/v1/tenant/audit-logs", a.user(a.auditLogs))
	mux.HandleFunc("GET /api/v1/tenant/audit-logs.csv", a.user(a.auditLogsCSV))
	mux.HandleFunc("POST /api/v1/tenant/announcements", a.user(a.publishAnnouncement))
	mux.HandleFunc("DELETE /api/v1/tenant/announcements/{id}", a.user(a.deleteAnnouncement))
	mux.HandleFunc("GET /api/v1/announcements", a.user(a.announcements))
	mux.HandleFunc("POST /api/v1/announcements/read", a.user(a.readAnnouncements))

	// Content pipeline (issue: sources, stream, storage).
	mux.HandleFunc("POST /api/v1/ingest/posts", a.authenticated(a.ingestPosts))
	// The same tokens report the posts they pushed that the provider deleted (docs/ingest.md).
	mux.HandleFunc("POST /api/v1/ingest/deletions", a.authenticated(a.ingestDeletions))
	// Operators' ingest-scoped tokens read their own sources' stats.
	mux.HandleFunc("GET /api/v1/ingest/stats", a.authenticated(a.ingestStats))

	// The post format of the ingest API, as a JSON Schema (docs/ingest.md).
	mux.HandleFunc("GET /api/v1/ingest/schema", a.handle(a.ingestSchema))

	// Content sources and their health (issue 16; docs/connectors.md), for tenant admins.
	if d.Sources != nil {
		mux.HandleFunc("GET /api/v1/sources", a.user(a.sources))
		mux.HandleFunc("POST /api/v1/sources", a.user(a.createSource))
		mux.HandleFunc("GET /api/v1/sources/types", a.user(a.sourceTypes))
		mux.HandleFunc("GET /api/v1/sources/health", a.user(a.sourcesHealth))
		mux.HandleFunc("POST /api/v1/sources/test", a.user(a.testSource))
		mux.HandleFunc("GET /api/v1/sources/{id}", a.user(a.source))
		mux.HandleFunc("PATCH /api/v1/sources/{id}", a.user(a.updateSource))
		mux.HandleFunc("DELETE /api/v1/sources/{id}", a.user(a.deleteSource))
		mux.HandleFunc("POST /api/v1/sources/{id}/test", a.user(a.testSource))
	}

	// Beacon search (search-side.md section 7; the body is documented in docs/search-api.md).
	mux.HandleFunc("POST /beacon/v1/search", a.beaconUser(a.recordSearch))
	mux.HandleFunc("GET /beacon/v1/search", a.beaconUser(a.searchHistory))
	mux.HandleFunc("POST /beacon/v1/{category}", a.beaconUser(a.searchPosts))
	mux.HandleFunc("POST /beacon/v1/{category}/load-more", a.beaconUser(a.morePosts))
	mux.HandleFunc("POST /beacon/v1/{category}/next-page", a.beaconUser(a.morePosts))
	mux.HandleFunc("POST /beacon/v1/analytics", a.beaconUser(a.beaconAnalytics))
	mux.HandleFunc("POST /api/v1/locate/search", a.user(a.locateSearch))
	mux.HandleFunc("POST /api/v1/locate/search/load-more", a.user(a.locateMore))
	mux.HandleFunc("POST /api/v1/locate/analytics", a.user(a.locateAnalytics))
	mux.HandleFunc("GET /beacon/v1/flags", a.beaconUser(a.flaggedPosts))
	mux.HandleFunc("GET /beacon/v1/trending", a.beaconUser(a.beaconTrends))
	mux.HandleFunc("POST /beacon/v1/flags", a.beaconUser(a.flagPosts))
	mux.HandleFunc("DELETE /beacon/v1/flags", a.beaconUser(a.clearFlags))
	mux.HandleFunc("DELETE /beacon/v1/flags/{postId}", a.beaconUser(a.unflagPost))
	mux.HandleFunc("POST /beacon/v1/marks", a.beaconUser(a.postMarks))
	// Each mark is its own route: a {mark} wildcard would overlap /beacon/v1/{category}/load-more.
	mux.HandleFunc("POST /beacon/v1/marks/read", a.beaconUser(a.markPosts(search.MarkRead)))
	mux.HandleFunc("POST /beacon/v1/marks/deleted", a.beaconUser(a.markPosts(search.MarkDeleted)))
	mux.HandleFunc("POST /beacon/v1/marks/unread", a.beaconUser(a.markUnread))
	// A post's places as the analyst corrects them, for their tenant (docs/search-api.md).
	mux.HandleFunc("DELETE /api/v1/posts/{id}/places/{country}/{name}", a.user(a.placeAction(a.Places.Remove)))
	mux.HandleFunc("PUT /api/v1/posts/{id}/places/{country}/{name}", a.user(a.placeAction(a.Places.Restore)))

	// The assistant (search-side.md section 7; docs/assistant.md).
	mux.HandleFunc("POST /api/v1/ai-insights/conversation", a.user(a.askAssistant))
	mux.HandleFunc("GET /api/v1/ai-insights/conversation/{sessionId}", a.user(a.assistantConversation))
	mux.HandleFunc("POST /api/v1/ai-insights/analyze", a.user(a.analyzePost))
	mux.HandleFunc("PUT /api/v1/ai-insights/messages/{id}/feedback", a.user(a.rateAnswer))
	mux.HandleFunc("DELETE /api/v1/ai-insights/messages/{id}/feedback", a.user(a.withdrawFeedback))
	// Translation (search-side.md section 7, docs/translation.md).
	mux.HandleFunc("POST /api/v1/translate", a.user(a.translateText))

	mux.HandleFunc("GET /demo-media/{name}", a.handle(a.demoMedia))
	mux.HandleFunc("GET /api/v1/geocode/autocomplete", a.user(a.geocodeAutocomplete))
	mux.HandleFunc("GET /api/v1/geocode/address", a.user(a.geocodeAddress))
	mux.HandleFunc("GET /api/v1/geocode/reverse", a.user(a.geocodeReverse))
	mux.HandleFunc("GET /proxy/images/", a.user(a.proxyImage))
	// The base map (docs/maps.md).
	mux.HandleFunc("GET /api/v1/map/base", a.user(a.mapBase))
	if d.BaseMap.Archive() != nil {
		mux.HandleFunc("GET "+basemap.ArchivePath, a.user(a.mapArchive))
	}

	// Monitor (monitor-area.md section 7).
	// Stories: the posts that report one event (docs/stories.md).
	mux.HandleFunc("GET /api/v1/stories/{id}", a.user(a.story))

	// Cases: investigations with items, notes, a timeline and comments (docs/cases-api.md).
	mux.HandleFunc("GET /api/v1/cases", a.user(a.listCases))
	mux.HandleFunc("POST /api/v1/cases", a.user(a.createCase))
	mux.HandleFunc("GET /api/v1/cases/{id}", a.user(a.getCase))
	mux.HandleFunc("PATCH /api/v1/cases/{id}", a.user(a.updateCase))
	mux.HandleFunc("DELETE /api/v1/cases/{id}", a.user(a.deleteCase))
	mux.HandleFunc("POST /api/v1/cases/{id}/items", a.user(a.addCaseItem))
	mux.HandleFunc("PATCH /api/v1/cases/{id}/items/{item}", a.user(a.updateCaseItem))
	mux.HandleFunc("DELETE /api/v1/cases/{id}/items/{item}", a.user(a.deleteCaseItem))
	mux.HandleFunc("POST /api/v1/cases/{id}/comments", a.user(a.addCaseComment))
	mux.HandleFunc("GET /api/v1/cases/{id}/export", a.user(a.exportCase))

	mux.HandleFunc("GET /api/v1/monitor/providers", a.user(a.providers))
	mux.HandleFunc("GET /api/v1/monitor/monitor-search-groups/mini", a.user(a.groupsMini))
	mux.HandleFunc("GET /api/v1/monitor/monitor-search-groups", a.user(a.groups))
	mux.HandleFunc("GET /api/v1/monitor/monitor-search-groups/{id}", a.user(a.group))
	mux.HandleFunc("POST /api/v1/monitor/monitor-search-groups", a.user(a.createGroup))
	mux.HandleFunc("PUT /api/v1/monitor/monitor-search-groups/{id}", a.user(a.updateGroup))
	mux.HandleFunc("PUT /api/v1/monitor/monitor-search-groups/{id}/detach", a.user(a.itemAction(a.Monitor.DetachGroup, "detached")))
	mux.HandleFunc("DELETE /api/v1/monitor/monitor-search-groups/{id}", a.user(a.itemAction(a.Monitor.DeleteGroup, "deleted")))
	mux.HandleFunc("GET /api/v1/monitor/searches", a.user(a.searches))
	mux.HandleFunc("GET /api/v1/monitor/searches/{id}", a.user(a.search))
	mux.HandleFunc("POST /api/v1/monitor/searches", a.user(a.createSearch))
	mux.HandleFunc("POST /api/v1/monitor/searches/backtest", a.user(a.backtestSearch))
	mux.HandleFunc("PUT /api/v1/monitor/searches/{id}", a.user(a.updateSearch))
	mux.HandleFunc("PUT /api/v1/monitor/searches/{id}/detach", a.user(a.itemAction(a.Monitor.DetachSearch, "detached")))
	mux.HandleFunc("DELETE /api/v1/monitor/searches/{id}", a.user(a.itemAction(a.Monitor.DeleteSearch, "deleted")))
	mux.HandleFunc("PATCH /api/v1/monitor/searches/group", a.user(a.moveSearches))
	mux.HandleFunc("GET /api/v1/monitor/alert-channels", a.user(a.alertChannels))
	mux.HandleFunc("GET /api/v1/monitor/searches/{id}/notification-settings", a.user(a.notificationSettings))
	mux.HandleFunc("PUT /api/v1/monitor/searches/{id}/notification-settings", a.user(a.saveNotificationSettings))
	mux.HandleFunc("POST /api/v1/monitor/searches/{id}/notification-settings/test", a.user(a.testNotification))
	mux.HandleFunc("GET /api/v1/monitor/searches/{id}/deliveries", a.user(a.deliveries))
	mux.HandleFunc("GET /api/v1/monitor/searches/{id}/spikes", a.user(a.searchSpikes))
	mux.HandleFunc("GET /api/v1/monitor/trends", a.user(a.monitorTrends))
	mux.HandleFunc("GET /api/v1/monitor/searches/{id}/alert-quiet", a.user(a.alertQuiet))
	mux.HandleFunc("PUT /api/v1/monitor/searches/{id}/snooze", a.user(a.snoozeAlerts))
	mux.HandleFunc("DELETE /api/v1/monitor/searches/{id}/snooze", a.user(a.wakeAlerts))
	mux.HandleFunc("PUT /api/v1/monitor/searches/{id}/muted-stories/{storyId}", a.user(a.muteStory(true)))
	mux.HandleFunc("DELETE /api/v1/monitor/searches/{id}/muted-stories/{storyId}", a.user(a.muteStory(false)))
	mux.HandleFunc("PATCH /api/v1/monitor/searches/settings/{id}/{setting}", a.user(a.searchSetting))
	mux.HandleFunc("GET /api/v1/monitor/matches", a.user(a.matches))
	mux.HandleFunc("GET /api/v1/monitor/matches/list", a.user(a.matchList))
	mux.HandleFunc("PATCH /api/v1/monitor/matches/{scope}/{flag}", a.user(a.updateMatches))
	mux.HandleFunc("GET /api/v1/monitor/matches/counts", a.user(a.matchCounts))
	mux.HandleFunc("GET /api/v1/monitor/matches/counts/list", a.user(a.matchCountsList))
	mux.HandleFunc("GET /api/v1/monitor/matches/thread-context/{postId}", a.user(a.threadContext))
	mux.HandleFunc("GET /api/v1/monitor/dashboard", a.user(a.dashboard))
	mux.HandleFunc("GET /api/v1/monitor/dashboard/layout", a.user(a.dashboardLayout))
	mux.HandleFunc("PUT /api/v1/monitor/dashboard/layout", a.user(a.saveDashboardLayout))

	// Exports of matches and Beacon results (docs/monitor-api.md, "Exports").
	mux.HandleFunc("POST /api/v1/exports", a.user(a.requestExport))
	mux.HandleFunc("GET /api/v1/exports", a.user(a.exports))
	mux.HandleFunc("GET /api/v1/exports/{id}/download", a.user(a.downloadExport))

	// Evidence (docs/evidence.md).
	mux.HandleFunc("POST /api/v1/evidence", a.user(a.captureEvidence))
	mux.HandleFunc("GET /api/v1/evidence", a.user(a.evidenceList))
	mux.HandleFunc("GET /api/v1/evidence/{id}", a.user(a.evidenceRecord))
	mux.HandleFunc("DELETE /api/v1/evidence/{id}", a.user(a.deleteEvidence))
	mux.HandleFunc("GET /api/v1/evidence/{id}/files/{name...}", a.user(a.evidenceFile))
	mux.HandleFunc("GET /api/v1/evidence/{id}/bundle", a.user(a.evidenceBundle))
	mux.HandleFunc("GET /api/v1/monitor/searches/{id}/capture", a.user(a.autoCapture))
	mux.HandleFunc("PUT /api/v1/monitor/searches/{id}/capture", a.user(a.autoCapture))

	// Filter lists and the configurations manager (monitor-area.md section 7; the shapes are in
	// docs/decisions.md). The collections answer with and without the slash.
	mux.HandleFunc("GET /api/v1/filter-lists", a.user(a.filterLists))
	mux.HandleFunc("GET /api/v1/filter-lists/{$}", a.user(a.filterLists))
	mux.HandleFunc("POST /api/v1/filter-lists", a.user(a.createFilterList))
	mux.HandleFunc("POST /api/v1/filter-lists/{$}", a.user(a.createFilterList))
	mux.HandleFunc("GET /api/v1/filter-lists/{id}", a.user(a.filterList))
	mux.HandleFunc("PATCH /api/v1/filter-lists/{id}", a.user(a.updateFilterList))
	mux.HandleFunc("DELETE /api/v1/filter-lists/{id}", a.user(a.deleteFilterList))
	mux.HandleFunc("POST /api/v1/filter-lists/{id}/upload", a.user(a.uploadFilterList))
	mux.HandleFunc("POST /api/v1/filter-lists/{id}/{entries}", a.user(a.addFilterListEntries))
	mux.HandleFunc("DELETE /api/v1/filter-lists/{id}/{entries}", a.user(a.removeFilterListEntries))
	mux.HandleFunc("GET /api/v1/prebuilt-filter-lists", a.user(a.prebuiltFilterLists))
	mux.HandleFunc("GET /api/v1/prebuilt-filter-lists/{$}", a.user(a.prebuiltFilterLists))
	mux.HandleFunc("GET /api/v1/object-detection-typeahead", a.user(a.objectTypeahead))
	mux.HandleFunc("POST /api/v1/object-detection-typeahead", a.user(a.trackObject))
	mux.HandleFunc("GET /api/v1/monitor/assets", a.user(a.assets))
	mux.HandleFunc("POST /api/v1/monitor/assets", a.user(a.createAsset))
	mux.HandleFunc("PUT /api/v1/monitor/assets/{id}", a.user(a.updateAsset))
	mux.HandleFunc("DELETE /api/v1/monitor/assets/{id}", a.user(a.deleteAsset))
	mux.HandleFunc("GET /api/v1/configurations-manager/configurations", a.user(a.locationConfigurations))
	mux.HandleFunc("POST /api/v1/configurations-manager/configurations", a.user(a.createLocationConfiguration))
	mux.HandleFunc("POST /api/v1/configurations-manager/configurations/import", a.user(a.importLocationConfigurations))
	mux.HandleFunc("GET /api/v1/configurations-manager/configurations/{id}", a.user(a.locationConfiguration))
	mux.HandleFunc("PUT /api/v1/configurations-manager/configurations/{id}", a.user(a.updateLocationConfiguration))
	mux.HandleFunc("DELETE /api/v1/configurations-manager/configurations/{id}", a.user(a.deleteLocationConfiguration))
	mux.HandleFunc("GET /api/v1/configurations-manager/geocode", a.user(a.geocodeConfiguration))

	// Live channel: Pusher protocol 7 (docs/live.md). The socket outlives any request timeout.
	mux.HandleFunc("GET /app/{key}", a.liveSocket)
	mux.HandleFunc("POST /broadcasting/auth", a.user(a.authorizeChannel))
	mux.HandleFunc("GET /api/v1/live/config", a.user(a.liveConfig))

	// The other products' portals; without an address a portal's path is the app's not-found page.
	for portal, path := range portalPaths {
		if address := d.Portals[portal]; address != "" {
			mux.HandleFunc("GET "+path, a.user(a.openPortal(portal, address)))
		}
	}

	// Beacon's screens live at and under the search API's prefix (without the exact pattern the
	// mux would redirect /beacon to /beacon/, a JSON 404).
	mux.Handle("GET /beacon", d.App)
	mux.Handle("GET /beacon/results", d.App)
	mux.Handle("GET /beacon/author", d.App)
	// Anything else under the API prefixes is a JSON 404; every other path is the web app.
	for _, prefix := range []string{"/api/", "/beacon/", "/broadcasting/"} {
		mux.HandleFunc(prefix, a.handle(a.notFound))
	}
	mux.Handle("/", d.App)

	return securityHeaders(contentSecurityPolicy(d.BaseMap), a.recoverPanics(a.forwarded(a.logRequests(a.bodyDeadline(a.antiForgeryCookie(a.identify(mux)))))))
}
