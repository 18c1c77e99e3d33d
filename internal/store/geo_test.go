package store_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/geom"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/search"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// The spatial index finds posts by their point and by the places they mention, in a box or in
// one that crosses the antimeridian, and retention takes the posts' entries with them.
func TestCandidatesWithinABox(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Now().UTC().Truncate(time.Millisecond)
		mention := func(lat, lon float64) []post.MentionedLocation {
			return []post.MentionedLocation{{Name: "x", CountryCode: "XX", Point: post.Point{Lat: lat, Lon: lon}}}
		}
		posts := []post.Post{
			{NativeID: "lyon-point", Location: &post.Point{Lat: 45.76, Lon: 4.83}},
			{NativeID: "lyon-mention", MentionedLocations: mention(45.75, 4.85)},
			{NativeID: "paris-point", Location: &post.Point{Lat: 48.85, Lon: 2.35}},
			{NativeID: "nowhere"},
			{NativeID: "fiji-point", Location: &post.Point{Lat: -17.7, Lon: 178.1}},
			{NativeID: "samoa-mention", MentionedLocations: mention(-13.8, -171.8)},
			// Paris and Tokyo: its places' box spans Lyon, which the matcher, not the index, rules out.
			{NativeID: "paris-tokyo", MentionedLocations: append(mention(48.85, 2.35), mention(35.68, 139.69)...)},
			{NativeID: "old-lyon", Location: &post.Point{Lat: 45.76, Lon: 4.83}, MentionedLocations: mention(45.75, 4.85)},
		}
		for i := range posts {
			p := &posts[i]
			p.Provider, p.ContentText = "twitter", "crane"
			p.PublishedAt = now.Add(-time.Duration(i) * time.Minute)
			if p.NativeID == "old-lyon" {
				p.PublishedAt = now.Add(-40 * 24 * time.Hour)
			}
			p.ID, p.DiscoveredAt = post.NewID(p.Provider, p.NativeID), p.PublishedAt
		}
		if _, err := s.InsertPosts(ctx, posts); err != nil {
			t.Fatal(err)
		}
		within := func(r geom.Rect) string {
			got, err := s.CandidatePosts(ctx, search.PostQuery{From: now.Add(-50 * 24 * time.Hour), To: now,
				Within: &r, Sort: post.SortPublishedDesc, Limit: 100})
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, c := range got {
				ids = append(ids, c.Post.NativeID)
			}
			slices.Sort(ids)
			return fmt.Sprint(ids)
		}
		lyon := geom.Rect{MinLat: 45.7, MaxLat: 45.81, MinLon: 4.77, MaxLon: 4.9}
		pacific := geom.Rect{MinLat: -20, MaxLat: -10, MinLon: 175, MaxLon: -170} // across the antimeridian
		for _, tt := range []struct {
			name string
			box  geom.Rect
			want string
		}{
			{"lyon", lyon, "[lyon-mention lyon-point old-lyon paris-tokyo]"},
			{"a point on the edge", geom.Rect{MinLat: 48.85, MaxLat: 49, MinLon: 2.35, MaxLon: 3}, "[paris-point paris-tokyo]"},
			{"across the antimeridian", pacific, "[fiji-point samoa-mention]"},
			{"the open sea", geom.Rect{MinLat: -60, MaxLat: -50, MinLon: -40, MaxLon: -30}, "[]"},
		} {
			if got := within(tt.box); got != tt.want {
				t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
			}
		}
		if _, err := s.DeletePostsBefore(ctx, now.Add(-30*24*time.Hour)); err != nil {
			t.Fatal(err)
		}
		if got := within(lyon); got != "[lyon-mention lyon-point paris-tokyo]" {
			t.Errorf("after retention: %s", got)
		}
		if s.Dialect() == store.SQLite {
			var entries int
			if err := s.QueryRow(ctx, `SELECT COUNT(*) FROM posts_geo`, nil, &entries); err != nil {
				t.Fatal(err)
			}
			if entries != 6 {
				t.Errorf("%d entries in the spatial index, want 6 (the old post's two are gone)", entries)
			}
		}
	})
}

// Migration 0025 indexes the places of the posts stored before it.
func TestSpatialIndexOfStoredPosts(t *testing.T) {
	for _, d := range []store.Dialect{store.SQLite, store.Postgres} {
		t.Run(string(d), func(t *testing.T) {
			ctx := context.Background()
			s := openAtVersion(t, storetest.DSN(t, d), 24)
			now := time.Now().UTC().Truncate(time.Millisecond)
			posts := []post.Post{
				{NativeID: "point", Location: &post.Point{Lat: 45.76, Lon: 4.83}},
				{NativeID: "mentions", MentionedLocations: []post.MentionedLocation{
					{Name: "Lyon", CountryCode: "FR", Point: post.Point{Lat: 45.75, Lon: 4.85}},
					{Name: "Vienne", CountryCode: "FR", Point: post.Point{Lat: 45.52, Lon: 4.87}}}},
				{NativeID: "elsewhere", Location: &post.Point{Lat: 48.85, Lon: 2.35}},
			}
			for i := range posts {
				p := &posts[i]
				p.Provider, p.ContentText, p.PublishedAt = "twitter", "crane", now.Add(-time.Duration(i)*time.Minute)
				p.ID, p.DiscoveredAt = post.NewID(p.Provider, p.NativeID), p.PublishedAt
			}
			insertPostsOfVersion11(t, s, posts)
			if err := s.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			for _, tt := range []struct {
				box  geom.Rect
				want string
			}{
				{geom.Rect{MinLat: 45.7, MaxLat: 45.81, MinLon: 4.77, MaxLon: 4.9}, "[point mentions]"},
				{geom.Rect{MinLat: 45.5, MaxLat: 45.55, MinLon: 4.8, MaxLon: 4.9}, "[mentions]"},
			} {
				got, err := s.CandidatePosts(ctx, search.PostQuery{From: now.Add(-time.Hour), To: now,
					Within: &tt.box, Sort: post.SortPublishedDesc, Limit: 10})
				if err != nil {
					t.Fatal(err)
				}
				var ids []string
				for _, c := range got {
					ids = append(ids, c.Post.NativeID)
				}
				if fmt.Sprint(ids) != tt.want {
					t.Errorf("%+v: %v, want %s", tt.box, ids, tt.want)
				}
			}
		})
	}
}
