package api_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/api"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/spike"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// A saved search's burst of posts, after four steady days, is one spike that its organization
// lists with the story behind it; another organization's owner does not find the search.
func TestSearchSpikes(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		e, svc := monitorEnv(t, s)
		spikes := &spike.Service{Store: s, Searches: svc, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
		e.srv.Close()
		e.srv = httptest.NewServer(api.New(api.Deps{Accounts: e.accounts, Auth: e.auth, Monitor: svc, Spikes: spikes,
			Health: s.Ping, App: api.AppHandler(nil, false), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}))
		t.Cleanup(e.srv.Close)
		ctx := context.Background()
		now := time.Now().UTC().Truncate(spike.Slot)
		a := e.actor("owner@acme.test")
		home, err := s.UncategorizedGroup(ctx, a.OrganizationID, a.UserID)
		if err != nil {
			t.Fatal(err)
		}
		m, err := svc.CreateSearch(ctx, a, monitor.SearchInput{GroupID: home.ID, Name: "Floods", Keywords: "flood", Providers: []string{"reddit"}})
		if err != nil {
			t.Fatal(err)
		}
		var posts []post.Post
		add := func(native, story string, at time.Time) {
			posts = append(posts, post.Post{ID: native, Provider: "reddit", NativeID: native, Type: post.TypeThreadPost,
				ContentText: "flood " + native, PublishedAt: at, DiscoveredAt: at, StoryID: story})
		}
		for at := now.Add(-4 * 24 * time.Hour); at.Before(now.Add(-time.Hour)); at = at.Add(spike.Slot) {
			add(fmt.Sprintf("steady-%d", at.Unix()), "", at) // four an hour
		}
		for i := range 60 {
			add(fmt.Sprintf("burst-%d", i), "burst-story", now.Add(-40*time.Minute+time.Duration(i)*30*time.Second))
		}
		if _, err := s.InsertPosts(ctx, posts); err != nil {
			t.Fatal(err)
		}
		matches := make([]monitor.Match, len(posts))
		for i, p := range posts {
			matches[i] = monitor.Match{SearchID: m.ID, OrganizationID: a.OrganizationID, PostID: p.ID, PublishedAt: p.PublishedAt,
				DiscoveredAt: p.DiscoveredAt, Provider: p.Provider}
		}
		if _, err := s.InsertMatches(ctx, matches); err != nil {
			t.Fatal(err)
		}
		added, err := spikes.Detect(ctx, m.ID, now.Add(spike.Slot))
		if err != nil {
			t.Fatal(err)
		}
		// The whole search and its one provider spike alike.
		if len(added) != 2 {
			t.Fatalf("detection added %+v, want the search's and reddit's spike", added)
		}
		if again, err := spikes.Detect(ctx, m.ID, now.Add(spike.Slot)); err != nil || len(again) != 0 {
			t.Errorf("detecting again added %+v, %v; want nothing new", again, err)
		}
		// A search saved now, whose only posts are the burst's, has no history yet: no spike.
		fresh, err := svc.CreateSearch(ctx, a, monitor.SearchInput{GroupID: home.ID, Name: "New", Keywords: "flood", Providers: []string{"reddit"}})
		if err != nil {
			t.Fatal(err)
		}
		var burst []monitor.Match
		for _, mt := range matches {
			if mt.PublishedAt.After(now.Add(-time.Hour)) {
				mt.SearchID = fresh.ID
				burst = append(burst, mt)
			}
		}
		if _, err := s.InsertMatches(ctx, burst); err != nil {
			t.Fatal(err)
		}
		if added, err := spikes.Detect(ctx, fresh.ID, now.Add(spike.Slot)); err != nil || len(added) != 0 {
			t.Errorf("a search without history: spikes %+v, %v; want none", added, err)
		}

		path := fmt.Sprintf("/api/v1/monitor/searches/%d/spikes", m.ID)
		acme, globex := e.signedIn("owner@acme.test"), e.signedIn("owner@globex.test")
		r := acme.do("GET", path, nil, withBearer(acme.bearer))
		list, _ := r.body["data"].([]any)
		if r.status != http.StatusOK || len(list) != 2 {
			t.Fatalf("spikes = %d %v, want two", r.status, r.body)
		}
		first := list[0].(map[string]any)
		if first["kind"] != "search" && first["kind"] != "provider" || first["count"].(float64) < 60 ||
			first["expected"].(float64) > 10 || !slices.Contains(first["storyIds"].([]any), any("burst-story")) ||
			len(first["samples"].([]any)) == 0 {
			t.Errorf("spike %v: want about 60 posts against a few, driven by the burst's story", first)
		}
		if r := acme.do("GET", path+"?from=2020-01-01&to=2020-01-02", nil, withBearer(acme.bearer)); r.status != http.StatusOK ||
			len(r.body["data"].([]any)) != 0 {
			t.Errorf("spikes of another time = %d %v, want none", r.status, r.body)
		}
		if r := acme.do("GET", path+"?from=yesterday", nil, withBearer(acme.bearer)); r.status != http.StatusUnprocessableEntity {
			t.Errorf("a bad from = %d, want 422", r.status)
		}
		if r := globex.do("GET", path, nil, withBearer(globex.bearer)); r.status != http.StatusNotFound {
			t.Errorf("another organization's spikes = %d, want 404", r.status)
		}
	})
}
