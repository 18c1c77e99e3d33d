package api_test

import (
	"bytes"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sightline/sightline/internal/api"
	"github.com/sightline/sightline/internal/basemap"
	"github.com/sightline/sightline/internal/basemap/basemaptest"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// mapEnv is an API whose base map is the operator's choice o.
func mapEnv(t *testing.T, o basemap.Options) *env {
	t.Helper()
	m, err := basemap.Open(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return newEnvWith(t, storetest.Open(t, store.SQLite), func(d *api.Deps) { d.BaseMap = m })
}

// The web app learns the base map from the server, and the page's policy lets the browser reach
// the tile server: pictures as images, vector tiles by fetch.
func TestMapBase(t *testing.T) {
	tests := []struct {
		name             string
		options          basemap.Options
		kind, url        string
		imgSrc, connects string
	}{
		{"outlines", basemap.Options{}, "outlines", "", "img-src 'self' data: blob:", "connect-src 'self' ws://"},
		{"raster tiles", basemap.Options{TilesURL: "https://tiles.example:8443/{z}/{x}/{y}.png", Attribution: "© OpenStreetMap contributors"},
			"raster", "https://tiles.example:8443/{z}/{x}/{y}.png",
			"img-src 'self' data: blob: https://tiles.example:8443", "connect-src 'self' ws://"},
		{"vector tiles", basemap.Options{TilesURL: "https://vector.example/{z}/{x}/{y}.mvt"},
			"vector", "https://vector.example/{z}/{x}/{y}.mvt",
			"img-src 'self' data: blob:", "connect-src 'self' https://vector.example ws://"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := mapEnv(t, tt.options)
			c := e.client()
			if r := c.do("GET", "/api/v1/map/base", nil); r.status != http.StatusUnauthorized {
				t.Errorf("signed out = %d, want 401", r.status)
			}
			c.login("analyst@acme.test")
			r := c.do("GET", "/api/v1/map/base", nil)
			if r.status != http.StatusOK || dig(r.body, "data", "kind") != tt.kind || dig(r.body, "data", "url") != tt.url ||
				dig(r.body, "data", "attribution") != tt.options.Attribution {
				t.Errorf("GET /api/v1/map/base = %d %v", r.status, r.body)
			}
			directives := strings.Split(r.header.Get("Content-Security-Policy"), "; ")
			if !slices.Contains(directives, tt.imgSrc) || !slices.ContainsFunc(directives, func(d string) bool {
				return strings.HasPrefix(d, tt.connects)
			}) {
				t.Errorf("Content-Security-Policy %q, want %q and %q...", directives, tt.imgSrc, tt.connects)
			}
			if tt.options.PMTiles == "" {
				if r := c.do("GET", basemap.ArchivePath, nil); r.status != http.StatusNotFound {
					t.Errorf("GET %s without an archive = %d, want 404", basemap.ArchivePath, r.status)
				}
			}
		})
	}
}

// The PMTiles archive is read by byte ranges, with the session cookie the page's fetches carry.
func TestMapArchiveAnswersRanges(t *testing.T) {
	file := basemaptest.Build(basemap.TilePNG, false, []byte("first tile"), []byte("second tile"))
	e := mapEnv(t, basemap.Options{PMTiles: basemaptest.WriteFile(t, file)})
	c := e.client()
	get := func(rangeHeader string) (int, http.Header, []byte) {
		req, _ := http.NewRequest("GET", e.srv.URL+basemap.ArchivePath, nil)
		req.Header.Set("Range", rangeHeader)
		resp, err := c.http.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header, body
	}
	if status, _, _ := get("bytes=0-126"); status != http.StatusUnauthorized {
		t.Errorf("signed out = %d, want 401", status)
	}
	c.login("analyst@acme.test")
	if r := c.do("GET", "/api/v1/map/base", nil); dig(r.body, "data", "kind") != "pmtiles-raster" ||
		dig(r.body, "data", "url") != basemap.ArchivePath || dig(r.body, "data", "maxZoom") != float64(basemaptest.MaxZoom) {
		t.Errorf("GET /api/v1/map/base = %v", r.body)
	}
	tail := len(file) - len("second tile")
	status, header, body := get("bytes=" + strconv.Itoa(tail) + "-")
	if status != http.StatusPartialContent || !bytes.Equal(body, []byte("second tile")) ||
		header.Get("Content-Type") != "application/vnd.pmtiles" || header.Get("ETag") == "" {
		t.Errorf("range = %d %q %v", status, body, header)
	}
}
