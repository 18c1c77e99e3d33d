package api_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

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
