package geom

import (
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

func mustWKT(t testing.TB, s string) Shape {
	t.Helper()
	shape, err := ParseWKT(s)
	if err != nil {
		t.Fatalf("ParseWKT(%q): %v", s, err)
	}
	return shape
}

func TestParseWKT(t *testing.T) {
	square := Shape{Polygon{Ring{{0, 0}, {0, 10}, {10, 10}, {10, 0}, {0, 0}}}}
	tests := []struct {
		name    string
		in      string
		want    Shape
		wantErr bool
		notArea bool
	}{
		{name: "polygon", in: "POLYGON((0 0, 10 0, 10 10, 0 10, 0 0))", want: square},
		{name: "lower case and spacing", in: "  polygon ( ( 0 0,10 0 , 10 10,0 10,0 0 ) ) ", want: square},
		{name: "srid prefix", in: "SRID=4326;POLYGON((0 0,10 0,10 10,0 10,0 0))", want: square},
		{name: "hole", in: "POLYGON((0 0,10 0,10 10,0 10,0 0),(2 2,3 2,3 3,2 3,2 2))", want: Shape{Polygon{
			Ring{{0, 0}, {0, 10}, {10, 10}, {10, 0}, {0, 0}},
			Ring{{2, 2}, {2, 3}, {3, 3}, {3, 2}, {2, 2}},
		}}},
		{name: "multipolygon", in: "MULTIPOLYGON(((0 0,10 0,10 10,0 10,0 0)),((20 20,21 20,21 21,20 20)))", want: Shape{
			square[0],
			Polygon{Ring{{20, 20}, {20, 21}, {21, 21}, {20, 20}}},
		}},
		{name: "decimals and exponent", in: "POLYGON((-1.5 2.25,1e1 0,3 3,-1.5 2.25))", want: Shape{Polygon{Ring{{2.25, -1.5}, {0, 10}, {3, 3}, {2.25, -1.5}}}}},
		{name: "point", in: "POINT(1 2)", wantErr: true, notArea: true},
		{name: "linestring", in: "LINESTRING(1 2, 3 4)", wantErr: true, notArea: true},
		{name: "empty polygon", in: "POLYGON EMPTY", wantErr: true},
		{name: "unclosed ring", in: "POLYGON((0 0,10 0,10 10,0 10))", wantErr: true},
		{name: "too few points", in: "POLYGON((0 0,10 0,0 0))", wantErr: true},
		{name: "latitude out of range", in: "POLYGON((0 0,10 0,10 95,0 0))", wantErr: true},
		{name: "longitude out of range", in: "POLYGON((0 0,190 0,10 10,0 0))", wantErr: true},
		{name: "missing bracket", in: "POLYGON((0 0,10 0,10 10,0 10,0 0)", wantErr: true},
		{name: "trailing text", in: "POLYGON((0 0,10 0,10 10,0 10,0 0)) x", wantErr: true},
		{name: "three coordinates", in: "POLYGON((0 0 1,10 0 1,10 10 1,0 0 1))", wantErr: true},
		{name: "other srid", in: "SRID=3857;POLYGON((0 0,10 0,10 10,0 10,0 0))", wantErr: true},
		{name: "blank", in: "  ", wantErr: true},
		{name: "unknown type", in: "CIRCLE(1 2 3)", wantErr: true},
		{name: "huge number", in: "POLYGON((0 0,1e999 0,10 10,0 0))", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseWKT(tt.in)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if tt.notArea && !errors.Is(err, ErrNotArea) {
				t.Fatalf("err = %v, want ErrNotArea", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestParseGeoJSON(t *testing.T) {
	square := Shape{Polygon{Ring{{0, 0}, {0, 10}, {10, 10}, {10, 0}, {0, 0}}}}
	tests := []struct {
		name    string
		in      string
		want    Shape
		wantErr bool
	}{
		{name: "polygon", in: `{"type":"Polygon","coordinates":[[[0,0],[10,0],[10,10],[0,10],[0,0]]]}`, want: square},
		{name: "altitude ignored", in: `{"type":"Polygon","coordinates":[[[0,0,5],[10,0,5],[10,10,5],[0,10,5],[0,0,5]]]}`, want: square},
		{name: "multipolygon", in: `{"type":"MultiPolygon","coordinates":[[[[0,0],[10,0],[10,10],[0,10],[0,0]]]]}`, want: square},
		{name: "feature", in: `{"type":"Feature","properties":{"name":"x"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[10,0],[10,10],[0,10],[0,0]]]}}`, want: square},
		{name: "feature collection", in: `{"type":"FeatureCollection","features":[
			{"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[0,0],[10,0],[10,10],[0,10],[0,0]]]}},
			{"type":"Feature","geometry":{"type":"MultiPolygon","coordinates":[[[[20,20],[21,20],[21,21],[20,20]]]]}}]}`,
			want: Shape{square[0], Polygon{Ring{{20, 20}, {20, 21}, {21, 21}, {20, 20}}}}},
		{name: "point", in: `{"type":"Point","coordinates":[1,2]}`, wantErr: true},
		{name: "feature without geometry", in: `{"type":"Feature","geometry":null}`, wantErr: true},
		{name: "empty collection", in: `{"type":"FeatureCollection","features":[]}`, wantErr: true},
		{name: "unclosed", in: `{"type":"Polygon","coordinates":[[[0,0],[10,0],[10,10],[0,10]]]}`, wantErr: true},
		{name: "short position", in: `{"type":"Polygon","coordinates":[[[0],[10,0],[10,10],[0]]]}`, wantErr: true},
		{name: "no rings", in: `{"type":"Polygon","coordinates":[]}`, wantErr: true},
		{name: "bad json", in: `{"type":`, wantErr: true},
		{name: "missing type", in: `{}`, wantErr: true},
		{name: "out of range", in: `{"type":"Polygon","coordinates":[[[0,0],[200,0],[10,10],[0,0]]]}`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseGeoJSON([]byte(tt.in))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestContains(t *testing.T) {
	withHole := mustWKT(t, "POLYGON((0 0,10 0,10 10,0 10,0 0),(4 4,6 4,6 6,4 6,4 4))")
	multi := mustWKT(t, "MULTIPOLYGON(((0 0,1 0,1 1,0 1,0 0)),((5 5,6 5,6 6,5 6,5 5)))")
	// A box from 170E to 170W across the antimeridian, as a user would draw it.
	pacific := mustWKT(t, "POLYGON((170 -10,-170 -10,-170 10,170 10,170 -10))")
	tests := []struct {
		name  string
		shape Shape
		p     Point
		want  bool
	}{
		{"inside", withHole, Point{Lat: 2, Lon: 2}, true},
		{"in the hole", withHole, Point{Lat: 5, Lon: 5}, false},
		{"outside", withHole, Point{Lat: 11, Lon: 5}, false},
		{"on the outer edge", withHole, Point{Lat: 0, Lon: 5}, true},
		{"on a vertex", withHole, Point{Lat: 10, Lon: 10}, true},
		{"on the hole's edge", withHole, Point{Lat: 4, Lon: 5}, true},
		{"second polygon", multi, Point{Lat: 5.5, Lon: 5.5}, true},
		{"between polygons", multi, Point{Lat: 3, Lon: 3}, false},
		{"antimeridian east side", pacific, Point{Lat: 0, Lon: 175}, true},
		{"antimeridian west side", pacific, Point{Lat: 0, Lon: -175}, true},
		{"antimeridian on 180", pacific, Point{Lat: 0, Lon: 180}, true},
		{"antimeridian outside", pacific, Point{Lat: 0, Lon: 0}, false},
		{"antimeridian outside west", pacific, Point{Lat: 0, Lon: -160}, false},
		{"nil shape", nil, Point{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.shape.Contains(tt.p); got != tt.want {
				t.Fatalf("Contains(%v) = %v, want %v", tt.p, got, tt.want)
			}
			if got := tt.shape.Prepare().Contains(tt.p); got != tt.want {
				t.Fatalf("Prepare().Contains(%v) = %v, want %v", tt.p, got, tt.want)
			}
		})
	}
}

// naiveContains is the point-in-shape test without boxes: every ring unwrapped and ray cast at
// the point's longitude and shifted by ±360.
func naiveContains(s Shape, p Point) bool {
	locate := func(ring Ring) (inside, onEdge bool) {
		if len(ring) < 2 {
			return false, false
		}
		for _, shift := range [...]float64{0, 360, -360} {
			in, edge := rayCast(ring.unwrap(), Point{Lat: p.Lat, Lon: p.Lon + shift})
			if edge {
				return true, true
			}
			inside = inside || in
		}
		return inside, false
	}
	for _, poly := range s {
		if len(poly) == 0 {
			continue
		}
		inside, onEdge := locate(poly[0])
		if onEdge {
			return true
		}
		if !inside {
			continue
		}
		inHole := false
		for _, hole := range poly[1:] {
			in, edge := locate(hole)
			if edge {
				return true
			}
			inHole = inHole || in
		}
		if !inHole {
			return true
		}
	}
	return false
}

// The prepared shape skips rings by their boxes; it must answer as the naive test does
// everywhere, on edges and vertices (where the boxes are tight) and across the antimeridian.
func TestPreparedAgreesWithShape(t *testing.T) {
	shapes := map[string]Shape{
		"with hole":   mustWKT(t, "POLYGON((0 0,10 0,10 10,0 10,0 0),(4 4,6 4,6 6,4 6,4 4))"),
		"islands":     mustWKT(t, "MULTIPOLYGON(((0 0,1 0,1 1,0 1,0 0)),((5 5,6 5,6 6,5 6,5 5)),((-3 -3,-2 -3,-2.5 -2,-3 -3)))"),
		"pacific box": mustWKT(t, "POLYGON((170 -10,-170 -10,-170 10,170 10,170 -10))"),
		// A crescent of islands across the antimeridian, as the Aleutians and Fiji are drawn.
		"antimeridian islands": mustWKT(t, "MULTIPOLYGON(((179 51,-179.5 51.2,-179 52,179.4 52.1,179 51)),((172 52,174 52,173 53,172 52)),((-178 -17,179 -16,178 -18,-178.5 -18.5,-178 -17)))"),
		"concave":              mustWKT(t, "POLYGON((0 0,8 0,8 8,6 8,6 2,2 2,2 8,0 8,0 0))"),
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for name, shape := range shapes {
		prepared := shape.Prepare()
		var points []Point
		for _, poly := range shape { // every vertex and edge midpoint, and points just off them
			for _, ring := range poly {
				for i := range ring {
					a, b := ring[i], ring[(i+1)%len(ring)]
					mid := Point{Lat: (a.Lat + b.Lat) / 2, Lon: (a.Lon + b.Lon) / 2}
					points = append(points, a, mid, Point{Lat: a.Lat + 1e-7, Lon: a.Lon - 1e-7}, Point{Lat: mid.Lat - 1e-7, Lon: mid.Lon + 1e-7})
				}
			}
		}
		for range 20000 {
			points = append(points, Point{Lat: rng.Float64()*180 - 90, Lon: rng.Float64()*360 - 180})
		}
		b := shape.Bounds()
		for range 20000 {
			lat := b.MinLat + rng.Float64()*(b.MaxLat-b.MinLat)
			span := b.MaxLon - b.MinLon
			if span < 0 { // the box crosses the antimeridian
				span += 360
			}
			lon := b.MinLon + rng.Float64()*span
			points = append(points, Point{Lat: lat, Lon: math.Remainder(lon, 360)})
		}
		inside := 0
		for _, p := range points {
			want := naiveContains(shape, p)
			if got := prepared.Contains(p); got != want {
				t.Fatalf("%s: Prepare().Contains(%v) = %v, the naive test %v", name, p, got, want)
			}
			if want {
				inside++
			}
		}
		if inside == 0 || inside == len(points) {
			t.Fatalf("%s: %d of %d points inside: the points do not test both answers", name, inside, len(points))
		}
	}
}

func TestBoundsAndAntimeridian(t *testing.T) {
	tests := []struct {
		name    string
		wkt     string
		want    Rect
		crosses bool
	}{
		{"plain", "POLYGON((-5 40,8 40,8 51,-5 51,-5 40))", Rect{MinLat: 40, MinLon: -5, MaxLat: 51, MaxLon: 8}, false},
		{"multi", "MULTIPOLYGON(((0 0,1 0,1 1,0 0)),((-20 -5,-19 -5,-19 -4,-20 -5)))", Rect{MinLat: -5, MinLon: -20, MaxLat: 1, MaxLon: 1}, false},
		{"crossing", "POLYGON((170 -10,-170 -10,-170 10,170 10,170 -10))", Rect{MinLat: -10, MinLon: 170, MaxLat: 10, MaxLon: -170}, true},
		{"crossing multi", "MULTIPOLYGON(((170 -10,-170 -10,-170 10,170 10,170 -10)),((160 0,165 0,165 1,160 0)))", Rect{MinLat: -10, MinLon: 160, MaxLat: 10, MaxLon: -170}, true},
		// Split at 180 as Natural Earth does: two touching polygons, no edge jumps across.
		{"split at 180", "MULTIPOLYGON(((170 50,180 50,180 55,170 50)),((-180 50,-175 50,-180 55,-180 50)))", Rect{MinLat: 50, MinLon: -180, MaxLat: 55, MaxLon: 180}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mustWKT(t, tt.wkt)
			if got := s.Bounds(); got != tt.want {
				t.Fatalf("Bounds() = %+v, want %+v", got, tt.want)
			}
			if got := s.CrossesAntimeridian(); got != tt.crosses {
				t.Fatalf("CrossesAntimeridian() = %v, want %v", got, tt.crosses)
			}
		})
	}
}

func TestRect(t *testing.T) {
	r := Rect{MinLat: -10, MinLon: 170, MaxLat: 10, MaxLon: -170}
	for _, tt := range []struct {
		p    Point
		want bool
	}{
		{Point{0, 175}, true}, {Point{0, -175}, true}, {Point{0, 0}, false}, {Point{11, 175}, false},
	} {
		if got := r.Contains(tt.p); got != tt.want {
			t.Errorf("Rect.Contains(%v) = %v, want %v", tt.p, got, tt.want)
		}
		if got := r.Shape().Contains(tt.p); got != tt.want {
			t.Errorf("Rect.Shape().Contains(%v) = %v, want %v", tt.p, got, tt.want)
		}
	}
	if err := r.Shape().Valid(); err != nil {
		t.Fatalf("Rect.Shape() invalid: %v", err)
	}
}

func TestDistanceKm(t *testing.T) {
	paris, london := Point{Lat: 48.8566, Lon: 2.3522}, Point{Lat: 51.5074, Lon: -0.1278}
	if d := DistanceKm(paris, london); math.Abs(d-343.5) > 1 {
		t.Fatalf("Paris-London = %.1f km, want about 343.5", d)
	}
	if d := DistanceKm(paris, paris); d != 0 {
		t.Fatalf("distance to itself = %v", d)
	}
	// One degree of latitude is about 111.2 km.
	square := mustWKT(t, "POLYGON((0 0,1 0,1 1,0 1,0 0))")
	tests := []struct {
		name string
		p    Point
		want float64
	}{
		{"inside", Point{Lat: 0.5, Lon: 0.5}, 0},
		{"north of an edge", Point{Lat: 2, Lon: 0.5}, 111.2},
		{"west of an edge", Point{Lat: 0.5, Lon: -1}, 111.2},
		{"diagonal from a corner", Point{Lat: 2, Lon: 2}, DistanceKm(Point{Lat: 2, Lon: 2}, Point{Lat: 1, Lon: 1})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := square.DistanceKm(tt.p); math.Abs(got-tt.want) > 0.5 {
				t.Fatalf("DistanceKm(%v) = %.2f, want %.2f", tt.p, got, tt.want)
			}
		})
	}
	if d := Shape(nil).DistanceKm(paris); !math.IsInf(d, 1) {
		t.Fatalf("distance to nil shape = %v", d)
	}
}

func TestRoundTrip(t *testing.T) {
	for _, wkt := range []string{
		"POLYGON((0 0,10 0,10 10,0 10,0 0),(4 4,6 4,6 6,4 6,4 4))",
		"MULTIPOLYGON(((0.125 -3.5,1 0,1 1,0.125 -3.5)),((170 -10,-170 -10,-170 10,170 10,170 -10)))",
	} {
		s := mustWKT(t, wkt)
		if got := s.WKT(); got != wkt {
			t.Errorf("WKT() = %q, want %q", got, wkt)
		}
		back, err := ParseGeoJSON(s.GeoJSON())
		if err != nil {
			t.Fatalf("ParseGeoJSON(GeoJSON()): %v", err)
		}
		if !reflect.DeepEqual(back, s) {
			t.Errorf("GeoJSON round trip: got %v, want %v", back, s)
		}
	}
}

// MayBeWithinKm may say yes to a point farther away, never no to one within the distance, which
// Shape.DistanceKm measures to great-circle edges (they bulge poleward of the vertices).
func TestMayBeWithinKm(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	shapes := map[string]Shape{
		"Hawaii box":      Rect{MinLat: 18, MinLon: -160, MaxLat: 22, MaxLon: -154}.Shape(),
		"long border":     mustWKT(t, "POLYGON((-123 49,-95 49,-95 30,-123 30,-123 49))"),
		"across the line": mustWKT(t, "POLYGON((172 51,-129 60,-140 72,170 65,172 51))"),
		"southern":        mustWKT(t, "POLYGON((-171 -14.6,-150 -14.6,-160 -30,-171 -14.6))"),
		"near the pole":   Rect{MinLat: 80, MinLon: 10, MaxLat: 86, MaxLon: 30}.Shape(),
	}
	for name, shape := range shapes {
		prepared := shape.Prepare()
		c := shape.Bounds().Center()
		no := 0
		for range 5000 {
			p := Point{Lat: max(-90, min(90, c.Lat+rng.NormFloat64()*8)), Lon: math.Remainder(c.Lon+rng.NormFloat64()*15, 360)}
			for _, km := range []float64{1, 25, 300} {
				if prepared.MayBeWithinKm(p, km) {
					continue
				}
				no++
				if d := shape.DistanceKm(p); d <= km {
					t.Fatalf("%s, %v: MayBeWithinKm(%v) = false at %.3f km", name, p, km, d)
				}
			}
		}
		if no == 0 {
			t.Fatalf("%s: never ruled a point out", name)
		}
	}
}
