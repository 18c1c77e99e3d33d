package geo

import (
	"context"
	"math"
	"strconv"

	"github.com/sightline/sightline/internal/geom"
	"github.com/sightline/sightline/internal/problem"
)

// ReverseCityKm is how far the nearest town may be and still name a point; farther (at sea, in
// a desert) the country whose outline holds the point names it.
const ReverseCityKm = 100

// Reversed is the place that names a point: the reply of GET /api/v1/geocode/reverse.
type Reversed struct {
	// Address is the display form, "City, Region, Country" or "Country", which Lookup finds again.
	Address     string     `json:"address"`
	Name        string     `json:"name"`
	CountryCode string     `json:"country_code,omitempty"`
	Kind        Kind       `json:"kind"`
	Point       geom.Point `json:"point"`
	// DistanceKm is from the point asked to the place's point (0 for a country holding it).
	DistanceKm float64 `json:"distance_km"`
	// IsAddressInUSTerritory is said of the point asked (InUSTerritory), as the address lookup
	// says it of an address.
	IsAddressInUSTerritory bool `json:"is_address_in_us_territory"`
}

// ErrNoPlaceNear is the answer for a point with no town within ReverseCityKm and in no
// country's outline (404).
var ErrNoPlaceNear error = problem.NotFound("No named place within %d km of this point.", ReverseCityKm)

// ReversePoint reads a point from text, as a query string carries it, and checks it: each
// coordinate a finite number in range, else a 422 naming the field.
func ReversePoint(lat, lon string) (geom.Point, error) {
	fields := map[string][]string{}
	la, err := strconv.ParseFloat(lat, 64)
	if err != nil || math.IsNaN(la) || la < -90 || la > 90 {
		fields["lat"] = []string{"The latitude must be a number from -90 to 90."}
	}
	lo, err := strconv.ParseFloat(lon, 64)
	if err != nil || math.IsNaN(lo) || lo < -180 || lo > 180 {
		fields["lon"] = []string{"The longitude must be a number from -180 to 180."}
	}
	if len(fields) > 0 {
		return geom.Point{}, problem.Invalid("The point is not a valid latitude and longitude.", fields)
	}
	return geom.Point{Lat: la, Lon: lo}, nil
}

// Reverse names a point with the gazetteer: among the cities (of 1,000 people or more, or
// capitals) within ReverseCityKm, the one the point is most inside, measured as the distance
// over the city's radius (the half-side of the box a lookup gives it, larger for more people),
// so a point by the Eiffel Tower is Paris, not the suburb whose centre is a little nearer, and
// a suburb's own centre is the suburb; with no city that near, the country whose outline holds
// the point; else ErrNoPlaceNear. It never touches the network.
func (g *Gazetteer) Reverse(ctx context.Context, p geom.Point) (Reversed, error) {
	if err := ctx.Err(); err != nil {
		return Reversed{}, err
	}
	// A flat-earth measure drops the cities that are surely too far (degrees of longitude shrink
	// with the latitude; the cosine is taken ReverseCityKm poleward of the point, so the measure
	// never overstates a distance east or west); the great-circle distance decides.
	scale := math.Cos(math.Min(math.Abs(p.Lat)+ReverseCityKm/111.0+0.1, 90) * math.Pi / 180)
	const kmPerDegree = 111.2
	best, bestScore, bestKm := int32(-1), math.Inf(1), 0.0
	for i := range g.places {
		c := &g.places[i]
		if c.kind != KindCity || math.Abs(c.point.Lat-p.Lat)*kmPerDegree > ReverseCityKm+1 {
			continue
		}
		dLon := math.Abs(c.point.Lon - p.Lon)
		if dLon > 180 {
			dLon = 360 - dLon
		}
		if dLon*scale*kmPerDegree > ReverseCityKm+1 {
			continue
		}
		km := geom.DistanceKm(p, c.point)
		if km > ReverseCityKm {
			continue
		}
		if score := km / cityRadiusKm(c.population); score < bestScore {
			best, bestScore, bestKm = int32(i), score, km
		}
	}
	if best >= 0 {
		return g.reversed(g.places[best], p, bestKm), nil
	}
	for code, at := range g.countries {
		if g.shapeContains(code, p) {
			return g.reversed(g.places[at], p, 0), nil
		}
	}
	return Reversed{}, ErrNoPlaceNear
}

func (g *Gazetteer) reversed(pl place, asked geom.Point, km float64) Reversed {
	return Reversed{Address: g.display(pl), Name: pl.name, CountryCode: pl.country, Kind: pl.kind, Point: pl.point,
		DistanceKm: math.Round(km*10) / 10, IsAddressInUSTerritory: g.InUSTerritory(asked)}
}

// Reverser names points; the Gazetteer is one. Photon's reverse endpoint is not used: a point's
// name is wanted on every drawn area, and the gazetteer answers without the network.
type Reverser interface {
	Reverse(ctx context.Context, p geom.Point) (Reversed, error)
}
