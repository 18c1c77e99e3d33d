// Package basemaptest builds small PMTiles v3 archives for tests.
package basemaptest

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/sightline/sightline/internal/basemap"
)

// The area and zoom levels every built archive claims.
const (
	MinZoom                        = 0
	MaxZoom                        = 1
	MinLon, MinLat, MaxLon, MaxLat = 5.9, 45.8, 10.5, 47.8
)

// Build returns an archive of the tiles, numbered 0, 1, ... (tile 0 is z0, tiles 1 to 4 are z1):
// the header, the root directory (gzipped when gzipDirectory), empty metadata, then the tiles.
func Build(tileType basemap.TileType, gzipDirectory bool, tiles ...[]byte) []byte {
	ids := make([]uint64, len(tiles))
	for i := range ids {
		ids[i] = uint64(i)
	}
	area := Area{MinZoom: MinZoom, MaxZoom: MaxZoom, MinLon: MinLon, MinLat: MinLat, MaxLon: MaxLon, MaxLat: MaxLat}
	return write(tileType, gzipDirectory, area, MinZoom, ids, tiles)
}

// write returns a clustered PMTiles v3 archive: the header claiming area (centred at
// centreZoom), the root directory of the tiles with these ids (ascending; gzipped when
// gzipDirectory), empty metadata, then the tiles, uncompressed, with no leaf directories.
func write(tileType basemap.TileType, gzipDirectory bool, area Area, centreZoom uint8, ids []uint64, tiles [][]byte) []byte {
	var dir []byte
	dir = binary.AppendUvarint(dir, uint64(len(tiles)))
	var last uint64
	for _, id := range ids {
		dir = binary.AppendUvarint(dir, id-last) // tile id delta
		last = id
	}
	for range tiles {
		dir = binary.AppendUvarint(dir, 1) // run length
	}
	for _, t := range tiles {
		dir = binary.AppendUvarint(dir, uint64(len(t)))
	}
	for i := range tiles {
		if i == 0 {
			dir = binary.AppendUvarint(dir, 1) // offset 0, plus one
		} else {
			dir = binary.AppendUvarint(dir, 0) // right after the previous tile
		}
	}
	internal := basemap.CompressionNone
	if gzipDirectory {
		var b bytes.Buffer
		z := gzip.NewWriter(&b)
		z.Write(dir)
		z.Close()
		dir, internal = b.Bytes(), basemap.CompressionGzip
	}
	metadata := []byte("{}")
	data := bytes.Join(tiles, nil)

	h := make([]byte, 127)
	copy(h, "PMTiles")
	h[7] = 3
	put := func(at int, v uint64) { binary.LittleEndian.PutUint64(h[at:], v) }
	rootAt := uint64(len(h))
	metaAt := rootAt + uint64(len(dir))
	dataAt := metaAt + uint64(len(metadata))
	put(8, rootAt)
	put(16, uint64(len(dir)))
	put(24, metaAt)
	put(32, uint64(len(metadata)))
	put(40, dataAt) // no leaf directories
	put(48, 0)
	put(56, dataAt)
	put(64, uint64(len(data)))
	put(72, uint64(len(tiles))) // addressed tiles
	put(80, uint64(len(tiles))) // tile entries
	put(88, uint64(len(tiles))) // tile contents
	h[96] = 1                   // clustered
	h[97] = byte(internal)
	h[98] = byte(basemap.CompressionNone)
	h[99] = byte(tileType)
	h[100], h[101] = area.MinZoom, area.MaxZoom
	degrees := func(at int, v float64) { binary.LittleEndian.PutUint32(h[at:], uint32(int32(math.Round(v*1e7)))) }
	degrees(102, area.MinLon)
	degrees(106, area.MinLat)
	degrees(110, area.MaxLon)
	degrees(114, area.MaxLat)
	h[118] = centreZoom
	degrees(119, (area.MinLon+area.MaxLon)/2)
	degrees(123, (area.MinLat+area.MaxLat)/2)

	return bytes.Join([][]byte{h, dir, metadata, data}, nil)
}

// WriteFile writes b to a file in the test's temporary directory and returns its path.
func WriteFile(t testing.TB, b []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "base.pmtiles")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
