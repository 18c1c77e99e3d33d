package api

import (
	"encoding/json"
	"github.com/sightline/sightline/internal/usage"
	"net/http"
	"slices"
	"strings"

	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/provider"
	"github.com/sightline/sightline/internal/search"
)

var categories = []provider.Category{search.All, provider.Social, provider.DarkWeb, provider.OpenWeb, provider.Documents,
	provider.DeepWeb, search.Markets, search.Communities}

func category(r *http.Request) (provider.Category, error) {
	c := provider.Category(r.PathValue("category"))
	if !isCategory(c) {
		return "", problem.NotFound("There is no %s search.", c)
	}
	return c, nil
}

func isCategory(c provider.Category) bool { return slices.Contains(categories, c) }

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
	a.Usage.Searched(r.Context(), id.Actor(), usage.Beacon, int64(page.TotalCount))
	return ok(w, page)
}

// morePosts continues a search from its searchId (load-more and next-page alike).
func (a *API) morePosts(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	c, err := category(r)
	if err != nil {
		return err
	}
	return a.continueSearch(w, r, id, c)
}

// continueSearch answers the next page of a search in the category: {"searchId": "..."}.
func (a *API) continueSearch(w http.ResponseWriter, r *http.Request, id auth.Identity, c provider.Category) error {
	searchID, done, err := a.continuation(r, id)
	if err != nil {
		return err
	}
	defer done()
	page, err := a.Search.More(r.Context(), entitlements(id), c, searchID)
	if err != nil {
		return err
	}
	return ok(w, page)
}

// continuation decodes the searchId of a next page and takes a place in the caller's search
// limit (done gives it back).
func (a *API) continuation(r *http.Request, id auth.Identity) (string, func(), error) {
	var req struct {
		SearchID string `json:"searchId"`
	}
	if err := decode(r, &req); err != nil {
		return "", nil, err
	}
	if strings.TrimSpace(req.SearchID) == "" {
		return "", nil, problem.InvalidField("searchId", "The searchId field is required.")
	}
	done, err := a.SearchLimiter.Begin(id.User.ID)
	return req.SearchID, done, err
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
	histID, err := a.History.Record(r.Context(), id.User.ID, id.User.OrganizationID, req.Category, req.Request)
	if err != nil {
		return err
	}
	return ok(w, map[string]any{"id": histID})
}

// searchHistory lists the caller's own searches.
func (a *API) searchHistory(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	entries, err := a.History.List(r.Context(), id.User.ID)
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

// flaggedPosts lists the caller's flagged posts (Beacon's Flagged tab).
func (a *API) flaggedPosts(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	posts, err := a.Flags.List(r.Context(), id.User.ID, entitlements(id))
	if err != nil {
		return err
	}
	return ok(w, search.Page{Documents: posts, Count: len(posts), TotalCount: len(posts), Suggestions: []search.Suggestion{}})
}

// flagPosts flags posts for the caller: {"postIds": [...]}.
func (a *API) flagPosts(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	var req struct {
		PostIDs []string `json:"postIds"`
	}
	if err := decode(r, &req); err != nil {
		return err
	}
	if err := a.Flags.Flag(r.Context(), id.User.ID, entitlements(id), req.PostIDs); err != nil {
		return err
	}
	return ok(w, map[string]bool{"flagged": true})
}

func (a *API) unflagPost(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	if err := a.Flags.Unflag(r.Context(), id.User.ID, r.PathValue("postId")); err != nil {
		return err
	}
	return ok(w, map[string]bool{"flagged": false})
}

func (a *API) clearFlags(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	if err := a.Flags.Clear(r.Context(), id.User.ID); err != nil {
		return err
	}
	return ok(w, map[string]bool{"cleared": true})
}

// postIDs is the body of the mark calls: {"postIds": [...]}.
type postIDs struct {
	PostIDs []string `json:"postIds"`
}

// postMarks returns the caller's marks (read, deleted) of the named posts, by post id; a post
// without marks is left out.
func (a *API) postMarks(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	var req postIDs
	if err := decode(r, &req); err != nil {
		return err
	}
	marks, err := a.Marks.Of(r.Context(), id.User.ID, req.PostIDs)
	if err != nil {
		return err
	}
	return ok(w, marks)
}

// markPosts marks posts read or deleted for the caller.
func (a *API) markPosts(mark search.Mark) func(http.ResponseWriter, *http.Request, auth.Identity) error {
	return func(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
		var req postIDs
		if err := decode(r, &req); err != nil {
			return err
		}
		if err := a.Marks.Mark(r.Context(), id.User.ID, entitlements(id), mark, req.PostIDs); err != nil {
			return err
		}
		return ok(w, map[string]bool{"marked": true})
	}
}

// markUnread marks posts unread again for the caller.
func (a *API) markUnread(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	var req postIDs
	if err := decode(r, &req); err != nil {
		return err
	}
	if err := a.Marks.MarkUnread(r.Context(), id.User.ID, req.PostIDs); err != nil {
		return err
	}
	return ok(w, map[string]bool{"marked": true})
}
