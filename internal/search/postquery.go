package search

import (
	"time"

	"github.com/sightline/sightline/internal/geom"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/query"
)

// PostQuery selects candidate posts for a search. The full-text part finds a superset of the
// matches (query.FTS5 / query.TSQuery); the caller's matcher decides. The time window is a
// plain range on published_at beside the full-text match, never part of its expression, so the
// database narrows by partition or index first.
type PostQuery struct {
	Keywords *query.Query // nil: no full-text narrowing
	// Exact reads Keywords by the expression the index answers exactly (Store.ExactKeywords),
	// when it has one: its candidates are the matches.
	Exact bool
	// Tenant is the reader's tenant: the shared posts and this tenant's own are candidates,
	// another tenant's never (post.VisibleTo).
	Tenant   int64
	From, To time.Time // published_at window, inclusive
	// DiscoveredFrom and DiscoveredTo bound discovered_at (the date crawled), inclusive; zero: open.
	DiscoveredFrom, DiscoveredTo time.Time
	Providers                    []string // empty: any
	ImagesOnly                   bool
	VideosOnly                   bool
	MinThreat                    int // 0: any
	// CommunityKinds keeps posts of these community kinds (post.CommunityKinds); empty: any.
	CommunityKinds []string
	// Within keeps posts whose point, or the box around their mentioned places, meets this box
	// (a superset of the posts in the search's area, which the matcher decides); nil: anywhere.
	// MinLon > MaxLon crosses the antimeridian, as geom.Rect says.
	Within *geom.Rect
	Sort   string
	// Sample keeps an even share of the candidates: those whose id hashes into it.
	Sample HashRange
	// After continues a time- or count-ordered search from a previous page's last row.
	After *Cursor
	// Offset continues a relevance-ordered search, which has no stable key.
	Offset int
	Limit  int
}

// HashRange is the part [From, To) of [0, 1) a hash of a post's id falls into: an even sample
// of the candidates, spread evenly over time, the same posts every time. Samples of adjacent
// ranges add up to the sample of both. The zero value keeps every candidate.
type HashRange struct{ From, To float64 }

// All reports whether r keeps every candidate.
func (r HashRange) All() bool { return r.From <= 0 && (r.To <= 0 || r.To >= 1) }

// Cursor is a position in an ordered result: the last row's time and tie-breaker, and in an
// order by a count (post.SortEngagementDesc, post.SortFollowersDesc) its count.
type Cursor struct {
	Time  int64  `json:"t"`
	Key   string `json:"k"`
	Count int64  `json:"r,omitempty"`
}

// Candidate is a stored post with its position.
type Candidate struct {
	Post   post.Post
	Cursor Cursor
}
