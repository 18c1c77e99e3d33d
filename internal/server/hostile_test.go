package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/search"
)

// A query of 800,000 opening brackets once overflowed the parser's stack, which kills the
// process (no recover catches it). Through every query-bearing endpoint it now gets 422 within
// milliseconds, and the node keeps serving.
func TestHostileQueriesKeepTheNodeServing(t *testing.T) {
	node, srv := startNode(t)
	admin, _, err := node.Auth.CreateAPIToken(context.Background(), "admin@example.test", "t", nil)
	if err != nil {
		t.Fatal(err)
	}
	status, reply := call(t, "POST", srv.URL+"/api/v1/monitor/monitor-search-groups", admin, `{"name":"Watch","privacy":"private"}`)
	if status != 201 {
		t.Fatalf("create group = %d %v", status, reply)
	}
	groupID := reply["data"].(map[string]any)["id"].(float64)
	search := func(keywords string) string {
		b, _ := json.Marshal(map[string]any{"group_id": groupID, "name": "Deep", "keywords": keywords, "providers": []string{"reddit"}})
		return string(b)
	}
	status, reply = call(t, "POST", srv.URL+"/api/v1/monitor/searches", admin, search("flood"))
	if status != 201 {
		t.Fatalf("create search = %d %v", status, reply)
	}
	searchID := reply["data"].(map[string]any)["id"].(float64)

	deep := strings.Repeat("(", 800_000)
	beacon, _ := json.Marshal(map[string]string{"query": deep})
	tests := []struct {
		name, method, path, body, field string
	}{
		{"Beacon search", "POST", "/beacon/v1/social", string(beacon), "query"},
		{"Beacon search with AND", "POST", "/beacon/v1/social", `{"query":"a AND ` + deep + `"}`, "query"},
		{"saved search created", "POST", "/api/v1/monitor/searches", search(deep), "keywords"},
		{"saved search edited", "PUT", fmt.Sprintf("/api/v1/monitor/searches/%v", searchID), search(deep), "keywords"},
		{"nesting within the length limit", "POST", "/api/v1/monitor/searches", search("x " + strings.Repeat("-(", 900) + "a"), "keywords"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			status, reply := call(t, tt.method, srv.URL+tt.path, admin, tt.body)
			elapsed := time.Since(start)
			errs, _ := reply["errors"].(map[string]any)
			if status != 422 || errs[tt.field] == nil {
				t.Errorf("= %d %v, want 422 with an error on %s", status, reply, tt.field)
			}
			if elapsed > time.Second {
				t.Errorf("took %v", elapsed)
			}
		})
	}
	if status, reply := call(t, "POST", srv.URL+"/beacon/v1/social", admin, `{"query":"flood"}`); status != 200 {
		t.Errorf("a search after the hostile ones = %d %v", status, reply)
	}
}

// A search history entry beyond its size cap is refused; one within it is kept.
func TestSearchHistoryEntrySize(t *testing.T) {
	node, srv := startNode(t)
	admin, _, err := node.Auth.CreateAPIToken(context.Background(), "admin@example.test", "t", nil)
	if err != nil {
		t.Fatal(err)
	}
	entry := func(n int) string {
		return `{"category":"social","request":{"query":"` + strings.Repeat("a", n) + `"}}`
	}
	for _, tt := range []struct {
		name string
		body string
		want int
	}{
		{"within the cap", entry(search.MaxHistoryEntryBytes - 100), 200},
		{"beyond the cap", entry(search.MaxHistoryEntryBytes), 422},
	} {
		t.Run(tt.name, func(t *testing.T) {
			status, reply := call(t, "POST", srv.URL+"/beacon/v1/search", admin, tt.body)
			if status != tt.want {
				t.Errorf("= %d %v, want %d", status, reply, tt.want)
			}
		})
	}
	if _, hist := call(t, "GET", srv.URL+"/beacon/v1/search", admin, ""); len(hist["data"].([]any)) != 1 {
		t.Errorf("history has %d entries, want the one within the cap", len(hist["data"].([]any)))
	}
}
