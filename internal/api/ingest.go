package api

import (
	"net/http"

	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/ingest"
)

// maxIngestBody bounds one ingest request; larger files go in several requests (the CLI does).
const maxIngestBody = 64 << 20

// ingestPosts accepts NDJSON or a JSON array of posts. A bad line never stops the good ones.
func (a *API) ingestPosts(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	if err := authz.CanIngest(id.Actor()); err != nil {
		return err
	}
	items, readErr := ingest.Decode(http.MaxBytesReader(w, r.Body, maxIngestBody))
	result := a.Ingest.Accept(r.Context(), items)
	if readErr != nil {
		line := 1
		if len(items) > 0 {
			line = items[len(items)-1].Line + 1
		}
		result.Rejected = append(result.Rejected, ingest.Rejection{Line: line,
			Message: "reading stopped here: " + readErr.Error()})
	}
	return ok(w, result)
}

func (a *API) ingestStats(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	actor := id.Actor()
	if err := authz.CanAdministerTenant(actor, actor.TenantID); err != nil {
		return err
	}
	stats, err := a.IngestStats(r.Context())
	if err != nil {
		return err
	}
	return ok(w, stats)
}
