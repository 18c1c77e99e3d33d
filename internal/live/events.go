package live

import "context"

// Publisher sends an event to every browser a user has open, on whichever node it is connected.
// Delivery is at most once: a browser that is offline or reconnecting misses the event, so
// events say "something changed" and the page refetches what it shows.
type Publisher interface {
	PublishToUser(ctx context.Context, userID int64, event string, payload any) error
}

// Events on private-user.{id} are defined by the domains that send them (docs/live.md lists
// them all): monitor.EventMatchesUpdated and monitor.EventMatchCreated, and the export event
// below, which has no domain of its own yet.

// EventExportReady says an export the user asked for can be downloaded.
const EventExportReady = "export.ready"

// ExportReady is the payload of EventExportReady.
type ExportReady struct {
	Link string `json:"link"`
	// TTL is how many seconds the link stays valid; the page shows it only while above 0.
	TTL int `json:"ttl"`
}

// A hub is the Publisher other domains are given.
var _ Publisher = (*Hub)(nil)
