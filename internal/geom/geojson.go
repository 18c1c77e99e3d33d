package geom

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
)

// geoJSON is the part of a GeoJSON object (RFC 7946) that location bounds use.
type geoJSON struct {
	Type        string          `json:"type"`
	Coordinates json.RawMessage `json:"coordinates"`
	Geometry    *geoJSON        `json:"geometry"`
	Features    []geoJSON       `json:"features"`
}

// ParseGeoJSON parses a GeoJSON Polygon or MultiPolygon, or a Feature or FeatureCollection of
// them (all features' polygons together make the shape). Positions are [lon, lat] with an
// optional altitude, which is ignored. Rings are checked as in ParseWKT. Point and line geometries
// give ErrNotArea.
func ParseGeoJSON(data []byte) (Shape, error) {
	var g geoJSON
	if err := json.Unmarshal(data, &g); err != nil {
		return nil, fmt.Errorf("geojson: %w", err)
	}
	shape, err := g.shape()
	if err != nil {
		return nil, err
	}
	if len(shape) == 0 {
		return nil, errors.New("geojson: no polygon found")
	}
	return shape, nil
}

func (g *geoJSON) shape() (Shape, error) {
	switch g.Type {
	case "Polygon":
		var rings [][][]float64
		if err := json.Unmarshal(g.Coordinates, &rings); err != nil {
			return nil, fmt.Errorf("geojson: Polygon coordinates: %w", err)
		}
		poly, err := polygonFromPositions(rings)
		if err != nil {
			return nil, err
		}
		return Shape{poly}, nil
	case "MultiPolygon":
		var polys [][][][]float64
		if err := json.Unmarshal(g.Coordinates, &polys); err != nil {
			return nil, fmt.Errorf("geojson: MultiPolygon coordinates: %w", err)
		}
		shape := make(Shape, 0, len(polys))
		for _, rings := range polys {
			poly, err := polygonFromPositions(rings)
			if err != nil {
				return nil, err
			}
			shape = append(shape, poly)
		}
		return shape, nil
	case "Feature":
		if g.Geometry == nil {
			return nil, errors.New("geojson: Feature without geometry")
		}
		return g.Geometry.shape()
	case "FeatureCollection":
		var shape Shape
		for i := range g.Features {
			if g.Features[i].Type != "Feature" {
				return nil, fmt.Errorf("geojson: FeatureCollection member of type %q", g.Features[i].Type)
			}
			part, err := g.Features[i].shape()
			if err != nil {
				return nil, err
			}
			shape = append(shape, part...)
		}
		return shape, nil
	case "Point", "MultiPoint", "LineString", "MultiLineString":
		return nil, ErrNotArea
	case "":
		return nil, errors.New("geojson: missing type")
	}
	return nil, fmt.Errorf("geojson: unsupported type %q (expected Polygon, MultiPolygon, Feature or FeatureCollection)", g.Type)
}

func polygonFromPositions(rings [][][]float64) (Polygon, error) {
	if len(rings) == 0 {
		return nil, errors.New("geojson: polygon without rings")
	}
	poly := make(Polygon, 0, len(rings))
	for _, positions := range rings {
		ring := make(Ring, 0, len(positions))
		for _, pos := range positions {
			if len(pos) < 2 {
				return nil, errors.New("geojson: a position needs a longitude and a latitude")
			}
			pt := Point{Lat: pos[1], Lon: pos[0]}
			if err := checkPoint(pt); err != nil {
				return nil, fmt.Errorf("geojson: %w", err)
			}
			ring = append(ring, pt)
		}
		if err := checkRing(ring); err != nil {
			return nil, fmt.Errorf("geojson: %w", err)
		}
		poly = append(poly, ring)
	}
	return poly, nil
}

// GeoJSON returns the shape as a GeoJSON Polygon (one polygon) or MultiPolygon geometry.
// A non-finite coordinate, which only a shape built in code can hold, is written as null.
func (s Shape) GeoJSON() json.RawMessage {
	var b []byte
	writePolygon := func(poly Polygon) {
		b = append(b, '[')
		for i, ring := range poly {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '[')
			for j, pt := range ring {
				if j > 0 {
					b = append(b, ',')
				}
				b = append(b, '[')
				b = appendJSONNumber(b, pt.Lon)
				b = append(b, ',')
				b = appendJSONNumber(b, pt.Lat)
				b = append(b, ']')
			}
			b = append(b, ']')
		}
		b = append(b, ']')
	}
	if len(s) == 1 {
		b = append(b, `{"type":"Polygon","coordinates":`...)
		writePolygon(s[0])
	} else {
		b = append(b, `{"type":"MultiPolygon","coordinates":[`...)
		for i, poly := range s {
			if i > 0 {
				b = append(b, ',')
			}
			writePolygon(poly)
		}
		b = append(b, ']')
	}
	b = append(b, '}')
	return b
}

func appendJSONNumber(b []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(b, "null"...)
	}
	return strconv.AppendFloat(b, f, 'f', -1, 64)
}

// Valid reports whether every coordinate is finite and on the globe and every ring is closed with
// at least four points: what ParseWKT and ParseGeoJSON check, for shapes built in code.
func (s Shape) Valid() error {
	if len(s) == 0 {
		return errors.New("geom: empty shape")
	}
	for _, poly := range s {
		if len(poly) == 0 {
			return errors.New("geom: polygon without rings")
		}
		for _, ring := range poly {
			for _, pt := range ring {
				if err := checkPoint(pt); err != nil {
					return fmt.Errorf("geom: %w", err)
				}
			}
			if err := checkRing(ring); err != nil {
				return fmt.Errorf("geom: %w", err)
			}
		}
	}
	return nil
}
