package basemaptest

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"math"
	"slices"

	"github.com/sightline/sightline/internal/basemap"
)

// Tile is one tile of an archive, at zoom Z, column X and row Y (row 0 at the north).
type Tile struct {
	Z, X, Y uint32
	Data    []byte
}

// TileID is the tile's position on the PMTiles v3 Hilbert curve: the tiles of every lower
// zoom come first, then this zoom's tiles in Hilbert order.
func TileID(z, x, y uint32) uint64 {
	var acc uint64
	for tz := range z {
		acc += uint64(1) << (2 * tz)
	}
	n := uint64(1) << z
	tx, ty := uint64(x), uint64(y)
	var d uint64
	for s := n / 2; s > 0; s /= 2 {
		var rx, ry uint64
		if tx&s > 0 {
			rx = 1
		}
		if ty&s > 0 {
			ry = 1
		}
		d += s * s * ((3 * rx) ^ ry)
		if ry == 0 {
			if rx == 1 {
				tx, ty = s-1-tx, s-1-ty
			}
			tx, ty = ty, tx
		}
	}
	return acc + d
}

// Area is what an archive's header says it covers.
type Area struct {
	MinZoom uint8   `json:"minZoom"`
	MaxZoom uint8   `json:"maxZoom"`
	MinLon  float64 `json:"minLon"`
	MinLat  float64 `json:"minLat"`
	MaxLon  float64 `json:"maxLon"`
	MaxLat  float64 `json:"maxLat"`
}

// BuildTiles returns a clustered PMTiles v3 archive of the tiles (of tileType, uncompressed,
// with an uncompressed root directory and no leaf directories) claiming area.
func BuildTiles(tileType basemap.TileType, area Area, tiles []Tile) []byte {
	tiles = slices.Clone(tiles)
	slices.SortFunc(tiles, func(a, b Tile) int {
		return cmp.Compare(TileID(a.Z, a.X, a.Y), TileID(b.Z, b.X, b.Y))
	})
	var dir []byte
	dir = binary.AppendUvarint(dir, uint64(len(tiles)))
	var last uint64
	for _, t := range tiles {
		id := TileID(t.Z, t.X, t.Y)
		dir = binary.AppendUvarint(dir, id-last)
		last = id
	}
	for range tiles {
		dir = binary.AppendUvarint(dir, 1) // run length
	}
	for _, t := range tiles {
		dir = binary.AppendUvarint(dir, uint64(len(t.Data)))
	}
	for i := range tiles {
		if i == 0 {
			dir = binary.AppendUvarint(dir, 1) // offset 0, plus one
		} else {
			dir = binary.AppendUvarint(dir, 0) // right after the previous tile
		}
	}
	metadata := []byte("{}")
	var data []byte
	for _, t := range tiles {
		data = append(data, t.Data...)
	}

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
	h[97] = byte(basemap.CompressionNone)
	h[98] = byte(basemap.CompressionNone)
	h[99] = byte(tileType)
	h[100], h[101] = area.MinZoom, area.MaxZoom
	degrees := func(at int, v float64) { binary.LittleEndian.PutUint32(h[at:], uint32(int32(math.Round(v*1e7)))) }
	degrees(102, area.MinLon)
	degrees(106, area.MinLat)
	degrees(110, area.MaxLon)
	degrees(114, area.MaxLat)
	h[118] = area.MaxZoom
	degrees(119, (area.MinLon+area.MaxLon)/2)
	degrees(123, (area.MinLat+area.MaxLat)/2)

	return bytes.Join([][]byte{h, dir, metadata, data}, nil)
}
