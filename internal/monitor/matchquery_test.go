package monitor_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/problem"
)

// The inbox's rules live in the monitor: every way in (a page, a walk for exports, a change of
// every match) refuses a query it cannot run before reading anything, naming the field.
func TestInboxQueriesAreValidatedByTheMonitor(t *testing.T) {
	// No store: a refused query never reaches one.
	svc := monitor.NewService(monitor.Deps{})
	actor := authz.Actor{UserID: 1, OrganizationID: 1}
	ctx := context.Background()
	for _, tt := range []struct {
		name    string
		q       monitor.MatchQuery
		field   string
		message string
	}{
		{"too many providers", monitor.MatchQuery{Providers: strings.Split(strings.Repeat("x,", monitor.MaxProviderFilters)+"x", ",")},
			"providers", "Choose at most 100 data sources."},
		{"unknown search-in field", monitor.MatchQuery{SearchIn: []string{monitor.InTitleText, "body"}},
			"searchIn", "searchIn takes titleText, authorName and authorScreenName."},
		{"unknown sort", monitor.MatchQuery{Sort: "score"},
			"sort", "Sort by published_desc, published_asc, discovered_desc or discovered_asc."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, _, inboxErr := svc.Inbox(ctx, actor, tt.q)
			walkErr := svc.EachMatch(ctx, actor, tt.q, 10, func([]monitor.InboxEntry) error { return nil })
			_, setErr := svc.SetStateAll(ctx, actor, tt.q, monitor.FieldRead, true)
			for name, err := range map[string]error{"Inbox": inboxErr, "EachMatch": walkErr, "SetStateAll": setErr} {
				p, ok := problem.As(err)
				if !ok || p.Kind != problem.KindInvalid || p.Message != tt.message || len(p.Fields[tt.field]) != 1 {
					t.Errorf("%s: %v, want 422 on %s saying %q", name, err, tt.field, tt.message)
				}
			}
		})
	}
	valid := monitor.MatchQuery{Providers: []string{"reddit"}, SearchIn: []string{monitor.InAuthorName}, Sort: "published_asc"}
	if err := valid.Validate(); err != nil {
		t.Errorf("a valid query is refused: %v", err)
	}
}
