// Package monitor owns saved searches ("monitor searches"), their groups and sharing, and the
// matches the percolator collects for them (monitor-area.md). Permission decisions are made by
// internal/authz from the facts this package loads.
package monitor

import (
	"encoding/json"
	"time"
)

// Group is a folder of saved searches.
type Group struct {
	ID             int64
	OrganizationID int64
	OwnerID        int64
	Name           string
	Privacy        string
	// IsSavedSearch marks the owner's "Uncategorized" group.
	IsSavedSearch bool
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// Search is a saved search.
type Search struct {
	ID             int64
	OrganizationID int64
	OwnerID        int64
	GroupID        int64
	Name           string
	Enabled        bool
	AuthorID       string
	AuthorQuery    string
	Address        string
	AddressBounds  string // WKT
	Keywords       string // the query text
	Providers      []string
	StartAt        time.Time // zero: no start
	EndAt          time.Time // zero: no end
	ImagesOnly     bool
	VideoOnly      bool
	BoardNames     []string
	// NotificationSettings are the alert settings, kept as the client sent them.
	NotificationSettings json.RawMessage

	StreamingLowerLimitExceeded bool
	StreamingUpperLimitExceeded bool
	GnipLowerLimitExceeded      bool
	GnipUpperLimitExceeded      bool
	StreamingOverrideUntil      time.Time
	GnipOverrideUntil           time.Time

	CreatedAt time.Time
	UpdatedAt time.Time
}

// Share is one person an item is shared with.
type Share struct {
	UserID   int64
	Email    string
	Username string
	Name     string
	Role     string
	// FromGroup marks access inherited from the search's group, not editable on the search.
	FromGroup bool
}

// Personal is what one user has of an item: their direct share, whether they detached from it
// whether it is among their favourites and (searches only) whether they hid it from Locate's
// saved-search list.
type Personal struct {
	ShareRole string
	Detached  bool
	Favourite bool
	Hidden    bool
}

// Status of a saved search.
const (
	StatusActive    = "active"
	StatusPaused    = "paused"
	StatusScheduled = "scheduled"
	StatusEnded     = "ended"
	StatusExpired   = "expired"
)

// Retention is how long matches are kept; a search that ended longer ago has no results left.
const Retention = 30 * 24 * time.Hour

// Status is the search's state at now.
func (s Search) Status(now time.Time) string {
	switch {
	case !s.EndAt.IsZero() && s.EndAt.Before(now.Add(-Retention)):
		return StatusExpired
	case !s.EndAt.IsZero() && s.EndAt.Before(now):
		return StatusEnded
	case !s.StartAt.IsZero() && s.StartAt.After(now):
		return StatusScheduled
	case !s.Enabled:
		return StatusPaused
	}
	return StatusActive
}
