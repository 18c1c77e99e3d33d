package api

import (
	"bytes"
	"mime"
	"net/http"
	"path"
	"strconv"
	"time"

	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/evidence"
	"github.com/sightline/sightline/internal/problem"
)

// timeZero leaves Last-Modified out: a record's files never change, and its id names them.
var timeZero time.Time

// captureEvidence serves POST /api/v1/evidence {postId | matchId | storyId | url}: 202 with the
// new record's id; the capture runs in the background (docs/evidence.md).
func (a *API) captureEvidence(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	var in evidence.Input
	if err := decode(r, &in); err != nil {
		return err
	}
	rec, err := a.Evidence.Request(r.Context(), id.Actor(), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusAccepted, envelope{Data: map[string]string{"id": strconv.FormatInt(rec.ID, 10)}})
	return nil
}

// evidenceList serves GET /api/v1/evidence?kind=&target=: the organization's newest records.
func (a *API) evidenceList(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	list, err := a.Evidence.List(r.Context(), id.Actor(), r.URL.Query().Get("kind"), r.URL.Query().Get("target"))
	if err != nil {
		return err
	}
	out := make([]evidence.Payload, 0, len(list))
	for _, rec := range list {
		out = append(out, rec.Payload())
	}
	return ok(w, out)
}

func (a *API) evidenceRecord(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	rec, err := a.Evidence.Get(r.Context(), id.Actor(), r.PathValue("id"))
	if err != nil {
		return err
	}
	return ok(w, rec.Payload())
}

// evidenceFile serves GET /api/v1/evidence/{id}/files/{name...}: one file, as a download, so
// that a captured page never runs in the app's origin.
func (a *API) evidenceFile(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	f, err := a.Evidence.File(r.Context(), id.Actor(), r.PathValue("id"), r.PathValue("name"))
	if err != nil {
		return err
	}
	kind := mime.TypeByExtension(path.Ext(f.Name))
	switch path.Ext(f.Name) {
	case ".png", ".jpg", ".gif", ".webp", ".json", ".pdf":
	default:
		kind = "application/octet-stream"
	}
	if kind == "" {
		kind = "application/octet-stream"
	}
	w.Header().Set("Content-Type", kind)
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": path.Base(f.Name)}))
	w.Header().Set("Content-Security-Policy", "sandbox; default-src 'none'")
	w.Header().Set("Cache-Control", "private, no-store")
	w.Header().Set("X-Content-SHA256", f.SHA256)
	http.ServeContent(w, r, path.Base(f.Name), timeZero, bytes.NewReader(f.Content))
	return nil
}

// evidenceBundle serves GET /api/v1/evidence/{id}/bundle: the record's bundle ZIP. It is built in
// memory first, so a failure is an error reply, never half a ZIP.
func (a *API) evidenceBundle(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	var buf bytes.Buffer
	if err := a.Evidence.WriteBundle(r.Context(), id.Actor(), r.PathValue("id"), &buf); err != nil {
		return err
	}
	name := evidence.BundleName(r.PathValue("id"))
	w.Header().Set("Content-Type", "application/zip")
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": name}))
	w.Header().Set("Cache-Control", "private, no-store")
	http.ServeContent(w, r, name, timeZero, bytes.NewReader(buf.Bytes()))
	return nil
}

func (a *API) deleteEvidence(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	if err := a.Evidence.Delete(r.Context(), id.Actor(), r.PathValue("id")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// autoCapture serves GET and PUT /api/v1/monitor/searches/{id}/capture {mode}: the saved search's
// automatic capture (off, high or all).
func (a *API) autoCapture(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	searchID, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		return problem.NotFound(authz.MsgNotFoundSearch)
	}
	if r.Method == http.MethodGet {
		p, err := a.Evidence.AutoCapture(r.Context(), id.Actor(), searchID)
		if err != nil {
			return err
		}
		return ok(w, p)
	}
	var body struct {
		Mode string `json:"mode"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	p, err := a.Evidence.SetAutoCapture(r.Context(), id.Actor(), searchID, body.Mode)
	if err != nil {
		return err
	}
	return ok(w, p)
}
