package api_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/api"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/search"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// Analysts take places off the posts they may see and put them back, for their tenant only;
// each change is audited.
func TestPlaceRemovals(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		e := newEnvWith(t, s, func(d *api.Deps) { d.Places = search.NewPlaces(s) })
		if _, err := e.accounts.CreateUser(ctx, account.NewUser{Tenant: "initech", Organization: "Initech",
			Email: "analyst@initech.test", Password: testPassword, Role: account.RoleOwner}); err != nil {
			t.Fatal(err)
		}
		ana, _ := s.UserByEmail(ctx, "analyst@acme.test")
		if err := s.UpdateUserAccess(ctx, ana.ID, account.ACL{Beacon: true}); err != nil { // no Locate: no news
			t.Fatal(err)
		}
		initech, _ := s.UserByEmail(ctx, "analyst@initech.test")
		now := time.Now().UTC().Truncate(time.Millisecond)
		rio := post.MentionedLocation{Name: "Rio de Janeiro", CountryCode: "BR", Point: post.Point{Lat: -22.9, Lon: -43.2}}
		lyon := post.MentionedLocation{Name: "Lyon", CountryCode: "FR", Point: post.Point{Lat: 45.76, Lon: 4.84}}
		shared := post.Post{ID: post.NewID("news", "1"), Provider: "news", NativeID: "1", ContentText: "Rio and Lyon",
			PublishedAt: now, DiscoveredAt: now, MentionedLocations: []post.MentionedLocation{rio, lyon}}
		private := shared
		private.Tenant, private.NativeID = initech.TenantID, "2"
		private.ID = post.NewTenantID(initech.TenantID, "news", "2")
		if _, err := s.InsertPosts(ctx, []post.Post{shared, private}); err != nil {
			t.Fatal(err)
		}
		clients := map[string]*client{}
		for _, email := range []string{"owner@acme.test", "analyst@acme.test", "analyst@initech.test"} {
			clients[email] = e.client()
			clients[email].login(email)
		}
		path := func(id string, l post.MentionedLocation) string {
			return "/api/v1/posts/" + url.PathEscape(id) + "/places/" + l.CountryCode + "/" + url.PathEscape(l.Name)
		}
		for _, tt := range []struct {
			name, who, method, path string
			status                  int
			places                  []string // the reply's, or the message
		}{
			{"remove", "owner@acme.test", "DELETE", path(shared.ID, rio), http.StatusOK, []string{"Lyon"}},
			{"remove again", "owner@acme.test", "DELETE", path(shared.ID, rio), http.StatusNotFound, []string{search.MsgPlaceNotOnPost}},
			{"a place the post never named", "owner@acme.test", "DELETE", path(shared.ID, post.MentionedLocation{Name: "Oslo", CountryCode: "NO"}),
				http.StatusNotFound, []string{search.MsgPlaceNotOnPost}},
			{"another tenant's removal", "analyst@initech.test", "DELETE", path(shared.ID, lyon), http.StatusOK, []string{"Rio de Janeiro"}},
			{"another tenant's private post", "owner@acme.test", "DELETE", path(private.ID, lyon), http.StatusNotFound, []string{authz.MsgPostNotFound}},
			{"a provider beyond the subscription", "analyst@acme.test", "DELETE", path(shared.ID, lyon), http.StatusNotFound, []string{authz.MsgPostNotFound}},
			{"no such post", "owner@acme.test", "DELETE", path("news_404", lyon), http.StatusNotFound, []string{authz.MsgPostNotFound}},
			{"restore", "owner@acme.test", "PUT", path(shared.ID, rio), http.StatusOK, []string{"Rio de Janeiro", "Lyon"}},
			{"restore what is there", "owner@acme.test", "PUT", path(shared.ID, rio), http.StatusOK, []string{"Rio de Janeiro", "Lyon"}},
			{"remove for good", "owner@acme.test", "DELETE", path(shared.ID, lyon), http.StatusOK, []string{"Rio de Janeiro"}},
		} {
			c := clients[tt.who]
			r := c.do(tt.method, tt.path, nil, withBearer(c.bearer))
			var got []string
			if r.status == http.StatusOK {
				places, _ := dig(r.body, "data", "mentioned_locations").([]any)
				for _, p := range places {
					got = append(got, fmt.Sprint(dig(p, "name")))
				}
			} else {
				got = []string{fmt.Sprint(r.body["message"])}
			}
			if r.status != tt.status || !slices.Equal(got, tt.places) {
				t.Errorf("%s: %d %v, want %d %v", tt.name, r.status, got, tt.status, tt.places)
			}
		}
		// Each tenant reads the post as it corrected it.
		for tenant, want := range map[int64]int{ana.TenantID: 1, initech.TenantID: 1} {
			p, err := s.Post(ctx, shared.ID, tenant)
			if err != nil || len(p.MentionedLocations) != want {
				t.Errorf("tenant %d reads places %v, %v; want %d", tenant, p.MentionedLocations, err, want)
			}
		}
		var actions []string
		log, err := s.AuditLog(ctx, ana.TenantID, 100)
		if err != nil {
			t.Fatal(err)
		}
		for _, en := range slices.Backward(log) {
			if en.Model == "post_place" && en.ModelID == shared.ID {
				actions = append(actions, en.Action+" "+en.PreviousValue+en.NewValue)
			}
		}
		want := []string{`removed {"country_code":"BR","name":"Rio de Janeiro"}`, `restored {"country_code":"BR","name":"Rio de Janeiro"}`,
			`removed {"country_code":"FR","name":"Lyon"}`}
		if !slices.Equal(actions, want) {
			t.Errorf("audited %q, want %q", actions, want)
		}
	})
}
