// Package alerts delivers saved searches' alerts (monitor-area.md sections 3, 4 and 9): batches,
// digests, proximity alerts and daily summaries by e-mail, and webhooks signed per Standard
// Webhooks. Each delivery is a row written before it is sent, together with the matches it
// covers, so a restart resumes it and no match is in two deliveries of the same alert; failures
// retry with backoff for a day (docs/decisions.md, "Alert delivery").
package alerts

import (
	"context"
	"log/slog"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/alerts/channel"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/filters"
	"github.com/sightline/sightline/internal/mail"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/story"
)

// Delivery states.
const (
	StatusPending  = "pending"
	StatusSent     = "sent"
	StatusRetrying = "retrying"
	StatusFailed   = "failed"
	// StatusSkipped is a delivery written but never sent: it covers matches that a story
	// notice already told of, or that came while snoozed, muted or held back (Skipped says
	// which, Note why).
	StatusSkipped = "skipped"
)

// Kinds of delivery.
const (
	KindMatches = "matches" // the new matches of an alert grouped by post, or of a digest
	KindStory   = "story"   // a story's first notice or an escalation
	KindFlood   = "flood"   // the flood guard's notice that the search's alerts are held back
)

// Why a delivery was skipped.
const (
	SkippedGrouped = "grouped" // the matches' stories were notified already and did not escalate
	SkippedSnoozed = "snoozed"
	SkippedMuted   = "muted"
	SkippedHeld    = "held" // past the flood guard's bound
)

// Bounds of delivery.
const (
	// RetryFor is how long a failing delivery is retried before it is marked failed.
	RetryFor = 24 * time.Hour
	// MaxListed is how many matches one e-mail lists; it links to the rest.
	MaxListed = 100
	// MaxCovered bounds the matches one delivery covers; the next run takes the rest.
	MaxCovered = 10_000
	// lease is how long a claim on a delivery lasts; the sender renews it every renewEvery
	// while it works, so a crashed node's deliveries are taken over within a lease.
	lease      = 20 * time.Second
	renewEvery = lease / 4
	// senders is how many deliveries a node sends at once, so that one slow mail server or
	// webhook receiver does not hold up the rest.
	senders = 4
	// lateCommit is how far back a run looks past its last one, for matches whose rows were
	// committed after newer ones (concurrent writers on PostgreSQL).
	lateCommit = 10 * time.Minute
)

// WebhookCoalesce is how often an immediate alert (a webhook, a story's notice) collects new
// matches: a burst goes as one message a second, and a match waits at most this long after the
// last message (the 2 s ingest-to-receiver goal, docs/performance.md).
const WebhookCoalesce = time.Second

// DefaultOutsideLimits bound, per organization and node, the scheduled alert e-mails to
// addresses that are not its members': 100 at once, 300 an hour. Destinations are free to
// choose, and matches can carry text the organization ingested, so without it a member could
// mail strangers every minute from many searches. Members' own alerts are not counted.
var DefaultOutsideLimits = mail.Limits{OrgPerHour: 300, OrgBurst: 100}

// Delivery is one message to one destination.
type Delivery struct {
	ID             int64
	SearchID       int64
	OrganizationID int64
	Type           string
	Destination    monitor.Destination
	MatchCount     int
	Status         string
	Attempts       int
	NextAttemptAt  time.Time
	LeaseUntil     time.Time
	LastError      string
	CreatedAt      time.Time
	SentAt         time.Time

	Kind string // KindMatches when ""
	// StoryID, StoryLevel and Escalation name a story notice: level 0 is the story's first,
	// each escalation the next, and Escalation says why (Escalation* constants; an escalation
	// names every reason that held, comma-separated, Reasons).
	StoryID    string
	StoryLevel int
	Escalation string
	// Skipped is why a StatusSkipped delivery was not sent (Skipped* constants); Note says
	// more, in words.
	Skipped string
	Note    string

	// Notice, when set, is recorded with the delivery in its transaction, under a key that a
	// notice of the same alert, story and level already written makes the delivery roll back.
	Notice *StoryNotice
	// FloodDay, when set on a KindFlood delivery, is the day it is the notice of: a second one
	// for the search and day rolls back.
	FloodDay time.Time
}

// StoryNotice is what an alert told of a story at one level: the story's figures then, which
// the next escalation is measured against. Languages counts the named ones (NamedLanguage).
type StoryNotice struct {
	StoryID    string
	Level      int
	PostCount  int64
	Providers  int
	Languages  int
	ThreatHigh bool
	// At is when the notice was written (its delivery's CreatedAt): the escalation cooldown
	// runs from it.
	At time.Time
}

// Store keeps deliveries and the runs that made them.
type Store interface {
	// ClaimRun moves a search's alert's last run from prev (zero: never ran) to next; false when
	// another node moved it first.
	ClaimRun(ctx context.Context, searchID int64, alertType string, prev, next time.Time) (bool, error)
	LastRun(ctx context.Context, searchID int64, alertType string) (time.Time, error)
	// UncoveredMatches are the ids of the search's matches created at or after since that no
	// delivery of this alert and destination covers yet, oldest first.
	UncoveredMatches(ctx context.Context, searchID int64, alertType, destination string, since time.Time, limit int) ([]int64, error)
	// CreateDelivery writes d and the matches it covers in one transaction; false (and nothing
	// written) when another delivery of the alert and destination covers one of them already.
	CreateDelivery(ctx context.Context, d *Delivery, matchIDs []int64) (bool, error)
	// ClaimDelivery takes one due delivery (pending or retrying, next attempt passed, lease
	// expired) until leaseUntil.
	ClaimDelivery(ctx context.Context, now, leaseUntil time.Time) (Delivery, bool, error)
	// RenewDelivery moves a held lease from held to until; false when the lease is no longer
	// held (it ran out and another sender took the row).
	RenewDelivery(ctx context.Context, id int64, held, until time.Time) (bool, error)
	DeliveryMatches(ctx context.Context, deliveryID int64) ([]int64, error)
	// FinishDelivery records an attempt's outcome and frees the row, if d.LeaseUntil is still
	// its lease; false when another sender holds it.
	FinishDelivery(ctx context.Context, d Delivery) (bool, error)
	Deliveries(ctx context.Context, searchID int64, limit int) ([]Delivery, error)
	// LastStoryNotices are the newest notice of each of the stories an alert and destination
	// told of, by story id.
	LastStoryNotices(ctx context.Context, searchID int64, alertType, destination string, storyIDs []string) (map[string]StoryNotice, error)
	// CountNotifications counts the search's deliveries since a time that the flood guard
	// counts: written to be sent, of the alerts it bounds (not digests nor summaries), not its
	// own notices.
	CountNotifications(ctx context.Context, searchID int64, since time.Time) (int, error)

	// Snooze is until when the search's alerts are snoozed (zero: they are not).
	Snooze(ctx context.Context, searchID int64) (Snooze, error)
	// SetSnooze snoozes a search's alerts (a zero Until wakes them), with the audit entries in
	// the change's transaction.
	SetSnooze(ctx context.Context, sn Snooze, audit ...account.AuditEntry) error
	// MutedStories are the stories muted in a search's alerts.
	MutedStories(ctx context.Context, searchID int64) ([]Mute, error)
	// SetMute mutes (on) or unmutes a story in a search's alerts, with the audit entries in
	// the change's transaction; false when it was so already.
	SetMute(ctx context.Context, mu Mute, on bool, audit ...account.AuditEntry) (bool, error)

	Searches(ctx context.Context, organizationID int64) ([]monitor.Search, error)
	Search(ctx context.Context, id int64) (monitor.Search, error)
	Organization(ctx context.Context, id int64) (account.Organization, error)
	User(ctx context.Context, id int64) (account.User, error)
	// Members are the organization's members: test e-mails go only to them, and alert e-mails
	// to anyone else count against OutsideMailLimit.
	Members(ctx context.Context, organizationID int64) ([]account.Member, error)
	MembershipRole(ctx context.Context, organizationID, userID int64) (account.Role, error)
	LocationConfigurationByFPID(ctx context.Context, fpid string) (filters.LocationConfiguration, error)
	WebhookSecret(ctx context.Context, organizationID int64) (string, error)
	// SetWebhookSecret writes the audit entries in the change's transaction.
	SetWebhookSecret(ctx context.Context, organizationID int64, secret string, audit ...account.AuditEntry) error
}

// Matches reads matches as a user sees them (*monitor.Service).
type Matches interface {
	EachMatchByID(ctx context.Context, actor authz.Actor, matchIDs []int64, pageSize int, fn func([]monitor.InboxEntry) error) error
	Search(ctx context.Context, actor authz.Actor, id int64) (monitor.SearchView, error)
}

// Stories reads stories as a user sees them (*story.Service).
type Stories interface {
	Get(ctx context.Context, actor authz.Actor, id string, offset, limit int) (story.View, error)
}

// Deps are what the service needs.
type Deps struct {
	Store   Store
	Matches Matches
	// Channels carry the deliveries (Channels).
	Channels channel.Table
	// Signal tells of new matches (a signal of its own, which nothing tells, when nil).
	Signal *Signal
	// ScanEvery is how often every search is looked at, for what the signal missed
	// (DefaultScanEvery when 0).
	ScanEvery time.Duration
	// Stories reads a story as the search's owner sees it (*story.Service); without it, a
	// story's figures are those of its matches in the delivery.
	Stories Stories
	// Summarizer writes the daily AI summaries: the assistant's engine (extractive when nil).
	Summarizer Summarizer
	// PublicURL is the app's address, for links.
	PublicURL string
	// Spikes reads the spikes spike alerts send (none sent when nil).
	Spikes SpikeReader
	Logger *slog.Logger
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// Service sends alerts.
type Service struct {
	Deps
	now func() time.Time
	// onWritten, set while Run runs, wakes its sender when a delivery to send is written.
	onWritten func()
}

// NewService returns the service; Run sends.
func NewService(d Deps) *Service {
	if d.Logger == nil {
		d.Logger = slog.Default()
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Signal == nil {
		d.Signal = NewSignal()
	}
	if d.ScanEvery <= 0 {
		d.ScanEvery = DefaultScanEvery
	}
	return &Service{Deps: d, now: d.Now}
}
