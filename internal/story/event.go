package story

import "time"

// EventUpdated says a story the user has matches in grew: new posts joined it. It goes on the
// user's channel (private-user.{id}) with the story as that user sees it, so that the inbox's
// card of the story changes in place.
const EventUpdated = "story.updated"

// Updated is the payload of EventUpdated: the story's summary as the user sees it, counted over
// the posts that user may see.
type Updated struct {
	ID         string    `json:"id"`
	Title      string    `json:"title"`
	PostCount  int64     `json:"postCount"`
	Providers  []Count   `json:"providers"`
	Languages  []Count   `json:"languages"`
	LastSeenAt time.Time `json:"lastSeenAt"`
}

// Updated is the summary as an EventUpdated payload.
func (s Summary) Updated() Updated {
	return Updated{ID: s.ID, Title: s.Title, PostCount: s.PostCount, Providers: s.Providers, Languages: s.Languages, LastSeenAt: s.LastSeenAt}
}
