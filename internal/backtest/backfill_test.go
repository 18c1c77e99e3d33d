package backtest

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// withBackfills gives f's Monitor the backfills, writing through a percolator over f's store.
func (f *fixture) withBackfills(t testing.TB) *Backfills {
	t.Helper()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	p := monitor.NewPercolator(monitor.PercolatorDeps{Store: f.store, Lists: f.filters, Logger: log})
	b := NewBackfills(BackfillDeps{Store: f.store, Lists: f.filters, Writer: p, Logger: log})
	t.Cleanup(b.stop)
	f.monitor = monitor.NewService(monitor.Deps{Store: f.store, Inbox: f.store, FilterLists: f.filters, Backfill: b})
	f.svc = inTime(NewService(f.monitor, f.store))
	return b
}

// tenantPosts stores posts private to a tenant, each saying words, over the last days.
func tenantPosts(t testing.TB, s *store.Store, tenant int64, words string, n int, now time.Time) {
	t.Helper()
	var posts []post.Post
	for i := range n {
		p := post.Post{Provider: "twitter", NativeID: fmt.Sprint("t", tenant, "-", i), AuthorName: "Insider",
			ContentText: words, Tenant: tenant, PublishedAt: now.Add(-time.Duration(i+1) * 7 * time.Hour).Truncate(time.Millisecond)}
		p.ID = post.NewID(p.Provider, p.NativeID)
		p.DiscoveredAt = p.PublishedAt
		posts = append(posts, p)
	}
	if _, err := s.InsertPosts(context.Background(), posts); err != nil {
		t.Fatal(err)
	}
}

// What the preview counts is what saving the search with a backfill of the same days brings
// into its inbox: the same posts, filters and tenant visibility. A second backfill adds
// nothing, and no alert covers a backfilled match.
func TestPreviewIsTheBackfilledInbox(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		f := newFixture(t, s, "backfill@acme.test")
		backfills := f.withBackfills(t)
		now := time.Now().UTC()
		corpus(t, s, 1500, 3, now)
		tenantPosts(t, s, f.actor.TenantID, "protest bridge inside", 6, now)         // this tenant's own: counted
		tenantPosts(t, s, f.actor.TenantID+1000, "protest bridge elsewhere", 6, now) // another tenant's: never
		noCafe := f.list(t, "keyword", false, "café")

		payloads := []monitor.SearchInput{
			{Keywords: "protest"},
			{Keywords: "attack* OR breach", Providers: []string{"twitter"}},
			{Keywords: "market", SearchFilters: []int64{noCafe}},
			{AuthorQuery: "handle7, Author 2"},
		}
		for i, in := range payloads {
			t.Run(fmt.Sprint(in.Keywords, in.AuthorQuery, in.SearchFilters), func(t *testing.T) {
				in.GroupID, in.Name = f.home, fmt.Sprint("backfilled ", i)
				if in.Providers == nil {
					in.Providers = []string{"twitter", "reddit"}
				}
				for _, days := range []int{3, 7} {
					preview, err := f.svc.Run(ctx, f.actor, Request{DraftInput: monitor.DraftInput{SearchInput: in}, Days: days})
					if err != nil {
						t.Fatal(err)
					}
					if preview.Count == 0 || preview.Truncated || preview.Backfill[days-1] != preview.Count {
						t.Fatalf("%d days: preview %d (truncated %v), backfill counts %v", days, preview.Count, preview.Truncated, preview.Backfill)
					}
					in.Name = fmt.Sprint("backfilled ", i, " over ", days)
					in.BackfillDays = days
					sv, err := f.monitor.CreateSearch(ctx, f.actor, in)
					if err != nil {
						t.Fatal(err)
					}
					backfills.Wait()
					items := inbox(t, s, f, sv.ID)
					if len(items) != preview.Count {
						t.Fatalf("%d days: preview %d, inbox after the backfill %d", days, preview.Count, len(items))
					}
					own, others := 0, 0
					for _, it := range items {
						if strings.HasSuffix(it.Post.ContentText, "inside") {
							own++
						}
						if strings.HasSuffix(it.Post.ContentText, "elsewhere") {
							others++
						}
					}
					if wantOwn := map[bool]int{true: 6}[in.Keywords == "protest"]; own != wantOwn || others != 0 {
						t.Fatalf("the inbox has %d of the tenant's own posts and %d of another's, want %d and none", own, others, wantOwn)
					}
					again, err := f.monitor.UpdateSearch(ctx, f.actor, sv.ID, in)
					if err != nil {
						t.Fatal(err)
					}
					backfills.Wait()
					done, err := f.monitor.Search(ctx, f.actor, sv.ID)
					if err != nil {
						t.Fatal(err)
					}
					if b := done.Backfill; b == nil || b.Status != monitor.BackfillDone || b.Added != 0 || b.Days != days || b.Scanned == 0 {
						t.Fatalf("after a second backfill %+v (reply %+v), want done, nothing added", b, again.Backfill)
					}
					if got := len(inbox(t, s, f, sv.ID)); got != preview.Count {
						t.Fatalf("a second backfill left %d matches, want %d", got, preview.Count)
					}
					alerted, err := s.UncoveredMatches(ctx, sv.ID, monitor.AlertBatch, "backfill@acme.test", time.Time{}, 100)
					if err != nil || len(alerted) != 0 {
						t.Fatalf("backfilled matches to alert of: %v (%v)", alerted, err)
					}
				}
			})
		}
	})
}

func inbox(t *testing.T, s *store.Store, f fixture, searchID int64) []monitor.InboxItem {
	t.Helper()
	items, _, err := s.Inbox(context.Background(), monitor.MatchQuery{UserID: f.actor.UserID, SearchIDs: []int64{searchID},
		Sort: "published_desc", Limit: 10_000})
	if err != nil {
		t.Fatal(err)
	}
	return items
}

// A backfill reaches back 0 to 30 days; out of that, saving says so and stores nothing.
func TestBackfillDaysInRange(t *testing.T) {
	s := storetest.Open(t, store.SQLite)
	f := newFixture(t, s, "range@acme.test")
	f.withBackfills(t)
	for _, days := range []int{-1, 31} {
		_, err := f.monitor.CreateSearch(context.Background(), f.actor, monitor.SearchInput{GroupID: f.home, Name: "n",
			Keywords: "protest", Providers: []string{"twitter"}, BackfillDays: days})
		p, ok := problem.As(err)
		if !ok || p.Kind != problem.KindInvalid || p.Fields["backfillDays"][0] != monitor.MsgBackfillDays {
			t.Errorf("backfillDays %d: %v, want 422 %q", days, err, monitor.MsgBackfillDays)
		}
	}
	searches, err := s.Searches(context.Background(), f.actor.OrganizationID)
	if err != nil || len(searches) != 0 {
		t.Errorf("stored %d searches (%v), want none", len(searches), err)
	}
}

// A backfill's matches count towards the organization's monthly data limit as new matches do:
// past it, the rest is left out.
func TestBackfillCountsTowardsTheLimits(t *testing.T) {
	s := storetest.Open(t, store.SQLite)
	ctx := context.Background()
	f := newFixture(t, s, "limits@acme.test")
	backfills := f.withBackfills(t)
	now := time.Now().UTC()
	tenantPosts(t, s, 0, "protest bridge", 8, now)
	if err := s.SetOrganizationLimits(ctx, f.actor.OrganizationID, 5, 0); err != nil {
		t.Fatal(err)
	}
	sv, err := f.monitor.CreateSearch(ctx, f.actor, monitor.SearchInput{GroupID: f.home, Name: "limited", Keywords: "protest",
		Providers: []string{"twitter"}, BackfillDays: 7})
	if err != nil {
		t.Fatal(err)
	}
	backfills.Wait()
	done, err := f.monitor.Search(ctx, f.actor, sv.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(inbox(t, s, f, sv.ID)); got != 5 || done.Backfill.Added != 5 || done.Backfill.Status != monitor.BackfillDone {
		t.Fatalf("inbox %d, backfill %+v; want the 5 the monthly limit allows", got, done.Backfill)
	}
	used, err := s.CountMatchesSince(ctx, f.actor.OrganizationID, monitor.MonthStart(now))
	if err != nil || used != 5 {
		t.Fatalf("monthly data used %d (%v), want 5", used, err)
	}
}
