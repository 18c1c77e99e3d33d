package api

import (
	"net/http"
	"strconv"

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
			LastError: d.LastError, CreatedAt: d.CreatedAt.Unix(), SentAt: unixOrNil(d.SentAt)})
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
