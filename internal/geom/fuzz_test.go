package geom

import (
	"reflect"
	"testing"
)

// The parsers take user input: they must never panic, and whatever they accept must survive a
// trip through both text forms unchanged.
func FuzzParseWKT(f *testing.F) {
	for _, s := range []string{
		"POLYGON((0 0,10 0,10 10,0 10,0 0))",
		"SRID=4326;MULTIPOLYGON(((0 0,1 0,1 1,0 0)),((170 -10,-170 -10,-170 10,170 10,170 -10)))",
		"POLYGON((0 0,10 0,10 10,0 10,0 0),(4 4,6 4,6 6,4 6,4 4))",
		"POINT(1 2)", "POLYGON EMPTY", "POLYGON((((", "MULTIPOLYGON(((1e-400 0,1 1,2 2,1e-400 0)))",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := ParseWKT(in)
		if err != nil {
			return
		}
		checkAccepted(t, s)
	})
}

func FuzzParseGeoJSON(f *testing.F) {
	for _, s := range []string{
		`{"type":"Polygon","coordinates":[[[0,0],[10,0],[10,10],[0,10],[0,0]]]}`,
		`{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,0]]]]}}]}`,
		`{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]}}`,
		`{"type":"Polygon","coordinates":[[[0,0,1,2,3],[1,0],[1,1],[0,0]]]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		s, err := ParseGeoJSON(in)
		if err != nil {
			return
		}
		checkAccepted(t, s)
	})
}

func checkAccepted(t *testing.T, s Shape) {
	t.Helper()
	if err := s.Valid(); err != nil {
		t.Fatalf("parser accepted an invalid shape: %v", err)
	}
	viaWKT, err := ParseWKT(s.WKT())
	if err != nil || !reflect.DeepEqual(viaWKT, s) {
		t.Fatalf("WKT round trip of %v: %v, %v", s, viaWKT, err)
	}
	viaJSON, err := ParseGeoJSON(s.GeoJSON())
	if err != nil || !reflect.DeepEqual(viaJSON, s) {
		t.Fatalf("GeoJSON round trip of %v: %v, %v", s, viaJSON, err)
	}
	// Every vertex lies on the shape's outline, so the shape must contain it.
	b := s.Bounds()
	for _, poly := range s {
		for _, pt := range poly[0] {
			if !s.Contains(pt) {
				t.Fatalf("shape %v does not contain its vertex %v", s, pt)
			}
			if !b.Contains(pt) {
				t.Fatalf("bounds %+v do not contain vertex %v", b, pt)
			}
		}
	}
}
