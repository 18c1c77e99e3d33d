package api

import (
	"github.com/sightline/sightline/internal/usage"
	"mime"
	"net/http"
	"strconv"

	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/export"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/provider"
	"github.com/sightline/sightline/internal/search"
)

// exportBody is POST /api/v1/exports (docs/monitor-api.md, "Exports").
type exportBody struct {
	Source   string          `json:"source"`
	MatchIDs []int64         `json:"matchIds"`
	Filters  *matchFilters   `json:"filters"`
	Search   *search.Request `json:"search"`
	// Category is the Beacon tab the search ran in; all when absent.
	Category string   `json:"category"`
	Columns  []string `json:"columns"`
	Format   string   `json:"format"`
	Email    string   `json:"email"`
	// TranslateTo is the language of the translatedText column (en when empty).
	TranslateTo string `json:"translateTo"`
}

func (a *API) requestExport(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	var body exportBody
	if err := decode(r, &body); err != nil {
		return err
	}
	in := export.Input{Source: body.Source, Columns: body.Columns, Format: body.Format, Email: body.Email}
	in.MatchIDs, in.Search, in.Category = body.MatchIDs, body.Search, provider.Category(body.Category)
	in.TranslateTo = body.TranslateTo
	if body.Filters != nil {
		q := body.Filters.query()
		in.Filters = &q
	}
	if body.Search != nil {
		if err := boundQuery("search.query", body.Search.Query); err != nil {
			return err
		}
	}
	if in.Category != "" && !isCategory(in.Category) {
		return problem.InvalidField("category", "There is no "+body.Category+" search.")
	}
	// Counting the selection runs a search, so an export takes a place in the search limit; one,
	// whatever its size: the daily export quota bounds the pages the worker reads afterwards.
	done, err := a.SearchLimiter.Begin(id.User.ID)
	if err != nil {
		return err
	}
	defer done()
	e, err := a.Exports.Request(r.Context(), id.Actor(), in)
	if err != nil {
		return err
	}
	product := usage.Locate // the monitor's matches
	if in.Source == export.SourceBeacon {
		product = usage.Beacon
	}
	a.Usage.Exported(r.Context(), id.Actor(), product)
	writeJSON(w, http.StatusAccepted, envelope{Data: e.Payload()})
	return nil
}

func (a *API) exports(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	list, err := a.Exports.List(r.Context(), id.Actor())
	if err != nil {
		return err
	}
	out := make([]export.Payload, 0, len(list))
	for _, e := range list {
		out = append(out, e.Payload())
	}
	return ok(w, out)
}

var exportTypes = map[string]string{export.FormatCSV: "text/csv; charset=utf-8", export.FormatJSON: "application/json; charset=utf-8"}

func (a *API) downloadExport(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	exportID, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		return problem.NotFound("The export was not found.")
	}
	f, e, err := a.Exports.Open(r.Context(), id.Actor(), exportID)
	if err != nil {
		return err
	}
	defer f.Close()
	w.Header().Set("Content-Type", exportTypes[e.Format])
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": e.FileName()}))
	w.Header().Set("Cache-Control", "private, no-store")
	http.ServeContent(w, r, e.FileName(), e.FinishedAt, f)
	return nil
}
