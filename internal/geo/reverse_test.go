package geo

import (
	"context"
	"errors"
	"testing"

	"github.com/sightline/sightline/internal/geom"
	"github.com/sightline/sightline/internal/problem"
)

func TestReverse(t *testing.T) {
	g, err := LoadGazetteer()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name        string
		point       geom.Point
		wantAddress string
		wantKind    Kind
		maxKm       float64
		wantUS      bool
		wantErr     error
	}{
		{"the Eiffel Tower is Paris", geom.Point{Lat: 48.8584, Lon: 2.2945}, "Paris, Île-de-France, France", KindCity, 10, false, nil},
		{"a point in Old San Juan", geom.Point{Lat: 18.4655, Lon: -66.1057}, "San Juan, San Juan, Puerto Rico", KindCity, 5, true, nil},
		{"across the antimeridian: Fiji's Taveuni", geom.Point{Lat: -16.85, Lon: 179.99}, "", KindCity, ReverseCityKm, false, nil},
		{"the middle of the Atlantic", geom.Point{Lat: 0, Lon: -30}, "", "", 0, false, ErrNoPlaceNear},
		{"near the north pole", geom.Point{Lat: 89.9, Lon: 10}, "", "", 0, false, ErrNoPlaceNear},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := g.Reverse(context.Background(), tc.point)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) || !problem.Is(err, problem.KindNotFound) {
					t.Fatalf("Reverse = %+v, %v; want %v", got, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if (tc.wantAddress != "" && got.Address != tc.wantAddress) || got.Kind != tc.wantKind ||
				got.DistanceKm > tc.maxKm || got.IsAddressInUSTerritory != tc.wantUS {
				t.Errorf("Reverse = %+v", got)
			}
			// What a point is named by, the lookup finds again.
			if found, err := g.Lookup(context.Background(), got.Address); err != nil || found.Name != got.Name {
				t.Errorf("Lookup(%q) = %+v, %v", got.Address, found, err)
			}
		})
	}
}

// The town named is the one the point is most inside (distance over the town's radius), and a
// town's own point is that town.
func TestReverseIsTheTownMostInside(t *testing.T) {
	g, err := LoadGazetteer()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []geom.Point{{Lat: 51.5, Lon: -0.12}, {Lat: 69.65, Lon: 18.96}, {Lat: -33.87, Lon: 151.21}, {Lat: 64.2, Lon: -51.7}} {
		got, err := g.Reverse(context.Background(), p)
		if err != nil {
			t.Fatalf("%v: %v", p, err)
		}
		score := func(c place) float64 { return geom.DistanceKm(p, c.point) / cityRadiusKm(c.population) }
		var chosen place
		for _, c := range g.places {
			if c.kind == KindCity && c.name == got.Name && c.point == got.Point {
				chosen = c
			}
		}
		for _, c := range g.places {
			if c.kind == KindCity && geom.DistanceKm(p, c.point) <= ReverseCityKm && score(c) < score(chosen)-1e-9 {
				t.Errorf("%v: %s (%.2f), but %s is more inside (%.2f)", p, got.Address, score(chosen), c.name, score(c))
				break
			}
		}
	}
	// Saint-Denis's own point is Saint-Denis, though Paris is big and 9 km away.
	if got, err := g.Reverse(context.Background(), geom.Point{Lat: 48.93564, Lon: 2.35387}); err != nil || got.Name != "Saint-Denis" {
		t.Errorf("Saint-Denis = %+v, %v", got, err)
	}
}

func TestReversePoint(t *testing.T) {
	for _, tc := range []struct {
		lat, lon  string
		badFields []string
		want      geom.Point
	}{
		{"48.85", "2.35", nil, geom.Point{Lat: 48.85, Lon: 2.35}},
		{"-90", "180", nil, geom.Point{Lat: -90, Lon: 180}},
		{"", "2.35", []string{"lat"}, geom.Point{}},
		{"91", "2.35", []string{"lat"}, geom.Point{}},
		{"NaN", "Inf", []string{"lat", "lon"}, geom.Point{}},
		{"48.85", "east", []string{"lon"}, geom.Point{}},
		{"48.85", "-180.5", []string{"lon"}, geom.Point{}},
	} {
		p, err := ReversePoint(tc.lat, tc.lon)
		if len(tc.badFields) == 0 {
			if err != nil || p != tc.want {
				t.Errorf("ReversePoint(%q, %q) = %v, %v", tc.lat, tc.lon, p, err)
			}
			continue
		}
		pr, ok := problem.As(err)
		if !ok || pr.Kind != problem.KindInvalid || len(pr.Fields) != len(tc.badFields) {
			t.Errorf("ReversePoint(%q, %q) = %v, %v; want 422 on %v", tc.lat, tc.lon, p, err, tc.badFields)
			continue
		}
		for _, f := range tc.badFields {
			if len(pr.Fields[f]) == 0 {
				t.Errorf("ReversePoint(%q, %q): no message on %s: %v", tc.lat, tc.lon, f, pr.Fields)
			}
		}
	}
}
