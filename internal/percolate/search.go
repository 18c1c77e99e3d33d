// Package percolate answers, for each incoming post, which saved searches it matches, fast
// enough for a firehose: an index over compiled saved searches that finds a few candidates per
// post from the terms and other constraints each search requires, then verifies only those with
// the exact matcher of internal/query. See docs/performance.md.
package percolate

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/geom"
	"github.com/sightline/sightline/internal/query"
)

// FilterKind is the kind of a search filter list.
type FilterKind string

const (
	KeywordInclusion FilterKind = "keyword_inclusion" // the post contains one of the keywords
	KeywordExclusion FilterKind = "keyword_exclusion" // the post contains none of them
	AuthorExclusion  FilterKind = "author_exclusion"  // the author is none of them
	ObjectDetection  FilterKind = "object_detection"  // a detected object is one of them
)

// FilterList is a search filter list attached to a saved search.
type FilterList struct {
	Kind    FilterKind
	Entries []string
}

// SavedSearch is what the percolator needs of a saved search, independent of storage.
type SavedSearch struct {
	ID int64
	// Keywords is a query in the keyword language ("" for none).
	Keywords string
	// Author is a comma-separated list of author names or screen names ("" for none); a post
	// matches when its author's name or screen name equals one of them (folded, '@' ignored).
	Author    string
	Providers []string
	// Bounds is the location polygon (nil for none): the post's point or one of its mentioned
	// locations must lie inside.
	Bounds geom.Shape
	// Start and End bound the published time (nil for open); before Start and after End the
	// search is also not running, so it matches nothing.
	Start, End *time.Time
	ImagesOnly bool
	VideosOnly bool
	Boards     []string
	Filters    []FilterList
	Enabled    bool
	Paused     bool
	// Mode is the keyword validation mode: saved searches refuse lower-case and/or, the Beacon
	// search only warns about them (default ModeSavedSearch).
	Mode query.Mode
}

// Doc is what the percolator sees of a post. The pipeline maps its post type to it.
type Doc struct {
	Provider         string
	Title, Text      string
	AuthorName       string
	AuthorScreenName string
	Published        time.Time
	Location         *geom.Point
	Mentioned        []geom.Point
	HasImages        bool
	HasVideos        bool
	Board            string
	Objects          []string
}

// Problem is one reason a saved search does not compile. Code is stable: the keyword query's
// validation codes (query.Codes) for Field "keywords", the codes below for the other fields.
type Problem struct {
	Field   string `json:"field"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Codes of problems outside the keyword query.
const (
	CodeEmptySearch      = "empty_search"
	CodeNoProviders      = "no_providers"
	CodeInvalidBounds    = "invalid_bounds"
	CodeInvalidDateRange = "invalid_date_range"
	CodeAuthorOperators  = "author_operators"
	CodeEmptyFilter      = "empty_filter"
	CodeUnknownFilter    = "unknown_filter"
)

// CompileError lists every problem of one saved search.
type CompileError struct {
	ID       int64
	Problems []Problem
}

func (e *CompileError) Error() string {
	parts := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		parts[i] = p.Field + ": " + p.Message
	}
	return fmt.Sprintf("saved search %d: %s", e.ID, strings.Join(parts, "; "))
}

// Compiled is a saved search ready to match: the AND of all its constraints.
type Compiled struct {
	ID         int64
	active     bool // enabled and not paused
	keywords   *query.Query
	authors    []string // folded
	providers  []string // folded
	bounds     geom.Prepared
	boundsRect geom.Rect
	start, end *time.Time
	imagesOnly bool
	videosOnly bool
	boards     []string // folded
	include    []*query.Query
	exclude    []*query.Query
	notAuthors []string   // folded
	objects    [][]string // folded; each list must be met
}

// Compile checks a saved search and prepares it for matching. All problems are reported.
func Compile(s SavedSearch) (*Compiled, error) {
	c := &Compiled{
		ID:         s.ID,
		active:     s.Enabled && !s.Paused,
		bounds:     s.Bounds.Prepare(),
		imagesOnly: s.ImagesOnly,
		videosOnly: s.VideosOnly,
	}
	var problems []Problem
	add := func(field, code, message string) {
		problems = append(problems, Problem{Field: field, Code: code, Message: message})
	}

	if strings.TrimSpace(s.Keywords) != "" {
		mode := s.Mode
		if mode == "" {
			mode = query.ModeSavedSearch
		}
		q, issues := query.Parse(s.Keywords, mode)
		for _, is := range issues {
			if is.Severity == query.SeverityError {
				add("keywords", is.Code, is.Message)
			}
		}
		c.keywords = q
	}
	if strings.ContainsAny(s.Author, `"()`) || containsWord(s.Author, "AND", "OR") {
		add("author", CodeAuthorOperators, "An author search is a comma-separated list of names, without operators")
	}
	c.authors = foldList(strings.Split(s.Author, ","), true)
	c.providers = foldList(s.Providers, false)
	if len(c.providers) == 0 {
		add("providers", CodeNoProviders, "Choose at least one data source")
	}
	if s.Bounds != nil {
		if err := s.Bounds.Valid(); err != nil {
			add("bounds", CodeInvalidBounds, "The location polygon is not valid: "+err.Error())
		}
		c.boundsRect = s.Bounds.Bounds()
	}
	if s.Start != nil {
		t := *s.Start
		c.start = &t
	}
	if s.End != nil {
		t := *s.End
		c.end = &t
	}
	if c.start != nil && c.end != nil && !c.end.After(*c.start) {
		add("dates", CodeInvalidDateRange, "The end date must be after the start date")
	}
	c.boards = foldList(s.Boards, false)
	if c.keywords == nil && len(c.authors) == 0 && s.Bounds == nil && len(c.boards) == 0 &&
		!hasCode(problems, "keywords") {
		add("query", CodeEmptySearch, "A search needs keywords, an author, a location or a board")
	}
	for i, f := range s.Filters {
		field := fmt.Sprintf("filters[%d]", i)
		switch f.Kind {
		case KeywordInclusion, KeywordExclusion:
			q := query.KeywordList(f.Entries)
			if q == nil {
				add(field, CodeEmptyFilter, "A filter list needs at least one keyword")
				continue
			}
			if f.Kind == KeywordInclusion {
				c.include = append(c.include, q)
			} else {
				c.exclude = append(c.exclude, q)
			}
		case AuthorExclusion:
			c.notAuthors = append(c.notAuthors, foldList(f.Entries, true)...)
		case ObjectDetection:
			objects := foldList(f.Entries, false)
			if len(objects) == 0 {
				add(field, CodeEmptyFilter, "A filter list needs at least one keyword")
				continue
			}
			c.objects = append(c.objects, objects)
		default:
			add(field, CodeUnknownFilter, fmt.Sprintf("Unknown filter list kind %q", f.Kind))
		}
	}
	if len(problems) > 0 {
		return nil, &CompileError{ID: s.ID, Problems: problems}
	}
	return c, nil
}

func hasCode(problems []Problem, field string) bool {
	return slices.ContainsFunc(problems, func(p Problem) bool { return p.Field == field })
}

func containsWord(s string, words ...string) bool {
	for _, w := range strings.Fields(s) {
		if slices.Contains(words, w) {
			return true
		}
	}
	return false
}

// foldList folds, trims and de-duplicates names; with handles, a leading '@' is dropped.
func foldList(items []string, handles bool) []string {
	var out []string
	for _, it := range items {
		f := foldName(it, handles)
		if f != "" && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

func foldName(s string, handle bool) string {
	s = query.Fold(s)
	if handle {
		s = strings.TrimSpace(strings.TrimPrefix(s, "@"))
	}
	return s
}

// Analyzed is a Doc prepared for matching: its text analyzed, its names folded. One Analyzed is
// reused across posts by one goroutine.
type Analyzed struct {
	doc        *Doc
	text       query.Text
	provider   string
	authorName string
	authorID   string
	board      string
	objects    []string
}

// Reset prepares a for d. d must stay unchanged while a is in use.
func (a *Analyzed) Reset(d *Doc) {
	a.doc = d
	a.text.Reset(d.Title, d.Text)
	a.provider = query.Fold(d.Provider)
	a.authorName = foldName(d.AuthorName, true)
	a.authorID = foldName(d.AuthorScreenName, true)
	a.board = query.Fold(d.Board)
	a.objects = a.objects[:0]
	for _, o := range d.Objects {
		a.objects = append(a.objects, query.Fold(o))
	}
}

// Match reports whether the compiled search matches the post at time now (a convenience that
// analyzes the post; the Index and MatchAll analyze once per post).
func (c *Compiled) Match(d *Doc, now time.Time) bool {
	var a Analyzed
	a.Reset(d)
	return c.match(&a, now, nil, false)
}

// MatchAll evaluates every search on the post, one after the other: the brute force that the
// Index must agree with. Matching ids are returned sorted.
func MatchAll(searches []*Compiled, d *Doc, now time.Time) []int64 {
	var a Analyzed
	a.Reset(d)
	var ids []int64
	for _, c := range searches {
		if c.match(&a, now, nil, false) {
			ids = append(ids, c.ID)
		}
	}
	slices.Sort(ids)
	return ids
}

// match evaluates every constraint, cheapest first. proven is a node of the keyword query the
// caller knows matches, and providerKnown says the provider is known to be one of the search's
// (see Index).
func (c *Compiled) match(a *Analyzed, now time.Time, proven query.Node, providerKnown bool) bool {
	d := a.doc
	if !c.active {
		return false
	}
	if c.start != nil && (now.Before(*c.start) || d.Published.Before(*c.start)) {
		return false
	}
	if c.end != nil && (now.After(*c.end) || d.Published.After(*c.end)) {
		return false
	}
	if !providerKnown && !slices.Contains(c.providers, a.provider) {
		return false
	}
	if (c.imagesOnly && !d.HasImages) || (c.videosOnly && !d.HasVideos) {
		return false
	}
	if len(c.boards) > 0 && !slices.Contains(c.boards, a.board) {
		return false
	}
	if len(c.authors) > 0 && !c.isAuthor(c.authors, a) {
		return false
	}
	if len(c.notAuthors) > 0 && c.isAuthor(c.notAuthors, a) {
		return false
	}
	for _, list := range c.objects {
		if !slices.ContainsFunc(a.objects, func(o string) bool { return slices.Contains(list, o) }) {
			return false
		}
	}
	if c.bounds != nil && !c.inBounds(d) {
		return false
	}
	if c.keywords != nil && c.keywords.Root != proven && !query.EvalKnowing(c.keywords.Root, &a.text, proven) {
		return false
	}
	for _, q := range c.include {
		if !q.Match(&a.text) {
			return false
		}
	}
	for _, q := range c.exclude {
		if q.Match(&a.text) {
			return false
		}
	}
	return true
}

func (c *Compiled) isAuthor(names []string, a *Analyzed) bool {
	return (a.authorName != "" && slices.Contains(names, a.authorName)) ||
		(a.authorID != "" && slices.Contains(names, a.authorID))
}

func (c *Compiled) inBounds(d *Doc) bool {
	inside := func(p geom.Point) bool { return c.boundsRect.Contains(p) && c.bounds.Contains(p) }
	if d.Location != nil && inside(*d.Location) {
		return true
	}
	return slices.ContainsFunc(d.Mentioned, inside)
}
