package alerts

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/alerts/channel"
	"github.com/sightline/sightline/internal/mail"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/spike"
)

// Spike alerts (issue 31, docs/monitor-api.md "Spikes"): when detection finds a new spike of a
// saved search whose spike alert is on, one delivery a destination, through the same rows,
// retries and channels as every alert. The id a spike delivery covers is the spike's (its
// alert type keeps it apart from match ids), so a spike is sent once per destination, across
// restarts and nodes.

// SpikeReader reads stored spikes (*store.Store).
type SpikeReader interface {
	Spike(ctx context.Context, id int64) (spike.Spike, error)
}

// SpikesFound writes the deliveries of new spikes: the spike alert's destinations, and the
// webhooks of the search's webhook alert while it is on. Spikes that began before the alert
// was set up are not news to send. This is what detection calls after each run.
func (s *Service) SpikesFound(ctx context.Context, spikes []spike.Spike) {
	now := s.now().UTC()
	for _, sp := range spikes {
		if err := s.deliverSpike(ctx, sp, now); err != nil && ctx.Err() == nil {
			s.Logger.Warn("alerts: write a spike's deliveries", "search", sp.SearchID, "spike", sp.ID, "err", err)
		}
	}
}

func (s *Service) deliverSpike(ctx context.Context, sp spike.Spike, now time.Time) error {
	m, err := s.Store.Search(ctx, sp.SearchID)
	if err != nil || !m.Enabled {
		return err
	}
	var dests []monitor.Destination
	on := false
	for _, n := range monitor.StoredSettings(m.NotificationSettings) {
		switch {
		case n.Type == monitor.AlertSpike && n.On():
			on = n.LastUpdatedAt == nil || !sp.Start.Before(time.Unix(*n.LastUpdatedAt, 0))
			dests = append(dests, n.Destinations...)
		case n.Type == monitor.AlertWebhook && n.On():
			dests = append(dests, n.Destinations...)
		}
	}
	if !on {
		return nil
	}
	// A spike is an alert like the others: it passes the same snooze gate and flood guard
	// (skipSnoozed, notify), and both leave a row in the delivery history.
	r, err := s.prepareRun(ctx, m, monitor.NotificationSetting{Type: monitor.AlertSpike}, now)
	if err != nil {
		return err
	}
	for _, d := range dests {
		if ch, ok := s.Channels.Named(d.Type); !ok || !ch.Describe().Available {
			continue
		}
		dv := Delivery{SearchID: m.ID, OrganizationID: m.OrganizationID, Type: monitor.AlertSpike, Destination: d,
			MatchCount: int(sp.Count), Status: StatusPending, NextAttemptAt: now, CreatedAt: now}
		snoozed, err := s.skipSnoozed(ctx, r, dv, []int64{sp.ID})
		if err == nil && !snoozed {
			err = s.notify(ctx, r, &dv, []int64{sp.ID})
		}
		if err != nil {
			return err
		}
	}
	// Wakes the run loop, which sends what is due.
	s.Signal.MatchesStored([]int64{m.ID})
	return nil
}

// sendSpike sends a spike delivery through ch.
func (s *Service) sendSpike(ctx context.Context, ch channel.Channel, d Delivery, m monitor.Search) error {
	if s.Spikes == nil {
		return fmt.Errorf("%w: this server reads no spikes", errPermanent)
	}
	ids, err := s.Store.DeliveryMatches(ctx, d.ID)
	if err != nil {
		return err
	}
	if len(ids) != 1 {
		return errors.Join(errPermanent, errNothingToSend)
	}
	sp, err := s.Spikes.Spike(ctx, ids[0])
	if err != nil {
		return errors.Join(errPermanent, err)
	}
	return ch.Send(ctx, channel.Message{ID: strconv.FormatInt(d.ID, 10), OrganizationID: m.OrganizationID,
		Address: d.Destination.Address, Content: spikeContent{search: m, spike: sp, publicURL: s.PublicURL}})
}

// spikeContent is a spike, for the channel that carries it.
type spikeContent struct {
	search    monitor.Search
	spike     spike.Spike
	publicURL string
}

// SpikeEvent is what a webhook receives of a spike.
type SpikeEvent struct {
	Type   string `json:"type"` // monitor.spike
	Search struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
	} `json:"search"`
	Spike struct {
		ID       int64          `json:"id"`
		Kind     string         `json:"kind"`
		Name     string         `json:"name"`
		Start    string         `json:"start"`
		End      string         `json:"end"`
		Count    int64          `json:"count"`
		Expected float64        `json:"expected"`
		Low      float64        `json:"low"`
		High     float64        `json:"high"`
		Score    float64        `json:"score"`
		StoryIDs []string       `json:"storyIds"`
		Samples  []spike.Sample `json:"samples"`
	} `json:"spike"`
	Link string `json:"link"`
}

func (c spikeContent) Event() any {
	e := SpikeEvent{Type: "monitor.spike", Link: inboxLink(c.publicURL, c.search.ID)}
	e.Search.ID, e.Search.Name = c.search.ID, c.search.Name
	sp := c.spike
	e.Spike.ID, e.Spike.Count, e.Spike.Expected, e.Spike.Low, e.Spike.High, e.Spike.Score = sp.ID, sp.Count, sp.Expected, sp.Low, sp.High, sp.Score
	e.Spike.Kind, e.Spike.Name = spike.Describe(sp.Series)
	e.Spike.Start, e.Spike.End = sp.Start.UTC().Format(time.RFC3339), sp.End.UTC().Format(time.RFC3339)
	e.Spike.StoryIDs, e.Spike.Samples = sp.StoryIDs, sp.Samples
	return e
}

func (c spikeContent) Mail(context.Context) (mail.Message, error) {
	sp, link, name := c.spike, inboxLink(c.publicURL, c.search.ID), mail.Quote(c.search.Name, 0)
	what := "its matches"
	if kind, n := spike.Describe(sp.Series); kind != "search" {
		what = fmt.Sprintf("its matches from %s %s", kind, mail.Quote(n, 0))
	}
	head := fmt.Sprintf("The saved search %s has a spike in %s: %d posts from %s to %s UTC, where about %.0f (%.0f to %.0f) are usual.",
		name, what, sp.Count, sp.Start.UTC().Format("Jan 2 15:04"), sp.End.UTC().Format("15:04"), sp.Expected, math.Floor(sp.Low), math.Ceil(sp.High))
	var text, html strings.Builder
	fmt.Fprintf(&text, "%s\n\n", head)
	fmt.Fprintf(&html, "<p>%s</p><ul>", htmlEscape(head))
	for _, p := range sp.Samples {
		fmt.Fprintf(&text, "- %s (%s, %s): %s\n  %s\n", p.Author, p.Provider, p.PublishedAt.UTC().Format(time.RFC3339), p.Text, p.URL)
		fmt.Fprintf(&html, `<li><b>%s</b> (%s): %s <a href="%s">post</a></li>`, htmlEscape(p.Author), htmlEscape(p.Provider),
			htmlEscape(p.Text), htmlEscape(p.URL))
	}
	fmt.Fprintf(&text, "\n%s\n", link)
	fmt.Fprintf(&html, `</ul><p><a href="%s">Open its matches</a></p>`, htmlEscape(link))
	// The subject is the product's alone: a search's name is the user's text, quoted in the body.
	return mail.Message{Subject: "Sightline: a spike in a saved search", Text: text.String(), HTML: html.String()}, nil
}
