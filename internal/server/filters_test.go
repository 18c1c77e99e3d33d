package server_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/sightline/sightline/internal/wait"
)

// A filter list change reaches the percolator at once: the searches using the list match by
// its new entries from the next post on, and by none of them once it is deleted.
func TestFilterListChangesReachThePercolator(t *testing.T) {
	node, srv := startNode(t)
	token, _, err := node.Auth.CreateAPIToken(context.Background(), "admin@example.test", "t", nil)
	if err != nil {
		t.Fatal(err)
	}
	status, reply := call(t, "POST", srv.URL+"/api/v1/filter-lists", token,
		`{"name":"Noise","type":"keyword","inclusion":false,"keywords":["giveaway"]}`)
	if status != 201 {
		t.Fatalf("create list = %d %v", status, reply)
	}
	listID := reply["data"].(map[string]any)["id"].(float64)
	status, reply = call(t, "GET", srv.URL+"/api/v1/monitor/monitor-search-groups/mini", token, "")
	if status != 200 {
		t.Fatalf("groups = %d %v", status, reply)
	}
	groupID := reply["data"].([]any)[0].(map[string]any)["id"].(float64)
	status, reply = call(t, "POST", srv.URL+"/api/v1/monitor/searches", token, fmt.Sprintf(
		`{"group_id":%v,"name":"Floods","keywords":"flood","providers":["reddit"],"search_filters":[%v]}`, groupID, listID))
	if status != 201 {
		t.Fatalf("create search = %d %v", status, reply)
	}

	matched := func() []string {
		_, reply := call(t, "GET", srv.URL+"/api/v1/monitor/matches?perPage=200", token, "")
		var texts []string
		for _, m := range reply["data"].([]any) {
			texts = append(texts, m.(map[string]any)["post"].(map[string]any)["content_text"].(string))
		}
		slices.Sort(texts)
		return texts
	}
	// Each batch ends with a post that matches, so once it is in, the batch was percolated.
	batch := func(marker string, lines ...string) {
		t.Helper()
		ingestLines(t, srv.URL, token, append(lines, postLine(marker, marker+" flood"))...)
		wait.For(t, marker, func() bool { return slices.Contains(matched(), marker+" flood") })
	}

	batch("first", postLine("a1", "flood giveaway"), postLine("a2", "flood warning"))
	if status, reply := call(t, "POST", srv.URL+fmt.Sprintf("/api/v1/filter-lists/%v/keyword", listID), token,
		`{"keywords":["warning"]}`); status != 200 {
		t.Fatalf("add keyword = %d %v", status, reply)
	}
	batch("second", postLine("b1", "flood warning again"))
	if status, reply := call(t, "DELETE", srv.URL+fmt.Sprintf("/api/v1/filter-lists/%v", listID), token, ""); status != 200 {
		t.Fatalf("delete list = %d %v", status, reply)
	}
	batch("third", postLine("c1", "flood giveaway again"))

	want := []string{"first flood", "flood giveaway again", "flood warning", "second flood", "third flood"}
	if got := matched(); !slices.Equal(got, want) {
		t.Errorf("matched %q, want %q", got, want)
	}
}
