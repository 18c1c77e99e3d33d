package api

import (
	"net/http"

	"github.com/sightline/sightline/internal/auth"
)

// monitorTrends lists what trends among the matches of the saved searches the caller may read.
func (a *API) monitorTrends(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	list, err := a.Trends.Organization(r.Context(), id.Actor())
	if err != nil {
		return err
	}
	return ok(w, list)
}

// beaconTrends lists what trends among every post the caller may see ("Trending now").
func (a *API) beaconTrends(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	list, err := a.Trends.Visible(r.Context(), id.Actor())
	if err != nil {
		return err
	}
	return ok(w, list)
}
