package api_test

import (
	"fmt"
	"testing"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// Reaching a per-organization cap is answered with the Asset Limit problem the web app shows
// as its dialog, on every creation path: groups, saved searches, filter lists and entries.
func TestCapsAnswerTheAssetLimit(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		fe := newFiltersEnv(t, s)
		s.SetCaps(account.Caps{SavedSearches: 1, Groups: 1, FilterLists: 1, FilterListEntries: 2})
		token := fe.bearerFor("owner@acme.test")
		c := fe.client()
		post := func(path string, body any) reply {
			t.Helper()
			return c.do("POST", path, body, withBearer(token))
		}
		group := post("/api/v1/monitor/monitor-search-groups", map[string]any{"name": "First", "privacy": "private"})
		if group.status != 201 {
			t.Fatalf("first group = %d %v", group.status, group.body)
		}
		list := post("/api/v1/filter-lists", map[string]any{"name": "First", "type": "keyword", "inclusion": true, "keywords": []string{"alpha"}})
		if list.status != 201 {
			t.Fatalf("first list = %d %v", list.status, list.body)
		}
		search := func(name string) map[string]any {
			return map[string]any{"group_id": dig(group.body, "data", "id"), "name": name, "keywords": "flood", "providers": []string{"twitter"}}
		}
		listPath := fmt.Sprintf("/api/v1/filter-lists/%v/keyword", dig(list.body, "data", "id"))
		tests := []struct {
			name, path string
			first      any // within the cap (nil: the cap is already reached)
			beyond     any
		}{
			{"groups", "/api/v1/monitor/monitor-search-groups", nil, map[string]any{"name": "Second", "privacy": "private"}},
			{"saved searches", "/api/v1/monitor/searches", search("First"), search("Second")},
			{"filter lists", "/api/v1/filter-lists", nil, map[string]any{"name": "Second", "type": "keyword", "inclusion": true, "keywords": []string{"delta"}}},
			{"filter-list entries", listPath, map[string]any{"keywords": []string{"bravo"}}, map[string]any{"keywords": []string{"charlie"}}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				if tt.first != nil {
					if r := post(tt.path, tt.first); r.status/100 != 2 {
						t.Fatalf("within the cap = %d %v", r.status, r.body)
					}
				}
				r := post(tt.path, tt.beyond)
				if r.status != 422 || r.body["limitExceeded"] != true || r.body["title"] != account.MsgAssetLimitTitle ||
					r.body["description"] != account.MsgAssetLimitDescription {
					t.Errorf("beyond the cap = %d %v, want the Asset Limit problem", r.status, r.body)
				}
			})
		}
	})
}
