package api

import (
	"net/http"

	"github.com/sightline/sightline/internal/auth"
)

// writeSupport passes the help drawer's message to the tenant's support address.
func (a *API) writeSupport(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	var body struct {
		Message string `json:"message"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	if err := a.Support.Write(r.Context(), id.User.ID, body.Message); err != nil {
		return err
	}
	return ok(w, map[string]bool{"sent": true})
}
