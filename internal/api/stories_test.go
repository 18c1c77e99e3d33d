package api_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/api"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
	"github.com/sightline/sightline/internal/story"
)

// A story shows each tenant the shared posts and its own, never another tenant's, and is not
// found by a tenant none of whose posts it holds.
func TestStoryIsSeenPerTenant(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		e := newEnvWith(t, s, func(d *api.Deps) { d.Stories = story.NewService(s) })
		ctx := context.Background()
		other, err := e.accounts.CreateUser(ctx, account.NewUser{Tenant: "other", Organization: "Umbrella",
			Email: "owner@umbrella.test", Password: testPassword, Role: account.RoleOwner})
		if err != nil {
			t.Fatal(err)
		}
		acme := e.actor("owner@acme.test").TenantID
		at := time.Now().UTC().Add(-time.Hour).Truncate(time.Hour)
		member := func(native string, tenant int64, storyID string, minutes int) post.Post {
			p := post.Post{Provider: "news", NativeID: native, ContentText: "Magnitude 6.4 earthquake strikes Chile. More soon.",
				PublishedAt: at.Add(time.Duration(minutes) * time.Minute), Language: "en"}
			if err := p.Normalize(time.Now()); err != nil {
				t.Fatal(err)
			}
			p.Tenant, p.StoryID = tenant, storyID
			if tenant != 0 {
				p.ID = post.NewTenantID(tenant, p.Provider, p.NativeID)
			}
			if p.StoryID == "" {
				p.StoryID = p.ID
			}
			return p
		}
		shared := member("wire", 0, "", 0)
		umbrellaOnly := member("umbrella-only", other.TenantID, "", 5)
		posts := []post.Post{shared, member("acme-copy", acme, shared.ID, 10), member("umbrella-copy", other.TenantID, shared.ID, 20), umbrellaOnly}
		if _, err := s.InsertPosts(ctx, posts); err != nil {
			t.Fatal(err)
		}

		acmeClient, umbrellaClient := e.signedIn("owner@acme.test"), e.signedIn("owner@umbrella.test")
		for _, tc := range []struct {
			name   string
			c      *client
			path   string
			status int
			count  float64
			posts  []string
		}{
			{"acme sees the shared post and its own", acmeClient, "/api/v1/stories/" + shared.ID, http.StatusOK, 2, []string{shared.ID, posts[1].ID}},
			{"umbrella sees the shared post and its own", umbrellaClient, "/api/v1/stories/" + shared.ID, http.StatusOK, 2, []string{shared.ID, posts[2].ID}},
			{"a page", umbrellaClient, "/api/v1/stories/" + shared.ID + "?offset=1&limit=1", http.StatusOK, 2, []string{posts[2].ID}},
			{"another tenant's story is not found", acmeClient, "/api/v1/stories/" + umbrellaOnly.ID, http.StatusNotFound, 0, nil},
			{"its own tenant finds it", umbrellaClient, "/api/v1/stories/" + umbrellaOnly.ID, http.StatusOK, 1, []string{umbrellaOnly.ID}},
			{"an unknown story", acmeClient, "/api/v1/stories/nothing", http.StatusNotFound, 0, nil},
			{"a bad limit", acmeClient, "/api/v1/stories/" + shared.ID + "?limit=1000", http.StatusUnprocessableEntity, 0, nil},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := tc.c.do("GET", tc.path, nil, withBearer(tc.c.bearer))
				if r.status != tc.status {
					t.Fatalf("status %d, want %d: %v", r.status, tc.status, r.body)
				}
				if tc.status != http.StatusOK {
					return
				}
				if got := dig(r.body, "data", "postCount"); got != tc.count {
					t.Errorf("postCount %v, want %v", got, tc.count)
				}
				got, _ := dig(r.body, "data", "posts").([]any)
				if len(got) != len(tc.posts) {
					t.Fatalf("posts %v, want %v", got, tc.posts)
				}
				for i, p := range got {
					if id := dig(p, "id"); id != tc.posts[i] {
						t.Errorf("post %d is %v, want %s", i, id, tc.posts[i])
					}
				}
				if title := dig(r.body, "data", "title"); title != "Magnitude 6.4 earthquake strikes Chile." {
					t.Errorf("title %q", title)
				}
			})
		}
	})
}
