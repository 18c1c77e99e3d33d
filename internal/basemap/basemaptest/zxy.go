package basemaptest

import (
	"cmp"
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
	ids := make([]uint64, len(tiles))
	data := make([][]byte, len(tiles))
	for i, t := range tiles {
		ids[i], data[i] = TileID(t.Z, t.X, t.Y), t.Data
	}
	return write(tileType, false, area, area.MaxZoom, ids, data)
}
