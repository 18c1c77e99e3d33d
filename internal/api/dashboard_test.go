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

// The dashboard counts only the caller's visible searches: another organization's matches never,
// even when their search is asked for by id, and one user's reading leaves another's unread alone.
func TestDashboardOnlyCountsVisibleSearches(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		e, svc := monitorEnv(t, s)
		ctx := context.Background()
		searchOf := func(email string, n int) int64 {
			a := e.actor(email)
			home, err := s.UncategorizedGroup(ctx, a.OrganizationID, a.UserID)
			if err != nil {
				t.Fatal(err)
			}
			m, err := svc.CreateSearch(ctx, a, monitor.SearchInput{GroupID: home.ID, Name: "Floods",
				Keywords: "flood", Providers: []string{"reddit"}})
			if err != nil {
				t.Fatal(err)
			}
			now := time.Now().UTC().Truncate(time.Millisecond)
			var posts []post.Post
			var matches []monitor.Match
			for i := range n {
				id := fmt.Sprintf("%s-%d", email, i)
				posts = append(posts, post.Post{ID: id, Provider: "reddit", NativeID: id, Type: post.TypeThreadPost,
					AuthorName: email, ContentText: "flood", PublishedAt: now, DiscoveredAt: now})
				matches = append(matches, monitor.Match{SearchID: m.ID, OrganizationID: a.OrganizationID, PostID: id,
					PublishedAt: now, DiscoveredAt: now, Provider: "reddit"})
			}
			if _, err := s.InsertPosts(ctx, posts); err != nil {
				t.Fatal(err)
			}
			created, err := s.InsertMatches(ctx, matches)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := svc.SetState(ctx, a, []int64{created[0].ID}, monitor.FieldRead, true); err != nil {
				t.Fatal(err)
			}
			return m.ID
		}
		acme := searchOf("owner@acme.test", 3)
		globex := searchOf("owner@globex.test", 5)

		acmeToken, globexToken := e.bearerFor("owner@acme.test"), e.bearerFor("owner@globex.test")
		for _, tc := range []struct {
			name, token, query string
			results, unread    float64
		}{
			{"all visible", acmeToken, "", 3, 2},
			{"chosen", acmeToken, fmt.Sprintf("?monitorSearchIds[]=%d", acme), 3, 2},
			{"another organization's id is ignored", acmeToken, fmt.Sprintf("?monitorSearchIds[]=%d", globex), 0, 0},
			{"both ids", acmeToken, fmt.Sprintf("?monitorSearchIds[]=%d&monitorSearchIds[]=%d", acme, globex), 3, 2},
			{"the other organization", globexToken, "", 5, 4},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := e.client().do("GET", "/api/v1/monitor/dashboard"+tc.query, nil, withBearer(tc.token))
				if r.status != http.StatusOK {
					t.Fatalf("status %d %v", r.status, r.body)
				}
				data := dig(r.body, "data")
				if dig(data, "resultCount") != tc.results || dig(data, "unreadCount") != tc.unread || dig(data, "newCount") != tc.results {
					t.Errorf("got %v results, %v unread, %v new; want %v, %v, %v", dig(data, "resultCount"),
						dig(data, "unreadCount"), dig(data, "newCount"), tc.results, tc.unread, tc.results)
				}
				if authors, _ := dig(data, "topAuthors").([]any); tc.results > 0 && len(authors) != 1 {
					t.Errorf("top authors %v, want the one author", authors)
				}
			})
		}
		if r := e.client().do("GET", "/api/v1/monitor/dashboard?monitorSearchIds=x", nil, withBearer(acmeToken)); r.status != http.StatusUnprocessableEntity && r.status != http.StatusBadRequest {
			t.Errorf("bad ids = %d, want a validation problem", r.status)
		}
		if r := e.client().do("GET", "/api/v1/monitor/dashboard", nil); r.status != http.StatusUnauthorized {
			t.Errorf("anonymous = %d, want 401", r.status)
		}
	})
}
