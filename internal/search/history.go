package search

import (
	"github.com/sightline/sightline/internal/problem"
)

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
