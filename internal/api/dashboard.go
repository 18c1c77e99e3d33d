package api

import (
	"net/http"

	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/monitor"
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

func (a *API) dashboardLayout(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	l, err := a.Monitor.DashboardLayout(r.Context(), id.Actor())
	if err != nil {
		return err
	}
	return ok(w, l)
}

func (a *API) saveDashboardLayout(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	var l monitor.Layout
	if err := decode(r, &l); err != nil {
		return err
	}
	saved, err := a.Monitor.SaveDashboardLayout(r.Context(), id.Actor(), l)
	if err != nil {
		return err
	}
	return ok(w, saved)
}
