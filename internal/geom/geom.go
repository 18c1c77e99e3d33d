// Package geom holds the small amount of geometry Sightline needs: WGS84 points, polygons with
// holes (location bounds of saved searches, country and state shapes of the geocoder), their
// WKT and GeoJSON forms, point-in-polygon tests and distances.
//
// Coordinates are degrees. Polygon edges are straight lines in longitude/latitude (as in GeoJSON
// and WKT), except that an edge whose longitudes differ by more than 180 degrees is taken to cross
// the antimeridian (the short way round) rather than to span the globe.
package geom

import (
	"math"
	"slices"
)

// Point is a WGS84 coordinate in degrees.
type Point struct {
	Lat float64 `json:"lat"`
	Lon float64 `json:"lon"`
}

// Ring is a closed line: its last point repeats its first.
type Ring []Point

// Polygon is an outer ring followed by zero or more holes.
type Polygon []Ring

// Shape is one or more polygons (a Polygon or a MultiPolygon). A nil Shape means "no shape".
type Shape []Polygon

// Rect is a latitude/longitude box. When MinLon > MaxLon the box crosses the antimeridian: it
// covers longitudes from MinLon up to 180 and from -180 up to MaxLon.
type Rect struct {
	MinLat, MinLon, MaxLat, MaxLon float64
}

// Contains reports whether p lies inside r or on its edge.
func (r Rect) Contains(p Point) bool {
	if p.Lat < r.MinLat || p.Lat > r.MaxLat {
		return false
	}
	if r.MinLon <= r.MaxLon {
		return p.Lon >= r.MinLon && p.Lon <= r.MaxLon
	}
	return p.Lon >= r.MinLon || p.Lon <= r.MaxLon
}

// Shape returns the box as a one-polygon shape, split in two at the antimeridian if it crosses it.
func (r Rect) Shape() Shape {
	box := func(minLon, maxLon float64) Polygon {
		return Polygon{Ring{
			{r.MinLat, minLon}, {r.MinLat, maxLon}, {r.MaxLat, maxLon}, {r.MaxLat, minLon}, {r.MinLat, minLon},
		}}
	}
	if r.MinLon <= r.MaxLon {
		return Shape{box(r.MinLon, r.MaxLon)}
	}
	return Shape{box(r.MinLon, 180), box(-180, r.MaxLon)}
}

// Contains reports whether p lies inside the shape (inside an outer ring and outside its holes).
// Points on a ring count as inside, so a shape always contains its own vertices.
func (s Shape) Contains(p Point) bool { return s.Prepare().Contains(p) }

// unwrap returns the ring's points with longitudes made continuous: each jump of more than 180
// degrees between neighbours is taken as a crossing of the antimeridian.
func (ring Ring) unwrap() []Point {
	if !ring.crossesAntimeridian() {
		return ring
	}
	out := make([]Point, len(ring))
	offset := 0.0
	out[0] = ring[0]
	for i := 1; i < len(ring); i++ {
		d := ring[i].Lon - ring[i-1].Lon
		if d > 180 {
			offset -= 360
		} else if d < -180 {
			offset += 360
		}
		out[i] = Point{Lat: ring[i].Lat, Lon: ring[i].Lon + offset}
	}
	return out
}

func (ring Ring) crossesAntimeridian() bool {
	for i := 1; i < len(ring); i++ {
		if math.Abs(ring[i].Lon-ring[i-1].Lon) > 180 {
			return true
		}
	}
	return false
}

// rayCast is the even-odd point-in-ring test in the plane (x = lon, y = lat).
func rayCast(ring []Point, p Point) (inside, onEdge bool) {
	n := len(ring)
	for i := 0; i < n; i++ {
		a, b := ring[i], ring[(i+1)%n]
		if onSegment(a, b, p) {
			return true, true
		}
		if (a.Lat > p.Lat) != (b.Lat > p.Lat) {
			x := a.Lon + (p.Lat-a.Lat)*(b.Lon-a.Lon)/(b.Lat-a.Lat)
			if p.Lon < x {
				inside = !inside
			}
		}
	}
	return inside, false
}

func onSegment(a, b, p Point) bool {
	const eps = 1e-12
	cross := (b.Lon-a.Lon)*(p.Lat-a.Lat) - (b.Lat-a.Lat)*(p.Lon-a.Lon)
	if math.Abs(cross) > eps*math.Max(1, math.Abs(b.Lon-a.Lon)+math.Abs(b.Lat-a.Lat)) {
		return false
	}
	return p.Lon >= math.Min(a.Lon, b.Lon)-eps && p.Lon <= math.Max(a.Lon, b.Lon)+eps &&
		p.Lat >= math.Min(a.Lat, b.Lat)-eps && p.Lat <= math.Max(a.Lat, b.Lat)+eps
}

// CrossesAntimeridian reports whether any ring of the shape crosses the 180th meridian (an edge
// whose longitudes differ by more than 180 degrees). The builder warns about such searches.
func (s Shape) CrossesAntimeridian() bool {
	for _, poly := range s {
		for _, ring := range poly {
			if ring.crossesAntimeridian() {
				return true
			}
		}
	}
	return false
}

// Bounds returns the smallest box holding every outer ring. When the shape crosses the
// antimeridian the box does too (MinLon > MaxLon). The bounds of an empty shape are the zero Rect.
func (s Shape) Bounds() Rect {
	type span struct{ lo, hi float64 } // longitudes, lo in [-180, 180), hi-lo <= 360
	var spans []span
	r := Rect{MinLat: math.Inf(1), MaxLat: math.Inf(-1)}
	for _, poly := range s {
		if len(poly) == 0 || len(poly[0]) == 0 {
			continue
		}
		sp := span{math.Inf(1), math.Inf(-1)}
		for _, p := range poly[0].unwrap() {
			r.MinLat, r.MaxLat = math.Min(r.MinLat, p.Lat), math.Max(r.MaxLat, p.Lat)
			sp.lo, sp.hi = math.Min(sp.lo, p.Lon), math.Max(sp.hi, p.Lon)
		}
		for sp.lo < -180 {
			sp.lo, sp.hi = sp.lo+360, sp.hi+360
		}
		for sp.lo >= 180 {
			sp.lo, sp.hi = sp.lo-360, sp.hi-360
		}
		spans = append(spans, sp)
	}
	if len(spans) == 0 {
		return Rect{}
	}
	if !s.CrossesAntimeridian() {
		r.MinLon, r.MaxLon = math.Inf(1), math.Inf(-1)
		for _, sp := range spans {
			r.MinLon, r.MaxLon = math.Min(r.MinLon, sp.lo), math.Max(r.MaxLon, sp.hi)
		}
		return r
	}
	// Longitudes live on a circle: merge the spans and leave out the widest gap between them.
	slices.SortFunc(spans, func(a, b span) int { return cmpFloat(a.lo, b.lo) })
	merged := []span{spans[0]}
	for _, sp := range spans[1:] {
		last := &merged[len(merged)-1]
		if sp.lo <= last.hi {
			last.hi = math.Max(last.hi, sp.hi)
		} else {
			merged = append(merged, sp)
		}
	}
	first, last := merged[0], merged[len(merged)-1]
	if last.hi-first.lo >= 360 {
		r.MinLon, r.MaxLon = -180, 180
		return r
	}
	// The wrap-around gap runs from the last span's end to the first span's start (plus 360).
	gapLo, gapHi := last.hi, first.lo+360
	for i := 1; i < len(merged); i++ {
		if merged[i].lo-merged[i-1].hi > gapHi-gapLo {
			gapLo, gapHi = merged[i-1].hi, merged[i].lo
		}
	}
	r.MinLon, r.MaxLon = normalizeLon(gapHi), normalizeLon(gapLo)
	return r
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// normalizeLon maps a longitude into [-180, 180].
func normalizeLon(lon float64) float64 {
	for lon > 180 {
		lon -= 360
	}
	for lon < -180 {
		lon += 360
	}
	return lon
}

// earthRadiusKm is the mean Earth radius (IUGG).
const earthRadiusKm = 6371.0088

// DistanceKm is the great-circle distance between a and b.
func DistanceKm(a, b Point) float64 {
	return earthRadiusKm * angle(toVector(a), toVector(b))
}

// DistanceKm is the great-circle distance from p to the nearest point of the shape: 0 inside, else
// the distance to the nearest edge (edges taken as great-circle arcs, close enough for the
// kilometre tolerances it serves, such as atolls just outside a coarse country outline).
// The distance to an empty shape is +Inf.
func (s Shape) DistanceKm(p Point) float64 {
	if s.Contains(p) {
		return 0
	}
	best := math.Inf(1)
	v := toVector(p)
	for _, poly := range s {
		for _, ring := range poly {
			for i := 1; i < len(ring); i++ {
				best = math.Min(best, segmentAngle(v, toVector(ring[i-1]), toVector(ring[i])))
			}
			if len(ring) == 1 {
				best = math.Min(best, angle(v, toVector(ring[0])))
			}
		}
	}
	return best * earthRadiusKm
}

type vec3 struct{ x, y, z float64 }

func toVector(p Point) vec3 {
	lat, lon := p.Lat*math.Pi/180, p.Lon*math.Pi/180
	return vec3{math.Cos(lat) * math.Cos(lon), math.Cos(lat) * math.Sin(lon), math.Sin(lat)}
}

func (a vec3) dot(b vec3) float64 { return a.x*b.x + a.y*b.y + a.z*b.z }
func (a vec3) cross(b vec3) vec3 {
	return vec3{a.y*b.z - a.z*b.y, a.z*b.x - a.x*b.z, a.x*b.y - a.y*b.x}
}
func (a vec3) norm() float64 { return math.Sqrt(a.dot(a)) }

// angle between two unit vectors, in radians; atan2 keeps it accurate for tiny and near-pi angles.
func angle(a, b vec3) float64 {
	return math.Atan2(a.cross(b).norm(), a.dot(b))
}

// segmentAngle is the angular distance from p to the great-circle arc a-b.
func segmentAngle(p, a, b vec3) float64 {
	ends := math.Min(angle(p, a), angle(p, b))
	n := a.cross(b)
	nl := n.norm()
	if nl < 1e-15 {
		return ends
	}
	n = vec3{n.x / nl, n.y / nl, n.z / nl}
	// c is p projected onto the arc's great circle; it is on the arc when it lies between a and b.
	d := p.dot(n)
	c := vec3{p.x - d*n.x, p.y - d*n.y, p.z - d*n.z}
	if a.cross(c).dot(n) >= 0 && c.cross(b).dot(n) >= 0 {
		return math.Min(ends, math.Abs(math.Asin(math.Max(-1, math.Min(1, d)))))
	}
	return ends
}
