// Package search is the Beacon and Locate search over stored posts. The store's full-text index
// finds candidates; the saved-search matcher (internal/percolate, over internal/query) decides,
// so a search gives exactly the answers a saved search with the same terms would.
package search

import (
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/geom"
	"github.com/sightline/sightline/internal/percolate"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/provider"
	"github.com/sightline/sightline/internal/query"
)

// Messages of search-side.md section 8.
const (
	MsgInvalidParameters = "Invalid search parameters"
	MsgUnableWithOptions = "Unable to run search with chosen options"
	MsgEmpty             = "Search cannot be empty"
	MsgUnavailable       = "Temporarily unable to run a search. Try again in a couple seconds."
)

// All searches every category the user's subscriptions reach: Beacon's Results tab.
const All provider.Category = "all"

// Markets and Communities are the community searches of the Dark web and Open web tabs
// (named as their calls, /beacon/v1/get-markets-result and get-communities-result): every
// category the user reaches, kept to the posts of marketplaces, or of discussion boards and
// breached-data sites.
const (
	Markets     provider.Category = "get-markets-result"
	Communities provider.Category = "get-communities-result"
)

// communityKinds is what a category keeps to; nil for any community or none.
func communityKinds(c provider.Category) []string {
	switch c {
	case Markets:
		return []string{post.CommunityMarketplaces}
	case Communities:
		return []string{post.CommunityDiscussionBoards, post.CommunityBreachedData}
	}
	return nil
}

// Defaults and bounds.
const (
	DefaultWindow = 30 * 24 * time.Hour // the spec's default date filter
	// CrawledWindow is how far back the date crawled (discovered) reaches by default: the past
	// two years (search-side.md section 9), as far as posts are kept.
	CrawledWindow = 2 * 365 * 24 * time.Hour
	DefaultSize   = 25
	MaxSize       = 100
	// maxScanned and pageBudget bound the candidates one page verifies, so a query whose
	// full-text part cannot narrow (a leading wildcard, say) still answers quickly with what it
	// found so far and a searchId; the next page goes on from there.
	maxScanned = 5000
	pageBudget = 100 * time.Millisecond
	// exactCountLimit: up to this many candidates the total is counted exactly.
	exactCountLimit = 1000
	// lateCountBudget bounds counting for the total of a first page that used its whole
	// budget: its candidates rarely match, so the total is an estimate whatever the count.
	lateCountBudget = pageBudget / 4
)

// Request is a search as the client sends it (documented in docs/search-api.md).
type Request struct {
	Query     string   `json:"query"`
	Authors   []string `json:"authors,omitempty"`
	Providers []string `json:"providers,omitempty"`
	StartDate *int64   `json:"startDate,omitempty"` // unix milliseconds, published time
	EndDate   *int64   `json:"endDate,omitempty"`
	// DiscoveredStartDate and DiscoveredEndDate bound the date crawled (unix milliseconds); the
	// start is CrawledWindow ago by default.
	DiscoveredStartDate *int64   `json:"discoveredStartDate,omitempty"`
	DiscoveredEndDate   *int64   `json:"discoveredEndDate,omitempty"`
	Bounds              string   `json:"bounds,omitempty"` // WKT polygon
	ImagesOnly          bool     `json:"imagesOnly,omitempty"`
	VideosOnly          bool     `json:"videosOnly,omitempty"`
	Boards              []string `json:"boards,omitempty"`
	// MinThreatScore keeps posts whose threat score (docs/threat-score.md) is at least this.
	MinThreatScore int    `json:"minThreatScore,omitempty"`
	Sort           string `json:"sort,omitempty"`
	Size           int    `json:"size,omitempty"`
	// Filters are search filter lists the results must pass, resolved for the user (Locate's
	// searchFilters, locate.go). A searchId carries the lists' ids, never their entries.
	Filters []percolate.FilterList `json:"-"`
}

// Page is one page of results.
type Page struct {
	Documents  []post.Post `json:"documents"`
	Count      int         `json:"count"`
	TotalCount int         `json:"totalCount"`
	// TotalIsEstimate is true when there were too many candidates to count exactly, or the
	// first page ran out of its time budget (total).
	TotalIsEstimate bool `json:"totalCountIsEstimate"`
	// SearchID continues the search with /load-more or /next-page; "" when there is no more.
	SearchID string `json:"searchId"`
	// Suggestions, on a first page that found fewer than FewResults posts, are word forms and
	// near spellings of the query's words, each with what it would find (suggest.go).
	Suggestions []Suggestion `json:"suggestions"`
}

// Store is what search reads.
type Store interface {
	CandidatePosts(ctx context.Context, q PostQuery) ([]Candidate, error)
	// ExactKeywords reports whether the store's full-text index selects exactly the posts a
	// query's keywords match (PostQuery.Exact), rather than a superset to verify.
	ExactKeywords(q *query.Query) bool
	CountCandidates(ctx context.Context, q PostQuery, limit int) (int, error)
	// CountFullText counts the posts q's full-text match finds in its window, the filters
	// beside it left out (the reader's tenant too: the count only sizes a sample, whose posts
	// are read with every filter, and is never shown); ok is false when q has no full-text part.
	CountFullText(ctx context.Context, q PostQuery) (n int, ok bool, err error)
	// CountCandidatesByDay counts the candidates of each UTC day (days since the epoch).
	CountCandidatesByDay(ctx context.Context, q PostQuery) (map[int64]int, error)
	// IndexedTerms returns those of terms the posts' full-text index holds, whoever's posts.
	IndexedTerms(ctx context.Context, terms []string) ([]string, error)
}

// Service runs searches.
type Service struct {
	store     Store
	now       func() time.Time
	retention time.Duration
	analytics AnalyticsLimits
	// suggestBudget bounds the time of a page's suggestions (Options.SuggestBudget).
	suggestBudget time.Duration
	lists         FilterLists
	// verifyAll verifies every candidate even where the index answers exactly (the tests'
	// reference to compare the exact reading with).
	verifyAll bool
}

// Options are the Service's settings; the zero value is the defaults.
type Options struct {
	// Retention is how long the store keeps posts (the server's --retention): Locate's "all"
	// reaches that far back. DefaultWindow when 0.
	Retention time.Duration
	// Analytics bounds each analysis; nil means DefaultAnalyticsLimits.
	Analytics *AnalyticsLimits
	// Now is the clock of the time budgets; nil means time.Now.
	Now func() time.Time
	// SuggestBudget bounds the real time all of a first page's suggestions take (their reads
	// are cut short by a context deadline, which no test clock moves); suggestBudget when 0.
	// Tests of what is suggested set one no machine reaches, so that a slow one suggests the
	// same (issue 26).
	SuggestBudget time.Duration
	// FilterLists resolves the filter lists a Locate search names (*filters.Service); without
	// it such a search is refused.
	FilterLists FilterLists
}

// FilterLists gives filter lists in the matcher's form, each one the actor may read
// (internal/authz), in the order asked; one the actor may not read is not found.
type FilterLists interface {
	ForMatching(ctx context.Context, a authz.Actor, listIDs []int64) ([]percolate.FilterList, error)
}

func NewService(s Store, o Options) *Service {
	svc := &Service{store: s, now: o.Now, retention: cmp.Or(o.Retention, DefaultWindow), analytics: DefaultAnalyticsLimits(),
		suggestBudget: cmp.Or(o.SuggestBudget, suggestBudget), lists: o.FilterLists}
	if svc.now == nil {
		svc.now = time.Now
	}
	if o.Analytics != nil {
		svc.analytics = *o.Analytics
	}
	return svc
}

// continuation is what a searchId holds: the request and where the last page stopped. It is
// self-contained, so any node can continue any search; it is re-validated on every use.
type continuation struct {
	Category provider.Category `json:"c"`
	Request  Request           `json:"r"`
	After    *Cursor           `json:"a,omitempty"`
	Offset   int               `json:"o,omitempty"`
	// Total and Estimate are the first page's totals, carried so later pages need not count.
	Total    int  `json:"n"`
	Estimate bool `json:"e,omitempty"`
	// Lists are the ids of the search's filter lists (Request.Filters), resolved again for the
	// user who continues the search, so a page never uses a list its user may not.
	Lists []int64 `json:"l,omitempty"`
}

// prepared is a validated request.
type prepared struct {
	compiled  *percolate.Compiled
	keywords  *query.Query
	providers []string
	from, to  time.Time
	// crawledFrom and crawledTo bound the discovered time; zero where the search does not.
	crawledFrom, crawledTo time.Time
	sort                   string
	size                   int
	// communities is the community kinds the category keeps to (communityKinds).
	communities []string
	// within is the box around the search's area, for the store's spatial index; nil without one.
	within *geom.Rect
}

// Search runs the first page of a search in a category for a user with these entitlements.
func (s *Service) Search(ctx context.Context, e provider.Entitlements, category provider.Category, r Request) (Page, error) {
	return s.search(ctx, e, continuation{Category: category, Request: r})
}

// search runs the first page of c's search.
func (s *Service) search(ctx context.Context, e provider.Entitlements, c continuation) (Page, error) {
	category, r := c.Category, c.Request
	page, err := s.run(ctx, e, c)
	if err != nil || page.TotalIsEstimate || page.TotalCount >= FewResults {
		return page, unavailable(err)
	}
	page.Suggestions, err = s.suggest(ctx, e, category, r, page.TotalCount)
	return page, unavailable(err)
}

// More continues a search from its searchId. A search with filter lists (Locate's) is
// continued by LocateMore, which knows whose lists they are.
func (s *Service) More(ctx context.Context, e provider.Entitlements, category provider.Category, searchID string) (Page, error) {
	c, err := decodeContinuation(category, searchID)
	if err != nil {
		return Page{}, err
	}
	if len(c.Lists) > 0 {
		return Page{}, notThisSearch()
	}
	page, err := s.run(ctx, e, c)
	return page, unavailable(err)
}

func notThisSearch() error {
	return problem.InvalidField("searchId", "The searchId is not one this search gave.")
}

func decodeContinuation(category provider.Category, searchID string) (continuation, error) {
	raw, err := base64.RawURLEncoding.DecodeString(searchID)
	var c continuation
	if err != nil || json.Unmarshal(raw, &c) != nil || c.Category != category {
		return c, notThisSearch()
	}
	return c, nil
}

// unavailable is the reply to a search the store could not answer within the request's time:
// the spec's "temporarily unable" (503), whose remedy, trying again shortly, is the user's.
func unavailable(err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return problem.Unavailable(MsgUnavailable)
	}
	return err
}

func (s *Service) run(ctx context.Context, e provider.Entitlements, c continuation) (Page, error) {
	p, err := s.prepare(e, c.Category, c.Request)
	if err != nil {
		return Page{}, err
	}
	q := postQuery(e, c, p)
	// The matcher runs "as of" the window's end, so the window bounds published time only.
	asOf := p.to

	page := Page{Documents: []post.Post{}, Suggestions: []Suggestion{}}
	first := c.After == nil && c.Offset == 0
	scanned := 0
	started := s.now()
	exhausted := false
	batch := max(p.size*4, 100)
	// Where the index answers exactly, every candidate is a match: the page is read alone, with
	// one row more to tell whether there are more, nothing is verified, and the total is counted
	// (total).
	if q.Exact = s.indexAnswers(p, c.Request); q.Exact {
		batch = p.size + 1
	}
	for len(page.Documents) < p.size && scanned < maxScanned && s.now().Sub(started) < pageBudget {
		q.Limit = batch
		candidates, err := s.store.CandidatePosts(ctx, q)
		if err != nil {
			return Page{}, err
		}
		for i, cand := range candidates {
			scanned++
			if q.Exact || p.compiled.Match(percolate.DocOf(cand.Post), asOf) {
				page.Documents = append(page.Documents, cand.Post)
			}
			c.After, c.Offset = &candidates[i].Cursor, c.Offset+1
			if len(page.Documents) == p.size {
				break
			}
		}
		q.After, q.Offset = c.After, c.Offset
		if len(candidates) < batch && len(page.Documents) < p.size {
			exhausted = true
			break
		}
	}
	page.Count = len(page.Documents)
	outOfTime := !exhausted && page.Count < p.size && scanned < maxScanned
	if first {
		if err := s.total(ctx, q, p, &page, scanned, exhausted, outOfTime); err != nil {
			return Page{}, err
		}
		c.Total, c.Estimate = page.TotalCount, page.TotalIsEstimate
	} else {
		page.TotalCount, page.TotalIsEstimate = c.Total, c.Estimate
	}
	if !exhausted {
		page.SearchID = encode(c)
	}
	return page, nil
}

// postQuery is what the store reads for c's search, prepared as p, from where c stopped.
func postQuery(e provider.Entitlements, c continuation, p *prepared) PostQuery {
	return PostQuery{Tenant: e.Tenant, Keywords: p.keywords, From: p.from, To: p.to, Providers: p.providers,
		ImagesOnly: c.Request.ImagesOnly, VideosOnly: c.Request.VideosOnly, MinThreat: c.Request.MinThreatScore,
		Within: p.within, CommunityKinds: p.communities, DiscoveredFrom: p.crawledFrom, DiscoveredTo: p.crawledTo,
		Sort: p.sort, After: c.After, Offset: c.Offset}
}

// firstTotal is the total a first page of c's search would give. Where the index answers the
// search exactly that is its count, and no page is read.
func (s *Service) firstTotal(ctx context.Context, e provider.Entitlements, c continuation) (total int, estimate bool, err error) {
	p, err := s.prepare(e, c.Category, c.Request)
	if err != nil {
		return 0, false, err
	}
	if !s.indexAnswers(p, c.Request) {
		page, err := s.run(ctx, e, c)
		return page.TotalCount, page.TotalIsEstimate, err
	}
	q := postQuery(e, c, p)
	q.Exact = true
	n, err := s.store.CountCandidates(ctx, q, exactCountLimit+1)
	return n, n > exactCountLimit, err
}

// total fills TotalCount: exact when the candidates are few enough to verify all of them,
// otherwise the candidate count scaled by the share of candidates this page found matching.
// complete says this page holds every match. In a time order the page read and verified every
// candidate up to its cursor (scanned of them, page.Count matching), so only those after it are
// counted and verified. When the page ran out of time (late), the count gets lateCountBudget
// and nothing more is verified: the total is an estimate from the candidates counted, or from
// those read when even the count would take longer.
func (s *Service) total(ctx context.Context, q PostQuery, p *prepared, page *Page, scanned int, complete, late bool) error {
	if complete {
		page.TotalCount = page.Count
		return nil
	}
	read, matched := 0, 0
	switch q.Sort {
	case post.SortPublishedDesc, post.SortPublishedAsc, post.SortDiscoveredDesc, post.SortDiscoveredAsc:
		if q.After != nil {
			read, matched = scanned, page.Count
		}
	default:
		q.After = nil
	}
	q.Offset = 0
	n := read
	if read <= exactCountLimit {
		countCtx, cancel := ctx, context.CancelFunc(func() {})
		if late {
			countCtx, cancel = context.WithTimeout(ctx, lateCountBudget)
		}
		more, err := s.store.CountCandidates(countCtx, q, exactCountLimit+1-read)
		cancel()
		switch {
		case err != nil && late && ctx.Err() == nil && countCtx.Err() != nil:
			page.TotalCount, page.TotalIsEstimate = page.Count, true
			return nil
		case err != nil:
			return err
		}
		n += more
	}
	if n <= exactCountLimit && q.Exact {
		// The index's count is the matches'.
		page.TotalCount = matched + n - read
		return nil
	}
	if n <= exactCountLimit && n <= maxScanned && (!late || n == read) {
		// Few enough: verify them all for an exact total.
		page.TotalCount = matched
		if n == read {
			return nil
		}
		if q.After == nil {
			q.Sort = post.SortPublishedDesc
		}
		q.Limit = n - read
		rest, err := s.store.CandidatePosts(ctx, q)
		if err != nil {
			return err
		}
		for _, c := range rest {
			if p.compiled.Match(percolate.DocOf(c.Post), p.to) {
				page.TotalCount++
			}
		}
		return nil
	}
	page.TotalIsEstimate = true
	if scanned > 0 {
		page.TotalCount = max(page.Count, min(n, exactCountLimit+1)*page.Count/scanned)
	}
	return nil
}

// indexAnswers reports whether the store's full-text index answers p's search exactly, so that
// its candidates need no verification: the store answers the keywords exactly (ExactKeywords) and
// the search has no condition the store leaves to the matcher (authors, boards, an area, filter
// lists). The window, the sources and media are the same conditions in the store's query and
// the matcher (prepare makes the window whole milliseconds, as the store keeps times).
func (s *Service) indexAnswers(p *prepared, r Request) bool {
	if s.verifyAll || p.keywords == nil || len(r.Authors) > 0 || len(r.Boards) > 0 || p.within != nil ||
		len(r.Filters) > 0 {
		return false
	}
	return s.store.ExactKeywords(p.keywords)
}

func encode(c continuation) string {
	raw, _ := json.Marshal(c)
	return base64.RawURLEncoding.EncodeToString(raw)
}

// prepare validates the request and resolves providers, the window and the matcher.
func (s *Service) prepare(e provider.Entitlements, category provider.Category, r Request) (*prepared, error) {
	fields := map[string][]string{}
	if strings.TrimSpace(r.Query) == "" && len(r.Authors) == 0 && r.Bounds == "" && len(r.Boards) == 0 {
		return nil, problem.InvalidField("query", MsgEmpty)
	}
	p := &prepared{sort: r.Sort, size: r.Size, communities: communityKinds(category)}
	if p.size <= 0 {
		p.size = DefaultSize
	}
	p.size = min(p.size, MaxSize)
	switch p.sort {
	case "":
		p.sort = post.SortPublishedDesc
	case post.SortPublishedDesc, post.SortPublishedAsc, post.SortDiscoveredDesc, post.SortDiscoveredAsc, post.SortRelevance,
		post.SortEngagementDesc, post.SortFollowersDesc:
	default:
		fields["sort"] = []string{"Sort by published_desc, published_asc, discovered_desc, discovered_asc or relevance."}
	}

	now := s.now().UTC()
	p.to, p.from = now, now.Add(-DefaultWindow)
	if r.EndDate != nil {
		p.to = time.UnixMilli(*r.EndDate).UTC()
	}
	if r.StartDate != nil {
		p.from = time.UnixMilli(*r.StartDate).UTC()
	}
	if !p.to.After(p.from) {
		fields["endDate"] = []string{"The end date must be after the start date."}
	}
	// The store keeps publication times to the millisecond: the window is whole milliseconds,
	// from the start of from's to the end of to's, so the matcher and the store's range agree on
	// every post.
	p.from, p.to = p.from.Truncate(time.Millisecond), p.to.Truncate(time.Millisecond).Add(time.Millisecond-1)
	p.crawledFrom, p.crawledTo = s.crawled(now, r)
	if !p.crawledTo.IsZero() && !p.crawledTo.After(p.crawledFrom) {
		fields["discoveredEndDate"] = []string{"The end of the date crawled must be after its start."}
	}
	if r.MinThreatScore < 0 || r.MinThreatScore > 100 {
		fields["minThreatScore"] = []string{"The minimum threat score is from 0 to 100."}
	}

	var err error
	if p.providers, err = providersFor(e, category, r.Providers); err != nil {
		fields["providers"] = []string{err.Error()}
	}
	if p.providers != nil {
		if field, message := unsupported(p.providers, r); message != "" {
			return nil, problem.Invalid(message, map[string][]string{field: {message}})
		}
	}
	var bounds geom.Shape
	if r.Bounds != "" {
		if bounds, err = geom.ParseWKT(r.Bounds); err != nil {
			fields["bounds"] = []string{"The location bounds are not a valid WKT polygon: " + err.Error()}
		}
	}
	if len(fields) > 0 {
		return nil, problem.Invalid(MsgInvalidParameters, fields)
	}
	from, to := p.from, p.to
	compiled, err := percolate.Compile(percolate.SavedSearch{
		Keywords: r.Query, Author: strings.Join(r.Authors, ","), Providers: p.providers, Bounds: bounds,
		Start: &from, End: &to, ImagesOnly: r.ImagesOnly, VideosOnly: r.VideosOnly, Boards: r.Boards,
		Filters: r.Filters, Enabled: true, Mode: query.ModeBeacon,
	})
	if err != nil {
		return nil, invalidFrom(err)
	}
	p.compiled = compiled
	if bounds != nil {
		box := bounds.Bounds()
		p.within = &box
	}
	if strings.TrimSpace(r.Query) != "" {
		p.keywords, _ = query.Parse(r.Query, query.ModeBeacon)
	}
	return p, nil
}

// crawled is the request's window on the date crawled. Its default start, CrawledWindow ago,
// bounds the search only when the store keeps posts longer than that: otherwise every stored
// post was crawled within it, and the search is left without a condition that changes nothing.
func (s *Service) crawled(now time.Time, r Request) (from, to time.Time) {
	switch {
	case r.DiscoveredStartDate != nil:
		from = time.UnixMilli(*r.DiscoveredStartDate).UTC()
	case s.retention > CrawledWindow:
		from = now.Add(-CrawledWindow)
	}
	if r.DiscoveredEndDate != nil {
		to = time.UnixMilli(*r.DiscoveredEndDate).UTC()
	}
	return from, to
}

// providersFor is the requested providers (all, when none are named) of the category (every
// category for All and the community searches) that the user's subscriptions reach. Naming one
// outside them is an error, not a silent drop.
func providersFor(e provider.Entitlements, category provider.Category, requested []string) ([]string, error) {
	var available []string
	for _, entry := range provider.For(e) {
		if (category == All || communityKinds(category) != nil || entry.Category == category) && entry.Enabled {
			available = append(available, entry.Name)
		}
	}
	if len(available) == 0 {
		return nil, &reason{"Your subscriptions include no data source for this search."}
	}
	if len(requested) == 0 {
		return available, nil
	}
	var chosen []string
	for _, name := range requested {
		name = strings.ToLower(strings.TrimSpace(name))
		if !slices.Contains(available, name) {
			return nil, &reason{"The data source " + name + " is not available for this search."}
		}
		chosen = append(chosen, name)
	}
	return chosen, nil
}

// searchKinds are the kinds of search a provider may not support (provider.SearchFeatures), by
// the request field that asks for them.
var searchKinds = []struct {
	field, name string
	asked       func(Request) bool
	supports    func(provider.SearchFeatures) bool
}{
	{"authors", "Author search", func(r Request) bool { return len(r.Authors) > 0 },
		func(f provider.SearchFeatures) bool { return f.Author }},
	{"boards", "Board and group search", func(r Request) bool { return len(r.Boards) > 0 },
		func(f provider.SearchFeatures) bool { return f.BoardName }},
	{"bounds", "Location search", func(r Request) bool { return strings.TrimSpace(r.Bounds) != "" },
		func(f provider.SearchFeatures) bool { return f.Location }},
}

// unsupported names the first kind of search the request asks for that none of the providers
// supports, with the provider-not-supported message of search-side.md section 8; "" when every
// kind asked is supported by one of them at least. A search that some of them support runs over
// all: the others' stored posts may still match (an author's name, a place the text mentions).
func unsupported(providers []string, r Request) (field, message string) {
	for _, k := range searchKinds {
		if !k.asked(r) {
			continue
		}
		var names []string
		for _, name := range providers {
			p, _ := provider.Lookup(name)
			if k.supports(p.Search) {
				names = nil
				break
			}
			names = append(names, p.DisplayName)
		}
		if names != nil {
			return k.field, fmt.Sprintf("%s is not supported by %s.", k.name, joinAnd(names))
		}
	}
	return "", ""
}

// joinAnd lists names as a sentence does: "X", "X and Y", "X, Y and Z".
func joinAnd(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

type reason struct{ text string }

func (r *reason) Error() string { return r.text }

// invalidFrom turns the matcher's compile problems into the per-field validation reply.
func invalidFrom(err error) error {
	ce, ok := err.(*percolate.CompileError)
	if !ok {
		return err
	}
	fields := map[string][]string{}
	for _, p := range ce.Problems {
		field := p.Field
		if field == "keywords" {
			field = "query"
		}
		fields[field] = append(fields[field], p.Message)
	}
	return problem.Invalid(MsgInvalidParameters, fields)
}
