package search_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/search"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

const lyon = "POLYGON((4.77 45.7,4.9 45.7,4.9 45.81,4.77 45.81,4.77 45.7))"

// A Locate search uses the fields of its type; a location search finds posts by their point
// and by the places their text mentions.
func TestLocateByType(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Now().UTC().Truncate(time.Millisecond)
		posts := []post.Post{
			{Provider: "twitter", NativeID: "point", AuthorName: "Ana", ContentText: "crane down",
				Location: &post.Point{Lat: 45.76, Lon: 4.83}, Photos: []post.Media{{Large: "https://img.example/a.jpg"}}},
			{Provider: "reddit", NativeID: "mentioned", AuthorName: "Ben", ContentText: "crane in Lyon", Board: "r/lyon",
				MentionedLocations: []post.MentionedLocation{{Name: "Lyon", CountryCode: "FR", Point: post.Point{Lat: 45.75, Lon: 4.85}}}},
			{Provider: "reddit", NativeID: "elsewhere", AuthorName: "Ana", ContentText: "crane in Paris", Board: "r/paris",
				Location: &post.Point{Lat: 48.85, Lon: 2.35}},
		}
		// Threat scores for the priorities: elevated from 25, high from 50.
		posts[0].Threat.Score, posts[1].Threat.Score, posts[2].Threat.Score = 24, 25, 50
		for i := range posts {
			posts[i].PublishedAt = now.Add(-time.Duration(i) * time.Minute)
			posts[i].ID, posts[i].DiscoveredAt = post.NewID(posts[i].Provider, posts[i].NativeID), posts[i].PublishedAt
		}
		if _, err := s.InsertPosts(ctx, posts); err != nil {
			t.Fatal(err)
		}
		svc := search.NewService(s, search.Options{})
		for _, tt := range []struct {
			name string
			req  search.LocateRequest
			want string
		}{
			{"keyword", search.LocateRequest{Type: "keyword", Keywords: "crane", Author: "Ben", Bounds: lyon}, "[point mentioned elsewhere]"},
			{"author", search.LocateRequest{Type: "author", Keywords: "nothing", Author: "ana"}, "[point elsewhere]"},
			{"location", search.LocateRequest{Type: "location", Keywords: "nothing", Bounds: lyon}, "[point mentioned]"},
			{"compound", search.LocateRequest{Type: "compound", Keywords: "crane", Author: "Ana, Ben", Bounds: lyon}, "[point mentioned]"},
			{"images", search.LocateRequest{Type: "location", Bounds: lyon, Media: "images"}, "[point]"},
			{"both media", search.LocateRequest{Type: "location", Bounds: lyon, Media: "both"}, "[]"},
			{"providers", search.LocateRequest{Type: "keyword", Keywords: "crane", Providers: []string{"reddit"}}, "[mentioned elsewhere]"},
			{"boards", search.LocateRequest{Type: "keyword", Keywords: "crane", Boards: []string{" r/lyon "}}, "[mentioned]"},
			{"boards with any type", search.LocateRequest{Type: "author", Author: "ana", Boards: []string{"r/paris", "r/lyon"}}, "[elsewhere]"},
			{"elevated priority", search.LocateRequest{Type: "keyword", Keywords: "crane", Priority: "elevated"}, "[mentioned elsewhere]"},
			{"high priority", search.LocateRequest{Type: "compound", Author: "ana", Priority: "high"}, "[elsewhere]"},
		} {
			t.Run(tt.name, func(t *testing.T) {
				page, err := svc.Locate(ctx, everything, authz.Actor{}, tt.req)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, d := range page.Documents {
					got = append(got, d.NativeID)
				}
				if fmt.Sprint(got) != tt.want && !(tt.want == "[]" && len(got) == 0) {
					t.Errorf("found %v, want %v", got, tt.want)
				}
				if page.TotalCount != page.Count {
					t.Errorf("total %d for %d found", page.TotalCount, page.Count)
				}
			})
		}
		a, err := svc.LocateAnalytics(ctx, everything, authz.Actor{}, search.LocateRequest{Type: "location", Bounds: lyon})
		if err != nil {
			t.Fatal(err)
		}
		if a.Analyzed != 2 || !slices.ContainsFunc(a.WordCloud, func(w search.WordCount) bool { return w.Word == "crane" && w.Count == 2 }) {
			t.Errorf("analytics = %+v, want crane in both posts", a)
		}
	})
}

// Most popular orders by engagement and most followers by the author's followers, highest
// first and the newest of a tie first, page after page, whether or not the full-text index
// narrows the rows.
func TestLocateSorts(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Now().UTC().Truncate(time.Millisecond)
		// native id, engagement, followers; listed newest first.
		rows := []struct {
			id                    string
			engagement, followers int64
		}{
			{"a", 5, 10}, {"b", 0, 0}, {"c", 40, 3}, {"d", 5, 900}, {"e", 7, 10}, {"f", 5, 10}, {"g", 1200, 0},
		}
		var posts []post.Post
		for i, r := range rows {
			p := post.Post{Provider: "mastodon", NativeID: r.id, AuthorName: "Ana", ContentText: "crane on the quay",
				Engagement: r.engagement, AuthorFollowers: r.followers, PublishedAt: now.Add(-time.Duration(i) * time.Minute)}
			p.ID, p.DiscoveredAt = post.NewID(p.Provider, p.NativeID), p.PublishedAt
			posts = append(posts, p)
		}
		if _, err := s.InsertPosts(ctx, posts); err != nil {
			t.Fatal(err)
		}
		svc := search.NewService(s, search.Options{})
		for _, tt := range []struct {
			name string
			req  search.LocateRequest
			want string
		}{
			{"recent", search.LocateRequest{Type: "keyword", Keywords: "crane"}, "[a b c d e f g]"},
			{"popular by keyword", search.LocateRequest{Type: "keyword", Keywords: "crane", Sort: "popular"}, "[g c e a d f b]"},
			{"popular by author", search.LocateRequest{Type: "author", Author: "ana", Sort: "popular"}, "[g c e a d f b]"},
			{"followers by keyword", search.LocateRequest{Type: "keyword", Keywords: "quay", Sort: "followers"}, "[d a e f c b g]"},
			{"followers by author", search.LocateRequest{Type: "author", Author: "ana", Sort: "followers"}, "[d a e f c b g]"},
		} {
			t.Run(tt.name, func(t *testing.T) {
				tt.req.Size = 2
				page, err := svc.Locate(ctx, everything, authz.Actor{}, tt.req)
				if err != nil {
					t.Fatal(err)
				}
				if page.TotalCount != len(rows) {
					t.Errorf("total %d, want %d", page.TotalCount, len(rows))
				}
				var got []string
				for pages := 0; ; pages++ {
					for _, d := range page.Documents {
						got = append(got, d.NativeID)
					}
					if page.SearchID == "" || pages > len(rows) {
						break
					}
					if page, err = svc.More(ctx, everything, search.All, page.SearchID); err != nil {
						t.Fatal(err)
					}
				}
				if fmt.Sprint(got) != tt.want {
					t.Errorf("found %v, want %v", got, tt.want)
				}
			})
		}
	})
}

func TestLocateValidation(t *testing.T) {
	svc := search.NewService(storetest.Open(t, store.SQLite), search.Options{})
	for _, tt := range []struct {
		name           string
		req            search.LocateRequest
		message, field string
	}{
		{"no type", search.LocateRequest{Keywords: "a"}, search.MsgInvalidParameters, "type"},
		{"keyword without keywords", search.LocateRequest{Type: "keyword", Author: "ana"}, search.MsgEmpty, "keywords"},
		{"author without author", search.LocateRequest{Type: "author", Keywords: "a"}, search.MsgInvalidParameters, "author"},
		{"location without bounds", search.LocateRequest{Type: "location", Keywords: "a"}, search.MsgInvalidParameters, "bounds"},
		{"empty compound", search.LocateRequest{Type: "compound"}, search.MsgEmpty, "keywords"},
		{"unknown media", search.LocateRequest{Type: "keyword", Keywords: "a", Media: "audio"}, search.MsgInvalidParameters, "media"},
		{"unknown priority", search.LocateRequest{Type: "keyword", Keywords: "a", Priority: "urgent"}, search.MsgInvalidParameters, "priority"},
		{"unknown sort", search.LocateRequest{Type: "keyword", Keywords: "a", Sort: "oldest"}, search.MsgInvalidParameters, "sort"},
		{"bad keywords", search.LocateRequest{Type: "keyword", Keywords: `"open`}, search.MsgInvalidParameters, "keywords"},
		{"bad bounds", search.LocateRequest{Type: "location", Bounds: "POLYGON((1 2"}, search.MsgInvalidParameters, "bounds"},
		{"boards none of the providers has", search.LocateRequest{Type: "keyword", Keywords: "a", Providers: []string{"twitter"}, Boards: []string{"r/lyon"}}, "Board and group search is not supported by X.", "boards"},
		{"reversed dates", search.LocateRequest{Type: "keyword", Keywords: "a", From: ptr(2000), To: ptr(1000)}, search.MsgInvalidParameters, "to"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := svc.Locate(context.Background(), everything, authz.Actor{}, tt.req)
			p, ok := problem.As(err)
			if !ok || p.Kind != problem.KindInvalid || p.Message != tt.message || len(p.Fields[tt.field]) == 0 {
				t.Errorf("err = %v (fields %v), want %q on %q", err, fieldsOf(p), tt.message, tt.field)
			}
		})
	}
}

// Locate's "all" (no start) reaches back as far as the server keeps posts, and never less than
// a search's default 30 days.
func TestLocateReachesBackAsFarAsPostsAreKept(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Now().UTC().Truncate(time.Millisecond)
		var posts []post.Post
		for _, age := range []int{1, 20, 60, 100} {
			p := post.Post{Provider: "twitter", NativeID: fmt.Sprint(age, "d"), ContentText: "crane",
				PublishedAt: now.Add(-time.Duration(age) * 24 * time.Hour)}
			p.ID, p.DiscoveredAt = post.NewID(p.Provider, p.NativeID), p.PublishedAt
			posts = append(posts, p)
		}
		if _, err := s.InsertPosts(ctx, posts); err != nil {
			t.Fatal(err)
		}
		for _, tt := range []struct {
			retention time.Duration
			want      string
		}{
			{0, "[1d 20d]"},
			{30 * 24 * time.Hour, "[1d 20d]"},
			{90 * 24 * time.Hour, "[1d 20d 60d]"},
			{120 * 24 * time.Hour, "[1d 20d 60d 100d]"},
		} {
			svc := search.NewService(s, search.Options{Retention: tt.retention})
			page, err := svc.Locate(ctx, everything, authz.Actor{}, search.LocateRequest{Type: "keyword", Keywords: "crane"})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range page.Documents {
				got = append(got, d.NativeID)
			}
			if fmt.Sprint(got) != tt.want {
				t.Errorf("kept %v: found %v, want %s", tt.retention, got, tt.want)
			}
		}
	})
}
