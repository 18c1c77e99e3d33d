package monitor

import "github.com/sightline/sightline/internal/post"

// MatchPayload is a match as the API and the live channel send it (docs/monitor-api.md).
type MatchPayload struct {
	MatchMeta struct {
		MatchID         int64 `json:"matchId"`
		MonitorSearchID int64 `json:"monitorSearchId"`
		CanEdit         bool  `json:"canEdit"`
		IsFlagged       bool  `json:"isFlagged"`
		IsRead          bool  `json:"isRead"`
	} `json:"matchMeta"`
	IsDeleted         bool      `json:"isDeleted"`
	DiscoveredDate    int64     `json:"discoveredDate"`
	PublishedDate     int64     `json:"publishedDate"`
	MonitorSearchName string    `json:"monitorSearchName"`
	Post              post.Post `json:"post"`
}

// Payload is the item as its viewer sees it.
func (it InboxItem) Payload(canEdit bool, searchName string) MatchPayload {
	var p MatchPayload
	p.MatchMeta.MatchID = it.ID
	p.MatchMeta.MonitorSearchID = it.SearchID
	p.MatchMeta.CanEdit = canEdit
	p.MatchMeta.IsFlagged = it.State.IsFlagged
	p.MatchMeta.IsRead = it.State.IsRead
	p.IsDeleted = it.State.IsDeleted
	p.DiscoveredDate = it.DiscoveredAt.Unix()
	p.PublishedDate = it.PublishedAt.Unix()
	p.MonitorSearchName = searchName
	p.Post = it.Post
	return p
}

// Live events on private-user.{id} (docs/live.md).
const (
	EventMatchesUpdated = "monitor.matches.updated"
	EventMatchCreated   = "monitor.match.created"
)

// MatchCreated is the payload of EventMatchCreated. A user gets at most StreamedPerBatch of
// them for one batch of posts; the last one's More says how many more matches that batch
// brought, which the page reloads rather than receives one by one.
type MatchCreated struct {
	Match MatchPayload `json:"match"`
	More  int          `json:"more,omitempty"`
}

// StreamedPerBatch bounds the match events a user gets for one batch of posts: a busy search
// can match hundreds of posts a second, more than a page can show, and the events go out at
// once, so they must fit a socket's send queue (live.Config.QueueSize, 64) with room to spare.
const StreamedPerBatch = 20

// MatchesUpdated is the payload of EventMatchesUpdated: how many matches changed and the new totals.
type MatchesUpdated struct {
	UpdatedCount int64 `json:"updatedCount"`
	Counts
}
