package post

// Orders of posts that searches and inboxes offer (the sort parameters of the APIs).
const (
	SortPublishedDesc  = "published_desc"
	SortPublishedAsc   = "published_asc"
	SortDiscoveredDesc = "discovered_desc"
	SortDiscoveredAsc  = "discovered_asc"
	SortRelevance      = "relevance"
	// SortEngagementDesc and SortFollowersDesc are Locate's "most popular" and "most
	// followers": by the post's engagement, or its author's followers, highest first; posts
	// that tie come newest first.
	SortEngagementDesc = "engagement_desc"
	SortFollowersDesc  = "followers_desc"
)

// TimeSorts are the orders by a post's time; the inbox offers these.
var TimeSorts = []string{SortPublishedDesc, SortPublishedAsc, SortDiscoveredDesc, SortDiscoveredAsc}
