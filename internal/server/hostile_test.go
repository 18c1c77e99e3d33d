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
	// plain is as many bytes of plain words: the same request with them is the peer a hostile
	// one is timed against.
	plain := func(n int) string { return strings.Repeat("a ", n/2) }
	nested := "x " + strings.Repeat("-(", 900) + "a"
	tests := []struct {
		name, method, path, body, peer, field string
	}{
		{"Beacon search", "POST", "/beacon/v1/social", string(beacon), `{"query":"` + plain(len(deep)) + `"}`, "query"},
		{"Beacon search with AND", "POST", "/beacon/v1/social", `{"query":"a AND ` + deep + `"}`, `{"query":"a AND ` + plain(len(deep)) + `"}`, "query"},
		{"saved search created", "POST", "/api/v1/monitor/searches", search(deep), search(plain(len(deep))), "keywords"},
		{"saved search edited", "PUT", fmt.Sprintf("/api/v1/monitor/searches/%v", searchID), search(deep), search(plain(len(deep))), "keywords"},
		{"nesting within the length limit", "POST", "/api/v1/monitor/searches", search(nested), search(plain(len(nested))), "keywords"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var status int
			var reply map[string]any
			// Quickly is next to the peer, timed in the same run, the fastest of three of each so
			// that a busy machine slows both alike: nesting that blew up would cost orders of
			// magnitude more.
			hostile := fastest(func() { status, reply = call(t, tt.method, srv.URL+tt.path, admin, tt.body) })
			peer := fastest(func() { call(t, tt.method, srv.URL+tt.path, admin, tt.peer) })
			errs, _ := reply["errors"].(map[string]any)
			if status != 422 || errs[tt.field] == nil {
				t.Errorf("= %d %v, want 422 with an error on %s", status, reply, tt.field)
			}
			if hostile > 20*peer+10*time.Millisecond {
				t.Errorf("took %v, %.0f times as long as the same request with plain words (%v)", hostile, float64(hostile)/float64(peer), peer)
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

// fastest is the shortest of three runs of f.
func fastest(f func()) time.Duration {
	best := time.Duration(1<<63 - 1)
	for range 3 {
		start := time.Now()
		f()
		best = min(best, time.Since(start))
	}
	return best
}
