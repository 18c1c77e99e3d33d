package search_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/percolate"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/provider"
	"github.com/sightline/sightline/internal/query"
	"github.com/sightline/sightline/internal/search"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

var everything = provider.Entitlements{Beacon: true, Pro: true, Enterprise: true}

var vocabulary = []string{"attack", "attacks", "protest", "café", "Cafe", "ransomware", "leak", "leaked",
	"bridge", "market", "vendor", "police", "riot", "fire", "drone", "ÉCOLE", "ecole", "straße", "strasse",
	"alpha", "beta", "gamma", "delta", "osint", "breach", "credential", "dump", "night", "city", "north"}

// corpus stores n generated social posts over the last 40 days and returns them.
func corpus(t *testing.T, s *store.Store, n int, seed uint64) []post.Post {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 7))
	providers := []string{"twitter", "reddit", "telegram", "mastodon", "bluesky"}
	now := time.Now().UTC()
	var posts []post.Post
	for i := 0; i < n; i++ {
		words := make([]string, 3+r.IntN(12))
		for j := range words {
			words[j] = vocabulary[r.IntN(len(vocabulary))]
		}
		p := post.Post{Provider: providers[r.IntN(len(providers))], NativeID: fmt.Sprint("n", i),
			AuthorName: fmt.Sprintf("Author %d", r.IntN(20)), AuthorScreenName: fmt.Sprintf("handle%d", r.IntN(20)),
			ContentText: strings.Join(words, " "),
			PublishedAt: now.Add(-time.Duration(r.Int64N(int64(29 * 24 * time.Hour)))).Truncate(time.Millisecond)}
		if r.IntN(4) == 0 {
			p.TitleText = vocabulary[r.IntN(len(vocabulary))]
		}
		if r.IntN(3) == 0 {
			p.Photos = []post.Media{{Large: "https://img.example/x.jpg"}}
		}
		if r.IntN(3) == 0 {
			p.Location = &post.Point{Lat: 40 + r.Float64()*10, Lon: -5 + r.Float64()*10}
		}
		p.ID = post.NewID(p.Provider, p.NativeID)
		p.DiscoveredAt = p.PublishedAt.Add(time.Minute)
		posts = append(posts, p)
	}
	if _, err := s.InsertPosts(context.Background(), posts); err != nil {
		t.Fatal(err)
	}
	return posts
}

// all runs a search to its end and returns the ids in the order given.
func all(t *testing.T, svc *search.Service, r search.Request) []string {
	t.Helper()
	ctx := context.Background()
	page, err := svc.Search(ctx, everything, provider.Social, r)
	if err != nil {
		t.Fatalf("search %+v: %v", r, err)
	}
	var ids []string
	for pages := 0; ; pages++ {
		for _, d := range page.Documents {
			ids = append(ids, d.ID)
		}
		if page.SearchID == "" || pages > 1000 {
			return ids
		}
		if page, err = svc.More(ctx, everything, provider.Social, page.SearchID); err != nil {
			t.Fatal(err)
		}
	}
}

// The search answers exactly what the matcher answers, whatever the full-text index finds.
func TestSearchAgreesWithTheMatcher(t *testing.T) {
	queries := []string{
		"attack", "attack OR riot", "café", "CAFE", "ecole", "strasse", "attack -attacks",
		`"police riot"`, `"night city"~3`, "leak*", "*ware", "cr?dential", "protets~1", "market vendor",
		"(fire OR drone) -night", "osint, breach, dump", "ALPHA beta OR gamma", "attack and riot",
	}
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		// 200 posts read in pages of 10 reach every query form and many pages (issue 26: it was
		// 400 in pages of 7, two minutes of PostgreSQL at a load of 45).
		posts := corpus(t, s, 200, 1)
		svc := search.NewService(s, search.Options{})
		now := time.Now()
		for _, q := range queries {
			for _, sort := range []string{post.SortPublishedDesc, post.SortDiscoveredAsc, post.SortRelevance} {
				t.Run(q+"/"+sort, func(t *testing.T) {
					got := all(t, svc, search.Request{Query: q, Sort: sort, Size: 10})
					from, to := now.Add(-search.DefaultWindow), now.Add(time.Second)
					c, err := percolate.Compile(percolate.SavedSearch{Keywords: q, Enabled: true, Mode: query.ModeBeacon,
						Providers: []string{"twitter", "reddit", "telegram", "mastodon", "bluesky"}, Start: &from, End: &to})
					if err != nil {
						t.Fatal(err)
					}
					var want []string
					for _, p := range posts {
						if c.Match(percolate.DocOf(p), now) {
							want = append(want, p.ID)
						}
					}
					if len(got) != len(slices.Compact(slices.Sorted(slices.Values(got)))) {
						t.Errorf("a post appears twice across pages")
					}
					slices.Sort(got)
					slices.Sort(want)
					if !slices.Equal(got, want) {
						t.Errorf("search found %d posts, the matcher %d", len(got), len(want))
					}
				})
			}
		}
	})
}

func TestSearchFiltersOrderAndTotals(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		posts := corpus(t, s, 300, 2)
		stopped := time.Now() // as in TestSearchTotalsAreExact
		svc := search.NewService(s, search.Options{Now: func() time.Time { return stopped }})
		ctx := context.Background()

		page, err := svc.Search(ctx, everything, provider.Social, search.Request{Query: "attack", Size: 5})
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i < len(page.Documents); i++ {
			if page.Documents[i].PublishedAt.After(page.Documents[i-1].PublishedAt) {
				t.Errorf("published_desc is out of order at %d", i)
			}
		}
		if n := len(all(t, svc, search.Request{Query: "attack"})); page.TotalCount != n || page.TotalIsEstimate {
			t.Errorf("totalCount %d (estimate %v), want %d", page.TotalCount, page.TotalIsEstimate, n)
		}

		imgs := all(t, svc, search.Request{Query: "attack OR leak", ImagesOnly: true, Providers: []string{"reddit"}})
		byID := map[string]post.Post{}
		for _, p := range posts {
			byID[p.ID] = p
		}
		for _, id := range imgs {
			if p := byID[id]; len(p.Photos) == 0 || p.Provider != "reddit" {
				t.Errorf("%s has no image or is not from reddit", id)
			}
		}

		author := all(t, svc, search.Request{Authors: []string{"@HANDLE3", "Author 4"}})
		for _, id := range author {
			if p := byID[id]; p.AuthorScreenName != "handle3" && p.AuthorName != "Author 4" {
				t.Errorf("author search found %s by %s / %s", id, p.AuthorName, p.AuthorScreenName)
			}
		}
		if len(author) == 0 {
			t.Error("the author search found nothing")
		}
		inBox := all(t, svc, search.Request{Bounds: "POLYGON((0 40, 5 40, 5 45, 0 45, 0 40))"})
		for _, id := range inBox {
			if l := byID[id].Location; l == nil || l.Lon < 0 || l.Lon > 5 || l.Lat < 40 || l.Lat > 45 {
				t.Errorf("%s is outside the bounds", id)
			}
		}
	})
}

func TestSearchValidation(t *testing.T) {
	s := storetest.Open(t, store.SQLite)
	svc := search.NewService(s, search.Options{})
	ctx := context.Background()
	tests := []struct {
		name  string
		ent   provider.Entitlements
		cat   provider.Category
		req   search.Request
		field string
	}{
		{"blank", everything, provider.Social, search.Request{Query: "  "}, "query"},
		{"broken syntax", everything, provider.Social, search.Request{Query: `"unclosed`}, "query"},
		{"unknown provider", everything, provider.Social, search.Request{Query: "a", Providers: []string{"tor"}}, "providers"},
		{"dark web without Beacon", provider.Entitlements{Pro: true}, provider.DarkWeb, search.Request{Query: "a"}, "providers"},
		{"bad bounds", everything, provider.Social, search.Request{Query: "a", Bounds: "POLYGON((1 2"}, "bounds"},
		{"reversed dates", everything, provider.Social, search.Request{Query: "a", StartDate: ptr(2000), EndDate: ptr(1000)}, "endDate"},
		{"threat score over 100", everything, provider.Social, search.Request{Query: "a", MinThreatScore: 101}, "minThreatScore"},
		{"unknown sort", everything, provider.Social, search.Request{Query: "a", Sort: "random"}, "sort"},
		{"author with operators", everything, provider.Social, search.Request{Authors: []string{"a OR b"}}, "author"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := svc.Search(ctx, tt.ent, tt.cat, tt.req)
			p, ok := problem.As(err)
			if !ok || p.Kind != problem.KindInvalid || len(p.Fields[tt.field]) == 0 {
				t.Errorf("err = %v (fields %v), want a validation problem on %q", err, fieldsOf(p), tt.field)
			}
		})
	}
	if _, err := svc.Search(ctx, everything, provider.Social, search.Request{Query: "attack and riot"}); err != nil {
		t.Errorf("lower-case and is only a warning in Beacon: %v", err)
	}
	if _, err := svc.More(ctx, everything, provider.Social, "not-a-search-id"); !problem.Is(err, problem.KindInvalid) {
		t.Errorf("bad searchId: %v", err)
	}
}

func ptr(v int64) *int64 { return &v }

func fieldsOf(p *problem.Problem) map[string][]string {
	if p == nil {
		return nil
	}
	return p.Fields
}

// All (Beacon's Results tab) searches every category the subscriptions reach, and names the
// providers of any of them; without Beacon the dark web's posts are left out.
func TestSearchAllCategories(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Now().UTC().Truncate(time.Millisecond)
		var posts []post.Post
		for i, prov := range []string{"reddit", "tor", "forum", "pastebin"} {
			p := post.Post{Provider: prov, NativeID: fmt.Sprint("x", i), ContentText: "harbour crane " + prov,
				PublishedAt: now.Add(-time.Duration(i) * time.Hour)}
			p.ID, p.DiscoveredAt = post.NewID(p.Provider, p.NativeID), p.PublishedAt
			posts = append(posts, p)
		}
		if _, err := s.InsertPosts(ctx, posts); err != nil {
			t.Fatal(err)
		}
		svc := search.NewService(s, search.Options{})
		providersOf := func(e provider.Entitlements, r search.Request) []string {
			t.Helper()
			page, err := svc.Search(ctx, e, search.All, r)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, d := range page.Documents {
				out = append(out, d.Provider)
			}
			return out
		}
		if got := providersOf(everything, search.Request{Query: "harbour"}); fmt.Sprint(got) != "[reddit tor forum pastebin]" {
			t.Errorf("all categories = %v", got)
		}
		if got := providersOf(everything, search.Request{Query: "harbour", Providers: []string{"forum", "tor"}}); fmt.Sprint(got) != "[tor forum]" {
			t.Errorf("named providers across categories = %v", got)
		}
		if got := providersOf(provider.Entitlements{Pro: true}, search.Request{Query: "harbour"}); fmt.Sprint(got) != "[reddit forum]" {
			t.Errorf("without Beacon = %v", got)
		}
	})
}

// A first page's total is exact when its candidates can all be verified, whichever order it is
// in and wherever the page stopped reading: in a time order only the candidates after the
// page's cursor are counted and verified again.
func TestSearchTotalsAreExact(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		corpus(t, s, 150, 3)
		stopped := time.Now() // a busy machine must not run a page out of its budget: its total would be estimated
		svc := search.NewService(s, search.Options{Now: func() time.Time { return stopped }})
		for _, q := range []string{"attack", "attack OR riot", `"police riot"`, "leak*", "night city -north"} {
			for _, sort := range []string{post.SortPublishedDesc, post.SortPublishedAsc, post.SortDiscoveredDesc,
				post.SortDiscoveredAsc, post.SortRelevance, post.SortEngagementDesc} {
				// Every page read in the largest size: what the small first pages must total.
				n := len(all(t, svc, search.Request{Query: q, Sort: sort, Size: search.MaxSize}))
				for _, size := range []int{1, 7} {
					r := search.Request{Query: q, Sort: sort, Size: size}
					page, err := svc.Search(context.Background(), everything, provider.Social, r)
					if err != nil {
						t.Fatal(err)
					}
					if page.TotalCount != n || page.TotalIsEstimate {
						t.Errorf("%q %s, pages of %d: totalCount %d (estimate %v), want %d",
							q, sort, size, page.TotalCount, page.TotalIsEstimate, n)
					}
				}
			}
		}
	})
}

// slowStore is a store whose candidate reads take a page's whole budget on the service's clock,
// and whose counts may outlast any budget.
type slowStore struct {
	*store.Store
	elapsed   *time.Duration
	readTakes time.Duration
	reads     int
	countHang bool
}

func (s *slowStore) CandidatePosts(ctx context.Context, q search.PostQuery) ([]search.Candidate, error) {
	s.reads++
	*s.elapsed += s.readTakes
	return s.Store.CandidatePosts(ctx, q)
}

func (s *slowStore) CountCandidates(ctx context.Context, q search.PostQuery, limit int) (int, error) {
	if !s.countHang {
		return s.Store.CountCandidates(ctx, q, limit)
	}
	select {
	case <-ctx.Done():
		return 0, ctx.Err()
	case <-time.After(10 * time.Second): // a count left unbounded answers, and the test fails
		return 1, nil
	}
}

// A first page that used its whole budget gets a bounded count and verifies nothing more: its
// total is an estimate, from the candidates counted or, when counting would outlast its budget,
// from those it read.
func TestSearchTotalAfterThePageBudget(t *testing.T) {
	s := storetest.Open(t, store.SQLite)
	base := time.Now().UTC().Truncate(time.Millisecond)
	// The store does not filter by author: every post is a candidate that fails the matcher.
	var posts []post.Post
	for i := range 250 {
		p := post.Post{Provider: "twitter", NativeID: fmt.Sprint("s", i), ContentText: "alpha beta",
			PublishedAt: base.Add(-time.Duration(i+1) * time.Minute)}
		p.ID = post.NewID(p.Provider, p.NativeID)
		p.DiscoveredAt = p.PublishedAt
		posts = append(posts, p)
	}
	if _, err := s.InsertPosts(context.Background(), posts); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name         string
		readTakes    time.Duration
		countHang    bool
		wantReads    int
		wantEstimate bool
		wantSearchID bool
	}{
		// Finding nothing in time, it also tries the suggestion "alpha*": three reads more.
		{"in time: every candidate verified", 0, false, 6, false, false},
		{"late: counted, not verified", time.Second, false, 1, true, true},
		{"late: the count outlasts its budget", time.Second, true, 1, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var elapsed time.Duration
			slow := &slowStore{Store: s, elapsed: &elapsed, readTakes: tc.readTakes, countHang: tc.countHang}
			// The suggestion's reads are bounded in real time: a budget no machine reaches.
			svc := search.NewService(slow, search.Options{Now: func() time.Time { return base.Add(elapsed) }, SuggestBudget: time.Hour})
			page, err := svc.Search(context.Background(), everything, provider.Social, search.Request{Query: "alpha", Authors: []string{"nobody"}})
			if err != nil {
				t.Fatal(err)
			}
			if page.Count != 0 || page.TotalCount != 0 || page.TotalIsEstimate != tc.wantEstimate ||
				(page.SearchID != "") != tc.wantSearchID || slow.reads != tc.wantReads {
				t.Errorf("count %d, total %d (estimate %v), searchId %q after %d reads; want 0, 0 (%v), searchId %v after %d",
					page.Count, page.TotalCount, page.TotalIsEstimate, page.SearchID, slow.reads,
					tc.wantEstimate, tc.wantSearchID, tc.wantReads)
			}
		})
	}
}

// The community searches (get-markets-result, get-communities-result) keep to the posts of their
// community kinds, across every category the subscriptions reach, with the tenant's visibility,
// and page like any search.
func TestSearchCommunities(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Now().UTC().Truncate(time.Millisecond)
		var posts []post.Post
		for i, c := range []struct {
			provider, kind string
			tenant         int64
		}{
			{"marketplaces", post.CommunityMarketplaces, 0},
			{"tor", post.CommunityMarketplaces, 7},
			{"tor", post.CommunityMarketplaces, 8},
			{"forum", post.CommunityDiscussionBoards, 0},
			{"leaks", post.CommunityBreachedData, 0},
			{"reddit", "", 0},
		} {
			p := post.Post{Provider: c.provider, NativeID: fmt.Sprint("c", i), ContentText: "vendor listing " + c.provider,
				CommunityKind: c.kind, Tenant: c.tenant, PublishedAt: now.Add(-time.Duration(i) * time.Hour)}
			p.ID, p.DiscoveredAt = post.NewID(p.Provider, p.NativeID), p.PublishedAt
			if c.tenant != 0 {
				p.ID = post.NewTenantID(c.tenant, p.Provider, p.NativeID)
			}
			posts = append(posts, p)
		}
		if _, err := s.InsertPosts(ctx, posts); err != nil {
			t.Fatal(err)
		}
		svc := search.NewService(s, search.Options{})
		tenant7 := everything
		tenant7.Tenant = 7
		tests := []struct {
			name string
			ent  provider.Entitlements
			cat  provider.Category
			req  search.Request
			want []string
		}{
			{"markets", tenant7, search.Markets, search.Request{Query: "vendor"}, []string{posts[0].ID, posts[1].ID}},
			{"markets of another tenant", everything, search.Markets, search.Request{Query: "vendor"}, []string{posts[0].ID}},
			{"markets of one provider", tenant7, search.Markets, search.Request{Query: "vendor", Providers: []string{"tor"}},
				[]string{posts[1].ID}},
			{"communities", tenant7, search.Communities, search.Request{Query: "vendor"}, []string{posts[3].ID, posts[4].ID}},
			{"communities without Beacon", provider.Entitlements{Pro: true, Tenant: 7}, search.Communities,
				search.Request{Query: "vendor"}, []string{posts[3].ID}},
			{"by board alone", tenant7, search.Markets, search.Request{Boards: []string{"none"}}, nil},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				tt.req.Size = 1
				page, err := svc.Search(ctx, tt.ent, tt.cat, tt.req)
				if err != nil {
					t.Fatal(err)
				}
				if page.TotalCount != len(tt.want) || page.TotalIsEstimate {
					t.Errorf("total %d (estimate %v), want %d", page.TotalCount, page.TotalIsEstimate, len(tt.want))
				}
				var got []string
				for {
					for _, d := range page.Documents {
						got = append(got, d.ID)
					}
					if page.SearchID == "" {
						break
					}
					if page, err = svc.More(ctx, tt.ent, tt.cat, page.SearchID); err != nil {
						t.Fatal(err)
					}
				}
				if !slices.Equal(got, tt.want) {
					t.Errorf("found %v, want %v", got, tt.want)
				}
			})
		}
	})
}

// A search by author, board or place that none of its providers supports is refused with the
// provider-not-supported message rather than answered with nothing; one that some support runs.
func TestSearchKindsTheProvidersSupport(t *testing.T) {
	s := storetest.Open(t, store.SQLite)
	svc := search.NewService(s, search.Options{})
	ctx := context.Background()
	area := "POLYGON((0 40, 5 40, 5 45, 0 45, 0 40))"
	tests := []struct {
		name    string
		cat     provider.Category
		req     search.Request
		field   string // "" when the search runs
		message string
	}{
		{"author on Bluesky", provider.Social, search.Request{Authors: []string{"ana"}, Providers: []string{"bluesky"}},
			"authors", "Author search is not supported by Bluesky."},
		{"author in the documents", provider.Documents, search.Request{Authors: []string{"ana"}},
			"authors", "Author search is not supported by Pastes and Leaks."},
		{"board on X", provider.Social, search.Request{Query: "a", Boards: []string{"news"}, Providers: []string{"twitter"}},
			"boards", "Board and group search is not supported by X."},
		{"place on pastes", provider.Documents, search.Request{Bounds: area, Providers: []string{"pastebin"}},
			"bounds", "Location search is not supported by Pastes."},
		{"author where one supports it", provider.Social, search.Request{Authors: []string{"ana"},
			Providers: []string{"bluesky", "reddit"}}, "", ""},
		{"place over the category", provider.Social, search.Request{Bounds: area}, "", ""},
		{"board on a forum", provider.DeepWeb, search.Request{Boards: []string{"news"}}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := svc.Search(ctx, everything, tt.cat, tt.req)
			if tt.field == "" {
				if err != nil {
					t.Errorf("err = %v, want the search to run", err)
				}
				return
			}
			p, ok := problem.As(err)
			if !ok || p.Kind != problem.KindInvalid || p.Message != tt.message || len(p.Fields[tt.field]) != 1 {
				t.Errorf("err = %v (fields %v), want %q on %q", err, fieldsOf(p), tt.message, tt.field)
			}
		})
	}
	located, err := svc.Locate(ctx, everything, authz.Actor{}, search.LocateRequest{Type: "author", Author: "ana", Providers: []string{"facebook"}})
	if p, ok := problem.As(err); !ok || len(p.Fields["author"]) != 1 {
		t.Errorf("Locate author search on Facebook = %v, %v; want refused on author", located, err)
	}
}

// A search the store cannot answer before the request's deadline is "temporarily unable" (503),
// whether a first page, a later one or the analytics.
func TestSearchPastItsDeadlineIsUnavailable(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		corpus(t, s, 50, 3)
		svc := search.NewService(s, search.Options{})
		page, err := svc.Search(context.Background(), everything, provider.Social, search.Request{Query: "attack", Size: 1})
		if err != nil || page.SearchID == "" {
			t.Fatalf("search = %v, %v", page.SearchID, err)
		}
		ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
		defer cancel()
		calls := map[string]func() error{
			"search": func() error {
				_, err := svc.Search(ctx, everything, provider.Social, search.Request{Query: "attack"})
				return err
			},
			"more": func() error {
				_, err := svc.More(ctx, everything, provider.Social, page.SearchID)
				return err
			},
			"analytics": func() error {
				_, err := svc.Analyze(ctx, everything, provider.Social, search.Request{Query: "attack"})
				return err
			},
		}
		for name, call := range calls {
			if p, ok := problem.As(call()); !ok || p.Kind != problem.KindUnavailable || p.Message != search.MsgUnavailable {
				t.Errorf("%s past its deadline = %v, want %q", name, p, search.MsgUnavailable)
			}
		}
	})
}

// The date crawled bounds the discovered time; by default it reaches back two years, which
// bounds a search only on a store that keeps posts longer than that.
func TestSearchDateCrawled(t *testing.T) {
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Millisecond)
	day := 24 * time.Hour
	at := func(age time.Duration) *int64 { return ptr(now.Add(-age).UnixMilli()) }
	insert := func(t *testing.T, s *store.Store, ages map[string]time.Duration) {
		t.Helper()
		var posts []post.Post
		for name, age := range ages {
			p := post.Post{Provider: "reddit", NativeID: name, ContentText: "quay crane " + name,
				PublishedAt: now.Add(-age - time.Hour), DiscoveredAt: now.Add(-age)}
			p.ID = post.NewID(p.Provider, p.NativeID)
			posts = append(posts, p)
		}
		if _, err := s.InsertPosts(ctx, posts); err != nil {
			t.Fatal(err)
		}
	}
	crawled := func(from, to *int64) search.Request {
		return search.Request{Query: "crane", DiscoveredStartDate: from, DiscoveredEndDate: to}
	}
	type test struct {
		name      string
		retention time.Duration
		req       search.Request
		want      []string
	}
	run := func(t *testing.T, s *store.Store, tests []test) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				svc := search.NewService(s, search.Options{Retention: tt.retention})
				page, err := svc.Search(ctx, everything, provider.Social, tt.req)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, d := range page.Documents {
					got = append(got, d.NativeID)
				}
				if !slices.Equal(got, tt.want) || page.TotalCount != len(tt.want) {
					t.Errorf("found %v (total %d), want %v", got, page.TotalCount, tt.want)
				}
			})
		}
	}
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		insert(t, s, map[string]time.Duration{"today": 0, "last week": 7 * day, "last month": 25 * day})
		run(t, s, []test{
			{"default", 30 * day, crawled(nil, nil), []string{"today", "last week", "last month"}},
			{"since 3 days", 30 * day, crawled(at(3*day), nil), []string{"today"}},
			{"until 3 days ago", 30 * day, crawled(nil, at(3*day)), []string{"last week", "last month"}},
			{"the week before last", 30 * day, crawled(at(14*day), at(3*day)), []string{"last week"}},
		})
	})
	// Years of posts only on SQLite: PostgreSQL would hold a partition for each of their days.
	t.Run("years", func(t *testing.T) {
		s := storetest.Open(t, store.SQLite)
		insert(t, s, map[string]time.Duration{"today": 0, "three years": 3 * 365 * day})
		everPublished := crawled(nil, nil)
		everPublished.StartDate = at(4 * 365 * day)
		fourthYear := everPublished
		fourthYear.DiscoveredStartDate, fourthYear.DiscoveredEndDate = at(4*365*day), at(2*365*day)
		run(t, s, []test{
			{"default, posts kept 30 days", 30 * day, everPublished, []string{"today", "three years"}},
			{"default, posts kept 5 years", 5 * 365 * day, everPublished, []string{"today"}},
			{"the fourth year", 5 * 365 * day, fourthYear, []string{"three years"}},
		})
		_, err := search.NewService(s, search.Options{}).Search(ctx, everything, provider.Social,
			search.Request{Query: "a", DiscoveredStartDate: ptr(2000), DiscoveredEndDate: ptr(1000)})
		if p, ok := problem.As(err); !ok || len(p.Fields["discoveredEndDate"]) != 1 {
			t.Errorf("a crawled window ending before it starts = %v, want refused on discoveredEndDate", err)
		}
	})
}
