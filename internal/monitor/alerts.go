package monitor

import (
	"encoding/json"
	"fmt"
	"net/mail"
	"net/url"
	"slices"
)

// NotificationSetting is one alert of a saved search (monitor-area.md sections 3 and 4).
type NotificationSetting struct {
	Type             string        `json:"type"`
	Interval         int           `json:"interval"` // seconds; 0 is off
	Destinations     []Destination `json:"destinations"`
	LocationAssetIDs []string      `json:"locationAssetIds,omitempty"`
}

// Destination is where an alert goes.
type Destination struct {
	Type    string `json:"type"` // email or webhook
	Address string `json:"address"`
}

// allowedIntervals are each alert type's intervals in seconds (section 4). Webhooks have none:
// they fire immediately while at least one webhook is set.
var allowedIntervals = map[string][]int{
	"batch":      {0, 60, 300, 1800, 3600},
	"proximity":  {0, 300, 1800, 3600},
	"digest":     {0, 86400, 604800},
	"ai_summary": {0, 86400},
	"webhook":    nil,
}

// validateAlerts checks alert settings and returns the first problem, or "".
func validateAlerts(raw json.RawMessage) string {
	var settings []NotificationSetting
	if err := json.Unmarshal(raw, &settings); err != nil {
		return "Alerts must be a list of notification settings."
	}
	for _, n := range settings {
		intervals, known := allowedIntervals[n.Type]
		if !known {
			return fmt.Sprintf("Unknown alert type %q.", n.Type)
		}
		if n.Type != "webhook" && !slices.Contains(intervals, n.Interval) {
			return fmt.Sprintf("%d seconds is not an interval a %s alert offers.", n.Interval, n.Type)
		}
		if n.Type == "proximity" && n.Interval > 0 && len(n.LocationAssetIDs) == 0 {
			return "A proximity alert needs at least one location before it can be turned on."
		}
		for _, d := range n.Destinations {
			switch d.Type {
			case "email":
				if a, err := mail.ParseAddress(d.Address); err != nil || a.Address != d.Address {
					return "The provided email address is invalid"
				}
			case "webhook":
				u, err := url.Parse(d.Address)
				if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
					return "The webhook must be an http or https URL."
				}
			default:
				return fmt.Sprintf("Unknown destination type %q.", d.Type)
			}
		}
	}
	return ""
}
