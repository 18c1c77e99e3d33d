package api

import (
	"github.com/sightline/sightline/internal/usage"
	"net/http"

	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/provider"
	"github.com/sightline/sightline/internal/search"
)

// locateSearch runs the first page of a Locate quick search.
func (a *API) locateSearch(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	req, done, err := a.locateRequest(r, id)
	if err != nil {
		return err
	}
	defer done()
	page, err := a.Search.Locate(r.Context(), entitlements(id), id.Actor(), req)
	if err != nil {
		return err
	}
	a.Usage.Searched(r.Context(), id.Actor(), usage.Locate, int64(page.TotalCount))
	return ok(w, page)
}

// locateMore continues a Locate search from its searchId.
func (a *API) locateMore(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	if err := authz.CanSearchLocate(id.Actor()); err != nil {
		return err
	}
	searchID, done, err := a.continuation(r, id)
	if err != nil {
		return err
	}
	defer done()
	page, err := a.Search.LocateMore(r.Context(), entitlements(id), id.Actor(), searchID)
	if err != nil {
		return err
	}
	return ok(w, page)
}

// locateAnalytics is the word cloud and daily graph of a Locate search.
func (a *API) locateAnalytics(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	req, done, err := a.locateRequest(r, id)
	if err != nil {
		return err
	}
	defer done()
	analytics, err := a.Search.LocateAnalytics(r.Context(), entitlements(id), id.Actor(), req)
	if err != nil {
		return err
	}
	return ok(w, analytics)
}

// locateRequest checks the caller may use Locate, decodes the request and takes a place in the
// caller's search limit (done gives it back).
func (a *API) locateRequest(r *http.Request, id auth.Identity) (search.LocateRequest, func(), error) {
	var req search.LocateRequest
	if err := authz.CanSearchLocate(id.Actor()); err != nil {
		return req, nil, err
	}
	if err := decode(r, &req); err != nil {
		return req, nil, err
	}
	if err := boundQuery("keywords", req.Keywords); err != nil {
		return req, nil, err
	}
	done, err := a.SearchLimiter.Begin(id.User.ID)
	return req, done, err
}

// beaconAnalytics is the word cloud and daily graph of a Beacon search: the search request
// with the category of its tab (all when none).
func (a *API) beaconAnalytics(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	var req struct {
		search.Request
		Category provider.Category `json:"category"`
	}
	if err := decode(r, &req); err != nil {
		return err
	}
	if req.Category == "" {
		req.Category = search.All
	}
	if !isCategory(req.Category) {
		return problem.InvalidField("category", "There is no "+string(req.Category)+" search.")
	}
	if err := boundQuery("query", req.Query); err != nil {
		return err
	}
	done, err := a.SearchLimiter.Begin(id.User.ID)
	if err != nil {
		return err
	}
	defer done()
	analytics, err := a.Search.Analyze(r.Context(), entitlements(id), req.Category, req.Request)
	if err != nil {
		return err
	}
	return ok(w, analytics)
}
