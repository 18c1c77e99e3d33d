package api_test

import (
	"fmt"
	"testing"

	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

const layoutPath = "/api/v1/monitor/dashboard/layout"

func TestDashboardLayout(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		fe := newFiltersEnv(t, s)
		c := fe.client()
		mine, colleague := fe.bearerFor("analyst@acme.test"), fe.bearerFor("admin@acme.test")
		rows := func(r reply) string { return fmt.Sprint(dig(r.body, "data", "rows")) }

		def := c.do("GET", layoutPath, nil, withBearer(mine))
		if def.status != 200 || rows(def) != "[map[widgets:[result_count unread_count new_count]] map[widgets:[spikes trending]] "+
			"map[widgets:[top_authors top_providers top_mentioned_locations]] map[widgets:[heatmap]] "+
			"map[widgets:[timeline]] map[widgets:[threat]]]" {
			t.Fatalf("default layout = %d %v", def.status, def.body)
		}
		custom := map[string]any{"rows": []map[string]any{{"widgets": []string{"timeline", "result_count"}},
			{"widgets": []string{"threat"}}}}
		if r := c.do("PUT", layoutPath, custom, withBearer(mine)); r.status != 200 {
			t.Fatalf("save = %d %v", r.status, r.body)
		}
		if r := c.do("GET", layoutPath, nil, withBearer(mine)); rows(r) != "[map[widgets:[timeline result_count]] map[widgets:[threat]]]" {
			t.Errorf("after saving, the layout is %v", r.body)
		}
		// The layout is personal: a colleague still has the default.
		if r := c.do("GET", layoutPath, nil, withBearer(colleague)); rows(r) != rows(def) {
			t.Errorf("a colleague's layout is %v", r.body)
		}

		for _, bad := range []struct {
			name    string
			rows    []map[string]any
			message string
		}{
			{"an unknown widget", []map[string]any{{"widgets": []string{"result_count", "weather"}}}, `Unknown widget "weather".`},
			{"a widget twice", []map[string]any{{"widgets": []string{"threat"}}, {"widgets": []string{"threat"}}},
				`The widget "threat" appears twice.`},
			{"an empty row", []map[string]any{{"widgets": []string{}}}, "Row 1 must hold between 1 and 4 widgets."},
			{"a crowded row", []map[string]any{{"widgets": []string{"result_count", "unread_count", "new_count",
				"heatmap", "threat"}}}, "Row 1 must hold between 1 and 4 widgets."},
		} {
			t.Run(bad.name, func(t *testing.T) {
				r := c.do("PUT", layoutPath, map[string]any{"rows": bad.rows}, withBearer(mine))
				if r.status != 422 || fmt.Sprint(dig(r.body, "errors", "rows")) != "["+bad.message+"]" {
					t.Errorf("= %d %v, want 422 %q", r.status, r.body, bad.message)
				}
			})
		}
		// What was saved before the refused changes is still there.
		if r := c.do("GET", layoutPath, nil, withBearer(mine)); rows(r) != "[map[widgets:[timeline result_count]] map[widgets:[threat]]]" {
			t.Errorf("after refused changes, the layout is %v", r.body)
		}
	})
}
