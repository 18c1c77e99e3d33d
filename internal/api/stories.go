package api

import (
	"net/http"

	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/story"
)

// story serves GET /api/v1/stories/{id}?offset=&limit=: the story as the user sees it.
func (a *API) story(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	offset, err := queryInt(r, "offset", 0)
	if err != nil {
		return err
	}
	limit, err := queryInt(r, "limit", story.DefaultPage)
	if err != nil {
		return err
	}
	v, err := a.Stories.Get(r.Context(), id.Actor(), r.PathValue("id"), offset, limit)
	if err != nil {
		return err
	}
	return ok(w, v)
}
