package geom

import (
	"math"
	"testing"
)

func TestCircle(t *testing.T) {
	for _, tc := range []struct {
		name   string
		center Point
		km     float64
	}{
		{"Paris, 5 km", Point{48.8566, 2.3522}, 5},
		{"on the equator, 100 km", Point{0, 0}, 100},
		{"across the antimeridian, 50 km", Point{-17.7, 179.9}, 50},
		{"far north, 200 km", Point{78.2, 15.6}, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := Circle(tc.center, tc.km)
			if err := s.Valid(); err != nil {
				t.Fatalf("invalid circle: %v", err)
			}
			ring := s[0][0]
			if len(ring) != circleSides+1 || ring[0] != ring[len(ring)-1] {
				t.Fatalf("ring of %d points, closed %v", len(ring), ring[0] == ring[len(ring)-1])
			}
			for _, p := range ring {
				if d := DistanceKm(tc.center, p); math.Abs(d-tc.km) > tc.km*1e-6 {
					t.Fatalf("vertex %v is %.4f km from the center, want %.4f", p, d, tc.km)
				}
			}
			if !s.Contains(tc.center) {
				t.Error("the circle does not hold its center")
			}
			// Just outside, due east, is outside.
			east := Circle(tc.center, tc.km*1.05)[0][0][circleSides/4]
			if s.Contains(east) {
				t.Errorf("%v, outside the radius, is inside", east)
			}
		})
	}
}

func TestRectCenterAndCircumradius(t *testing.T) {
	for _, tc := range []struct {
		name   string
		r      Rect
		center Point
		km     float64 // approximate
	}{
		{"a square degree at the equator", Rect{-0.5, -0.5, 0.5, 0.5}, Point{0, 0}, 78.6},
		{"across the antimeridian", Rect{-1, 179, 1, -179}, Point{0, 180}, 157.2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.r.Center()
			if math.Abs(c.Lat-tc.center.Lat) > 1e-9 || math.Abs(math.Abs(c.Lon)-math.Abs(tc.center.Lon)) > 1e-9 {
				t.Errorf("center %v, want %v", c, tc.center)
			}
			if km := tc.r.CircumradiusKm(); math.Abs(km-tc.km) > 0.5 {
				t.Errorf("circumradius %.1f km, want about %.1f", km, tc.km)
			}
		})
	}
}
