// Package sourcing manages the content sources a tenant's admins add, edit, test, switch on and
// off at /sources (issue 16): the rows, their validation, the manager that runs the enabled
// ones (each on one node) and their health.
package sourcing

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/connector"
)

// Source is a row of the sources table.
type Source struct {
	ID       int64
	TenantID int64
	// Type is the connector: rss, mastodon, bluesky, hackernews, ...
	Type string
	Name string
	// Config is the type's settings (docs/connectors.md).
	Config    json.RawMessage
	Enabled   bool
	CreatedAt time.Time
	UpdatedAt time.Time
	// Health is the running node's last report; zero before any.
	Report Report
}

// Report is what the node running a source writes about it on every tick: its status and how
// many items it emitted in each of the last 60 minutes.
type Report struct {
	ReportedAt time.Time       `json:"reportedAt"`
	Stats      connector.Stats `json:"stats"`
	// Minutes are the items emitted in each of the 60 minutes up to ReportedAt, oldest first.
	Minutes []int64 `json:"minutes"`
	// LastItemAt is when the source last emitted an item.
	LastItemAt time.Time `json:"lastItemAt,omitzero"`
	// BuildError is why the row could not run at all.
	BuildError string `json:"buildError,omitempty"`
}

// Seed is a row to create once: the default public set or a --sources file.
type Seed struct {
	Type    string
	Name    string
	Config  json.RawMessage
	Enabled bool
}

// Store keeps the rows and their leases.
type Store interface {
	Sources(ctx context.Context, tenantID int64) ([]Source, error)
	Source(ctx context.Context, id int64) (Source, error)
	// CreateSource fails with a conflict when the tenant has a source of that name, and with
	// ErrSourceLimitReached when it holds as many as its cap allows. It and the other mutators
	// write the audit entries in the change's transaction (an entry without a ModelID names the
	// source created).
	CreateSource(ctx context.Context, s *Source, audit ...account.AuditEntry) error
	UpdateSource(ctx context.Context, s Source, audit ...account.AuditEntry) error
	DeleteSource(ctx context.Context, id int64, audit ...account.AuditEntry) error
	// ClaimSources takes, until leaseUntil, every enabled source free or already held by
	// claim, and returns those it holds.
	ClaimSources(ctx context.Context, claim string, now, leaseUntil time.Time) ([]Source, error)
	// ReleaseSources gives up every source claim holds.
	ReleaseSources(ctx context.Context, claim string) error
	// SaveSourceReport stores the report of a source claim holds.
	SaveSourceReport(ctx context.Context, id int64, claim string, r Report) error
	// SeedSources creates the seeds once per tenant: false when the tenant was seeded before.
	SeedSources(ctx context.Context, tenantID int64, seeds []Seed, now time.Time) (bool, error)
}

// ErrSourceLimitReached is the store's refusal to add a source beyond the tenant's cap
// (--max-sources-per-tenant). The count and the insert happen in one transaction.
var ErrSourceLimitReached = errors.New("sourcing: the tenant's source limit is reached")

// The dialog a tenant admin sees beyond the cap, in the Asset Limit dialog's words.
const (
	MsgSourceLimitTitle       = "Source Limit Reached"
	MsgSourceLimitDescription = "Your tenant has reached the number of sources this server allows. Remove a source you no longer need, or ask the operator to raise the limit."
)

// CheckFunc refuses settings a row may not be saved with although they could run, such as a
// wait below its type's floor; the error names the field at fault like a BuildFunc's.
type CheckFunc func(typ string, config json.RawMessage) error

// BuildFunc makes the running sources of a row; prefix keys the row's cursors. A row that
// cannot run returns an error naming what is wrong (a *sources.SettingsError).
type BuildFunc func(s Source, cursors connector.CursorStore, prefix string) ([]connector.Source, error)

// IntervalFunc is how often a row polls (0 for a stream).
type IntervalFunc func(typ string, config json.RawMessage) time.Duration
