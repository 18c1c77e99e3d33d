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
	// LastUpdatedAt is when the setting last changed (Unix seconds).
	LastUpdatedAt *int64 `json:"lastUpdatedAt"`
}

// Destination is where an alert goes.
type Destination struct {
	Type    string `json:"type"` // email or webhook
	Address string `json:"address"`
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
		if msg, err := s.refuseAlert(ctx, actor.OrganizationID, offered, signing, n, stored); msg != "" || err != nil {
			return raw, msg, err
		}
		n.LastUpdatedAt = &now
		settings[i] = n
	}
	out, err := json.Marshal(settings)
	return out, "", err
}
