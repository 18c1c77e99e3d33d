package store_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// dashboardFixture is a week of known posts and their matches of three searches: alice's four
// on a Monday at 10:00 UTC in search 0, bob's two in search 1, carol's 40 days old, dave's in
// search 2, which the tests do not choose.
func dashboardFixture(owner account.User, searches []int64, now time.Time) ([]post.Post, []monitor.Match) {
	// Mondays at 10:00 UTC, the latest within the last week.
	monday := dashboardMonday(now)
	paris := post.MentionedLocation{Name: "Paris", CountryCode: "FR", Point: post.Point{Lat: 48.85, Lon: 2.35}}
	var posts []post.Post
	var matches []monitor.Match
	add := func(id string, published time.Time, search int64, prov, author string, threat int, places ...post.MentionedLocation) {
		p := post.Post{ID: id, Provider: prov, NativeID: id, Type: post.TypeThreadPost, AuthorName: author,
			AuthorScreenName: author, ContentText: "bridge " + id, PublishedAt: published, DiscoveredAt: published,
			MentionedLocations: places, Threat: post.Threat{Score: threat}}
		if threat > 0 {
			p.Threat.Reasons = []string{"weapon"}
		}
		posts = append(posts, p)
		matches = append(matches, monitor.Match{SearchID: search, OrganizationID: owner.OrganizationID, PostID: id,
			PublishedAt: published, DiscoveredAt: published, Provider: prov, ThreatScore: threat, Places: places,
			HasLocation: len(places) > 0})
	}
	for i := range 4 {
		add(fmt.Sprint("a", i), monday, searches[0], "reddit", "alice", 95, paris)
	}
	for i := range 2 {
		add(fmt.Sprint("b", i), monday, searches[1], "telegram", "bob", 15)
	}
	add("old", now.Add(-40*24*time.Hour), searches[0], "reddit", "carol", 0, paris)
	add("unseen", monday, searches[2], "reddit", "dave", 0) // of a search not asked for
	return posts, matches
}

func dashboardMonday(now time.Time) time.Time {
	monday := now.AddDate(0, 0, -int((now.Weekday()+6)%7)).Truncate(24 * time.Hour).Add(10 * time.Hour)
	if monday.After(now) {
		monday = monday.AddDate(0, 0, -7)
	}
	return monday
}

// The dashboard's numbers over known posts: counts per viewer, windows, top lists, heatmap,
// timeline and threat, with one viewer's deleted and read matches left out of only their view.
func TestDashboardCountsKnownMatches(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		owner := seedUser(t, s, "owner@acme.test")
		other := seedMember(t, s, owner, "other@acme.test")
		searches := seedSearches(t, s, owner, 3)
		now := time.Now().UTC().Truncate(time.Hour)
		monday := dashboardMonday(now)
		posts, matches := dashboardFixture(owner, searches, now)
		if _, err := s.InsertPosts(ctx, posts); err != nil {
			t.Fatal(err)
		}
		created, err := s.InsertMatches(ctx, matches)
		if err != nil {
			t.Fatal(err)
		}
		// The owner deletes one of alice's matches and reads one of bob's.
		if _, err := s.SetMatchState(ctx, owner.ID, []int64{created[0].ID}, monitor.FieldDeleted, true); err != nil {
			t.Fatal(err)
		}
		if _, err := s.SetMatchState(ctx, owner.ID, []int64{created[4].ID}, monitor.FieldRead, true); err != nil {
			t.Fatal(err)
		}
		chosen := searches[:2]

		d, err := s.Dashboard(ctx, owner.ID, chosen, now)
		if err != nil {
			t.Fatal(err)
		}
		if d.ResultCount != 6 || d.UnreadCount != 5 {
			t.Errorf("owner: %d results, %d unread; want 6 and 5", d.ResultCount, d.UnreadCount)
		}
		// Every match was stored just now: new in the last day.
		if d.NewCount != 6 {
			t.Errorf("owner: %d new, want 6", d.NewCount)
		}
		wantAuthors := []monitor.AuthorCount{
			{Name: "alice", ScreenName: "alice", Provider: "reddit", Count: 3},
			{Name: "bob", ScreenName: "bob", Provider: "telegram", Count: 2},
			{Name: "carol", ScreenName: "carol", Provider: "reddit", Count: 1}}
		if fmt.Sprint(d.TopAuthors) != fmt.Sprint(wantAuthors) {
			t.Errorf("top authors %v, want %v", d.TopAuthors, wantAuthors)
		}
		wantProviders := []monitor.ProviderCount{{Provider: "reddit", Count: 4}, {Provider: "telegram", Count: 2}}
		if fmt.Sprint(d.TopProviders) != fmt.Sprint(wantProviders) {
			t.Errorf("top providers %v, want %v", d.TopProviders, wantProviders)
		}
		// The 40-day-old mention is outside the window.
		if len(d.TopMentionedLocations) != 1 || d.TopMentionedLocations[0] != (monitor.LocationCount{Name: "Paris",
			CountryCode: "FR", Lat: 48.85, Lon: 2.35, Count: 3}) {
			t.Errorf("locations %+v, want Paris 3", d.TopMentionedLocations)
		}
		if len(d.Heatmap) != 1 || d.Heatmap[0] != (monitor.HeatmapCell{Weekday: 1, Hour: 10, Count: 5}) {
			t.Errorf("heatmap %+v, want Monday 10:00 with 5", d.Heatmap)
		}
		day := monday.Format(time.DateOnly)
		wantTimeline := []monitor.TimelinePoint{
			{Date: day, MonitorSearchID: searches[0], Count: 3}, {Date: day, MonitorSearchID: searches[1], Count: 2}}
		if fmt.Sprint(d.Timeline) != fmt.Sprint(wantTimeline) {
			t.Errorf("timeline %v, want %v", d.Timeline, wantTimeline)
		}
		if d.Threat.Buckets[0].Count != 1 || d.Threat.Buckets[1].Count != 2 || d.Threat.Buckets[9].Count != 3 ||
			d.Threat.Buckets[9].From != 90 || d.Threat.Buckets[9].To != 100 {
			t.Errorf("threat buckets %+v, want 1 in 0-10, 2 in 10-20, 3 in 90-100", d.Threat.Buckets)
		}
		if len(d.Threat.Top) != 5 || d.Threat.Top[0].Score != 95 || d.Threat.Top[0].Reasons[0] != "weapon" ||
			d.Threat.Top[4].Score != 15 {
			t.Errorf("threat top %+v, want 3 of score 95 then 2 of 15", d.Threat.Top)
		}

		// Another viewer has deleted and read nothing.
		d, err = s.Dashboard(ctx, other.ID, chosen, now)
		if err != nil {
			t.Fatal(err)
		}
		if d.ResultCount != 7 || d.UnreadCount != 7 || d.TopAuthors[0].Count != 4 {
			t.Errorf("other viewer: %d results, %d unread, top author %+v; want 7, 7 and alice 4", d.ResultCount,
				d.UnreadCount, d.TopAuthors[0])
		}

		// Retention takes carol's 40-day-old match from the all-time counts too.
		if _, err := s.DeleteMatchesBefore(ctx, now.Add(-35*24*time.Hour)); err != nil {
			t.Fatal(err)
		}
		d, err = s.Dashboard(ctx, owner.ID, chosen, now)
		if err != nil {
			t.Fatal(err)
		}
		if d.ResultCount != 5 || d.TopProviders[0] != (monitor.ProviderCount{Provider: "reddit", Count: 3}) ||
			d.Threat.Buckets[0].Count != 0 {
			t.Errorf("after retention: %d results, providers %v, threat buckets %v; want 5, reddit 3, none in 0-10",
				d.ResultCount, d.TopProviders, d.Threat.Buckets)
		}

		// No searches: empty lists and the ten empty buckets, never nulls.
		d, err = s.Dashboard(ctx, owner.ID, nil, now)
		if err != nil {
			t.Fatal(err)
		}
		if d.ResultCount != 0 || d.TopAuthors == nil || d.Timeline == nil || len(d.Threat.Buckets) != 10 || d.Threat.Top == nil {
			t.Errorf("no searches: %+v", d)
		}
	})
}

// Migration 0012 builds the dashboard's counts from the matches an older version stored: the
// dashboard over them equals the one over the same matches stored today.
// insertPostsOfVersion11 stores posts in the columns the posts table had at version 11 (later
// versions add columns InsertPosts fills).
func insertPostsOfVersion11(t *testing.T, s *store.Store, posts []post.Post) {
	t.Helper()
	ctx := context.Background()
	for i, p := range posts {
		doc, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		var lat, lon *float64
		if p.Location != nil {
			lat, lon = &p.Location.Lat, &p.Location.Lon
		}
		if s.Dialect() == store.Postgres {
			if err := s.EnsurePartitions(ctx, p.PublishedAt, p.PublishedAt); err != nil {
				t.Fatal(err)
			}
			err = s.Exec(ctx, `INSERT INTO posts (id, provider, published_at, discovered_at, threat_score, doc,
				author_name, author_screen_name, lat, lon, search) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, ''::tsvector)`,
				p.ID, p.Provider, p.PublishedAt.UnixMilli(), p.DiscoveredAt.UnixMilli(), p.Threat.Score, string(doc),
				p.AuthorName, p.AuthorScreenName, lat, lon)
		} else {
			err = s.Exec(ctx, `INSERT INTO posts (seq, id, provider, published_at, discovered_at, threat_score, doc,
				author_name, author_screen_name, lat, lon) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
				p.PublishedAt.UnixMilli()<<20+int64(i), p.ID, p.Provider, p.PublishedAt.UnixMilli(),
				p.DiscoveredAt.UnixMilli(), p.Threat.Score, string(doc), p.AuthorName, p.AuthorScreenName, lat, lon)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

func TestDashboardMigrationCountsStoredMatches(t *testing.T) {
	for _, d := range []store.Dialect{store.SQLite, store.Postgres} {
		t.Run(string(d), func(t *testing.T) {
			ctx := context.Background()
			now := time.Now().UTC().Truncate(time.Hour)
			dashboards := map[string]monitor.Dashboard{}
			for _, way := range []string{"migrated", "stored today"} {
				s := openAtVersion(t, storetest.DSN(t, d), 11)
				owner := seedUser(t, s, "owner@acme.test")
				searches := seedSearches(t, s, owner, 3)
				posts, matches := dashboardFixture(owner, searches, now)
				if way == "migrated" {
					insertPostsOfVersion11(t, s, posts)
					for _, m := range matches {
						// The columns of version 11.
						if err := s.Exec(ctx, `INSERT INTO monitor_matches (search_id, organization_id, post_id, published_at,
							discovered_at, created_at, provider, has_location) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
							m.SearchID, m.OrganizationID, m.PostID, m.PublishedAt.UnixMilli(), m.DiscoveredAt.UnixMilli(),
							now.UnixMilli(), m.Provider, len(m.Places) > 0); err != nil {
							t.Fatal(err)
						}
					}
					if err := s.Migrate(ctx); err != nil {
						t.Fatal(err)
					}
				} else {
					if err := s.Migrate(ctx); err != nil {
						t.Fatal(err)
					}
					if _, err := s.InsertPosts(ctx, posts); err != nil {
						t.Fatal(err)
					}
					if _, err := s.InsertMatches(ctx, matches); err != nil {
						t.Fatal(err)
					}
				}
				got, err := s.Dashboard(ctx, owner.ID, searches[:2], now)
				if err != nil {
					t.Fatal(err)
				}
				// Match ids and the posts' stored forms are the same in both; new counts differ by
				// the stored time, which both set to now.
				got.NewCount = 0
				dashboards[way] = got
			}
			if a, b := fmt.Sprintf("%+v", dashboards["migrated"]), fmt.Sprintf("%+v", dashboards["stored today"]); a != b {
				t.Errorf("migrated counts differ:\n%s\nstored today:\n%s", a, b)
			}
			if dashboards["migrated"].TopMentionedLocations[0].Count != 4 || dashboards["migrated"].Threat.Buckets[9].Count != 4 {
				t.Errorf("migrated: %+v", dashboards["migrated"])
			}
		})
	}
}

// The places a tenant removed from posts leave the top places of its users' dashboards and the
// posts of the threat list; a match the viewer deleted is not taken off twice, and another
// tenant's removals change nothing.
func TestDashboardLeavesOutRemovedPlaces(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		owner := seedUser(t, s, "owner@acme.test")
		member := seedMember(t, s, owner, "member@acme.test")
		stranger := seedUser(t, s, "stranger@other.test")
		searches := seedSearches(t, s, owner, 3)
		now := time.Now().UTC().Truncate(time.Hour)
		posts, matches := dashboardFixture(owner, searches, now)
		if _, err := s.InsertPosts(ctx, posts); err != nil {
			t.Fatal(err)
		}
		created, err := s.InsertMatches(ctx, matches)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.SetMatchState(ctx, owner.ID, []int64{created[0].ID}, monitor.FieldDeleted, true); err != nil {
			t.Fatal(err)
		}
		paris := posts[0].MentionedLocations[0]
		for _, r := range []struct {
			by   account.User
			post post.Post
		}{{owner, posts[0]}, {member, posts[1]}, {stranger, posts[2]}} {
			if _, err := s.RemovePlace(ctx, r.by.TenantID, r.post, paris, r.by.ID); err != nil {
				t.Fatal(err)
			}
		}
		for _, tt := range []struct {
			viewer account.User
			paris  int64
		}{{owner, 2}, {member, 2}} {
			d, err := s.Dashboard(ctx, tt.viewer.ID, searches[:2], now)
			if err != nil {
				t.Fatal(err)
			}
			if len(d.TopMentionedLocations) != 1 || d.TopMentionedLocations[0].Count != tt.paris {
				t.Errorf("%s sees places %+v, want Paris %d", tt.viewer.Email, d.TopMentionedLocations, tt.paris)
			}
			for _, top := range d.Threat.Top {
				if want := top.Post.ID != posts[0].ID && top.Post.ID != posts[1].ID && top.Score == 95; (len(top.Post.MentionedLocations) > 0) != want {
					t.Errorf("%s sees the places of %s in the threat list: %v", tt.viewer.Email, top.Post.ID, top.Post.MentionedLocations)
				}
			}
		}
	})
}
