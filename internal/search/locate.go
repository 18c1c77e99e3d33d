package search

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/enrich"
	"github.com/sightline/sightline/internal/percolate"

	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/provider"
)

// Locate's search types (search-side.md section 3): which of the request's fields the search
// uses. A compound search uses every field given.
const (
	TypeKeyword  = "keyword"
	TypeAuthor   = "author"
	TypeLocation = "location"
	TypeCompound = "compound"
)

// Locate's media filter.
const (
	MediaImages = "images"
	MediaVideos = "videos"
	MediaBoth   = "both" // posts with images and videos, as a saved search with both boxes ticked
)

// Locate's priorities: how high a post's threat score (docs/threat-score.md) must be. One
// category of threat language scores up to 60, so "high" takes a strong finding or two kinds
// together, and "elevated" any clear one.
const (
	PriorityAny      = ""
	PriorityElevated = "elevated"
	PriorityHigh     = "high"
)

var priorityScores = map[string]int{PriorityAny: 0, PriorityElevated: enrich.ElevatedThreat, PriorityHigh: enrich.HighThreat}

// Locate's orders (search-side.md section 2): most recent, most popular (the post's
// engagement) and most followers (its author's); ties come newest first.
const (
	SortRecent    = "recent"
	SortPopular   = "popular"
	SortFollowers = "followers"
)

var locateSorts = map[string]string{"": post.SortPublishedDesc, SortRecent: post.SortPublishedDesc,
	SortPopular: post.SortEngagementDesc, SortFollowers: post.SortFollowersDesc}

// LocateRequest is a Locate quick search (docs/search-api.md). It runs over every category the
// user's subscriptions reach, with the fields of its type.
type LocateRequest struct {
	Type      string   `json:"type"`
	Keywords  string   `json:"keywords,omitempty"`
	Author    string   `json:"author,omitempty"` // comma-separated, as a saved search's
	Bounds    string   `json:"bounds,omitempty"` // WKT polygon
	Providers []string `json:"providers,omitempty"`
	// Boards keeps the posts of these boards or groups whatever the type, as a saved search's
	// boards do; the builder's Test in Locate carries them.
	Boards   []string `json:"boards,omitempty"`
	From     *int64   `json:"from,omitempty"` // unix milliseconds, published time
	To       *int64   `json:"to,omitempty"`
	Media    string   `json:"media,omitempty"`
	Priority string   `json:"priority,omitempty"`
	Sort     string   `json:"sort,omitempty"`
	Size     int      `json:"size,omitempty"`
	// SearchFilters are ids of the organization's search filter lists (keyword inclusion or
	// exclusion, author exclusion) the results must pass, as a saved search's do.
	SearchFilters []int64 `json:"searchFilters,omitempty"`
}

// MaxSearchFilters bounds the filter lists one Locate search applies.
const MaxSearchFilters = 20

// Messages about a Locate search's filter lists: the first is search-side.md section 8's,
// the second section 6's rule, said as the filters menu says it.
const (
	MsgSearchFilters   = "Error accessing Search Filter(s)"
	MsgObjectsDisabled = "Object-detection filters are disabled for quick search."
)

// Locate runs the first page of a Locate search for actor a; LocateMore continues it.
func (s *Service) Locate(ctx context.Context, e provider.Entitlements, a authz.Actor, r LocateRequest) (Page, error) {
	req, err := s.locateRequest(r)
	if err != nil {
		return Page{}, err
	}
	ids := distinct(r.SearchFilters)
	if req.Filters, err = s.filterLists(ctx, a, ids); err != nil {
		return Page{}, err
	}
	page, err := s.search(ctx, e, continuation{Category: All, Request: req, Lists: ids})
	return page, locateFields(err)
}

// LocateMore continues a Locate search (or a Beacon search over every category) from its
// searchId for actor a, whose filter lists are resolved again: the searchId holds their ids.
func (s *Service) LocateMore(ctx context.Context, e provider.Entitlements, a authz.Actor, searchID string) (Page, error) {
	c, err := decodeContinuation(All, searchID)
	if err != nil {
		return Page{}, err
	}
	if len(c.Lists) > MaxSearchFilters {
		return Page{}, notThisSearch()
	}
	if c.Request.Filters, err = s.filterLists(ctx, a, c.Lists); err != nil {
		return Page{}, err
	}
	page, err := s.run(ctx, e, c)
	return page, locateFields(unavailable(err))
}

// LocateAnalytics is the word cloud and daily graph of a Locate search's results.
func (s *Service) LocateAnalytics(ctx context.Context, e provider.Entitlements, a authz.Actor, r LocateRequest) (Analytics, error) {
	req, err := s.locateRequest(r)
	if err != nil {
		return Analytics{}, err
	}
	if req.Filters, err = s.filterLists(ctx, a, distinct(r.SearchFilters)); err != nil {
		return Analytics{}, err
	}
	an, err := s.Analyze(ctx, e, All, req)
	return an, locateFields(err)
}

// filterLists resolves a search's filter lists once, through the filter lists' own
// permission rule: a list the actor may not read (another organization's, or none) is not
// found, and an object-detection list is refused, as quick search has no object filters.
func (s *Service) filterLists(ctx context.Context, a authz.Actor, ids []int64) ([]percolate.FilterList, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	if len(ids) > MaxSearchFilters {
		return nil, problem.Invalid(MsgSearchFilters, map[string][]string{
			"searchFilters": {fmt.Sprintf("A search applies at most %d filter lists.", MaxSearchFilters)}})
	}
	if s.lists == nil {
		return nil, problem.Invalid(MsgSearchFilters, map[string][]string{"searchFilters": {"This server applies no filter lists to searches."}})
	}
	lists, err := s.lists.ForMatching(ctx, a, ids)
	if problem.Is(err, problem.KindNotFound) {
		return nil, problem.Invalid(MsgSearchFilters, map[string][]string{"searchFilters": {authz.MsgNotFoundFilterList}})
	}
	if err != nil {
		return nil, err
	}
	for _, l := range lists {
		if l.Kind == percolate.ObjectDetection {
			return nil, problem.Invalid(MsgSearchFilters, map[string][]string{"searchFilters": {MsgObjectsDisabled}})
		}
	}
	return lists, nil
}

// distinct is ids without repeats, in their order.
func distinct(ids []int64) []int64 {
	var out []int64
	for _, id := range ids {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// locateRequest is the search a Locate request stands for. Without a start it reaches back as
// far as posts are kept (Locate's "all"), which may be more than the 30 days of a search's
// default window.
func (s *Service) locateRequest(r LocateRequest) (Request, error) {
	req, err := r.request()
	if req.StartDate == nil && s.retention > DefaultWindow {
		end := s.now()
		if req.EndDate != nil {
			end = time.UnixMilli(*req.EndDate)
		}
		from := end.Add(-s.retention).UnixMilli()
		req.StartDate = &from
	}
	return req, err
}

// request is the search the Locate request stands for: the fields its type uses.
func (r LocateRequest) request() (Request, error) {
	req := Request{Providers: r.Providers, StartDate: r.From, EndDate: r.To, Size: r.Size}
	for _, b := range r.Boards {
		if b = strings.TrimSpace(b); b != "" {
			req.Boards = append(req.Boards, b)
		}
	}
	useKeywords, useAuthor, useBounds := false, false, false
	switch r.Type {
	case TypeKeyword:
		useKeywords = true
	case TypeAuthor:
		useAuthor = true
	case TypeLocation:
		useBounds = true
	case TypeCompound:
		useKeywords, useAuthor, useBounds = true, true, true
	default:
		return req, problem.Invalid(MsgInvalidParameters,
			map[string][]string{"type": {"Choose a search type: keyword, author, location or compound."}})
	}
	fields := map[string][]string{}
	if useKeywords {
		req.Query = r.Keywords
	}
	if useAuthor {
		for _, a := range strings.Split(r.Author, ",") {
			if a = strings.TrimSpace(a); a != "" {
				req.Authors = append(req.Authors, a)
			}
		}
	}
	if useBounds {
		req.Bounds = strings.TrimSpace(r.Bounds)
	}
	switch {
	case r.Type == TypeKeyword && strings.TrimSpace(req.Query) == "":
		fields["keywords"] = []string{MsgEmpty}
	case r.Type == TypeAuthor && len(req.Authors) == 0:
		fields["author"] = []string{"Enter an author's name or handle."}
	case r.Type == TypeLocation && req.Bounds == "":
		fields["bounds"] = []string{"Choose an address or draw an area on the map."}
	case r.Type == TypeCompound && strings.TrimSpace(req.Query) == "" && len(req.Authors) == 0 && req.Bounds == "":
		fields["keywords"] = []string{MsgEmpty}
	}
	switch r.Media {
	case "":
	case MediaImages:
		req.ImagesOnly = true
	case MediaVideos:
		req.VideosOnly = true
	case MediaBoth:
		req.ImagesOnly, req.VideosOnly = true, true
	default:
		fields["media"] = []string{"Choose images, videos or both."}
	}
	if score, ok := priorityScores[r.Priority]; ok {
		req.MinThreatScore = score
	} else {
		fields["priority"] = []string{"Choose elevated or high priority, or none."}
	}
	if sort, ok := locateSorts[r.Sort]; ok {
		req.Sort = sort
	} else {
		fields["sort"] = []string{"Sort by recent, popular or followers."}
	}
	if len(fields) > 0 {
		if _, empty := fields["keywords"]; empty && len(fields) == 1 {
			return req, problem.Invalid(MsgEmpty, fields)
		}
		return req, problem.Invalid(MsgInvalidParameters, fields)
	}
	return req, nil
}

// locateFields names a search's field errors as the Locate request names its fields.
func locateFields(err error) error {
	p, ok := problem.As(err)
	if !ok || p.Fields == nil {
		return err
	}
	renamed := map[string]string{"query": "keywords", "authors": "author", "startDate": "from", "endDate": "to"}
	fields := map[string][]string{}
	for name, messages := range p.Fields {
		if to, ok := renamed[name]; ok {
			name = to
		}
		fields[name] = append(fields[name], messages...)
	}
	return &problem.Problem{Kind: p.Kind, Message: p.Message, Fields: fields, Title: p.Title,
		Description: p.Description, RetryAfter: p.RetryAfter, Extra: p.Extra}
}
