package api

import (
	"net/http"
	"strconv"

	"github.com/sightline/sightline/internal/auth"
)

type sessionReply struct {
	ID         string `json:"id"`
	Device     string `json:"device"`
	Address    string `json:"address"`
	CreatedAt  int64  `json:"createdAt"`
	LastSeenAt int64  `json:"lastSeenAt"`
	Current    bool   `json:"current"`
}

func (a *API) sessions(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	list, err := a.Auth.Sessions(r.Context(), id)
	if err != nil {
		return err
	}
	out := make([]sessionReply, 0, len(list))
	for _, s := range list {
		out = append(out, sessionReply{ID: strconv.FormatInt(s.ID, 10), Device: auth.Device(s.UserAgent), Address: s.IP,
			CreatedAt: s.CreatedAt.Unix(), LastSeenAt: s.LastSeenAt.Unix(), Current: s.ID == id.SessionID})
	}
	return ok(w, out)
}

func (a *API) endSession(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	sid, err := pathID(r)
	if err != nil {
		return err
	}
	if err := a.Auth.EndSession(r.Context(), id, sid); err != nil {
		return err
	}
	return ok(w, map[string]int{"ended": 1})
}

func (a *API) endOtherSessions(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	n, err := a.Auth.EndOtherSessions(r.Context(), id)
	if err != nil {
		return err
	}
	return ok(w, map[string]int{"ended": n})
}

func (a *API) changePassword(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	var body struct {
		Current      string `json:"current_password"`
		Password     string `json:"password"`
		Confirmation string `json:"password_confirmation"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	if err := a.Auth.ChangePassword(r.Context(), id, body.Current, body.Password, body.Confirmation, clientIP(r)); err != nil {
		return err
	}
	return ok(w, map[string]bool{"changed": true})
}
