package api

import (
	"net/http"

	"github.com/sightline/sightline/internal/auth"
)

// mapBase tells the web app which base map to draw (docs/maps.md).
func (a *API) mapBase(w http.ResponseWriter, r *http.Request, _ auth.Identity) error {
	return ok(w, a.BaseMap.Base())
}

// mapArchive serves the operator's PMTiles archive by byte ranges. It stays behind sign-in like
// the rest of the API: the browser's reader fetches from the page's own origin, so the session
// cookie goes with every range.
func (a *API) mapArchive(w http.ResponseWriter, r *http.Request, _ auth.Identity) error {
	a.BaseMap.Archive().ServeHTTP(w, r)
	return nil
}
