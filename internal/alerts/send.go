package alerts

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/alerts/channel"
	"github.com/sightline/sightline/internal/mail"
	"github.com/sightline/sightline/internal/monitor"
)

// errNothingToSend is the error of a delivery none of whose matches can be read any more.
var errNothingToSend = errors.New("none of the matches can be read any more")

// send delivers d through its destination's channel, with the matches it covers as the
// search's owner sees them.
func (s *Service) send(ctx context.Context, d Delivery) error {
	ch, ok := s.Channels.Named(d.Destination.Type)
	if !ok {
		return fmt.Errorf("%w: this server has no %q channel", errPermanent, d.Destination.Type)
	}
	if desc := ch.Describe(); !desc.Available {
		return errors.Join(errPermanent, errors.New(desc.Unavailable))
	}
	m, err := s.Store.Search(ctx, d.SearchID)
	if err != nil {
		return errors.Join(errPermanent, err)
	}
	msg := channel.Message{ID: strconv.FormatInt(d.ID, 10), OrganizationID: m.OrganizationID, Address: d.Destination.Address}
	if d.Kind == KindFlood {
		msg.Content = floodContent{search: m, note: d.Note, until: d.CreatedAt.Add(floodWindow), publicURL: s.PublicURL}
		return ch.Send(ctx, msg)
	}
	if d.Type == monitor.AlertSpike {
		return s.sendSpike(ctx, ch, d, m)
	}
	ids, err := s.Store.DeliveryMatches(ctx, d.ID)
	if err != nil {
		return err
	}
	entries, err := s.entries(ctx, m, ids)
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		return errors.Join(errPermanent, errNothingToSend)
	}
	if d.Kind == KindStory {
		st, err := s.storyOf(ctx, m, d, entries)
		if err != nil {
			return err
		}
		msg.Content = storyContent{s: s, search: m, story: st, entries: entries}
		return ch.Send(ctx, msg)
	}
	grouping := monitor.GroupingPost
	for _, n := range monitor.StoredSettings(m.NotificationSettings) {
		if n.Type == d.Type {
			grouping = n.Grouping
		}
	}
	msg.Content = matchesContent{s: s, alertType: d.Type, search: m, entries: entries, grouping: grouping}
	return ch.Send(ctx, msg)
}

// matchesContent is a delivery's matches, rendered for the channel that carries them.
type matchesContent struct {
	s         *Service
	alertType string
	search    monitor.Search
	entries   []monitor.InboxEntry
	grouping  string
}

func (c matchesContent) Mail(ctx context.Context) (mail.Message, error) {
	return renderWith(ctx, c.s.Summarizer, c.alertType, c.grouping, c.search, c.entries, c.s.PublicURL, c.s.now().UTC())
}

func (c matchesContent) Event() any { return webhookBody(c.search, c.entries, c.s.PublicURL) }

// testContent is a test message of a search's alerts.
type testContent struct {
	search    monitor.Search
	publicURL string
}

func (c testContent) Mail(context.Context) (mail.Message, error) {
	return testMessage(c.search, c.publicURL), nil
}

func (c testContent) Event() any {
	return map[string]any{"type": "monitor.test", "search": map[string]any{"id": c.search.ID, "name": c.search.Name},
		"matches": []any{}}
}

// entries reads the matches as the search's owner sees them, oldest first.
func (s *Service) entries(ctx context.Context, m monitor.Search, ids []int64) ([]monitor.InboxEntry, error) {
	actor, err := s.owner(ctx, m)
	if err != nil {
		return nil, errors.Join(errPermanent, err)
	}
	var out []monitor.InboxEntry
	err = s.Matches.EachMatchByID(ctx, actor, ids, 1000, func(e []monitor.InboxEntry) error {
		out = append(out, e...)
		return nil
	})
	return out, err
}

// WebhookMatch is one match in a webhook's body.
type WebhookMatch struct {
	MatchID      int64  `json:"matchId"`
	PostID       string `json:"postId"`
	Provider     string `json:"provider"`
	Author       string `json:"author"`
	PublishedAt  string `json:"publishedAt"`
	Text         string `json:"text"`
	URL          string `json:"url"`
	MatchedTerms any    `json:"matchedTerms"`
	Link         string `json:"link"`
}

// WebhookBody is what a webhook receives.
type WebhookBody struct {
	Type   string `json:"type"`
	Search struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
	} `json:"search"`
	Matches []WebhookMatch `json:"matches"`
	// A story notice (type monitor.story) names its story, why it is sent (Escalation* reasons:
	// Escalation the first that held, Escalations all of them, in the order) and how
	// many new matches it covers; Matches are the newest of them.
	StoryID     string        `json:"storyId,omitempty"`
	Escalation  string        `json:"escalation,omitempty"`
	Escalations []string      `json:"escalations,omitempty"`
	Story       *WebhookStory `json:"story,omitempty"`
	MatchCount  int           `json:"matchCount,omitempty"`
}

func webhookBody(m monitor.Search, entries []monitor.InboxEntry, publicURL string) WebhookBody {
	b := WebhookBody{Type: "monitor.matches", Matches: []WebhookMatch{}}
	b.Search.ID, b.Search.Name = m.ID, m.Name
	for _, e := range entries {
		p := e.Payload()
		b.Matches = append(b.Matches, WebhookMatch{MatchID: e.ID, PostID: e.Post.ID, Provider: e.Post.Provider,
			Author: author(e), PublishedAt: e.PublishedAt.UTC().Format(time.RFC3339), Text: postText(e),
			URL: e.Post.PostLink, MatchedTerms: p.MatchMeta.MatchedTerms, Link: inboxLink(publicURL, m.ID)})
	}
	return b
}

// inboxLink opens the search's matches in the app.
func inboxLink(publicURL string, searchID int64) string {
	return strings.TrimRight(publicURL, "/") + "/monitor/matches/list?monitorSearchIds=" + strconv.FormatInt(searchID, 10)
}

func testMessage(m monitor.Search, publicURL string) mail.Message {
	link := inboxLink(publicURL, m.ID)
	name := mail.Quote(m.Name, 0)
	// The subject is the product's alone: a search's name is the user's text, quoted in the body.
	return mail.Message{Subject: "Sightline test alert",
		Text: fmt.Sprintf("This is a test from Sightline: alerts of the saved search %s reach this address.\n\n%s\n", name, link),
		HTML: fmt.Sprintf(`<p>This is a test from Sightline: alerts of the saved search %s reach this address.</p><p><a href="%s">Open its matches</a></p>`,
			htmlEscape(name), htmlEscape(link))}
}
