package geom

import "math"

// Prepared is a shape made ready for many point tests: each ring is unwrapped across the
// antimeridian once, and carries its box, so that a test skips the rings whose box the point is
// not in. A country's outline is hundreds of rings (islands) of thousands of points; testing a
// point against every edge of every ring was most of the geocoder's time (issue 33).
// Shape.Contains prepares the shape for each test; keep a Prepared for many tests.
type Prepared []preparedPolygon

type preparedPolygon []preparedRing // the outer ring, then the holes

type preparedRing struct {
	points                         []Point // unwrapped
	minLat, maxLat, minLon, maxLon float64 // of the unwrapped points, widened by boxSlack
	// The latitudes the ring's edges reach as great-circle arcs, as distances measure them: an
	// edge between two points of one latitude bulges towards the pole between them.
	arcMinLat, arcMaxLat float64
}

// boxSlack widens a ring's box so that points onSegment counts as on an edge stay inside it.
const boxSlack = 1e-9

// Prepare returns s ready for Contains; nil for a nil shape ("no shape").
func (s Shape) Prepare() Prepared {
	if s == nil {
		return nil
	}
	out := make(Prepared, 0, len(s))
	for _, poly := range s {
		pp := make(preparedPolygon, 0, len(poly))
		for _, ring := range poly {
			pp = append(pp, prepareRing(ring))
		}
		out = append(out, pp)
	}
	return out
}

func prepareRing(ring Ring) preparedRing {
	r := preparedRing{points: ring.unwrap()}
	if len(r.points) == 0 {
		return r
	}
	r.minLat, r.maxLat, r.minLon, r.maxLon = r.points[0].Lat, r.points[0].Lat, r.points[0].Lon, r.points[0].Lon
	for _, p := range r.points[1:] {
		r.minLat, r.maxLat = min(r.minLat, p.Lat), max(r.maxLat, p.Lat)
		r.minLon, r.maxLon = min(r.minLon, p.Lon), max(r.maxLon, p.Lon)
	}
	r.arcMinLat, r.arcMaxLat = r.minLat, r.maxLat
	for i := 1; i < len(r.points); i++ {
		a, b := r.points[i-1], r.points[i]
		reach := arcReach(max(math.Abs(a.Lat), math.Abs(b.Lat)), math.Abs(b.Lon-a.Lon))
		if a.Lat > 0 || b.Lat > 0 {
			r.arcMaxLat = max(r.arcMaxLat, reach)
		}
		if a.Lat < 0 || b.Lat < 0 {
			r.arcMinLat = min(r.arcMinLat, -reach)
		}
	}
	r.minLat, r.maxLat = r.minLat-boxSlack, r.maxLat+boxSlack
	r.minLon, r.maxLon = r.minLon-boxSlack, r.maxLon+boxSlack
	return r
}

// arcReach is the highest latitude a great-circle arc reaches between two points at most lat
// degrees from the equator and dLon degrees apart: the arc between two points of latitude lat,
// tan(reach) = tan(lat) / cos(dLon/2).
func arcReach(lat, dLon float64) float64 {
	if lat >= 90 || dLon >= 180 {
		return 90
	}
	rad := math.Pi / 180
	return math.Atan(math.Tan(lat*rad)/math.Cos(dLon*rad/2)) / rad
}

// MayBeWithinKm reports whether p may lie within km of the shape by great-circle distance (as
// Shape.DistanceKm measures it): false only when it is certainly farther. It is the cheap test
// before the exact distance, which reads every edge.
func (s Prepared) MayBeWithinKm(p Point, km float64) bool {
	dLat := km / earthRadiusKm * 180 / math.Pi
	for _, poly := range s {
		if len(poly) == 0 || len(poly[0].points) == 0 {
			continue
		}
		r := poly[0] // the holes lie within their outer ring's reach
		minLat, maxLat := r.arcMinLat-dLat, r.arcMaxLat+dLat
		if p.Lat < minLat || p.Lat > maxLat {
			continue // no way between two latitudes is shorter than along a meridian
		}
		// Between latitudes within ±poleward, Δλ of longitude is at least cos(poleward)·Δλ of
		// arc (the haversine formula); 1 % more covers sin(x) < x below 20 degrees.
		poleward := max(math.Abs(minLat), math.Abs(maxLat))
		if poleward >= 89 {
			return true
		}
		dLon := 1.01 * dLat / math.Cos(poleward*math.Pi/180)
		if dLon > 20 || r.maxLon-r.minLon+2*dLon >= 360 {
			return true
		}
		for _, shift := range [...]float64{0, 360, -360} {
			if lon := p.Lon + shift; lon >= r.minLon-dLon && lon <= r.maxLon+dLon {
				return true
			}
		}
	}
	return false
}

// Contains reports whether p lies inside the shape, as Shape.Contains does.
func (s Prepared) Contains(p Point) bool {
	for _, poly := range s {
		if poly.contains(p) {
			return true
		}
	}
	return false
}

func (poly preparedPolygon) contains(p Point) bool {
	if len(poly) == 0 {
		return false
	}
	inside, onEdge := poly[0].locate(p)
	if onEdge {
		return true
	}
	if !inside {
		return false
	}
	for _, hole := range poly[1:] {
		inHole, onHoleEdge := hole.locate(p)
		if onHoleEdge {
			return true
		}
		if inHole {
			return false
		}
	}
	return true
}

// locate is Ring.locate on the unwrapped points, trying only the shifts of p that fall in the box.
func (r preparedRing) locate(p Point) (inside, onEdge bool) {
	if len(r.points) < 2 || p.Lat < r.minLat || p.Lat > r.maxLat {
		return false, false
	}
	for _, shift := range [...]float64{0, 360, -360} {
		q := Point{Lat: p.Lat, Lon: p.Lon + shift}
		if q.Lon < r.minLon || q.Lon > r.maxLon {
			continue
		}
		in, edge := rayCast(r.points, q)
		if edge {
			return true, true
		}
		if in {
			inside = true
		}
	}
	return inside, false
}
