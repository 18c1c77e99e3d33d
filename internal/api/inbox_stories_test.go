package api_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// The inbox grouped by story has one row a story, newest first, counting this inbox's matches
// in it, and the story's summary; another organization's matches of the same story neither show
// nor count, nor do another tenant's posts count in the summary.
func TestInboxGroupedByStory(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		e, svc := monitorEnv(t, s)
		ctx := context.Background()
		now := time.Now().UTC().Truncate(time.Hour) // the story's posts, minutes apart, in one hour
		stored := func(native, storyID string, minutes int) post.Post {
			return post.Post{ID: native, Provider: "reddit", NativeID: native, Type: post.TypeThreadPost, ContentText: "flood",
				PublishedAt: now.Add(time.Duration(minutes) * time.Minute), DiscoveredAt: now, StoryID: storyID}
		}
		posts := []post.Post{stored("wire", "wire", 0), stored("copy", "wire", 1), stored("alone", "", 2)}
		private := stored("private", "wire", 3)
		private.Tenant = 99
		if _, err := s.InsertPosts(ctx, append(posts, private)); err != nil {
			t.Fatal(err)
		}
		matchAll := func(email string, ps ...post.Post) {
			a := e.actor(email)
			home, err := s.UncategorizedGroup(ctx, a.OrganizationID, a.UserID)
			if err != nil {
				t.Fatal(err)
			}
			m, err := svc.CreateSearch(ctx, a, monitor.SearchInput{GroupID: home.ID, Name: "Floods", Keywords: "flood",
				Providers: []string{"reddit"}})
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range ps { // one at a time: the last made is the newest
				if _, err := s.InsertMatches(ctx, []monitor.Match{{SearchID: m.ID, OrganizationID: a.OrganizationID, PostID: p.ID,
					PublishedAt: p.PublishedAt, DiscoveredAt: p.DiscoveredAt, Provider: p.Provider}}); err != nil {
					t.Fatal(err)
				}
			}
		}
		matchAll("owner@acme.test", posts...)
		matchAll("owner@globex.test", posts[1])

		type row struct {
			story        string
			count        float64
			post         string
			storyPosts   float64
			storyLastMin int
		}
		for _, tc := range []struct {
			name, email, query string
			status             int
			rows               []row
			total              float64
		}{
			{"acme", "owner@acme.test", "?groupBy=story", http.StatusOK, []row{{"alone", 1, "alone", 1, 2}, {"wire", 2, "copy", 2, 1}}, 2},
			{"acme, a page of one", "owner@acme.test", "?groupBy=story&perPage=1&page=2", http.StatusOK, []row{{"wire", 2, "copy", 2, 1}}, 2},
			{"globex", "owner@globex.test", "?groupBy=story", http.StatusOK, []row{{"wire", 1, "copy", 2, 1}}, 1},
			{"an unknown grouping", "owner@acme.test", "?groupBy=author", http.StatusUnprocessableEntity, nil, 0},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := e.client().do("GET", "/api/v1/monitor/matches"+tc.query, nil, withBearer(e.bearerFor(tc.email)))
				if r.status != tc.status {
					t.Fatalf("status %d, want %d: %v", r.status, tc.status, r.body)
				}
				if tc.status != http.StatusOK {
					return
				}
				data, _ := dig(r.body, "data").([]any)
				var got []row
				for _, d := range data {
					last, _ := time.Parse(time.RFC3339Nano, fmt.Sprint(dig(d, "story", "lastSeenAt")))
					got = append(got, row{fmt.Sprint(dig(d, "storyId")), dig(d, "matchCount").(float64), fmt.Sprint(dig(d, "newestMatch", "post", "id")),
						dig(d, "story", "postCount").(float64), int(last.Sub(now) / time.Minute)})
					if dig(d, "story", "title") != "flood" || len(dig(d, "story", "timeline").([]any)) != 1 {
						t.Errorf("story %v: title %v, timeline %v; want flood, one hour", dig(d, "storyId"), dig(d, "story", "title"), dig(d, "story", "timeline"))
					}
				}
				if fmt.Sprint(got) != fmt.Sprint(tc.rows) {
					t.Errorf("rows %v, want %v", got, tc.rows)
				}
				if total := dig(r.body, "meta", "total"); total != tc.total {
					t.Errorf("total %v stories, want %v", total, tc.total)
				}
			})
		}
	})
}

// A story's matches in the inbox (storyId), and the actions on all of them (update-all with
// storyId): only the caller's matches of their visible searches, under the inbox's filters;
// another organization's matches of the same story neither show nor change.
func TestInboxStoryMatchesAndActions(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		e, svc := monitorEnv(t, s)
		ctx := context.Background()
		now := time.Now().UTC().Add(-time.Hour)
		stored := func(native, storyID string, minutes int) post.Post {
			return post.Post{ID: native, Provider: "reddit", NativeID: native, Type: post.TypeThreadPost, ContentText: "flood",
				PublishedAt: now.Add(time.Duration(minutes) * time.Minute), DiscoveredAt: now, StoryID: storyID}
		}
		// "alone" was stored before stories: a story of its own, under its own id.
		posts := []post.Post{stored("wire", "wire", 0), stored("copy", "wire", 1), stored("alone", "", 2), stored("quake", "quake", 3)}
		if _, err := s.InsertPosts(ctx, posts); err != nil {
			t.Fatal(err)
		}
		match := func(a authz.Actor, groupID int64, ps ...post.Post) {
			m, err := svc.CreateSearch(ctx, a, monitor.SearchInput{GroupID: groupID, Name: "Floods", Keywords: "flood",
				Providers: []string{"reddit"}})
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range ps {
				if _, err := s.InsertMatches(ctx, []monitor.Match{{SearchID: m.ID, OrganizationID: a.OrganizationID, PostID: p.ID,
					PublishedAt: p.PublishedAt, DiscoveredAt: p.DiscoveredAt, Provider: p.Provider}}); err != nil {
					t.Fatal(err)
				}
			}
		}
		// Acme's search is in a read-only group: its analyst sees the matches and may not flag them.
		acme := e.actor("owner@acme.test")
		name, privacy := "Team", "readonly"
		team, err := svc.CreateGroup(ctx, acme, monitor.GroupInput{Name: &name, Privacy: &privacy})
		if err != nil {
			t.Fatal(err)
		}
		match(acme, team.ID, posts...)
		globex := e.actor("owner@globex.test")
		home, err := s.UncategorizedGroup(ctx, globex.OrganizationID, globex.UserID)
		if err != nil {
			t.Fatal(err)
		}
		match(globex, home.ID, posts[0], posts[1])
		tokens := map[string]string{}
		for _, email := range []string{"owner@acme.test", "analyst@acme.test", "owner@globex.test"} {
			tokens[email] = e.bearerFor(email)
		}
		// inbox is the posts of the matches GET /matches answers the user with, and its total.
		inbox := func(t *testing.T, email, query string) ([]string, float64) {
			t.Helper()
			r := e.client().do("GET", "/api/v1/monitor/matches"+query, nil, withBearer(tokens[email]))
			if r.status != http.StatusOK {
				t.Fatalf("GET %s as %s: %d %v", query, email, r.status, r.body)
			}
			ids := []string{}
			for _, d := range dig(r.body, "data").([]any) {
				ids = append(ids, fmt.Sprint(dig(d, "post", "id")))
			}
			return ids, dig(r.body, "meta", "total").(float64)
		}
		type view struct {
			email, query string
			posts        []string
		}
		long := strings.Repeat("x", monitor.MaxStoryID+1)
		for _, step := range []struct {
			name, email, method, path string
			body                      map[string]any
			status                    int
			updated, expected         float64
			errorOn                   string // the field a 422 names
			views                     []view
		}{
			{name: "a story's matches, newest first", views: []view{
				{"owner@acme.test", "?storyId=wire", []string{"copy", "wire"}},
				{"owner@acme.test", "?storyId=wire&sort=published_asc", []string{"wire", "copy"}},
				{"owner@acme.test", "?storyId=alone", []string{"alone"}},
				{"analyst@acme.test", "?storyId=wire", []string{"copy", "wire"}},
				{"owner@globex.test", "?storyId=wire", []string{"copy", "wire"}},
				{"owner@globex.test", "?storyId=quake", []string{}},
				{"owner@acme.test", "?storyId=nothing", []string{}},
			}},
			{name: "another organization's story has nothing to act on", email: "owner@globex.test", method: "PATCH",
				path: "update-all/is-read", body: map[string]any{"storyId": "quake", "setMarkedAsRead": true},
				status: http.StatusOK, updated: 0, expected: 0,
				views: []view{{"owner@acme.test", "?unread=true&storyId=quake", []string{"quake"}}}},
			{name: "reading a story reads the caller's matches of it only", email: "owner@acme.test", method: "PATCH",
				path: "update-all/is-read", body: map[string]any{"storyId": "wire", "setMarkedAsRead": true},
				status: http.StatusOK, updated: 2, expected: 2,
				views: []view{
					{"owner@acme.test", "?unread=true", []string{"quake", "alone"}},
					{"analyst@acme.test", "?unread=true&storyId=wire", []string{"copy", "wire"}}, // reading is personal
					{"owner@globex.test", "?unread=true", []string{"copy", "wire"}},
				}},
			{name: "the inbox's filters apply", email: "owner@acme.test", method: "PATCH",
				path: "update-all/is-flagged", body: map[string]any{"storyId": "wire", "unread": true, "setIsFlagged": true},
				status: http.StatusOK, updated: 0, expected: 0,
				views: []view{{"owner@acme.test", "?flagged=true", []string{}}}},
			{name: "view access flags nothing, and says so", email: "analyst@acme.test", method: "PATCH",
				path: "update-all/is-flagged", body: map[string]any{"storyId": "wire", "setIsFlagged": true},
				status: http.StatusOK, updated: 0, expected: 2,
				views: []view{{"owner@acme.test", "?flagged=true", []string{}}}},
			{name: "flagging a story", email: "owner@acme.test", method: "PATCH",
				path: "update-all/is-flagged", body: map[string]any{"storyId": "wire", "setIsFlagged": true},
				status: http.StatusOK, updated: 2, expected: 2,
				views: []view{
					{"owner@acme.test", "?flagged=true", []string{"copy", "wire"}},
					{"owner@globex.test", "?flagged=true", []string{}},
				}},
			{name: "only matches made by upTo", email: "owner@acme.test", method: "PATCH",
				path: "update-all/is-read", body: map[string]any{"storyId": "alone", "upTo": 1, "setMarkedAsRead": true},
				status: http.StatusOK, updated: 0, expected: 0,
				views: []view{{"owner@acme.test", "?unread=true&storyId=alone", []string{"alone"}}}},
			{name: "unflagging a story", email: "owner@acme.test", method: "PATCH",
				path: "update-all/is-flagged", body: map[string]any{"storyId": "wire", "setIsFlagged": false},
				status: http.StatusOK, updated: 2, expected: 2,
				views: []view{{"owner@acme.test", "?flagged=true", []string{}}}},
			{name: "too long a story id to list", email: "owner@acme.test", method: "GET", path: "?storyId=" + long,
				status: http.StatusUnprocessableEntity, errorOn: "storyId"},
			{name: "too long a story id to act on", email: "owner@acme.test", method: "PATCH",
				path: "update-all/is-read", body: map[string]any{"storyId": long, "setMarkedAsRead": true},
				status: http.StatusUnprocessableEntity, errorOn: "storyId"},
			{name: "no value to set", email: "owner@acme.test", method: "PATCH",
				path: "update-all/is-read", body: map[string]any{"storyId": "wire"},
				status: http.StatusUnprocessableEntity, errorOn: "setMarkedAsRead",
				views: []view{{"owner@acme.test", "?unread=true", []string{"quake", "alone"}}}},
		} {
			t.Run(step.name, func(t *testing.T) {
				if step.method != "" {
					path := "/api/v1/monitor/matches/" + step.path
					if step.method == "GET" {
						path = "/api/v1/monitor/matches" + step.path
					}
					var body any
					if step.body != nil {
						body = step.body
					}
					r := e.client().do(step.method, path, body, withBearer(tokens[step.email]))
					if r.status != step.status {
						t.Fatalf("%s %s: %d %v, want %d", step.method, step.path, r.status, r.body, step.status)
					}
					if step.errorOn != "" && dig(r.body, "errors", step.errorOn) == nil {
						t.Errorf("errors %v, want one on %s", dig(r.body, "errors"), step.errorOn)
					}
					if step.status == http.StatusOK && (dig(r.body, "data", "updatedCount") != step.updated ||
						dig(r.body, "data", "expectedCount") != step.expected) {
						t.Errorf("reply %v, want %v of %v updated", r.body, step.updated, step.expected)
					}
				}
				for _, v := range step.views {
					got, total := inbox(t, v.email, v.query)
					if fmt.Sprint(got) != fmt.Sprint(v.posts) || total != float64(len(v.posts)) {
						t.Errorf("%s sees %s: %v (total %v), want %v", v.email, v.query, got, total, v.posts)
					}
				}
			})
		}
	})
}
