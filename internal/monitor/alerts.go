package monitor

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/sightline/sightline/internal/authz"
)

// NotificationSetting is one alert of a saved search (monitor-area.md sections 3 and 4).
type NotificationSetting struct {
	Type             string        `json:"type"`
	Interval         int           `json:"interval"` // seconds; 0 is off
	Destinations     []Destination `json:"destinations"`
	LocationAssetIDs []string      `json:"locationAssetIds,omitempty"`
	// Grouping is GroupingPost (a message for the new matches) or GroupingStory (a message
	// when a story first matches and when it escalates; docs/monitor-api.md, "Alert grouping").
	Grouping string `json:"grouping"`
	// LastUpdatedAt is when the setting last changed (Unix seconds).
	LastUpdatedAt *int64 `json:"lastUpdatedAt"`
}

// Destination is where an alert goes.
type Destination struct {
	Type    string `json:"type"` // email or webhook
	Address string `json:"address"`
}

// Groupings of an alert's matches. Settings stored before grouping existed read as
// GroupingPost, today's behaviour; an alert set for the first time without one takes
// GroupingStory.
const (
	GroupingPost  = "post"
	GroupingStory = "story"
)

// MsgUnknownGrouping answers a grouping that is neither.
const MsgUnknownGrouping = `The grouping must be "post" or "story".`

// withGrouping gives n, set without a grouping, the one it had (stored), or GroupingStory when
// it was never set; it returns the problem of a grouping that is not one, or "".
func withGrouping(n NotificationSetting, stored []NotificationSetting) (NotificationSetting, string) {
	switch n.Grouping {
	case GroupingPost, GroupingStory:
		return n, ""
	case "":
		n.Grouping = GroupingStory
		if i := slices.IndexFunc(stored, func(x NotificationSetting) bool { return x.Type == n.Type }); i >= 0 {
			n.Grouping = stored[i].Grouping
		}
		return n, ""
	}
	return n, MsgUnknownGrouping
}

// allowedIntervals are each alert type's intervals in seconds (section 4). Webhooks have none:
// they fire immediately while at least one webhook is set.
var allowedIntervals = map[string][]int{
	AlertBatch:     {0, 60, 300, 1800, 3600},
	AlertProximity: {0, 300, 1800, 3600},
	AlertDigest:    {0, 86400, 604800},
	AlertAISummary: {0, 86400},
	AlertWebhook:   nil,
	// A spike alert is on (60) or off; detection runs every minute.
	AlertSpike: {0, 60},
}

// Intervals are an alert type's intervals in seconds, off (0) first; none for a webhook. The web
// app's interval menus are generated from them (internal/contracts).
func Intervals(alertType string) []int { return slices.Clone(allowedIntervals[alertType]) }

// prepareAlerts checks the alerts a search is created or saved with (by the rules of the
// notification settings; stored are the search's alerts so far), gives e-mail alerts without a
// destination the user's address and stamps them; it returns the first problem, or "".
func (s *Service) prepareAlerts(ctx context.Context, actor authz.Actor, raw json.RawMessage, stored []NotificationSetting, now int64) (json.RawMessage, string, error) {
	var settings []NotificationSetting
	if err := json.Unmarshal(raw, &settings); err != nil {
		return raw, "Alerts must be a list of notification settings.", nil
	}
	offered, email, signing, err := s.alertContext(ctx, actor)
	if err != nil {
		return raw, "", err
	}
	for i, n := range settings {
		if _, known := allowedIntervals[n.Type]; !known {
			return raw, fmt.Sprintf("Unknown alert type %q.", n.Type), nil
		}
		n = s.withDefaultDestination(n, email)
		var msg string
		if n, msg = withGrouping(n, stored); msg != "" {
			return raw, msg, nil
		}
		if msg, err := s.refuseAlert(ctx, actor.OrganizationID, offered, signing, n, stored); msg != "" || err != nil {
			return raw, msg, err
		}
		n.LastUpdatedAt = &now
		settings[i] = n
	}
	out, err := json.Marshal(settings)
	return out, "", err
}
