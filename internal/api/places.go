package api

import (
	"context"
	"net/http"

	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/post"
)

// placeAction adapts a change of the post's place named in the path (country code, name) to a
// handler that replies with the places the post shows the caller's tenant afterwards.
func (a *API) placeAction(change func(ctx context.Context, actor authz.Actor, postID, countryCode, name string) ([]post.MentionedLocation, error)) func(http.ResponseWriter, *http.Request, auth.Identity) error {
	return func(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
		places, err := change(r.Context(), id.Actor(), r.PathValue("id"), r.PathValue("country"), r.PathValue("name"))
		if err != nil {
			return err
		}
		return ok(w, map[string]any{"mentioned_locations": places})
	}
}
