package basemaptest

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/goitalic"
	"golang.org/x/image/font/gofont/gomedium"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"github.com/sightline/sightline/internal/basemap"
)

// A made-up town drawn for the browser tests, so that a map can be seen at street level without
// any downloaded map data: a grid of named streets, a park and a river over one zoom-14 tile
// (about 1.7 km a side), as PNG tiles from zoom 14 to 16. Its place on the globe is the zoom-14
// tile holding StreetsLat, StreetsLon (in Lyon, so the geocoder's "Lyon" finds it); the streets
// and their names are not Lyon's.
const (
	StreetsLat, StreetsLon = 45.76, 4.83
	streetsZoom            = 14 // the zoom of the one tile the town fills
	streetsMaxZoom         = 16
	// The town is drawn in pixels of zoom 16: 4 tiles of 256 a side.
	townSize = 1024
)

// The streets: horizontal ones at y = 40 + 80 i, vertical ones at x = 48 + 96 j (town pixels).
var (
	acrossNames = []string{"North Road", "Chapel Street", "Market Street", "Mill Lane", "Tanner Street",
		"Rope Walk", "Canal Street", "Union Street", "Cooper Lane", "Weaver Street", "Harbour Road"}
	alongNames = []string{"West Street", "Orchard Lane", "Kiln Street", "Station Avenue", "Glass Street",
		"Forge Lane", "Bell Street", "Quay Avenue", "Dyer Street", "Cross Lane", "East Street"}
	mainAcross = map[int]bool{2: true, 6: true}
	mainAlong  = map[int]bool{3: true, 7: true}
)

func acrossY(i int) float64 { return 40 + 80*float64(i) }
func alongX(j int) float64  { return 48 + 96*float64(j) }

// The river runs west to east below the last street; main streets cross it on bridges.
const riverY, riverWidth = 935.0, 70.0

// The park fills the blocks between these streets.
const parkFromJ, parkToJ, parkFromI, parkToI = 4, 6, 3, 5

// The diagonal avenue, from the south-west to the north-east.
var diagonal = [2][2]float64{{alongX(0), acrossY(10)}, {alongX(8), acrossY(0)}}

// Crossing is where two of the town's streets meet, named "Market Street / Quay Avenue".
type Crossing struct {
	Name string  `json:"name"`
	Lat  float64 `json:"lat"`
	Lon  float64 `json:"lon"`
}

// StreetsArea is what the street archive's header claims: the town's tile, zooms 14 to 16.
func StreetsArea() Area {
	x0, y0 := townOrigin()
	west, north := townLonLat(x0, y0, 0, 0)
	east, south := townLonLat(x0, y0, townSize, townSize)
	return Area{MinZoom: streetsZoom, MaxZoom: streetsMaxZoom, MinLon: west, MinLat: south, MaxLon: east, MaxLat: north}
}

// StreetCrossing returns the crossing of across street i (0 to 10, north to south) and along
// street j (0 to 10, west to east).
func StreetCrossing(i, j int) Crossing {
	x0, y0 := townOrigin()
	lon, lat := townLonLat(x0, y0, alongX(j), acrossY(i))
	return Crossing{Name: acrossNames[i] + " / " + alongNames[j], Lat: lat, Lon: lon}
}

// Streets returns the town as a PMTiles archive of PNG tiles, zooms 14 to 16 (21 tiles).
func Streets() ([]byte, error) {
	faces, err := newFaces()
	if err != nil {
		return nil, err
	}
	x0, y0 := townOrigin()
	var tiles []Tile
	for z := uint32(streetsZoom); z <= streetsMaxZoom; z++ {
		n := uint32(1) << (z - streetsZoom)
		for dy := range n {
			for dx := range n {
				img := drawTile(faces, z, dx, dy)
				var b bytes.Buffer
				if err := png.Encode(&b, img); err != nil {
					return nil, err
				}
				tiles = append(tiles, Tile{Z: z, X: x0*n + dx, Y: y0*n + dy, Data: b.Bytes()})
			}
		}
	}
	return BuildTiles(basemap.TilePNG, StreetsArea(), tiles), nil
}

// townOrigin is the zoom-14 tile holding StreetsLat, StreetsLon.
func townOrigin() (x, y uint32) {
	n := math.Exp2(streetsZoom)
	lat := StreetsLat * math.Pi / 180
	return uint32((StreetsLon + 180) / 360 * n), uint32((1 - math.Asinh(math.Tan(lat))/math.Pi) / 2 * n)
}

// townLonLat is the place of town pixel (px, py) in the town's tile (x0, y0).
func townLonLat(x0, y0 uint32, px, py float64) (lon, lat float64) {
	n := math.Exp2(streetsZoom)
	tx, ty := float64(x0)+px/townSize, float64(y0)+py/townSize
	lon = tx/n*360 - 180
	lat = math.Atan(math.Sinh(math.Pi*(1-2*ty/n))) * 180 / math.Pi
	return lon, lat
}

type faces struct{ name, water, park font.Face }

func newFaces() (faces, error) {
	medium, err := opentype.Parse(gomedium.TTF)
	if err != nil {
		return faces{}, err
	}
	italic, err := opentype.Parse(goitalic.TTF)
	if err != nil {
		return faces{}, err
	}
	face := func(f *opentype.Font, size float64) (font.Face, error) {
		return opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
	}
	var fs faces
	if fs.name, err = face(medium, 11); err != nil {
		return faces{}, err
	}
	if fs.water, err = face(italic, 13); err != nil {
		return faces{}, err
	}
	if fs.park, err = face(italic, 12); err != nil {
		return faces{}, err
	}
	return fs, nil
}

var (
	landColour     = color.RGBA{0xf2, 0xef, 0xe9, 0xff}
	buildingColour = color.RGBA{0xdf, 0xd6, 0xcc, 0xff}
	parkColour     = color.RGBA{0xc8, 0xe6, 0xc0, 0xff}
	waterColour    = color.RGBA{0xaa, 0xd3, 0xdf, 0xff}
	casingColour   = color.RGBA{0xb4, 0xad, 0xa3, 0xff}
	streetColour   = color.RGBA{0xff, 0xff, 0xff, 0xff}
	mainColour     = color.RGBA{0xfc, 0xd6, 0xa4, 0xff}
	textColour     = color.RGBA{0x33, 0x33, 0x33, 0xff}
	waterText      = color.RGBA{0x2a, 0x5d, 0x8a, 0xff}
	parkText       = color.RGBA{0x2e, 0x6b, 0x2e, 0xff}
)

// tilePainter draws town pixels onto one tile at one zoom.
type tilePainter struct {
	img        *image.RGBA
	scale      float64 // tile pixels per town pixel
	offX, offY float64 // the tile's top left, in tile pixels from the town's top left
}

func (p *tilePainter) at(x, y float64) (float64, float64) {
	return x*p.scale - p.offX, y*p.scale - p.offY
}

func (p *tilePainter) rect(x1, y1, x2, y2 float64, c color.RGBA) {
	ax, ay := p.at(x1, y1)
	bx, by := p.at(x2, y2)
	r := image.Rect(int(math.Round(ax)), int(math.Round(ay)), int(math.Round(bx)), int(math.Round(by)))
	draw.Draw(p.img, r.Intersect(p.img.Bounds()), image.NewUniform(c), image.Point{}, draw.Src)
}

// line draws a segment width tile pixels wide with round ends, smoothing its edges.
func (p *tilePainter) line(x1, y1, x2, y2, width float64, c color.RGBA) {
	ax, ay := p.at(x1, y1)
	bx, by := p.at(x2, y2)
	half := width / 2
	b := image.Rect(int(math.Min(ax, bx)-half-1), int(math.Min(ay, by)-half-1),
		int(math.Max(ax, bx)+half+2), int(math.Max(ay, by)+half+2)).Intersect(p.img.Bounds())
	dx, dy := bx-ax, by-ay
	length2 := dx*dx + dy*dy
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			px, py := float64(x)+0.5, float64(y)+0.5
			t := 0.0
			if length2 > 0 {
				t = math.Max(0, math.Min(1, ((px-ax)*dx+(py-ay)*dy)/length2))
			}
			d := math.Hypot(px-(ax+t*dx), py-(ay+t*dy))
			cover := math.Max(0, math.Min(1, half+0.5-d))
			if cover > 0 {
				blend(p.img, x, y, c, cover)
			}
		}
	}
}

func blend(img *image.RGBA, x, y int, c color.RGBA, alpha float64) {
	o := img.RGBAAt(x, y)
	mix := func(a, b uint8) uint8 { return uint8(math.Round(float64(a)*(1-alpha) + float64(b)*alpha)) }
	img.SetRGBA(x, y, color.RGBA{mix(o.R, c.R), mix(o.G, c.G), mix(o.B, c.B), 0xff})
}

// label writes text centred on town pixel (x, y), upright or reading upwards, with a halo.
func (p *tilePainter) label(face font.Face, text string, x, y float64, upwards bool, c color.RGBA) {
	w := font.MeasureString(face, text).Ceil()
	m := face.Metrics()
	h := (m.Ascent + m.Descent).Ceil()
	const pad = 2
	flat := image.NewRGBA(image.Rect(0, 0, w+2*pad, h+2*pad))
	baseline := fixed.I(pad) + m.Ascent
	for _, d := range [][2]int{{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}} {
		dr := font.Drawer{Dst: flat, Src: image.NewUniform(color.NRGBA{0xff, 0xff, 0xff, 0xe0}), Face: face,
			Dot: fixed.Point26_6{X: fixed.I(pad + d[0]), Y: baseline + fixed.I(d[1])}}
		dr.DrawString(text)
	}
	dr := font.Drawer{Dst: flat, Src: image.NewUniform(c), Face: face, Dot: fixed.Point26_6{X: fixed.I(pad), Y: baseline}}
	dr.DrawString(text)
	var src image.Image = flat
	if upwards {
		fb := flat.Bounds()
		turned := image.NewRGBA(image.Rect(0, 0, fb.Dy(), fb.Dx()))
		for yy := range fb.Dy() {
			for xx := range fb.Dx() {
				turned.SetRGBA(yy, fb.Dx()-1-xx, flat.RGBAAt(xx, yy))
			}
		}
		src = turned
	}
	cx, cy := p.at(x, y)
	sb := src.Bounds()
	at := image.Pt(int(math.Round(cx))-sb.Dx()/2, int(math.Round(cy))-sb.Dy()/2)
	draw.Draw(p.img, sb.Add(at), src, image.Point{}, draw.Over)
}

func drawTile(fs faces, z, dx, dy uint32) *image.RGBA {
	scale := math.Exp2(float64(z) - streetsMaxZoom)
	p := &tilePainter{img: image.NewRGBA(image.Rect(0, 0, 256, 256)), scale: scale,
		offX: float64(dx) * 256, offY: float64(dy) * 256}
	draw.Draw(p.img, p.img.Bounds(), image.NewUniform(landColour), image.Point{}, draw.Src)

	// Blocks of buildings between the streets, and the park.
	for i := range len(acrossNames) - 1 {
		for j := range len(alongNames) - 1 {
			c := buildingColour
			if j >= parkFromJ && j < parkToJ && i >= parkFromI && i < parkToI {
				c = parkColour
			}
			const inset = 9
			p.rect(alongX(j)+inset, acrossY(i)+inset, alongX(j+1)-inset, acrossY(i+1)-inset, c)
		}
	}
	p.line(-20, riverY+10, townSize+20, riverY-10, riverWidth*scale, waterColour)

	minor, main := 7*scale, 11*scale
	casing := math.Max(1.2, 2*scale)
	// Streets end at the river, but for the main ones, which cross it.
	alongEnd := func(j int) float64 {
		if mainAlong[j] {
			return townSize + 20
		}
		return riverY - riverWidth/2 - 4
	}
	for pass := range 2 {
		for i := range acrossNames {
			w, c := minor, streetColour
			if mainAcross[i] {
				w, c = main, mainColour
			}
			if pass == 0 {
				w, c = w+2*casing, casingColour
			}
			p.line(-20, acrossY(i), townSize+20, acrossY(i), w, c)
		}
		for j := range alongNames {
			w, c := minor, streetColour
			if mainAlong[j] {
				w, c = main, mainColour
			}
			if pass == 0 {
				w, c = w+2*casing, casingColour
			}
			p.line(alongX(j), -20, alongX(j), alongEnd(j), w, c)
		}
		w, c := main, mainColour
		if pass == 0 {
			w, c = w+2*casing, casingColour
		}
		p.line(diagonal[0][0], diagonal[0][1], diagonal[1][0], diagonal[1][1], w, c)
	}

	// Names: at zoom 16 every street's, a few blocks apart; at 15 every other street's; at 14 the
	// main streets' only.
	every, streets := 3, func(int, bool) bool { return true }
	switch z {
	case 15:
		every, streets = 5, func(k int, main bool) bool { return main || k%2 == 1 }
	case 14:
		every, streets = 8, func(_ int, main bool) bool { return main }
	}
	if z >= 15 {
		p.label(fs.water, "River Sable", townSize/2, riverY, false, waterText)
		// In the park's first block, clear of the streets' names.
		p.label(fs.park, "Foundry Park", (alongX(parkFromJ)+alongX(parkFromJ+1))/2, (acrossY(parkFromI)+acrossY(parkFromI+1))/2, false, parkText)
	}
	for i, name := range acrossNames {
		if !streets(i, mainAcross[i]) {
			continue
		}
		for j := i % every; j < len(alongNames)-1; j += every {
			p.label(fs.name, name, (alongX(j)+alongX(j+1))/2, acrossY(i), false, textColour)
		}
	}
	for j, name := range alongNames {
		if !streets(j, mainAlong[j]) {
			continue
		}
		for i := (j + 1) % every; i < len(acrossNames)-1; i += every {
			p.label(fs.name, name, alongX(j), (acrossY(i)+acrossY(i+1))/2, true, textColour)
		}
	}
	return p.img
}

// String describes a crossing for test output.
func (c Crossing) String() string { return fmt.Sprintf("%s (%.5f, %.5f)", c.Name, c.Lat, c.Lon) }
