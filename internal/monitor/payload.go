package monitor

import (
	"github.com/sightline/sightline/internal/percolate"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/query"
)

// MatchPayload is a match as the API and the live channel send it (docs/monitor-api.md).
type MatchPayload struct {
	MatchMeta struct {
		MatchID         int64 `json:"matchId"`
		MonitorSearchID int64 `json:"monitorSearchId"`
		CanEdit         bool  `json:"canEdit"`
		IsFlagged       bool  `json:"isFlagged"`
		IsRead          bool  `json:"isRead"`
		// MatchedTerms says why the post matched: the search's terms in its title, text or
		// author (docs/monitor-api.md, "Why it matched").
		MatchedTerms []query.Hit `json:"matchedTerms"`
	} `json:"matchMeta"`
	IsDeleted bool `json:"isDeleted"`
	// DiscoveredDate and PublishedDate are Unix seconds.
	DiscoveredDate    int64     `json:"discoveredDate"`
	PublishedDate     int64     `json:"publishedDate"`
	MonitorSearchName string    `json:"monitorSearchName"`
	Post              post.Post `json:"post"`
}

// Payload is the item as its viewer sees it; why tells why it matched.
func (it InboxItem) Payload(canEdit bool, searchName string, why *Explainer) MatchPayload {
	var p MatchPayload
	p.MatchMeta.MatchID = it.ID
	p.MatchMeta.MonitorSearchID = it.SearchID
	p.MatchMeta.CanEdit = canEdit
	p.MatchMeta.IsFlagged = it.State.IsFlagged
	p.MatchMeta.IsRead = it.State.IsRead
	p.MatchMeta.MatchedTerms = why.Hits(it.SearchID, it.Post)
	p.IsDeleted = it.State.IsDeleted
	p.DiscoveredDate = it.DiscoveredAt.Unix()
	p.PublishedDate = it.PublishedAt.Unix()
	p.MonitorSearchName = searchName
	p.Post = it.Post
	return p
}

// Explainer says why posts matched their searches, parsing each search's keywords once.
type Explainer struct {
	searches map[int64]Search
	queries  map[int64]*query.Query
}

// NewExplainer returns an Explainer that knows no search yet: callers add those they show.
func NewExplainer() *Explainer {
	return &Explainer{searches: map[int64]Search{}, queries: map[int64]*query.Query{}}
}

// Hits are the terms of search searchID that post p contains; empty when none show (a search
// by place or board alone) or the search is unknown.
func (e *Explainer) Hits(searchID int64, p post.Post) []query.Hit {
	s, ok := e.searches[searchID]
	if !ok {
		return []query.Hit{}
	}
	q, parsed := e.queries[searchID]
	if !parsed && s.Keywords != "" {
		q, _ = query.Parse(s.Keywords, query.ModeSavedSearch)
		e.queries[searchID] = q
	}
	hits := percolate.Explain(q, s.AuthorQuery, p)
	if hits == nil {
		return []query.Hit{}
	}
	return hits
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
