package monitor

import (
	"context"
	"fmt"
	"slices"

	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/problem"
)

// Widgets are the dashboard's widgets, by the names layouts use.
var Widgets = []string{"result_count", "unread_count", "new_count", "top_authors", "top_providers",
	"top_mentioned_locations", "heatmap", "timeline", "threat", "spikes", "trending"}

// Layout bounds: a row holds what fits side by side on a wide screen.
const (
	MaxLayoutRows   = 12
	MaxRowWidgets   = 4
	layoutFieldName = "rows"
)

// Layout is how a user arranges the dashboard: rows of widgets, each widget at most once.
type Layout struct {
	Rows []LayoutRow `json:"rows"`
}

// LayoutRow is one row of the dashboard, its widgets left to right.
type LayoutRow struct {
	Widgets []string `json:"widgets"`
}

// DefaultLayout is the dashboard of a user who never customised it.
func DefaultLayout() Layout {
	return Layout{Rows: []LayoutRow{
		{Widgets: []string{"result_count", "unread_count", "new_count"}},
		{Widgets: []string{"spikes", "trending"}},
		{Widgets: []string{"top_authors", "top_providers", "top_mentioned_locations"}},
		{Widgets: []string{"heatmap"}},
		{Widgets: []string{"timeline"}},
		{Widgets: []string{"threat"}},
	}}
}

// Validate refuses unknown or repeated widgets, empty rows and layouts past the bounds.
func (l Layout) Validate() error {
	if len(l.Rows) > MaxLayoutRows {
		return problem.InvalidField(layoutFieldName, fmt.Sprintf("A dashboard has at most %d rows.", MaxLayoutRows))
	}
	seen := map[string]bool{}
	for i, row := range l.Rows {
		if len(row.Widgets) == 0 || len(row.Widgets) > MaxRowWidgets {
			return problem.InvalidField(layoutFieldName,
				fmt.Sprintf("Row %d must hold between 1 and %d widgets.", i+1, MaxRowWidgets))
		}
		for _, w := range row.Widgets {
			if !slices.Contains(Widgets, w) {
				return problem.InvalidField(layoutFieldName, fmt.Sprintf("Unknown widget %q.", w))
			}
			if seen[w] {
				return problem.InvalidField(layoutFieldName, fmt.Sprintf("The widget %q appears twice.", w))
			}
			seen[w] = true
		}
	}
	return nil
}

// LayoutStore keeps each user's dashboard layout.
type LayoutStore interface {
	// DashboardLayout returns the user's saved layout; found is false when there is none.
	DashboardLayout(ctx context.Context, userID int64) (l Layout, found bool, err error)
	SaveDashboardLayout(ctx context.Context, userID int64, l Layout) error
}

// DashboardLayout is the actor's layout, or the default one.
func (s *Service) DashboardLayout(ctx context.Context, actor authz.Actor) (Layout, error) {
	if err := authz.CanUseAPI(actor); err != nil {
		return Layout{}, err
	}
	l, found, err := s.layouts.DashboardLayout(ctx, actor.UserID)
	if err != nil || !found {
		return DefaultLayout(), err
	}
	return l, nil
}

// SaveDashboardLayout replaces the actor's layout; the layout is personal, so only its owner
// ever reads or writes it.
func (s *Service) SaveDashboardLayout(ctx context.Context, actor authz.Actor, l Layout) (Layout, error) {
	if err := authz.CanUseAPI(actor); err != nil {
		return Layout{}, err
	}
	if err := l.Validate(); err != nil {
		return Layout{}, err
	}
	return l, s.layouts.SaveDashboardLayout(ctx, actor.UserID, l)
}
