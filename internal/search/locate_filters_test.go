package search_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/filters"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/search"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// analyst is a user of an organization of a tenant, as authz sees them.
func analyst(t *testing.T, s *store.Store, tenant, email string, role account.Role) authz.Actor {
	t.Helper()
	ctx := context.Background()
	u, err := account.NewService(s).CreateUser(ctx, account.NewUser{Tenant: tenant,
		Organization: "Org of " + tenant, Email: email, Password: "correct-horse-9", Role: role})
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.MembershipRole(ctx, u.OrganizationID, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	return auth.Identity{User: u, Role: r}.Actor()
}

// A Locate search applies the search filter lists it names, by the monitor's own rule (the
// matcher's filters), to every page and to the total; a list of another tenant's organization,
// one that does not exist and an object-detection list are refused with the spec's message.
func TestLocateSearchFilters(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Now().UTC().Truncate(time.Millisecond)
		var posts []post.Post
		for i := range 30 {
			text, author := fmt.Sprintf("crane number %d at the docks", i), "Ana"
			if i%2 == 1 {
				text = fmt.Sprintf("crane number %d cheap spam offer", i)
			}
			if i%5 == 0 {
				author = "Ben"
			}
			p := post.Post{Provider: "twitter", NativeID: fmt.Sprint("p", i), AuthorName: author, AuthorScreenName: strings.ToLower(author),
				ContentText: text, PublishedAt: now.Add(-time.Duration(i) * time.Minute)}
			p.ID, p.DiscoveredAt = post.NewID(p.Provider, p.NativeID), p.PublishedAt
			posts = append(posts, p)
		}
		if _, err := s.InsertPosts(ctx, posts); err != nil {
			t.Fatal(err)
		}
		lists := filters.NewService(s, nil)
		owner := analyst(t, s, "acme", "owner@acme.test", account.RoleOwner)
		member := analyst(t, s, "acme", "member@acme.test", account.RoleMember)
		outsider := analyst(t, s, "globex", "outsider@globex.test", account.RoleOwner)
		if member.OrganizationID != owner.OrganizationID || outsider.TenantID == owner.TenantID {
			t.Fatalf("organizations: owner %+v, member %+v, outsider %+v", owner, member, outsider)
		}
		list := func(typ string, inclusion bool, entries ...string) int64 {
			t.Helper()
			v, _, err := lists.Create(ctx, owner, filters.Draft{Name: typ + strings.Join(entries, " "), Type: typ,
				Inclusion: &inclusion, Entries: entries})
			if err != nil {
				t.Fatal(err)
			}
			return v.ID
		}
		noSpam := list("keyword", false, "spam")
		onlyCheap := list("keyword", true, "cheap")
		notBen := list("author", false, "@ben")
		objects := list("object_detection", true, "crane")
		svc := search.NewService(s, search.Options{FilterLists: lists})

		// every reads all the pages of a search, 4 posts a page, and the first page's total.
		every := func(a authz.Actor, ids ...int64) (found []string, total int, err error) {
			page, err := svc.Locate(ctx, everything, a, search.LocateRequest{Type: "keyword", Keywords: "crane", Size: 4, SearchFilters: ids})
			if err != nil {
				return nil, 0, err
			}
			total = page.TotalCount
			for {
				for _, d := range page.Documents {
					found = append(found, d.NativeID)
				}
				if page.SearchID == "" {
					return found, total, nil
				}
				if page, err = svc.LocateMore(ctx, everything, a, page.SearchID); err != nil {
					return nil, 0, err
				}
			}
		}
		want := func(keep func(i int) bool) []string {
			var out []string
			for i := range 30 {
				if keep(i) {
					out = append(out, fmt.Sprint("p", i))
				}
			}
			return out
		}
		for _, tt := range []struct {
			name  string
			actor authz.Actor
			ids   []int64
			want  []string
		}{
			{"none", owner, nil, want(func(int) bool { return true })},
			{"keyword exclusion", owner, []int64{noSpam}, want(func(i int) bool { return i%2 == 0 })},
			{"keyword inclusion", owner, []int64{onlyCheap}, want(func(i int) bool { return i%2 == 1 })},
			{"author exclusion and keyword exclusion", owner, []int64{notBen, noSpam, notBen},
				want(func(i int) bool { return i%2 == 0 && i%5 != 0 })},
			{"a member who may view the list", member, []int64{noSpam}, want(func(i int) bool { return i%2 == 0 })},
		} {
			t.Run(tt.name, func(t *testing.T) {
				found, total, err := every(tt.actor, tt.ids...)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(found, tt.want) {
					t.Errorf("found %v, want %v", found, tt.want)
				}
				if total != len(tt.want) {
					t.Errorf("total %d, want %d", total, len(tt.want))
				}
			})
		}

		t.Run("refused lists", func(t *testing.T) {
			for _, tt := range []struct {
				name  string
				actor authz.Actor
				ids   []int64
				field string
			}{
				{"another tenant's list", outsider, []int64{noSpam}, authz.MsgNotFoundFilterList},
				{"no such list", owner, []int64{noSpam + 1000}, authz.MsgNotFoundFilterList},
				{"object detection", owner, []int64{noSpam, objects}, search.MsgObjectsDisabled},
			} {
				_, _, err := every(tt.actor, tt.ids...)
				p, ok := problem.As(err)
				if !ok || p.Kind != problem.KindInvalid || p.Message != search.MsgSearchFilters ||
					!slices.Equal(p.Fields["searchFilters"], []string{tt.field}) {
					t.Errorf("%s: %v, want %q with %q", tt.name, err, search.MsgSearchFilters, tt.field)
				}
			}
			_, err := svc.LocateAnalytics(ctx, everything, outsider, search.LocateRequest{Type: "keyword", Keywords: "crane",
				SearchFilters: []int64{noSpam}})
			if !problem.Is(err, problem.KindInvalid) {
				t.Errorf("analytics with another tenant's list: %v", err)
			}
		})

		t.Run("a page token holds ids, and is checked for whoever continues it", func(t *testing.T) {
			page, err := svc.Locate(ctx, everything, owner, search.LocateRequest{Type: "keyword", Keywords: "crane", Size: 4,
				SearchFilters: []int64{noSpam}})
			if err != nil {
				t.Fatal(err)
			}
			if page.SearchID == "" {
				t.Fatal("no searchId")
			}
			if _, err := svc.LocateMore(ctx, everything, outsider, page.SearchID); !problem.Is(err, problem.KindInvalid) {
				t.Errorf("another tenant continuing the search: %v", err)
			}
			// Beacon's load-more has no user to resolve lists for: it refuses rather than drop them.
			if _, err := svc.More(ctx, everything, search.All, page.SearchID); !problem.Is(err, problem.KindInvalid) {
				t.Errorf("beacon continuing a search with lists: %v", err)
			}
		})

		t.Run("analytics count only what the lists keep", func(t *testing.T) {
			a, err := svc.LocateAnalytics(ctx, everything, owner, search.LocateRequest{Type: "keyword", Keywords: "crane",
				SearchFilters: []int64{onlyCheap}})
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range a.WordCloud {
				if strings.EqualFold(w.Word, "docks") {
					t.Errorf("word cloud has %q, which only excluded posts write", w.Word)
				}
			}
		})
	})
}
