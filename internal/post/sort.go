package post

// Orders of posts that searches and inboxes offer (the sort parameters of the APIs).
const (
	SortPublishedDesc  = "published_desc"
	SortPublishedAsc   = "published_asc"
	SortDiscoveredDesc = "discovered_desc"
	SortDiscoveredAsc  = "discovered_asc"
	SortRelevance      = "relevance"
)

// TimeSorts are the orders by a post's time; the inbox offers these.
var TimeSorts = []string{SortPublishedDesc, SortPublishedAsc, SortDiscoveredDesc, SortDiscoveredAsc}
