package alerts

import (
	"context"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/audit"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/problem"
)

// Snooze is until when a saved search's alerts are quiet, and who said so.
type Snooze struct {
	SearchID  int64
	Until     time.Time // zero: not snoozed
	UserID    int64
	CreatedAt time.Time
}

// Mute is a story muted in a saved search's alerts. A mute belongs to the search, not to one
// user: a search's alerts go to addresses, not to the users who see the search, so muting a
// story is, like snoozing, a change to the search's alerts (docs/monitor-api.md, "Snooze and
// mute").
type Mute struct {
	SearchID  int64
	StoryID   string
	UserID    int64
	CreatedAt time.Time
}

// SnoozeFor are the snooze lengths the app offers, by name.
var SnoozeFor = map[string]time.Duration{"1h": time.Hour, "8h": 8 * time.Hour, "24h": 24 * time.Hour, "7d": 7 * 24 * time.Hour}

// MaxSnooze bounds a snooze until a date: a search snoozed longer than that is one to turn off.
const MaxSnooze = 90 * 24 * time.Hour

// Messages of snoozing and muting.
const (
	MsgSnoozeLength = `Snooze for "1h", "8h", "24h" or "7d", or until a time.`
	MsgSnoozeUntil  = "Snooze until a time in the next 90 days."
	MsgStoryID      = "The story id is missing or too long."
)

// maxStoryID bounds a story id (a post id).
const maxStoryID = 512

// Quiet is a search's snooze and muted stories.
type Quiet struct {
	Snooze Snooze
	Mutes  []Mute
}

// Quiet is the snooze and the mutes of a search the actor can see.
func (s *Service) Quiet(ctx context.Context, actor authz.Actor, searchID int64) (Quiet, error) {
	if _, err := s.Matches.Search(ctx, actor, searchID); err != nil {
		return Quiet{}, err
	}
	sn, err := s.Store.Snooze(ctx, searchID)
	if err != nil {
		return Quiet{}, err
	}
	if !s.now().Before(sn.Until) {
		sn = Snooze{SearchID: searchID}
	}
	mutes, err := s.Store.MutedStories(ctx, searchID)
	return Quiet{Snooze: sn, Mutes: mutes}, err
}

// SnoozeSearch snoozes the alerts of a search the actor may edit the alerts of, for one of
// SnoozeFor's lengths or until a time; both empty wakes them.
func (s *Service) SnoozeSearch(ctx context.Context, actor authz.Actor, searchID int64, length string, until time.Time) (Snooze, error) {
	if err := s.canEditAlerts(ctx, actor, searchID); err != nil {
		return Snooze{}, err
	}
	now := s.now().UTC()
	switch d, ok := SnoozeFor[length]; {
	case length != "" && !until.IsZero(), length != "" && !ok:
		return Snooze{}, problem.InvalidField("for", MsgSnoozeLength)
	case ok:
		until = now.Add(d)
	case !until.IsZero() && (!until.After(now) || until.Sub(now) > MaxSnooze):
		return Snooze{}, problem.InvalidField("until", MsgSnoozeUntil)
	}
	before, err := s.Store.Snooze(ctx, searchID)
	if err != nil {
		return Snooze{}, err
	}
	sn := Snooze{SearchID: searchID, Until: until.UTC().Truncate(time.Second), UserID: actor.UserID, CreatedAt: now}
	action := audit.ActionUpdated
	if until.IsZero() {
		action = audit.ActionDeleted
	}
	entry := audit.Entry(actor, audit.Change{Model: audit.ModelAlert, ModelID: searchID, Action: action,
		Previous: audit.Encode(audit.Fields{"snoozed_until": audit.Time(before.Until)}),
		New:      audit.Encode(audit.Fields{"snoozed_until": audit.Time(sn.Until)})})
	return sn, s.Store.SetSnooze(ctx, sn, entry)
}

// MuteStory mutes (on) or unmutes a story in the alerts of a search the actor may edit the
// alerts of. Muting what is muted, or unmuting what is not, changes nothing and writes no audit.
func (s *Service) MuteStory(ctx context.Context, actor authz.Actor, searchID int64, storyID string, on bool) error {
	if storyID = strings.TrimSpace(storyID); storyID == "" || len(storyID) > maxStoryID {
		return problem.InvalidField("storyId", MsgStoryID)
	}
	if err := s.canEditAlerts(ctx, actor, searchID); err != nil {
		return err
	}
	action := audit.ActionCreated
	f := audit.Fields{"muted_story": storyID}
	change := audit.Change{Model: audit.ModelAlert, ModelID: searchID, Action: action, New: audit.Encode(f)}
	if !on {
		change.Action, change.Previous, change.New = audit.ActionDeleted, audit.Encode(f), ""
	}
	_, err := s.Store.SetMute(ctx, Mute{SearchID: searchID, StoryID: storyID, UserID: actor.UserID, CreatedAt: s.now().UTC()},
		on, audit.Entry(actor, change))
	return err
}

// canEditAlerts refuses an actor who cannot change the search's alerts: not found when they
// cannot see it, forbidden when they only view it.
func (s *Service) canEditAlerts(ctx context.Context, actor authz.Actor, searchID int64) error {
	sv, err := s.Matches.Search(ctx, actor, searchID)
	if err != nil {
		return err
	}
	if sv.Level < authz.LevelEdit {
		return problem.Forbidden(monitor.MsgInvalidPermissions)
	}
	return nil
}
