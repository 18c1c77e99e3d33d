package api_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/sightline/sightline/internal/api"
)

// The web app's routes are served the app, also those under the search API's prefix, while
// unknown API paths stay JSON 404s.
func TestAppRoutes(t *testing.T) {
	app := fstest.MapFS{"index.html": {Data: []byte("<!doctype html><div id=root></div>")}}
	h := api.New(api.Deps{App: api.AppHandler(app, true), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	for _, tc := range []struct {
		path, want string
	}{
		{"/beacon", "text/html"},
		{"/beacon/results?q=flood", "text/html"},
		{"/beacon/author?name=ana", "text/html"},
		{"/locate?type=location", "text/html"},
		{"/history", "text/html"},
		{"/monitor/dashboard", "text/html"},
		{"/invite/Zm9vYmFyYmF6", "text/html"},
		{"/beacon/v1/nowhere/at/all", "application/json"},
		{"/api/v1/nothing", "application/json"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, tc.path, nil))
			if got := rec.Header().Get("Content-Type"); rec.Code != http.StatusOK && tc.want == "text/html" ||
				!strings.HasPrefix(got, tc.want) {
				t.Errorf("GET %s = %d %s, want %s", tc.path, rec.Code, got, tc.want)
			}
		})
	}
}
