package basemap_test

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/sightline/sightline/internal/basemap"
	"github.com/sightline/sightline/internal/basemap/basemaptest"
)

func pngTile(t *testing.T, size int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, size, size))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestOpenTilesURL(t *testing.T) {
	tests := []struct {
		url                   string
		kind                  basemap.Kind
		imgOrigin, connOrigin string
		err                   string
	}{
		{url: "https://tiles.example/{z}/{x}/{y}.png", kind: basemap.Raster, imgOrigin: "https://tiles.example"},
		{url: "http://10.0.0.5:8080/osm/{z}/{x}/{y}.jpg?key=abc", kind: basemap.Raster, imgOrigin: "http://10.0.0.5:8080"},
		{url: "https://tiles.example/planet/{z}/{x}/{y}.mvt", kind: basemap.Vector, connOrigin: "https://tiles.example"},
		{url: "https://tiles.example/{z}/{x}/{y}.PBF?key=k", kind: basemap.Vector, connOrigin: "https://tiles.example"},
		{url: "ftp://tiles.example/{z}/{x}/{y}.png", err: "not an http or https address"},
		{url: "tiles.example/{z}/{x}/{y}.png", err: "not an http or https address"},
		{url: "https://tiles.example/{z}/{x}.png", err: "no {y} in the template"},
		{url: "https://tiles.example/{x}/{y}.png", err: "no {z} in the template"},
		{url: "https://{s}.tiles.example/{z}/{x}/{y}.png", err: "without placeholders"},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			m, err := basemap.Open(basemap.Options{TilesURL: tt.url, Attribution: "© OpenStreetMap contributors"})
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) || !strings.Contains(err.Error(), "--map-tiles-url") {
					t.Fatalf("Open = %v, want an error about --map-tiles-url saying %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			b := m.Base()
			if b.Kind != tt.kind || b.URL != tt.url || b.Attribution != "© OpenStreetMap contributors" || b.MaxZoom < 14 {
				t.Errorf("Base = %+v", b)
			}
			if m.ImageOrigin() != tt.imgOrigin || m.ConnectOrigin() != tt.connOrigin {
				t.Errorf("origins img %q connect %q, want %q and %q", m.ImageOrigin(), m.ConnectOrigin(), tt.imgOrigin, tt.connOrigin)
			}
		})
	}
}

func TestOpenWithoutTilesDrawsOutlines(t *testing.T) {
	m, err := basemap.Open(basemap.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if b := m.Base(); b.Kind != basemap.Outlines || b.URL != "" || b.MaxZoom != 6 {
		t.Errorf("Base = %+v", b)
	}
	if m.ImageOrigin() != "" || m.ConnectOrigin() != "" || m.Archive() != nil {
		t.Error("outlines reach no tile server and serve no archive")
	}
}

func TestOpenRefusesBothChoices(t *testing.T) {
	path := basemaptest.WriteFile(t, basemaptest.Build(basemap.TilePNG, false, pngTile(t, 1)))
	if _, err := basemap.Open(basemap.Options{TilesURL: "https://tiles.example/{z}/{x}/{y}.png", PMTiles: path}); err == nil {
		t.Error("Open took both a tile server and an archive")
	}
}

func TestOpenArchive(t *testing.T) {
	tests := []struct {
		name     string
		tileType basemap.TileType
		gzipDir  bool
		kind     basemap.Kind
	}{
		{"raster, plain directory", basemap.TilePNG, false, basemap.PMTilesRaster},
		{"raster, gzipped directory", basemap.TileWebP, true, basemap.PMTilesRaster},
		{"vector", basemap.TileMVT, true, basemap.PMTilesVector},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := basemaptest.WriteFile(t, basemaptest.Build(tt.tileType, tt.gzipDir, pngTile(t, 1), pngTile(t, 2)))
			m, err := basemap.Open(basemap.Options{PMTiles: path, Attribution: "Swisstopo"})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { m.Close() })
			b := m.Base()
			wantBounds := []float64{basemaptest.MinLon, basemaptest.MinLat, basemaptest.MaxLon, basemaptest.MaxLat}
			if b.Kind != tt.kind || b.URL != basemap.ArchivePath || b.MaxZoom != basemaptest.MaxZoom ||
				!slices.Equal(b.Bounds, wantBounds) || b.Attribution != "Swisstopo" {
				t.Errorf("Base = %+v, want %s at %s to zoom %d over %v", b, tt.kind, basemap.ArchivePath, basemaptest.MaxZoom, wantBounds)
			}
			if m.ImageOrigin() != "" || m.ConnectOrigin() != "" {
				t.Error("an archive is served by Sightline itself: no other origin")
			}
		})
	}
}

func TestOpenArchiveRefusesWhatTheBrowserCannotDraw(t *testing.T) {
	good := func(t *testing.T) []byte { return basemaptest.Build(basemap.TilePNG, false, pngTile(t, 1)) }
	set := func(at int, v byte) func([]byte) []byte {
		return func(b []byte) []byte { b[at] = v; return b }
	}
	tests := []struct {
		name   string
		change func([]byte) []byte
		err    string
	}{
		{"a text file", func([]byte) []byte { return []byte("tiles, honestly\n") }, "not a PMTiles archive"},
		{"an MBTiles database", func([]byte) []byte { return append([]byte("SQLite format 3\x00"), make([]byte, 200)...) }, "no PMTiles magic"},
		{"version 2", set(7, 2), "version 2"},
		{"cut short", func(b []byte) []byte { return b[:len(b)-10] }, "past the end of the file"},
		{"brotli directories", set(97, 3), "other than gzip"},
		{"zstd tiles", set(98, 4), "other than gzip"},
		{"an unknown tile type", set(99, 0), "tile type 0"},
		{"min zoom above max zoom", set(100, 9), "min zoom 9"},
		{"root directory past 16 KiB", func(b []byte) []byte {
			binary.LittleEndian.PutUint64(b[8:], 20000)
			return b
		}, "root directory"},
		{"a garbled root directory", func(b []byte) []byte {
			b[127] = 200 // claims 200 entries
			return b
		}, "root directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := basemaptest.WriteFile(t, tt.change(good(t)))
			_, err := basemap.Open(basemap.Options{PMTiles: path})
			if err == nil || !strings.Contains(err.Error(), tt.err) || !strings.Contains(err.Error(), "--map-pmtiles") {
				t.Errorf("Open = %v, want an error about --map-pmtiles saying %q", err, tt.err)
			}
		})
	}
	if _, err := basemap.Open(basemap.Options{PMTiles: t.TempDir() + "/missing.pmtiles"}); err == nil {
		t.Error("Open took a missing file")
	}
}

// The browser's reader asks for byte ranges, checking with If-Range that the file is the one
// whose header it read.
func TestArchiveServesRanges(t *testing.T) {
	file := basemaptest.Build(basemap.TilePNG, false, pngTile(t, 1), pngTile(t, 2))
	a, err := basemap.OpenArchive(basemaptest.WriteFile(t, file))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	get := func(header map[string]string) *http.Response {
		r := httptest.NewRequest("GET", basemap.ArchivePath, nil)
		for k, v := range header {
			r.Header.Set(k, v)
		}
		w := httptest.NewRecorder()
		a.ServeHTTP(w, r)
		return w.Result()
	}
	whole := get(nil)
	etag := whole.Header.Get("ETag")
	if whole.StatusCode != http.StatusOK || etag == "" || whole.Header.Get("Content-Type") != "application/vnd.pmtiles" ||
		whole.Header.Get("Accept-Ranges") != "bytes" {
		t.Fatalf("GET = %d %v", whole.StatusCode, whole.Header)
	}
	tests := []struct {
		name   string
		header map[string]string
		status int
		want   []byte
	}{
		{"the header", map[string]string{"Range": "bytes=0-126"}, http.StatusPartialContent, file[:127]},
		{"the tiles, to the end", map[string]string{"Range": "bytes=150-"}, http.StatusPartialContent, file[150:]},
		{"a range of the same file", map[string]string{"Range": "bytes=127-140", "If-Range": etag}, http.StatusPartialContent, file[127:141]},
		{"a range of a file since replaced", map[string]string{"Range": "bytes=127-140", "If-Range": `"other"`}, http.StatusOK, file},
		{"past the end", map[string]string{"Range": "bytes=100000-"}, http.StatusRequestedRangeNotSatisfiable, nil},
		{"a cached copy", map[string]string{"If-None-Match": etag}, http.StatusNotModified, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := get(tt.header)
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tt.status || (tt.want != nil && !bytes.Equal(body, tt.want)) {
				t.Errorf("= %d, %d bytes; want %d, %d bytes", resp.StatusCode, len(body), tt.status, len(tt.want))
			}
		})
	}
}

// The archive is read once at start-up; a refused file says which flag named it.
func TestOpenArchiveNamesTheFile(t *testing.T) {
	path := basemaptest.WriteFile(t, []byte("nope"))
	_, err := basemap.OpenArchive(path)
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("OpenArchive = %v, want the path in the error", err)
	}
}
