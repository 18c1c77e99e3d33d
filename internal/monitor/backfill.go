package monitor

import (
	"context"
	"time"

	"github.com/sightline/sightline/internal/authz"
)

// A saved search's backfill fills its inbox from the posts stored in its last days, as the
// percolator would have matched them (docs/monitor-api.md, "Backfill").
const (
	BackfillRunning = "running"
	BackfillDone    = "done"
	BackfillFailed  = "failed"
)

// MaxBackfillDays is how far back a backfill reaches: posts are kept as long as matches.
const MaxBackfillDays = int(Retention / (24 * time.Hour))

// MsgBackfillDays is the message of a backfill out of range.
const MsgBackfillDays = "Fill the inbox from the last 0 to 30 days of stored posts."

// Backfill is the progress of a search's latest backfill: Scanned stored posts read, Added
// matches stored.
type Backfill struct {
	SearchID  int64
	Days      int
	Status    string
	Scanned   int64
	Added     int64
	StartedAt time.Time
	UpdatedAt time.Time
}

// Backfiller fills a saved search's inbox from stored posts in the background.
type Backfiller interface {
	// Start records the backfill as running and runs it, telling userID how far it got; it
	// returns at once.
	Start(ctx context.Context, userID int64, m Search, days int) (Backfill, error)
	// Backfill is the search's latest backfill; ok is false when it never had one.
	Backfill(ctx context.Context, searchID int64) (b Backfill, ok bool, err error)
}

// EventBackfillUpdated tells the user who asked for a backfill how far it got; its payload is
// a BackfillReply.
const EventBackfillUpdated = "monitor.backfill.updated"

// BackfillReply is a backfill as the API and the live channel send it; times are Unix seconds.
type BackfillReply struct {
	MonitorSearchID int64  `json:"monitorSearchId"`
	Days            int    `json:"days"`
	Status          string `json:"status"`
	Scanned         int64  `json:"scanned"`
	Added           int64  `json:"added"`
	StartedAt       int64  `json:"startedAt"`
	UpdatedAt       int64  `json:"updatedAt"`
}

// Reply is b in its reply form.
func (b Backfill) Reply() BackfillReply {
	return BackfillReply{MonitorSearchID: b.SearchID, Days: b.Days, Status: b.Status, Scanned: b.Scanned, Added: b.Added,
		StartedAt: b.StartedAt.Unix(), UpdatedAt: b.UpdatedAt.Unix()}
}

// startBackfill starts the backfill the actor's input asks for, once the search is stored.
func (s *Service) startBackfill(ctx context.Context, actor authz.Actor, m Search, days int) error {
	if days == 0 || s.backfill == nil {
		return nil
	}
	_, err := s.backfill.Start(ctx, actor.UserID, m, days)
	return err
}
