package api

import (
	"net/http"
	"strconv"
	"time"

	"github.com/sightline/sightline/internal/alerts"
	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/problem"
)

// settingsReply is a search's notification settings and whether the caller may change them.
func settingsReply(w http.ResponseWriter, settings []monitor.NotificationSetting, canEdit bool) error {
	writeJSON(w, http.StatusOK, map[string]any{"data": settings, "meta": map[string]bool{"canEdit": canEdit}})
	return nil
}

// alertChannels describes every alert channel as this server offers it, for the app's forms.
func (a *API) alertChannels(w http.ResponseWriter, _ *http.Request, _ auth.Identity) error {
	return ok(w, a.Alerts.Channels.Describe())
}

func (a *API) notificationSettings(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	sid, err := pathID(r)
	if err != nil {
		return err
	}
	settings, canEdit, err := a.Monitor.NotificationSettings(r.Context(), id.Actor(), sid)
	if err != nil {
		return err
	}
	return settingsReply(w, settings, canEdit)
}

func (a *API) saveNotificationSettings(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	sid, err := pathID(r)
	if err != nil {
		return err
	}
	var in []monitor.NotificationSetting
	if err := decode(r, &in); err != nil {
		return err
	}
	settings, err := a.Monitor.SetNotificationSettings(r.Context(), id.Actor(), sid, in)
	if err != nil {
		return err
	}
	return settingsReply(w, settings, true)
}

func (a *API) testNotification(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	sid, err := pathID(r)
	if err != nil {
		return err
	}
	var body struct {
		Destination monitor.Destination `json:"destination"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	if err := a.Alerts.Test(r.Context(), id.Actor(), sid, body.Destination); err != nil {
		return err
	}
	return ok(w, map[string]bool{"delivered": true})
}

type deliveryReply struct {
	ID            string              `json:"id"`
	Type          string              `json:"type"`
	Destination   monitor.Destination `json:"destination"`
	MatchCount    int                 `json:"matchCount"`
	Status        string              `json:"status"`
	Attempts      int                 `json:"attempts"`
	NextAttemptAt *int64              `json:"nextAttemptAt"`
	LastError     string              `json:"lastError"`
	CreatedAt     int64               `json:"createdAt"`
	SentAt        *int64              `json:"sentAt"`
	// Kind is matches, story or flood; a story notice names its story, level and escalation;
	// a skipped delivery (status skipped) says why (skipped) and in words (note).
	Kind       string `json:"kind"`
	StoryID    string `json:"storyId"`
	StoryLevel int    `json:"storyLevel"`
	Escalation string `json:"escalation"`
	Skipped    string `json:"skipped"`
	Note       string `json:"note"`
}

func (a *API) deliveries(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	sid, err := pathID(r)
	if err != nil {
		return err
	}
	list, err := a.Alerts.Deliveries(r.Context(), id.Actor(), sid)
	if err != nil {
		return err
	}
	out := make([]deliveryReply, 0, len(list))
	for _, d := range list {
		out = append(out, deliveryReply{ID: strconv.FormatInt(d.ID, 10), Type: d.Type, Destination: d.Destination,
			MatchCount: d.MatchCount, Status: d.Status, Attempts: d.Attempts, NextAttemptAt: unixOrNil(d.NextAttemptAt),
			LastError: d.LastError, CreatedAt: d.CreatedAt.Unix(), SentAt: unixOrNil(d.SentAt), Kind: d.Kind,
			StoryID: d.StoryID, StoryLevel: d.StoryLevel, Escalation: d.Escalation, Skipped: d.Skipped, Note: d.Note})
	}
	return ok(w, out)
}

func (a *API) rotateWebhookSecret(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	orgID, err := strconv.ParseInt(r.PathValue("orgId"), 10, 64)
	if err != nil {
		return problem.NotFound("The organization was not found.")
	}
	secret, err := a.Alerts.RotateWebhookSecret(r.Context(), id.Actor(), orgID)
	if err != nil {
		return err
	}
	return ok(w, map[string]string{"webhookSecret": secret})
}

// quietReply is a search's snooze and muted stories (docs/monitor-api.md, "Snooze and mute").
type quietReply struct {
	SnoozedUntil *int64      `json:"snoozedUntil"`
	SnoozedBy    int64       `json:"snoozedBy,omitempty"`
	Muted        []muteReply `json:"mutedStories"`
}

type muteReply struct {
	StoryID string `json:"storyId"`
	MutedBy int64  `json:"mutedBy"`
	MutedAt int64  `json:"mutedAt"`
}

func (a *API) quietReply(w http.ResponseWriter, r *http.Request, id auth.Identity, sid int64) error {
	q, err := a.Alerts.Quiet(r.Context(), id.Actor(), sid)
	if err != nil {
		return err
	}
	out := quietReply{SnoozedUntil: unixOrNil(q.Snooze.Until), Muted: make([]muteReply, 0, len(q.Mutes))}
	if out.SnoozedUntil != nil {
		out.SnoozedBy = q.Snooze.UserID
	}
	for _, mu := range q.Mutes {
		out.Muted = append(out.Muted, muteReply{StoryID: mu.StoryID, MutedBy: mu.UserID, MutedAt: mu.CreatedAt.Unix()})
	}
	return ok(w, out)
}

func (a *API) alertQuiet(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	sid, err := pathID(r)
	if err != nil {
		return err
	}
	return a.quietReply(w, r, id, sid)
}

func (a *API) snoozeAlerts(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	sid, err := pathID(r)
	if err != nil {
		return err
	}
	var body struct {
		For   string `json:"for"`
		Until int64  `json:"until"` // Unix seconds
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	if body.For == "" && body.Until == 0 {
		return problem.InvalidField("for", alerts.MsgSnoozeLength)
	}
	var until time.Time
	if body.Until != 0 {
		until = time.Unix(body.Until, 0)
	}
	if _, err := a.Alerts.SnoozeSearch(r.Context(), id.Actor(), sid, body.For, until); err != nil {
		return err
	}
	return a.quietReply(w, r, id, sid)
}

func (a *API) wakeAlerts(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	sid, err := pathID(r)
	if err != nil {
		return err
	}
	if _, err := a.Alerts.SnoozeSearch(r.Context(), id.Actor(), sid, "", time.Time{}); err != nil {
		return err
	}
	return a.quietReply(w, r, id, sid)
}

func (a *API) muteStory(on bool) func(http.ResponseWriter, *http.Request, auth.Identity) error {
	return func(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
		sid, err := pathID(r)
		if err != nil {
			return err
		}
		if err := a.Alerts.MuteStory(r.Context(), id.Actor(), sid, r.PathValue("storyId"), on); err != nil {
			return err
		}
		return a.quietReply(w, r, id, sid)
	}
}
