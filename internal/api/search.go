package api

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/provider"
	"github.com/sightline/sightline/internal/search"
	"github.com/sightline/sightline/internal/store"
)

var categories = []provider.Category{provider.Social, provider.DarkWeb, provider.OpenWeb, provider.Documents, provider.DeepWeb}

func category(r *http.Request) (provider.Category, error) {
	c := provider.Category(r.PathValue("category"))
	for _, known := range categories {
		if c == known {
			return c, nil
		}
	}
	return "", problem.NotFound("There is no %s search.", c)
}

// searchPosts runs the first page of a Beacon search in a category.
func (a *API) searchPosts(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	c, err := category(r)
	if err != nil {
		return err
	}
	var req search.Request
	if err := decode(r, &req); err != nil {
		return err
	}
	if err := boundQuery("query", req.Query); err != nil {
		return err
	}
	done, err := a.SearchLimiter.Begin(id.User.ID)
	if err != nil {
		return err
	}
	defer done()
	page, err := a.Search.Search(r.Context(), entitlements(id), c, req)
	if err != nil {
		return err
	}
	return ok(w, page)
}

// morePosts continues a search from its searchId (load-more and next-page alike).
func (a *API) morePosts(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	c, err := category(r)
	if err != nil {
		return err
	}
	var req struct {
		SearchID string `json:"searchId"`
	}
	if err := decode(r, &req); err != nil {
		return err
	}
	if strings.TrimSpace(req.SearchID) == "" {
		return problem.InvalidField("searchId", "The searchId field is required.")
	}
	done, err := a.SearchLimiter.Begin(id.User.ID)
	if err != nil {
		return err
	}
	defer done()
	page, err := a.Search.More(r.Context(), entitlements(id), c, req.SearchID)
	if err != nil {
		return err
	}
	return ok(w, page)
}

// recordSearch stores a search in the user's history.
func (a *API) recordSearch(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	var req struct {
		Category string          `json:"category"`
		Request  json.RawMessage `json:"request"`
	}
	if err := decode(r, &req); err != nil {
		return err
	}
	if len(req.Request) == 0 || req.Request[0] != '{' {
		return problem.InvalidField("request", "The request field must be the search request object.")
	}
	if err := search.CheckHistoryEntry(req.Category, req.Request); err != nil {
		return err
	}
	histID, err := a.History.AddSearchHistory(r.Context(), store.SearchHistoryEntry{UserID: id.User.ID,
		OrganizationID: id.User.OrganizationID, Category: req.Category, Request: string(req.Request)}, search.HistoryKept)
	if err != nil {
		return err
	}
	return ok(w, map[string]any{"id": histID})
}

// searchHistory lists the caller's own searches.
func (a *API) searchHistory(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	entries, err := a.History.SearchHistory(r.Context(), id.User.ID, 100)
	if err != nil {
		return err
	}
	out := make([]map[string]any, 0, len(entries))
	for _, e := range entries {
		out = append(out, map[string]any{"id": e.ID, "category": e.Category,
			"request": json.RawMessage(e.Request), "createdAt": e.CreatedAt.Unix()})
	}
	return ok(w, out)
}
