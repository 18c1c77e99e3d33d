package server_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/wait"
)

// Posts ingested through the API are found by the Beacon search once the pipeline stored them.
func TestSearchAPIEndToEnd(t *testing.T) {
	node, srv := startNode(t)
	ctx := context.Background()
	admin, _, err := node.Auth.CreateAPIToken(ctx, "admin@example.test", "t", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := node.Accounts.CreateUser(ctx, account.NewUser{Organization: "Other", Email: "other@example.test",
		Password: "other-password"}); err != nil {
		t.Fatal(err)
	}
	other, _, _ := node.Auth.CreateAPIToken(ctx, "other@example.test", "t", nil)

	fresh := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	var lines []string
	for i, text := range []string{"bridge protest tonight", "protest at the bridge", "quiet evening", "Protest!"} {
		lines = append(lines, `{"provider":"reddit","native_id":"s`+string(rune('a'+i))+`","content_text":"`+text+`","published_at":"`+fresh+`"}`)
	}
	if status, reply := call(t, "POST", srv.URL+"/api/v1/ingest/posts", admin, strings.Join(lines, "\n")); status != 200 {
		t.Fatalf("ingest = %d %v", status, reply)
	}

	search := func(token, path, body string) (int, map[string]any) {
		return call(t, "POST", srv.URL+path, token, body)
	}
	var reply map[string]any
	wait.ForNil(t, "the search finding the 3 protest posts", func() error {
		var status int
		status, reply = search(admin, "/beacon/v1/social", `{"query":"protest","size":2}`)
		if status != 200 {
			t.Fatalf("search = %d %v", status, reply)
		}
		if reply["data"].(map[string]any)["totalCount"] != float64(3) {
			return fmt.Errorf("reply %v", reply)
		}
		return nil
	})
	data := reply["data"].(map[string]any)
	if data["count"] != float64(2) || data["searchId"] == "" {
		t.Fatalf("first page = %v", data)
	}
	status, more := search(admin, "/beacon/v1/social/load-more", `{"searchId":"`+data["searchId"].(string)+`"}`)
	if status != 200 || more["data"].(map[string]any)["count"] != float64(1) {
		t.Errorf("load-more = %d %v", status, more)
	}

	// Results (all categories) finds them too; a result can be flagged, and the flags are the
	// user's own.
	status, all := search(admin, "/beacon/v1/all", `{"query":"protest"}`)
	allDocs := all["data"].(map[string]any)["documents"].([]any)
	if status != 200 || len(allDocs) != 3 {
		t.Fatalf("all = %d %v", status, all)
	}
	postID := allDocs[0].(map[string]any)["id"].(string)
	flagged := func(token string) []any {
		t.Helper()
		_, reply := call(t, "GET", srv.URL+"/beacon/v1/flags", token, "")
		return reply["data"].(map[string]any)["documents"].([]any)
	}
	if status, reply := call(t, "POST", srv.URL+"/beacon/v1/flags", admin, `{"postIds":["`+postID+`"]}`); status != 200 {
		t.Fatalf("flag = %d %v", status, reply)
	}
	if got := flagged(admin); len(got) != 1 || got[0].(map[string]any)["id"] != postID {
		t.Errorf("flagged = %v", got)
	}
	if got := flagged(other); len(got) != 0 {
		t.Errorf("another organization's user sees flags %v", got)
	}
	if status, _ := call(t, "POST", srv.URL+"/beacon/v1/flags", admin, `{"postIds":["no-such-post"]}`); status != 404 {
		t.Errorf("flag an unknown post = %d, want 404", status)
	}
	call(t, "DELETE", srv.URL+"/beacon/v1/flags/"+postID, admin, "")
	if got := flagged(admin); len(got) != 0 {
		t.Errorf("after unflag = %v", got)
	}
	call(t, "POST", srv.URL+"/beacon/v1/flags", admin, `{"postIds":["`+postID+`"]}`)
	call(t, "DELETE", srv.URL+"/beacon/v1/flags", admin, "")
	if got := flagged(admin); len(got) != 0 {
		t.Errorf("after clear all = %v", got)
	}

	// Results are marked read, unread and deleted over HTTP; the marks are the user's own.
	marks := func(token string) string {
		t.Helper()
		_, reply := call(t, "POST", srv.URL+"/beacon/v1/marks", token, `{"postIds":["`+postID+`"]}`)
		return fmt.Sprint(reply["data"])
	}
	for _, step := range []struct{ mark, admin string }{
		{"read", "map[" + postID + ":map[deleted:false read:true]]"},
		{"unread", "map[" + postID + ":map[deleted:false read:false]]"},
		{"deleted", "map[" + postID + ":map[deleted:true read:false]]"},
	} {
		if status, reply := call(t, "POST", srv.URL+"/beacon/v1/marks/"+step.mark, admin, `{"postIds":["`+postID+`"]}`); status != 200 {
			t.Fatalf("mark %s = %d %v", step.mark, status, reply)
		}
		if got := marks(admin); got != step.admin {
			t.Errorf("after %s: marks %s, want %s", step.mark, got, step.admin)
		}
		if got := marks(other); got != "map[]" {
			t.Errorf("after %s: another organization's user has marks %s", step.mark, got)
		}
	}
	if status, _ := call(t, "POST", srv.URL+"/beacon/v1/marks/starred", admin, `{"postIds":["`+postID+`"]}`); status != 404 {
		t.Errorf("an unknown mark = %d, want 404", status)
	}

	tests := []struct {
		name, token, path, body string
		want                    int
	}{
		{"no credentials", "", "/beacon/v1/social", `{"query":"protest"}`, 401},
		{"unknown category", admin, "/beacon/v1/nowhere", `{"query":"protest"}`, 404},
		{"invalid query", admin, "/beacon/v1/social", `{"query":"\"protest"}`, 422},
		{"missing searchId", admin, "/beacon/v1/social/next-page", `{}`, 422},
		{"record history", admin, "/beacon/v1/search", `{"category":"social","request":{"query":"protest"}}`, 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if status, reply := search(tt.token, tt.path, tt.body); status != tt.want {
				t.Errorf("%s = %d %v, want %d", tt.path, status, reply, tt.want)
			}
		})
	}
	if _, hist := call(t, "GET", srv.URL+"/beacon/v1/search", admin, ""); len(hist["data"].([]any)) != 1 {
		t.Errorf("history = %v, want the one recorded search", hist)
	}
	if _, hist := call(t, "GET", srv.URL+"/beacon/v1/search", other, ""); len(hist["data"].([]any)) != 0 {
		t.Errorf("another organization's user sees history %v", hist)
	}

	// The Dark web and Open web tabs' community calls keep to their community kinds.
	communities := []string{
		`{"provider":"marketplaces","native_id":"m1","content_text":"vendor listing","community_kind":"marketplaces","published_at":"` + fresh + `"}`,
		`{"provider":"forum","native_id":"f1","content_text":"vendor thread","community_kind":"discussion-boards","published_at":"` + fresh + `"}`,
		`{"provider":"reddit","native_id":"r1","content_text":"vendor chat","published_at":"` + fresh + `"}`,
	}
	if status, reply := call(t, "POST", srv.URL+"/api/v1/ingest/posts", admin, strings.Join(communities, "\n")); status != 200 {
		t.Fatalf("ingest = %d %v", status, reply)
	}
	for path, want := range map[string]string{"/beacon/v1/get-markets-result": "marketplaces",
		"/beacon/v1/get-communities-result": "forum"} {
		wait.ForNil(t, path+" finding the "+want+" post", func() error {
			status, reply := search(admin, path, `{"query":"vendor"}`)
			if status != 200 {
				t.Fatalf("%s = %d %v", path, status, reply)
			}
			docs := reply["data"].(map[string]any)["documents"].([]any)
			if len(docs) != 1 || docs[0].(map[string]any)["provider"] != want {
				return fmt.Errorf("documents %v", docs)
			}
			return nil
		})
	}
}

func TestGeocodeAndEnrichment(t *testing.T) {
	node, srv := startNode(t)
	ctx := context.Background()
	token, _, err := node.Auth.CreateAPIToken(ctx, "admin@example.test", "t", nil)
	if err != nil {
		t.Fatal(err)
	}
	status, reply := call(t, "GET", srv.URL+"/api/v1/geocode/address?address=San%20Juan,%20Puerto%20Rico", token, "")
	if status != 200 || reply["data"].(map[string]any)["is_address_in_us_territory"] != true ||
		!strings.HasPrefix(reply["data"].(map[string]any)["bounds"].(string), "POLYGON") {
		t.Errorf("address = %d %v", status, reply)
	}
	if status, reply := call(t, "GET", srv.URL+"/api/v1/geocode/autocomplete?address=par", token, ""); status != 200 || len(reply["data"].([]any)) == 0 {
		t.Errorf("autocomplete = %d %v", status, reply)
	}
	if status, _ := call(t, "GET", srv.URL+"/api/v1/geocode/address?address=", token, ""); status != 422 {
		t.Errorf("empty address = %d, want 422", status)
	}
	if status, _ := call(t, "GET", srv.URL+"/api/v1/geocode/address?address=Qwxzzy%20Vvbnq", token, ""); status != 404 {
		t.Errorf("unknown address = %d, want 404", status)
	}

	fresh := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	body := `{"provider":"reddit","native_id":"e1","content_text":"The protest in Lyon turned violent tonight, police used tear gas near the city hall. Contact organisers at riot@example.com","published_at":"` + fresh + `"}`
	if status, reply := call(t, "POST", srv.URL+"/api/v1/ingest/posts", token, body); status != 200 {
		t.Fatalf("ingest = %d %v", status, reply)
	}
	var docs []any
	wait.For(t, "the post reaching the search", func() bool {
		_, reply := call(t, "POST", srv.URL+"/beacon/v1/social", token, `{"query":"lyon"}`)
		docs = reply["data"].(map[string]any)["documents"].([]any)
		return len(docs) == 1
	})
	d := docs[0].(map[string]any)
	if d["language"] != "en" || len(d["mentioned_locations"].([]any)) == 0 ||
		len(d["entities"].(map[string]any)["emails"].([]any)) != 1 {
		t.Errorf("the stored post is not enriched: %v", d)
	}
}

// A Locate search finds an ingested geotagged post by a rectangle around it, by keyword and by
// author, its analytics count its words, and users without Locate are refused.
func TestLocateAPIEndToEnd(t *testing.T) {
	node, srv := startNode(t)
	ctx := context.Background()
	admin, _, err := node.Auth.CreateAPIToken(ctx, "admin@example.test", "t", nil)
	if err != nil {
		t.Fatal(err)
	}
	fresh := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	lines := []string{
		`{"provider":"twitter","native_id":"lyon","author_name":"Ana","content_text":"Crane down at the docks","location":{"lat":45.76,"lon":4.83},"published_at":"` + fresh + `"}`,
		`{"provider":"twitter","native_id":"paris","author_name":"Ben","content_text":"Crane up in Paris","location":{"lat":48.85,"lon":2.35},"published_at":"` + fresh + `"}`,
	}
	if status, reply := call(t, "POST", srv.URL+"/api/v1/ingest/posts", admin, strings.Join(lines, "\n")); status != 200 {
		t.Fatalf("ingest = %d %v", status, reply)
	}
	rectangle := `POLYGON((4.7 45.7,4.9 45.7,4.9 45.8,4.7 45.8,4.7 45.7))`
	var data map[string]any
	wait.ForNil(t, "the location search finding the post", func() error {
		status, reply := call(t, "POST", srv.URL+"/api/v1/locate/search", admin,
			`{"type":"location","bounds":"`+rectangle+`"}`)
		if status != 200 {
			t.Fatalf("locate = %d %v", status, reply)
		}
		if data = reply["data"].(map[string]any); data["totalCount"] != float64(1) {
			return fmt.Errorf("data %v", data)
		}
		return nil
	})
	if doc := data["documents"].([]any)[0].(map[string]any); doc["native_id"] != "lyon" {
		t.Errorf("found %v, want the post in Lyon", doc["native_id"])
	}
	for body, want := range map[string]float64{
		`{"type":"keyword","keywords":"crane"}`:                                  2,
		`{"type":"author","author":"ben"}`:                                       1,
		`{"type":"compound","keywords":"crane","bounds":"` + rectangle + `"}`:    1,
		`{"type":"compound","keywords":"crane","author":"Ben","media":"images"}`: 0,
		`{"type":"keyword","keywords":"crane","boards":["r/lyon"]}`:              0, // neither post is on a board
	} {
		status, reply := call(t, "POST", srv.URL+"/api/v1/locate/search", admin, body)
		if status != 200 || reply["data"].(map[string]any)["totalCount"] != want {
			t.Errorf("%s = %d %v, want %v found", body, status, reply, want)
		}
	}
	// A search filter list of the organization narrows the search; one of no organization's is refused.
	status, reply := call(t, "POST", srv.URL+"/api/v1/filter-lists/", admin,
		`{"name":"No Paris","type":"keyword","inclusion":false,"keywords":["paris"]}`)
	if status != 200 && status != 201 {
		t.Fatalf("create filter list = %d %v", status, reply)
	}
	listID := fmt.Sprint(reply["data"].(map[string]any)["id"])
	status, reply = call(t, "POST", srv.URL+"/api/v1/locate/search", admin, `{"type":"keyword","keywords":"crane","searchFilters":[`+listID+`]}`)
	if status != 200 || reply["data"].(map[string]any)["totalCount"] != float64(1) {
		t.Errorf("search with the list = %d %v, want the post in Lyon alone", status, reply)
	}
	status, reply = call(t, "POST", srv.URL+"/api/v1/locate/search", admin, `{"type":"keyword","keywords":"crane","searchFilters":[`+listID+`0]}`)
	if status != 422 || reply["message"] != "Error accessing Search Filter(s)" {
		t.Errorf("search with no such list = %d %v", status, reply)
	}
	status, reply = call(t, "POST", srv.URL+"/api/v1/locate/search", admin, `{"type":"keyword"}`)
	if status != 422 || reply["message"] != "Search cannot be empty" {
		t.Errorf("empty keyword search = %d %v", status, reply)
	}

	status, reply = call(t, "POST", srv.URL+"/api/v1/locate/analytics", admin, `{"type":"keyword","keywords":"crane"}`)
	if status != 200 {
		t.Fatalf("analytics = %d %v", status, reply)
	}
	cloud := reply["data"].(map[string]any)["wordCloud"].([]any)
	if first := cloud[0].(map[string]any); first["word"] != "Crane" || first["count"] != float64(2) {
		t.Errorf("word cloud = %v, want Crane (as both posts write it) first, in 2 posts", cloud)
	}
	status, reply = call(t, "POST", srv.URL+"/beacon/v1/analytics", admin, `{"category":"social","query":"docks"}`)
	if status != 200 || reply["data"].(map[string]any)["analyzed"] != float64(1) {
		t.Errorf("beacon analytics = %d %v", status, reply)
	}
	if status, reply = call(t, "POST", srv.URL+"/beacon/v1/analytics", admin, `{"category":"moon","query":"docks"}`); status != 422 {
		t.Errorf("unknown category = %d %v", status, reply)
	}

	user, err := node.Accounts.CreateUser(ctx, account.NewUser{Organization: "Other", Email: "beacon-only@example.test",
		Password: "other-password"})
	if err != nil {
		t.Fatal(err)
	}
	if err := node.Store.UpdateUserAccess(ctx, user.ID, account.ACL{Beacon: true}); err != nil {
		t.Fatal(err)
	}
	beaconOnly, _, _ := node.Auth.CreateAPIToken(ctx, "beacon-only@example.test", "t", nil)
	for _, path := range []string{"/api/v1/locate/search", "/api/v1/locate/analytics", "/api/v1/locate/search/load-more"} {
		if status, _ := call(t, "POST", srv.URL+path, beaconOnly, `{"type":"keyword","keywords":"crane"}`); status != 403 {
			t.Errorf("%s without Locate = %d, want 403", path, status)
		}
	}

	// Beacon's API is closed to those whose subscription lacks it, as its screens are.
	user, err = node.Accounts.CreateUser(ctx, account.NewUser{Organization: "Third", Email: "locate-only@example.test",
		Password: "other-password"})
	if err != nil {
		t.Fatal(err)
	}
	if err := node.Store.UpdateUserAccess(ctx, user.ID, account.ACL{Pro: true}); err != nil {
		t.Fatal(err)
	}
	locateOnly, _, _ := node.Auth.CreateAPIToken(ctx, "locate-only@example.test", "t", nil)
	for _, route := range []struct{ method, path string }{{"POST", "/beacon/v1/social"}, {"POST", "/beacon/v1/social/load-more"},
		{"POST", "/beacon/v1/analytics"}, {"POST", "/beacon/v1/search"}, {"GET", "/beacon/v1/search"},
		{"GET", "/beacon/v1/flags"}, {"POST", "/beacon/v1/flags"}, {"DELETE", "/beacon/v1/flags"},
		{"POST", "/beacon/v1/marks"}, {"POST", "/beacon/v1/marks/read"}} {
		if status, _ := call(t, route.method, srv.URL+route.path, locateOnly, `{"query":"crane"}`); status != 403 {
			t.Errorf("%s %s without Beacon = %d, want 403", route.method, route.path, status)
		}
	}
}
