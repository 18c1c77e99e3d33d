package store_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// The stream delivers a batch again when its acknowledgement was lost: the matches it brings
// are stored already, and the monthly data limit must not count them a second time.
func TestRedeliveredBatchCountsOnce(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		owner := seedUser(t, s, "limits@example.test")
		if err := s.SetOrganizationLimits(ctx, owner.OrganizationID, 5, 0); err != nil {
			t.Fatal(err)
		}
		home, err := s.UncategorizedGroup(ctx, owner.OrganizationID, owner.ID)
		if err != nil {
			t.Fatal(err)
		}
		search := monitor.Search{OrganizationID: owner.OrganizationID, OwnerID: owner.ID, GroupID: home.ID,
			Name: "Bridge", Enabled: true, Keywords: "bridge", Providers: []string{"reddit"}}
		if err := s.CreateSearch(ctx, &search, nil, nil); err != nil {
			t.Fatal(err)
		}
		p := monitor.NewPercolator(s, nil, nil, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
		if err := p.Load(ctx); err != nil {
			t.Fatal(err)
		}
		now := time.Now()
		batch := func(prefix string, n int) []post.Post {
			var posts []post.Post
			for i := range n {
				pp := post.Post{Provider: "reddit", NativeID: fmt.Sprint(prefix, i), ContentText: "the bridge is closed",
					PublishedAt: now.Add(-time.Minute)}
				if err := pp.Normalize(now); err != nil {
					t.Fatal(err)
				}
				posts = append(posts, pp)
			}
			if _, err := s.InsertPosts(ctx, posts); err != nil {
				t.Fatal(err)
			}
			return posts
		}
		first := batch("a", 3)
		for i, step := range []struct {
			posts []post.Post
			total int64
		}{
			{first, 3},
			{first, 3}, // redelivered
			{batch("b", 2), 5},
			{batch("c", 1), 5}, // the month's data is used up
		} {
			if err := p.Stage(ctx, step.posts); err != nil {
				t.Fatal(err)
			}
			n, err := s.CountMatchesSince(ctx, owner.OrganizationID, monitor.MonthStart(now))
			if err != nil {
				t.Fatal(err)
			}
			if n != step.total {
				t.Errorf("after delivery %d the organization has %d matches, want %d", i, n, step.total)
			}
		}
	})
}
