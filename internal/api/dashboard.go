package api

import (
	"net/http"

	"github.com/sightline/sightline/internal/auth"
)

// dashboard returns every dashboard widget's data over the chosen visible searches.
func (a *API) dashboard(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	ids, err := idList(r.URL.Query(), "monitorSearchIds")
	if err != nil {
		return err
	}
	d, err := a.Monitor.Dashboard(r.Context(), id.Actor(), ids)
	if err != nil {
		return err
	}
	return ok(w, d)
}
