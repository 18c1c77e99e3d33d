package geom

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ErrNotArea is returned for valid geometries that have no area (POINT, LINESTRING ...), which
// cannot serve as location bounds.
var ErrNotArea = errors.New("geometry has no area: location bounds need a polygon or multipolygon")

// ParseWKT parses a POLYGON or MULTIPOLYGON in well-known text ("x y" = "lon lat"), with an
// optional EWKT "SRID=4326;" prefix. Keywords are case-insensitive. Each ring must be closed and
// have at least four points; coordinates must be finite, latitudes within ±90 and longitudes
// within ±180. POINT, LINESTRING and MULTIPOINT give ErrNotArea.
func ParseWKT(text string) (Shape, error) {
	p := wktParser{src: text}
	p.skipSpace()
	if p.consumeFold("SRID=") {
		start := p.pos
		for p.pos < len(p.src) && p.src[p.pos] != ';' {
			p.pos++
		}
		srid := strings.TrimSpace(p.src[start:p.pos])
		if !p.consume(";") {
			return nil, p.errorf("expected ';' after SRID")
		}
		if srid != "4326" {
			return nil, fmt.Errorf("wkt: unsupported SRID %q (only 4326, WGS84)", srid)
		}
	}
	p.skipSpace()
	kind := strings.ToUpper(p.word())
	var shape Shape
	switch kind {
	case "POLYGON":
		poly, err := p.polygon()
		if err != nil {
			return nil, err
		}
		shape = Shape{poly}
	case "MULTIPOLYGON":
		if err := p.expect('('); err != nil {
			return nil, err
		}
		for {
			poly, err := p.polygon()
			if err != nil {
				return nil, err
			}
			shape = append(shape, poly)
			if !p.consume(",") {
				break
			}
		}
		if err := p.expect(')'); err != nil {
			return nil, err
		}
	case "POINT", "LINESTRING", "MULTIPOINT", "MULTILINESTRING":
		return nil, ErrNotArea
	case "":
		return nil, p.errorf("expected POLYGON or MULTIPOLYGON")
	default:
		return nil, fmt.Errorf("wkt: unsupported geometry type %q (expected POLYGON or MULTIPOLYGON)", kind)
	}
	p.skipSpace()
	if p.pos != len(p.src) {
		return nil, p.errorf("unexpected text after the geometry")
	}
	return shape, nil
}

type wktParser struct {
	src string
	pos int
}

func (p *wktParser) errorf(format string, args ...any) error {
	return fmt.Errorf("wkt: at offset %d: %s", p.pos, fmt.Sprintf(format, args...))
}

func (p *wktParser) skipSpace() {
	for p.pos < len(p.src) && strings.IndexByte(" \t\r\n", p.src[p.pos]) >= 0 {
		p.pos++
	}
}

func (p *wktParser) word() string {
	start := p.pos
	for p.pos < len(p.src) {
		c := p.src[p.pos] | 0x20 // ASCII lower case
		if c < 'a' || c > 'z' {
			break
		}
		p.pos++
	}
	return p.src[start:p.pos]
}

func (p *wktParser) consume(s string) bool {
	p.skipSpace()
	if strings.HasPrefix(p.src[p.pos:], s) {
		p.pos += len(s)
		return true
	}
	return false
}

func (p *wktParser) consumeFold(s string) bool {
	if len(p.src)-p.pos >= len(s) && strings.EqualFold(p.src[p.pos:p.pos+len(s)], s) {
		p.pos += len(s)
		return true
	}
	return false
}

func (p *wktParser) expect(c byte) error {
	if !p.consume(string(c)) {
		if p.peekWord("EMPTY") {
			return errors.New("wkt: EMPTY geometries have no area")
		}
		return p.errorf("expected '%c'", c)
	}
	return nil
}

func (p *wktParser) peekWord(w string) bool {
	p.skipSpace()
	save := p.pos
	got := p.word()
	p.pos = save
	return strings.EqualFold(got, w)
}

// polygon parses "((x y, ...), (x y, ...))".
func (p *wktParser) polygon() (Polygon, error) {
	if err := p.expect('('); err != nil {
		return nil, err
	}
	var poly Polygon
	for {
		ring, err := p.ring()
		if err != nil {
			return nil, err
		}
		poly = append(poly, ring)
		if !p.consume(",") {
			break
		}
	}
	if err := p.expect(')'); err != nil {
		return nil, err
	}
	return poly, nil
}

func (p *wktParser) ring() (Ring, error) {
	if err := p.expect('('); err != nil {
		return nil, err
	}
	var ring Ring
	for {
		lon, err := p.number()
		if err != nil {
			return nil, err
		}
		lat, err := p.number()
		if err != nil {
			return nil, err
		}
		pt := Point{Lat: lat, Lon: lon}
		if err := checkPoint(pt); err != nil {
			return nil, p.errorf("%v", err)
		}
		ring = append(ring, pt)
		if !p.consume(",") {
			break
		}
	}
	if err := p.expect(')'); err != nil {
		return nil, err
	}
	if err := checkRing(ring); err != nil {
		return nil, p.errorf("%v", err)
	}
	return ring, nil
}

func (p *wktParser) number() (float64, error) {
	p.skipSpace()
	start := p.pos
	for p.pos < len(p.src) && strings.IndexByte("+-.0123456789eE", p.src[p.pos]) >= 0 {
		p.pos++
	}
	if start == p.pos {
		return 0, p.errorf("expected a number")
	}
	f, err := strconv.ParseFloat(p.src[start:p.pos], 64)
	if err != nil {
		return 0, p.errorf("bad number %q", p.src[start:p.pos])
	}
	return f, nil
}

func checkPoint(p Point) error {
	if math.IsNaN(p.Lat) || math.IsNaN(p.Lon) || math.Abs(p.Lat) > 90 || math.Abs(p.Lon) > 180 {
		return fmt.Errorf("coordinate (lon %v, lat %v) is outside the world", p.Lon, p.Lat)
	}
	return nil
}

func checkRing(r Ring) error {
	if len(r) < 4 {
		return fmt.Errorf("a ring needs at least 4 points, got %d", len(r))
	}
	if r[0] != r[len(r)-1] {
		return errors.New("a ring must end where it starts")
	}
	return nil
}

// WKT returns the shape as a POLYGON (one polygon) or MULTIPOLYGON, coordinates as "lon lat".
func (s Shape) WKT() string {
	var b strings.Builder
	if len(s) == 1 {
		b.WriteString("POLYGON")
		writeWKTPolygon(&b, s[0])
		return b.String()
	}
	if len(s) == 0 {
		return "MULTIPOLYGON EMPTY"
	}
	b.WriteString("MULTIPOLYGON(")
	for i, poly := range s {
		if i > 0 {
			b.WriteByte(',')
		}
		writeWKTPolygon(&b, poly)
	}
	b.WriteByte(')')
	return b.String()
}

func writeWKTPolygon(b *strings.Builder, poly Polygon) {
	b.WriteByte('(')
	for i, ring := range poly {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('(')
		for j, pt := range ring {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.FormatFloat(pt.Lon, 'f', -1, 64))
			b.WriteByte(' ')
			b.WriteString(strconv.FormatFloat(pt.Lat, 'f', -1, 64))
		}
		b.WriteByte(')')
	}
	b.WriteByte(')')
}
