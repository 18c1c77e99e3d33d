package api

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/ingest"
	"github.com/sightline/sightline/internal/sourcing"
)

// sourceReply is a source as GET /api/v1/sources lists it, with its health.
type sourceReply struct {
	ID        int64           `json:"id"`
	Type      string          `json:"type"`
	Name      string          `json:"name"`
	Config    json.RawMessage `json:"config"`
	Enabled   bool            `json:"enabled"`
	CreatedAt time.Time       `json:"createdAt"`
	UpdatedAt time.Time       `json:"updatedAt"`
	Health    sourcing.Health `json:"health"`
}

func sourceJSON(v sourcing.View) sourceReply {
	return sourceReply{ID: v.ID, Type: v.Type, Name: v.Name, Config: v.Config, Enabled: v.Enabled,
		CreatedAt: v.CreatedAt, UpdatedAt: v.UpdatedAt, Health: v.Health}
}

func (a *API) sources(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	views, err := a.Sources.List(r.Context(), id.Actor())
	if err != nil {
		return err
	}
	out := make([]sourceReply, 0, len(views))
	for _, v := range views {
		out = append(out, sourceJSON(v))
	}
	return ok(w, out)
}

// sourceTypes are the types a source may have.
func (a *API) sourceTypes(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	if err := authz.CanManageSources(id.Actor(), id.Actor().TenantID); err != nil {
		return err
	}
	return ok(w, a.SourceTypes)
}

func (a *API) createSource(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	var in sourcing.Input
	if err := decode(r, &in); err != nil {
		return err
	}
	v, err := a.Sources.Create(r.Context(), id.Actor(), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, envelope{Data: sourceJSON(v)})
	return nil
}

func (a *API) source(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	sid, err := pathID(r)
	if err != nil {
		return err
	}
	v, err := a.Sources.Get(r.Context(), id.Actor(), sid)
	if err != nil {
		return err
	}
	return ok(w, sourceJSON(v))
}

func (a *API) updateSource(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	sid, err := pathID(r)
	if err != nil {
		return err
	}
	var in sourcing.Input
	if err := decode(r, &in); err != nil {
		return err
	}
	v, err := a.Sources.Update(r.Context(), id.Actor(), sid, in)
	if err != nil {
		return err
	}
	return ok(w, sourceJSON(v))
}

func (a *API) deleteSource(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	sid, err := pathID(r)
	if err != nil {
		return err
	}
	if err := a.Sources.Delete(r.Context(), id.Actor(), sid); err != nil {
		return err
	}
	return ok(w, map[string]string{"message": "The source was deleted."})
}

// testSource fetches a draft source (or a saved one, with the body's changes) once and
// answers what would be stored; nothing is.
func (a *API) testSource(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	var sid int64
	if r.PathValue("id") != "" {
		var err error
		if sid, err = pathID(r); err != nil {
			return err
		}
	}
	var in sourcing.Input
	if r.ContentLength != 0 {
		if err := decode(r, &in); err != nil {
			return err
		}
	}
	preview, err := a.Sources.Test(r.Context(), id.Actor(), sid, in)
	if err != nil {
		return err
	}
	return ok(w, preview)
}

// sourcesHealthReply is GET /api/v1/sources/health: every source's health and how many fail.
type sourcesHealthReply struct {
	Sources []sourcing.Health `json:"sources"`
	// Failing counts the sources that worked before and now fail or do not answer: the top
	// bar's warning. A source that never worked is on the sources page, not a badge on every
	// screen (issue 28: "30" in orange on a server without internet).
	Failing int `json:"failing"`
	// Offline says the server cannot reach the internet at all (sourcing.Offline); then
	// Message says so once, with what to do.
	Offline bool   `json:"offline"`
	Message string `json:"message,omitempty"`
	// Warnings say when the ingest pipeline is behind: new posts of every source are late.
	Warnings []ingest.Warning `json:"warnings"`
	// BuiltIn are the sources outside the table, read-only: the simulator and ingest tokens.
	BuiltIn []ingest.BuiltInSource `json:"builtIn"`
}

func (a *API) sourcesHealth(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	views, err := a.Sources.List(r.Context(), id.Actor())
	if err != nil {
		return err
	}
	reply := sourcesHealthReply{Sources: []sourcing.Health{}, Warnings: []ingest.Warning{},
		BuiltIn: []ingest.BuiltInSource{}}
	if a.PipelineWarnings != nil {
		reply.Warnings = a.PipelineWarnings()
	}
	// List has checked that the caller manages its tenant's sources.
	if a.BuiltInSources != nil {
		if reply.BuiltIn, err = a.BuiltInSources(r.Context(), id.Actor().TenantID); err != nil {
			return err
		}
	}
	rows := make([]sourcing.Source, 0, len(views))
	for _, v := range views {
		reply.Sources = append(reply.Sources, v.Health)
		rows = append(rows, v.Source)
		failing := v.Health.State == sourcing.StateFailing || v.Health.State == sourcing.StateUnreachable
		if failing && !v.Health.LastSuccess.IsZero() {
			reply.Failing++
		}
	}
	if reply.Offline = sourcing.Offline(rows); reply.Offline {
		reply.Message = sourcing.OfflineMessage
	}
	return ok(w, reply)
}
