package api

import (
	"net/http"

	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/ingest"
	"github.com/sightline/sightline/internal/post/postschema"
)

// ingestPosts accepts NDJSON or a JSON array of posts, processing them as the body arrives. A
// bad line never stops the good ones.
func (a *API) ingestPosts(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	if err := authz.CanIngest(id.Actor()); err != nil {
		return err
	}
	origin := ingest.OriginOf(id.TokenID, id.TokenName, id.User.ID, id.User.TenantID)
	result, err := a.Ingest.Submit(r.Context(), streamBody(r), origin)
	if err != nil {
		return err
	}
	return ok(w, result)
}

// ingestDeletions marks posts the token pushed as deleted by their provider (NDJSON or a JSON
// array of {provider, native_id, deleted_at}). A bad line never stops the good ones.
func (a *API) ingestDeletions(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	if err := authz.CanIngest(id.Actor()); err != nil {
		return err
	}
	origin := ingest.OriginOf(id.TokenID, id.TokenName, id.User.ID, id.User.TenantID)
	result, err := a.Ingest.ReportDeletions(r.Context(), streamBody(r), origin)
	if err != nil {
		return err
	}
	return ok(w, result)
}

func (a *API) ingestStats(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	view, err := authz.CanReadIngestStats(id.Actor())
	if err != nil {
		return err
	}
	scope := ingest.Scope{TenantID: id.Actor().TenantID}
	if view == authz.IngestStatsOwn {
		scope.UserID = id.User.ID
	}
	stats, err := a.IngestStats(r.Context(), scope)
	if err != nil {
		return err
	}
	return ok(w, stats)
}

// ingestSchema serves the post format's JSON Schema (docs/post.schema.json) to anyone: it is
// the public contract of the ingest API.
func (a *API) ingestSchema(w http.ResponseWriter, r *http.Request) error {
	w.Header().Set("Content-Type", "application/schema+json")
	w.Header().Set("Cache-Control", "public, max-age=3600")
	_, err := w.Write(postschema.JSON())
	return err
}
