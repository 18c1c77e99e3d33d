package api

import (
	"net/http"

	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/geo"
)

// geocodeAutocomplete suggests places for typed text, most populous first.
func (a *API) geocodeAutocomplete(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	suggestions, err := a.Geocoder.Autocomplete(r.Context(), r.URL.Query().Get("address"), 10)
	if err != nil {
		return err
	}
	if suggestions == nil {
		suggestions = []geo.Suggestion{}
	}
	return ok(w, suggestions)
}

// geocodeAddress resolves an address to its bounds (WKT) and says whether it is in US territory.
func (a *API) geocodeAddress(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	result, err := a.Geocoder.Lookup(r.Context(), r.URL.Query().Get("address"))
	if err != nil {
		return err
	}
	return ok(w, result)
}

// geocodeReverse names a point (lat, lon): the nearest town, else the country holding it.
func (a *API) geocodeReverse(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	point, err := geo.ReversePoint(r.URL.Query().Get("lat"), r.URL.Query().Get("lon"))
	if err != nil {
		return err
	}
	place, err := a.Reverse.Reverse(r.Context(), point)
	if err != nil {
		return err
	}
	return ok(w, place)
}
