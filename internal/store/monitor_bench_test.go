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

// BenchmarkMonitorReads times what the Monitor page reads over MONITOR_MATCHES matches
// (default 100,000) of ten searches, published over 30 days, with a few mentioned places and
// threat scores, one in a hundred deleted by the viewer: the dashboard, inbox pages (newest
// first, unread only, one data source, one search, a page deep in the list) and the counts.
// Each sub-benchmark reports the p95 of its iterations. MONITOR_DB=postgres runs it on PostgreSQL.
func BenchmarkMonitorReads(b *testing.B) {
	n := 100_000
	if v, err := strconv.Atoi(os.Getenv("MONITOR_MATCHES")); err == nil && v > 0 {
		n = v
	}
	dialect := store.SQLite
	if os.Getenv("MONITOR_DB") == "postgres" {
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
	inbox := func(q monitor.MatchQuery) func(context.Context) error {
		q.UserID, q.Limit = owner.ID, 50
		if q.SearchIDs == nil {
			q.SearchIDs = searches
		}
		return func(ctx context.Context) error {
			items, _, err := s.Inbox(ctx, q)
			if err == nil && len(items) == 0 {
				err = fmt.Errorf("an empty inbox page for %+v", q)
			}
			return err
		}
	}
	for _, read := range []struct {
		name string
		run  func(context.Context) error
	}{
		{"dashboard", func(ctx context.Context) error { _, err := s.Dashboard(ctx, owner.ID, searches, now); return err }},
		{"inbox", inbox(monitor.MatchQuery{})},
		{"inbox-unread", inbox(monitor.MatchQuery{Unread: true})},
		{"inbox-provider", inbox(monitor.MatchQuery{Providers: []string{"telegram"}})},
		{"inbox-one-search", inbox(monitor.MatchQuery{SearchIDs: searches[:1]})},
		{"inbox-page-20", inbox(monitor.MatchQuery{Offset: 19 * 50})},
		{"counts", func(ctx context.Context) error { _, err := s.MatchCounts(ctx, owner.ID, searches, nil); return err }},
	} {
		b.Run(read.name, func(b *testing.B) {
			// A running server reads warm pages: the first, cold read is not timed.
			if err := read.run(ctx); err != nil {
				b.Fatal(err)
			}
			var took []time.Duration
			for b.Loop() {
				start := time.Now()
				if err := read.run(ctx); err != nil {
					b.Fatal(err)
				}
				took = append(took, time.Since(start))
			}
			slices.Sort(took)
			b.ReportMetric(float64(took[len(took)*95/100].Microseconds())/1000, "p95-ms")
		})
	}
}
