package monitor

import (
	"fmt"
	"slices"
	"time"

	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/problem"
)

// Match is a post that matched a saved search, stored once per (search, post).
type Match struct {
	ID             int64
	SearchID       int64
	OrganizationID int64
	PostID         string
	PublishedAt    time.Time
	DiscoveredAt   time.Time
	CreatedAt      time.Time
	HasImages      bool
	HasVideos      bool
	HasLocation    bool
	Provider       string
	// The post's threat score and mentioned places, for the dashboard's aggregates.
	ThreatScore int
	Places      []post.MentionedLocation
	// Backfilled marks a match a backfill found among stored posts: no alert sends it.
	Backfilled bool
}

// MatchState is one user's state of a match.
type MatchState struct {
	IsRead    bool
	IsFlagged bool
	IsDeleted bool
}

// InboxItem is a match with the post and the viewer's state.
type InboxItem struct {
	Match
	State MatchState
	Post  post.Post
}

// MatchQuery selects a user's inbox.
type MatchQuery struct {
	UserID    int64
	SearchIDs []int64
	Images    bool // only matches with images
	Location  bool // only matches with a location
	Video     bool // only matches with videos
	Unread    bool
	Flagged   bool
	Providers []string // only matches of these data sources; none means all
	// Text narrows to matches whose chosen fields (SearchIn: titleText, authorName,
	// authorScreenName) contain every word of it.
	Text     string
	SearchIn []string
	// StoryID, when set, keeps to the matches of posts in that story (docs/stories.md; a post
	// stored before stories is a story of its own, under its own id): a story's card expanded,
	// and the actions on a whole story.
	StoryID        string
	IncludeDeleted bool
	// UpTo, when set, keeps to matches made at or before it: the moment the analyst's list was
	// read, so an action on "filtered" or "all" leaves alone what arrived since and waits behind
	// "Show them" (issue 28: "Mark read 3" marked 35).
	UpTo time.Time
	// Since, when set, keeps to matches made after it: with a list's asOf, those waiting behind
	// "Show them", so the list's count and the page's add up (issue 28).
	Since         time.Time
	Sort          string
	Offset, Limit int
	// After continues a walk in Sort's order after this match (EachMatch), where Offset would
	// read every skipped row again; SkipTotal leaves the total uncounted.
	After     *MatchCursor
	SkipTotal bool
}

// MatchCursor is a position in a walk over matches: the sort column's time and the match id.
type MatchCursor struct {
	At time.Time
	ID int64
}

// Counts are a user's inbox totals.
type Counts struct {
	TotalCount   int64 `json:"totalCount"`
	UnreadCount  int64 `json:"unreadCount"`
	DeletedCount int64 `json:"deletedCount"`
	FlaggedCount int64 `json:"flaggedCount"`
}

// Search-in fields (search-side.md section 3).
const (
	InTitleText        = "titleText"
	InAuthorName       = "authorName"
	InAuthorScreenName = "authorScreenName"
)

// MaxStoryID bounds a story id in a query: a story's id is a post's (32 hexadecimal digits).
const MaxStoryID = 128

// MaxProviderFilters bounds the data sources one inbox query names (there are a few dozen).
const MaxProviderFilters = 100

// Validate refuses a query the inbox cannot run, naming the field at fault.
func (q MatchQuery) Validate() error {
	if len(q.Providers) > MaxProviderFilters {
		return problem.InvalidField("providers", fmt.Sprintf("Choose at most %d data sources.", MaxProviderFilters))
	}
	for _, in := range q.SearchIn {
		if in != InTitleText && in != InAuthorName && in != InAuthorScreenName {
			return problem.InvalidField("searchIn", "searchIn takes titleText, authorName and authorScreenName.")
		}
	}
	if len(q.StoryID) > MaxStoryID {
		return problem.InvalidField("storyId", fmt.Sprintf("A story id has at most %d characters.", MaxStoryID))
	}
	if q.Sort != "" && !slices.Contains(post.TimeSorts, q.Sort) {
		return problem.InvalidField("sort", "Sort by published_desc, published_asc, discovered_desc or discovered_asc.")
	}
	return nil
}

// Match state fields.
const (
	FieldRead    = "is_read"
	FieldFlagged = "is_flagged"
	FieldDeleted = "is_deleted"
)
