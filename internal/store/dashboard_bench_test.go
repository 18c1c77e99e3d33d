package store_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// BenchmarkDashboard times one dashboard over DASHBOARD_MATCHES matches (default 100,000) of
// ten searches, published over 30 days, with a few mentioned places and threat scores, one in a
// hundred deleted by the viewer, and reports the p95 of the iterations. DASHBOARD_DB=postgres runs it on PostgreSQL.
func BenchmarkDashboard(b *testing.B) {
	n := 100_000
	if v, err := strconv.Atoi(os.Getenv("DASHBOARD_MATCHES")); err == nil && v > 0 {
		n = v
	}
	dialect := store.SQLite
	if os.Getenv("DASHBOARD_DB") == "postgres" {
		dialect = store.Postgres
	}
	s := storetest.Open(b, dialect)
	ctx := context.Background()
	owner := seedUser(b, s, "bench@acme.test")
	home, err := s.UncategorizedGroup(ctx, owner.OrganizationID, owner.ID)
	if err != nil {
		b.Fatal(err)
	}
	var searches []int64
	for i := range 10 {
		m := monitor.Search{OrganizationID: owner.OrganizationID, OwnerID: owner.ID, GroupID: home.ID,
			Name: fmt.Sprint("search ", i), Enabled: true, Keywords: "bridge"}
		if err := s.CreateSearch(ctx, &m, nil, nil); err != nil {
			b.Fatal(err)
		}
		searches = append(searches, m.ID)
	}
	now := time.Now().UTC()
	places := []post.MentionedLocation{{Name: "Paris", CountryCode: "FR", Point: post.Point{Lat: 48.85, Lon: 2.35}},
		{Name: "Lyon", CountryCode: "FR", Point: post.Point{Lat: 45.76, Lon: 4.83}}}
	made := 0
	for chunk := range slices.Chunk(make([]int, n), 5000) {
		posts := make([]post.Post, len(chunk))
		var matches []monitor.Match
		for j := range posts {
			k := made + j
			id := fmt.Sprint("p", k)
			published := now.Add(-time.Duration(k%(30*24*60)) * time.Minute)
			p := post.Post{ID: id, Provider: []string{"reddit", "telegram", "twitter"}[k%3], NativeID: id,
				Type: post.TypeThreadPost, AuthorName: fmt.Sprint("author ", k%500), AuthorScreenName: fmt.Sprint("a", k%500),
				ContentText: "bridge", PublishedAt: published, DiscoveredAt: published, Threat: post.Threat{Score: k % 101}}
			if k%7 == 0 {
				p.MentionedLocations = places[:1+k%2]
			}
			posts[j] = p
			matches = append(matches, monitor.Match{SearchID: searches[k%10], OrganizationID: owner.OrganizationID,
				PostID: id, PublishedAt: published, DiscoveredAt: published, Provider: p.Provider, HasLocation: len(p.MentionedLocations) > 0,
				ThreatScore: p.Threat.Score, Places: p.MentionedLocations})
		}
		if _, err := s.InsertPosts(ctx, posts); err != nil {
			b.Fatal(err)
		}
		created, err := s.InsertMatches(ctx, matches)
		if err != nil {
			b.Fatal(err)
		}
		// The viewer has deleted one match in a hundred.
		var deleted []int64
		for i := 0; i < len(created); i += 100 {
			deleted = append(deleted, created[i].ID)
		}
		if _, err := s.SetMatchState(ctx, owner.ID, deleted, monitor.FieldDeleted, true); err != nil {
			b.Fatal(err)
		}
		made += len(chunk)
	}
	if dialect == store.Postgres {
		// As autovacuum does after a load this size, so the planner knows the tables.
		if err := s.Exec(ctx, "ANALYZE"); err != nil {
			b.Fatal(err)
		}
	}
	// A running server's dashboard reads warm pages: the first, cold one is not timed.
	if _, err := s.Dashboard(ctx, owner.ID, searches, now); err != nil {
		b.Fatal(err)
	}
	var took []time.Duration
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		if _, err := s.Dashboard(ctx, owner.ID, searches, now); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(start))
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)*95/100].Milliseconds()), "p95-ms")
}
