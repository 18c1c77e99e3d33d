// Package basemap is the map's base layer as the operator chose it at start-up: the offline
// country outlines, a tile server (--map-tiles-url) or a PMTiles archive that Sightline serves
// itself (--map-pmtiles). The web app asks for the choice (GET /api/v1/map/base) and the
// security policy lets the browser reach the tile server (docs/maps.md).
package basemap

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// Kind is how the web app draws the base map.
type Kind string

const (
	// Outlines are the country shapes shipped with the app: nothing finer than borders.
	Outlines Kind = "outlines"
	// Raster is a tile server's pictures (PNG, JPEG, WebP) drawn by Leaflet.
	Raster Kind = "raster"
	// Vector is a tile server's Mapbox Vector Tiles in the Protomaps basemap schema, drawn in
	// the browser.
	Vector Kind = "vector"
	// PMTilesVector and PMTilesRaster are a PMTiles archive served by Sightline (ArchivePath).
	PMTilesVector Kind = "pmtiles-vector"
	PMTilesRaster Kind = "pmtiles-raster"
)

// Kinds are every kind, for the web app's contracts.
var Kinds = []string{string(Outlines), string(Raster), string(Vector), string(PMTilesVector), string(PMTilesRaster)}

// ArchivePath is where Sightline serves the PMTiles archive. The name ends in .pmtiles because
// protomaps-leaflet tells an archive from a tile template by it.
const ArchivePath = "/api/v1/map/base.pmtiles"

// outlinesMaxZoom is how far in the outlines are worth zooming: past a region they show only
// grey.
const outlinesMaxZoom = 6

// A tile server's own deepest zoom is not known from its address: Leaflet's default for
// pictures, and the deepest level of Protomaps' vector builds, which the browser draws larger
// beyond it.
const (
	rasterServerMaxZoom = 18
	vectorServerMaxZoom = 15
)

// Base is the reply of GET /api/v1/map/base: which base map to draw and from where.
type Base struct {
	// Kind is how to draw it.
	Kind Kind `json:"kind"`
	// URL is the tile server's template ({z}, {x}, {y}) or the archive's address; empty for
	// the outlines.
	URL string `json:"url"`
	// Attribution is plain text the map shows in its corner (the operator's
	// --map-tiles-attribution); empty leaves the drawing library's own.
	Attribution string `json:"attribution"`
	// MaxZoom is the deepest zoom level with detail of its own.
	MaxZoom int `json:"maxZoom"`
	// Bounds are the area the tiles cover, [west, south, east, north] in degrees.
	Bounds []float64 `json:"bounds"`
}

// Options are the operator's flags.
type Options struct {
	TilesURL    string // --map-tiles-url
	Attribution string // --map-tiles-attribution
	PMTiles     string // --map-pmtiles
}

// Map is the chosen base map.
type Map struct {
	base Base
	// origin is the tile server's scheme and host, which the security policy must allow.
	origin  string
	archive *Archive
}

var world = []float64{-180, -85.0511287798, 180, 85.0511287798}

// Open checks the operator's choice: a tile template must be an http or https address with
// {z}, {x} and {y}; an archive must be a PMTiles v3 file the browser can read. With neither,
// the map is the outlines.
func Open(o Options) (*Map, error) {
	switch {
	case o.TilesURL != "" && o.PMTiles != "":
		return nil, errors.New("--map-tiles-url and --map-pmtiles: give one or the other")
	case o.TilesURL != "":
		kind, origin, err := parseTilesURL(o.TilesURL)
		if err != nil {
			return nil, fmt.Errorf("--map-tiles-url %q: %w", o.TilesURL, err)
		}
		maxZoom := rasterServerMaxZoom
		if kind == Vector {
			maxZoom = vectorServerMaxZoom
		}
		return &Map{base: Base{Kind: kind, URL: o.TilesURL, Attribution: o.Attribution, MaxZoom: maxZoom, Bounds: world},
			origin: origin}, nil
	case o.PMTiles != "":
		a, err := OpenArchive(o.PMTiles)
		if err != nil {
			return nil, fmt.Errorf("--map-pmtiles: %w", err)
		}
		kind := PMTilesRaster
		if a.Header.TileType == TileMVT {
			kind = PMTilesVector
		}
		h := a.Header
		return &Map{base: Base{Kind: kind, URL: ArchivePath, Attribution: o.Attribution, MaxZoom: int(h.MaxZoom),
			Bounds: []float64{h.MinLon, h.MinLat, h.MaxLon, h.MaxLat}}, archive: a}, nil
	}
	return OutlinesOnly(), nil
}

// OutlinesOnly is the base map without tiles: the country outlines.
func OutlinesOnly() *Map {
	return &Map{base: Base{Kind: Outlines, MaxZoom: outlinesMaxZoom, Bounds: world}}
}

// Base is what the web app is told.
func (m *Map) Base() Base { return m.base }

// Archive is the PMTiles archive Sightline serves, nil when there is none.
func (m *Map) Archive() *Archive { return m.archive }

// ImageOrigin is the origin the browser loads tile pictures from (img-src); "" when there are
// none or they come from Sightline itself.
func (m *Map) ImageOrigin() string {
	if m.base.Kind == Raster {
		return m.origin
	}
	return ""
}

// ConnectOrigin is the origin the browser fetches vector tiles from (connect-src); "" when
// there are none or they come from Sightline itself.
func (m *Map) ConnectOrigin() string {
	if m.base.Kind == Vector {
		return m.origin
	}
	return ""
}

// Close closes the archive, if any.
func (m *Map) Close() error {
	if m.archive == nil {
		return nil
	}
	return m.archive.Close()
}

// parseTilesURL checks a tile template and tells its kind from the file extension: .mvt or .pbf
// is vector, anything else pictures. It returns the origin for the security policy.
func parseTilesURL(template string) (Kind, string, error) {
	// The host goes into the security policy as it is: no {s} subdomains, no odd characters.
	errHost := errors.New("the host must be a plain name or address, without placeholders")
	_, rest, _ := strings.Cut(template, "://")
	if host, _, _ := strings.Cut(rest, "/"); strings.ContainsAny(host, "{}") {
		return "", "", errHost
	}
	u, err := url.Parse(template)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", "", errors.New("not an http or https address")
	}
	if !originSafe(u.Host) {
		return "", "", errHost
	}
	for _, p := range []string{"{z}", "{x}", "{y}"} {
		if !strings.Contains(template, p) {
			return "", "", fmt.Errorf("no %s in the template (https://tiles.example/{z}/{x}/{y}.png)", p)
		}
	}
	kind := Raster
	if path := strings.ToLower(u.Path); strings.HasSuffix(path, ".mvt") || strings.HasSuffix(path, ".pbf") {
		kind = Vector
	}
	return kind, u.Scheme + "://" + u.Host, nil
}

// originSafe reports whether a host[:port] can go into a security policy as it is.
func originSafe(host string) bool {
	return !strings.ContainsFunc(host, func(c rune) bool {
		return !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.ContainsRune(".-:[]", c))
	})
}
