package basemaptest_test

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/png"
	"math"
	"testing"

	"github.com/sightline/sightline/internal/basemap"
	"github.com/sightline/sightline/internal/basemap/basemaptest"
)

func TestTileID(t *testing.T) {
	// The PMTiles v3 spec's numbering: zoom 0, then zoom 1 along the Hilbert curve.
	tests := []struct {
		z, x, y uint32
		want    uint64
	}{
		{0, 0, 0, 0},
		{1, 0, 0, 1},
		{1, 0, 1, 2},
		{1, 1, 1, 3},
		{1, 1, 0, 4},
		{2, 0, 0, 5},
		{2, 1, 0, 6},
		{2, 3, 0, 20},
		{14, 0, 0, 89478485},
	}
	for _, tt := range tests {
		if got := basemaptest.TileID(tt.z, tt.x, tt.y); got != tt.want {
			t.Errorf("TileID(%d, %d, %d) = %d, want %d", tt.z, tt.x, tt.y, got, tt.want)
		}
	}
}

// tiles reads an archive written by BuildTiles (one uncompressed root directory) by tile id.
func tiles(t *testing.T, b []byte) map[uint64][]byte {
	t.Helper()
	u64 := func(at int) uint64 { return binary.LittleEndian.Uint64(b[at:]) }
	r := bytes.NewReader(b[u64(8) : u64(8)+u64(16)])
	read := func() uint64 {
		v, err := binary.ReadUvarint(r)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	n := read()
	ids, lengths, offsets := make([]uint64, n), make([]uint64, n), make([]uint64, n)
	var id uint64
	for i := range n {
		id += read()
		ids[i] = id
	}
	for range n {
		if read() != 1 {
			t.Fatal("a run length is not 1")
		}
	}
	for i := range n {
		lengths[i] = read()
	}
	for i := range n {
		switch o := read(); {
		case o == 0 && i > 0:
			offsets[i] = offsets[i-1] + lengths[i-1]
		case o > 0:
			offsets[i] = o - 1
		default:
			t.Fatal("the first tile has no offset")
		}
	}
	out := map[uint64][]byte{}
	for i := range n {
		at := u64(56) + offsets[i]
		out[ids[i]] = b[at : at+lengths[i]]
	}
	return out
}

func TestStreets(t *testing.T) {
	archive, err := basemaptest.Streets()
	if err != nil {
		t.Fatal(err)
	}
	a, err := basemap.OpenArchive(basemaptest.WriteFile(t, archive))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	h, area := a.Header, basemaptest.StreetsArea()
	if h.TileType != basemap.TilePNG || h.MinZoom != 14 || h.MaxZoom != 16 ||
		math.Abs(h.MinLon-area.MinLon) > 1e-6 || math.Abs(h.MaxLat-area.MaxLat) > 1e-6 {
		t.Fatalf("header %+v, want PNG tiles at zooms 14 to 16 over %+v", h, area)
	}
	if !(area.MinLon < basemaptest.StreetsLon && basemaptest.StreetsLon < area.MaxLon &&
		area.MinLat < basemaptest.StreetsLat && basemaptest.StreetsLat < area.MaxLat) {
		t.Errorf("area %+v does not hold %v, %v", area, basemaptest.StreetsLat, basemaptest.StreetsLon)
	}

	byID := tiles(t, archive)
	if len(byID) != 1+4+16 {
		t.Fatalf("%d tiles, want 21 (zooms 14 to 16 over one zoom-14 tile)", len(byID))
	}
	for id, data := range byID {
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("tile %d: %v", id, err)
		}
		if img.Bounds() != image.Rect(0, 0, 256, 256) {
			t.Errorf("tile %d is %v", id, img.Bounds())
		}
		colours := map[color.Color]bool{}
		for y := 0; y < 256; y += 4 {
			for x := 0; x < 256; x += 4 {
				colours[img.At(x, y)] = true
			}
		}
		if len(colours) < 5 {
			t.Errorf("tile %d has %d colours: blank", id, len(colours))
		}
	}

	// Two main streets cross at Market Street / Quay Avenue: the zoom-16 tile holding the
	// crossing has a main street's colour there, and a block's one a block away.
	c := basemaptest.StreetCrossing(2, 7)
	if c.Name != "Market Street / Quay Avenue" {
		t.Fatalf("crossing %s", c)
	}
	x, y := 65536*(c.Lon+180)/360, 65536*(1-math.Asinh(math.Tan(c.Lat*math.Pi/180))/math.Pi)/2
	data, ok := byID[basemaptest.TileID(16, uint32(x), uint32(y))]
	if !ok {
		t.Fatalf("no zoom-16 tile holds %s", c)
	}
	img, _ := png.Decode(bytes.NewReader(data))
	px, py := int((x-math.Floor(x))*256), int((y-math.Floor(y))*256)
	if got := color.RGBAModel.Convert(img.At(px, py)); got != (color.RGBA{0xfc, 0xd6, 0xa4, 0xff}) {
		t.Errorf("at %s the tile is %v, want a main street's colour", c, got)
	}
	if got := color.RGBAModel.Convert(img.At(px+24, py+20)); got != (color.RGBA{0xdf, 0xd6, 0xcc, 0xff}) {
		t.Errorf("a block south-east of %s is %v, want a building's colour", c, got)
	}
}
