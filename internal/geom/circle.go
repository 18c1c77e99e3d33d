package geom

import "math"

// Center is the middle of the box, across the antimeridian when the box crosses it.
func (r Rect) Center() Point {
	maxLon := r.MaxLon
	if r.MinLon > r.MaxLon {
		maxLon += 360
	}
	return Point{Lat: (r.MinLat + r.MaxLat) / 2, Lon: normalizeLon((r.MinLon + maxLon) / 2)}
}

// CircumradiusKm is the distance from the box's center to its farthest corner: the radius of the
// smallest circle about the center that holds the box.
func (r Rect) CircumradiusKm() float64 {
	c := r.Center()
	var most float64
	for _, corner := range []Point{{r.MinLat, r.MinLon}, {r.MinLat, r.MaxLon}, {r.MaxLat, r.MinLon}, {r.MaxLat, r.MaxLon}} {
		most = math.Max(most, DistanceKm(c, corner))
	}
	return most
}

// circleSides makes a drawn circle look round at any zoom a map shows it.
const circleSides = 64

// Circle is the polygon of the points radiusKm from center (a 64-sided approximation, each
// vertex on the true circle), for drawing and storing a radius around a point. Near a pole the
// circle is clipped to the latitudes that exist.
func Circle(center Point, radiusKm float64) Shape {
	lat, lon := center.Lat*math.Pi/180, center.Lon*math.Pi/180
	d := radiusKm / earthRadiusKm
	ring := make(Ring, 0, circleSides+1)
	for i := range circleSides {
		bearing := 2 * math.Pi * float64(i) / circleSides
		// The destination point of a great-circle path (spherical law of cosines).
		lat2 := math.Asin(math.Sin(lat)*math.Cos(d) + math.Cos(lat)*math.Sin(d)*math.Cos(bearing))
		lon2 := lon + math.Atan2(math.Sin(bearing)*math.Sin(d)*math.Cos(lat), math.Cos(d)-math.Sin(lat)*math.Sin(lat2))
		ring = append(ring, Point{Lat: lat2 * 180 / math.Pi, Lon: normalizeLon(lon2 * 180 / math.Pi)})
	}
	ring = append(ring, ring[0])
	return Shape{Polygon{ring}}
}
