package api_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/api"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
	"github.com/sightline/sightline/internal/trend"
)

// Emerging terms: a hashtag that fills the last hour of an organization's matches trends for
// it, not for another organization without those matches; Beacon's "Trending now" counts the
// shared posts and the caller's tenant's own, never another tenant's private posts.
func TestTrends(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		e, svc := monitorEnv(t, s)
		now := time.Now().UTC()
		e.srv.Close()
		e.srv = httptest.NewServer(api.New(api.Deps{Accounts: e.accounts, Auth: e.auth, Monitor: svc,
			Trends: &trend.Service{Store: s, Searches: svc, Now: func() time.Time { return now }},
			Health: s.Ping, App: api.AppHandler(nil, false), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}))
		t.Cleanup(e.srv.Close)
		ctx := context.Background()
		if _, err := e.accounts.CreateUser(ctx, account.NewUser{Tenant: "other", Organization: "Umbrella",
			Email: "owner@umbrella.test", Password: testPassword, Role: account.RoleOwner}); err != nil {
			t.Fatal(err)
		}
		umbrella := e.actor("owner@umbrella.test").TenantID
		var posts []post.Post
		add := func(native, text string, tenant int64, at time.Time) {
			p := post.Post{Provider: "reddit", NativeID: native, Type: post.TypeThreadPost, ContentText: text, PublishedAt: at, DiscoveredAt: at}
			if err := p.Normalize(now); err != nil {
				t.Fatal(err)
			}
			if tenant != 0 {
				p.Tenant, p.ID = tenant, post.NewTenantID(tenant, p.Provider, p.NativeID)
			}
			posts = append(posts, p)
		}
		for i := range 140 { // a week of the usual
			add(fmt.Sprintf("usual-%d", i), "Harbour traffic is normal today", 0, now.Add(-2*time.Hour-time.Duration(i)*time.Hour))
		}
		for i := range 12 {
			add(fmt.Sprintf("flood-%d", i), "Dam warning upstream #flood", 0, now.Add(-time.Duration(i+1)*4*time.Minute))
			add(fmt.Sprintf("secret-%d", i), "Umbrellaproject rollout #internal", umbrella, now.Add(-time.Duration(i+1)*4*time.Minute))
		}
		if _, err := s.InsertPosts(ctx, posts); err != nil {
			t.Fatal(err)
		}
		a := e.actor("owner@acme.test")
		home, err := s.UncategorizedGroup(ctx, a.OrganizationID, a.UserID)
		if err != nil {
			t.Fatal(err)
		}
		m, err := svc.CreateSearch(ctx, a, monitor.SearchInput{GroupID: home.ID, Name: "Harbour", Keywords: "harbour OR dam", Providers: []string{"reddit"}})
		if err != nil {
			t.Fatal(err)
		}
		var matches []monitor.Match
		for _, p := range posts {
			if p.Tenant == 0 {
				matches = append(matches, monitor.Match{SearchID: m.ID, OrganizationID: a.OrganizationID, PostID: p.ID,
					PublishedAt: p.PublishedAt, DiscoveredAt: p.DiscoveredAt, Provider: p.Provider})
			}
		}
		if _, err := s.InsertMatches(ctx, matches); err != nil {
			t.Fatal(err)
		}

		terms := func(email, path string) map[string]bool {
			c := e.signedIn(email)
			r := c.do("GET", path, nil, withBearer(c.bearer))
			if r.status != http.StatusOK {
				t.Fatalf("%s %s = %d %v", email, path, r.status, r.body)
			}
			out := map[string]bool{}
			for _, x := range r.body["data"].([]any) {
				out[dig(x, "term").(string)] = true
				if stories, _ := dig(x, "storyIds").([]any); len(stories) == 0 {
					t.Errorf("%s: trend %v names no story", email, x)
				}
			}
			return out
		}
		for _, tc := range []struct {
			email, path  string
			want, refuse []string
		}{
			{"owner@acme.test", "/api/v1/monitor/trends", []string{"#flood", "warning"}, []string{"harbour", "#internal"}},
			{"owner@globex.test", "/api/v1/monitor/trends", nil, []string{"#flood", "#internal"}},
			{"owner@acme.test", "/beacon/v1/trending", []string{"#flood"}, []string{"#internal", "umbrellaproject"}},
			{"owner@umbrella.test", "/beacon/v1/trending", []string{"#flood", "#internal"}, nil},
		} {
			got := terms(tc.email, tc.path)
			for _, w := range tc.want {
				if !got[w] {
					t.Errorf("%s %s: %v, want %q", tc.email, tc.path, got, w)
				}
			}
			for _, w := range tc.refuse {
				if got[w] {
					t.Errorf("%s %s: %v, must not hold %q", tc.email, tc.path, got, w)
				}
			}
		}
	})
}
