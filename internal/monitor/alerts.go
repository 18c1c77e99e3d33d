package monitor

import (
	"encoding/json"
	"fmt"
	"slices"
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
}

// Intervals are an alert type's intervals in seconds, off (0) first; none for a webhook. The web
// app's interval menus are generated from them (internal/contracts).
func Intervals(alertType string) []int { return slices.Clone(allowedIntervals[alertType]) }

// prepareAlerts checks the alerts a search is created or saved with (signing: the organization
// can sign webhooks), gives e-mail alerts without a destination the user's address and stamps
// them; it returns the first problem, or "".
func (s *Service) prepareAlerts(raw json.RawMessage, email string, signing bool, now int64) (json.RawMessage, string) {
	var settings []NotificationSetting
	if err := json.Unmarshal(raw, &settings); err != nil {
		return raw, "Alerts must be a list of notification settings."
	}
	for i, n := range settings {
		if _, known := allowedIntervals[n.Type]; !known {
			return raw, fmt.Sprintf("Unknown alert type %q.", n.Type)
		}
		n = s.withDefaultDestination(n, email)
		if msg := s.checkSetting(n, signing); msg != "" {
			return raw, msg
		}
		n.LastUpdatedAt = &now
		settings[i] = n
	}
	out, err := json.Marshal(settings)
	if err != nil {
		return raw, err.Error()
	}
	return out, ""
}
