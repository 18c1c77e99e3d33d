package api

import (
	"cmp"
	"encoding/json"
	"errors"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/query"
)

// envelope is the spec's reply shape: everything under "data".
type envelope struct {
	Data any `json:"data"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// ok sends data in the envelope with status 200.
func ok(w http.ResponseWriter, data any) error {
	writeJSON(w, http.StatusOK, envelope{Data: data})
	return nil
}

// statusAntiForgery is Laravel's "page expired" status, which the spec's client treats like 401.
const statusAntiForgery = 419

var statusOf = map[problem.Kind]int{
	problem.KindInvalid:              http.StatusUnprocessableEntity,
	problem.KindUnauthenticated:      http.StatusUnauthorized,
	problem.KindForbidden:            http.StatusForbidden,
	problem.KindNotFound:             http.StatusNotFound,
	problem.KindConflict:             http.StatusConflict,
	problem.KindRateLimited:          http.StatusTooManyRequests,
	problem.KindLimitExceeded:        http.StatusUnprocessableEntity,
	problem.KindUnsupportedMediaType: http.StatusUnsupportedMediaType,
	problem.KindTooLarge:             http.StatusRequestEntityTooLarge,
	problem.KindUnavailable:          http.StatusServiceUnavailable,
	problem.KindBadGateway:           http.StatusBadGateway,
}

// writeError sends err in the spec's error shape: {message, errors, limitExceeded, title,
// description}. Errors that are not problems are logged and reported without detail.
func (a *API) writeError(w http.ResponseWriter, r *http.Request, err error) {
	p, isProblem := problem.As(err)
	if !isProblem {
		if errors.Is(err, errAntiForgery) {
			writeJSON(w, statusAntiForgery, map[string]any{"message": "Your session has expired. Reload the page and try again."})
			return
		}
		a.Logger.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
		writeJSON(w, http.StatusInternalServerError, map[string]any{"message": "Something went wrong. Please try again."})
		return
	}
	body := map[string]any{"message": p.Message}
	if len(p.Fields) > 0 {
		body["errors"] = p.Fields
	}
	if p.Kind == problem.KindLimitExceeded {
		body["limitExceeded"] = true
	}
	if p.Title != "" {
		body["title"] = p.Title
	}
	if p.Description != "" {
		body["description"] = p.Description
	}
	for k, v := range p.Extra {
		body[k] = v
	}
	if p.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int(p.RetryAfter.Seconds())+1))
	}
	writeJSON(w, statusOf[p.Kind], body)
}

// msgNotJSON refuses a body that does not say it is JSON.
const msgNotJSON = "The request body must be JSON, sent with Content-Type: application/json."

// decode reads a JSON body into v, reporting malformed input as a validation problem. The body
// must be declared JSON: a cross-site form or no-cors fetch can only send text/plain, a form
// encoding or no type at all, so refusing those keeps other sites from posting here (login
// CSRF included).
func decode(r *http.Request, v any) error {
	if !isJSON(r.Header.Get("Content-Type")) {
		return problem.UnsupportedMediaType(msgNotJSON)
	}
	r.Body = http.MaxBytesReader(nil, r.Body, 1<<20)
	if err := json.NewDecoder(r.Body).Decode(v); err != nil {
		return problem.Invalid("The request body is not valid JSON: "+err.Error(), nil)
	}
	return nil
}

// isJSON reports whether a Content-Type names JSON: application/json or a +json type.
func isJSON(contentType string) bool {
	mediaType, _, err := mime.ParseMediaType(contentType)
	return err == nil && (mediaType == "application/json" || strings.HasSuffix(mediaType, "+json"))
}

// boundQuery refuses a query-bearing field longer than any valid query as soon as it is
// decoded, before a rate limit, a history entry or a store sees it.
func boundQuery(field, q string) error {
	if is := query.TooLong(q); is != nil {
		return problem.InvalidField(field, is.Message)
	}
	return nil
}

func (a *API) notFound(w http.ResponseWriter, r *http.Request) error {
	return problem.NotFound("The requested resource was not found.")
}

// sortBy orders items by an integer key.
func sortBy[T any](items []T, key func(T) int64) {
	slices.SortFunc(items, func(a, b T) int { return cmp.Compare(key(a), key(b)) })
}
