package search

import (
	"context"
	"encoding/json"
	"time"

	"github.com/sightline/sightline/internal/problem"
)

// HistoryEntry is one search a user ran.
type HistoryEntry struct {
	ID             int64
	UserID         int64
	OrganizationID int64
	Category       string
	Request        string // the request as JSON
	CreatedAt      time.Time
}

// HistoryStore keeps users' search history.
type HistoryStore interface {
	// AddSearchHistory records e (at e.CreatedAt, or now when zero) and drops the user's entries
	// beyond the newest keep.
	AddSearchHistory(ctx context.Context, e HistoryEntry, keep int) (int64, error)
	// SearchHistory lists the user's entries, newest first.
	SearchHistory(ctx context.Context, userID int64, limit int) ([]HistoryEntry, error)
}

// History is the users' search history (the /history page and its re-runs).
type History struct{ store HistoryStore }

func NewHistory(s HistoryStore) *History { return &History{store: s} }

// HistoryShown is how many of a user's entries the history lists.
const HistoryShown = 100

// Record stores a search the user ran: its category and its request object.
func (h *History) Record(ctx context.Context, userID, organizationID int64, category string, request json.RawMessage) (int64, error) {
	if len(request) == 0 || request[0] != '{' {
		return 0, problem.InvalidField("request", "The request field must be the search request object.")
	}
	if err := CheckHistoryEntry(category, request); err != nil {
		return 0, err
	}
	return h.store.AddSearchHistory(ctx, HistoryEntry{UserID: userID, OrganizationID: organizationID,
		Category: category, Request: string(request)}, HistoryKept)
}

// List returns the user's own most recent searches, newest first.
func (h *History) List(ctx context.Context, userID int64) ([]HistoryEntry, error) {
	return h.store.SearchHistory(ctx, userID, HistoryShown)
}

// Search history bounds: each user keeps only the newest HistoryKept entries (older ones go as
// a new one is recorded), each at most MaxHistoryEntryBytes, so that no user can grow the table
// without bound; the 30-day retention removes older entries too.
const (
	HistoryKept          = 500
	MaxHistoryEntryBytes = 32 << 10
)

// MsgHistoryEntryTooLarge refuses a search history entry over MaxHistoryEntryBytes.
const MsgHistoryEntryTooLarge = "A search history entry can be at most 32 KB."

// CheckHistoryEntry refuses an entry (its category and request JSON) larger than
// MaxHistoryEntryBytes.
func CheckHistoryEntry(category string, request []byte) error {
	if len(category)+len(request) > MaxHistoryEntryBytes {
		return problem.InvalidField("request", MsgHistoryEntryTooLarge)
	}
	return nil
}
