package geo

import (
	"context"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/sightline/sightline/internal/geom"
)

const (
	defaultSuggestions = 10
	maxSuggestions     = 50
)

var _ Geocoder = (*Gazetteer)(nil)

// Autocomplete suggests places whose name or alias starts with the text's first comma-separated
// part, most populous first (a region or country counts the people of its cities). Later parts
// narrow by region or country, also by prefix: "springfield, il" lists the Springfields of
// Illinois. A limit outside 1..50 means 10.
func (g *Gazetteer) Autocomplete(ctx context.Context, text string, limit int) ([]Suggestion, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if limit <= 0 || limit > maxSuggestions {
		limit = defaultSuggestions
	}
	parts := splitAddress(text)
	if len(parts) == 0 {
		return []Suggestion{}, nil
	}
	prefix, qualifiers := parts[0], parts[1:]
	start := sort.Search(len(g.names), func(i int) bool { return g.names[i].key >= prefix })
	var top []int32 // best first, at most limit
	for _, ref := range g.names[start:] {
		if !strings.HasPrefix(ref.key, prefix) {
			break
		}
		if g.places[ref.place].shadowed || slices.Contains(top, ref.place) || !g.qualifies(ref.place, qualifiers, strings.HasPrefix) {
			continue
		}
		at := sort.Search(len(top), func(i int) bool { return g.ranksBefore(ref.place, top[i]) })
		if at < limit {
			top = slices.Insert(top, at, ref.place)
			if len(top) > limit {
				top = top[:limit]
			}
		}
	}
	out := make([]Suggestion, len(top))
	for i, idx := range top {
		out[i] = g.suggestion(g.places[idx])
	}
	return out, nil
}

// ranksBefore orders suggestions: more people first, then countries before regions before
// cities, then gazetteer order.
func (g *Gazetteer) ranksBefore(a, b int32) bool {
	pa, pb := g.places[a], g.places[b]
	if pa.population != pb.population {
		return pa.population > pb.population
	}
	if kindOrder(pa.kind) != kindOrder(pb.kind) {
		return kindOrder(pa.kind) < kindOrder(pb.kind)
	}
	return a < b
}

func kindOrder(k Kind) int {
	switch k {
	case KindCountry:
		return 0
	case KindRegion:
		return 1
	}
	return 2
}

// Lookup resolves an address. The first part is a place name, the others narrow it by region or
// country, exactly: "Paris", "Paris, France", "Paris, TX", "Springfield, Illinois, United
// States", "Texas", "Germany". A name that is both prefers the country, then a US state, then a
// city, then another region, and among equals the most populous. An address with more detail than
// the gazetteer holds ("10 Downing Street, London") resolves to the most specific part it knows.
func (g *Gazetteer) Lookup(ctx context.Context, address string) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	parts := splitAddress(address)
	if len(parts) == 0 {
		return Result{}, ErrEmptyAddress
	}
	whole := strings.Join(parts, " ")
	for i := range parts {
		// A name may itself hold commas ("Washington, D.C."): longer names are tried first.
		for j := len(parts); j > i; j-- {
			if idx, ok := g.resolve(strings.Join(parts[i:j], " "), parts[j:], whole); ok {
				return g.result(g.places[idx]), nil
			}
		}
		// Only detail the gazetteer does not know is skipped: "Paris, Japan" is no place.
		if len(g.byKey[parts[i]]) > 0 {
			break
		}
	}
	return Result{}, &NotFoundError{Address: address}
}

// resolve picks among the places called name that the qualifiers fit: the one whose display
// address is the whole address (so a suggestion finds itself again), else by lookupOrder.
func (g *Gazetteer) resolve(name string, qualifiers []string, whole string) (int32, bool) {
	best := int32(-1)
	for _, idx := range g.byKey[name] { // most populous first
		if !g.qualifies(idx, qualifiers, equal) {
			continue
		}
		if p := g.places[idx]; !p.shadowed && key(g.display(p)) == whole {
			return idx, true
		}
		if best < 0 || lookupOrder(g.places[idx]) < lookupOrder(g.places[best]) {
			best = idx
		}
	}
	return best, best >= 0
}

func lookupOrder(p place) int {
	switch {
	case p.kind == KindCountry:
		return 0
	case p.kind == KindRegion && p.country == "US":
		return 1
	case p.kind == KindCity:
		return 2
	}
	return 3
}

func equal(a, b string) bool { return a == b }

// qualifies reports whether every qualifier names the place's region or country (by name, alias
// or code) under match.
func (g *Gazetteer) qualifies(idx int32, qualifiers []string, match func(name, qualifier string) bool) bool {
	p := g.places[idx]
	for _, q := range qualifiers {
		named := func(keys []string) bool {
			return slices.ContainsFunc(keys, func(k string) bool { return match(k, q) })
		}
		if !named(g.countryKeys[p.country]) && !named(g.regionKeys[p.region]) {
			return false
		}
	}
	return true
}

// splitAddress returns the keys of an address's comma-separated parts, empty parts left out.
func splitAddress(address string) []string {
	var parts []string
	for _, part := range strings.Split(address, ",") {
		if k := key(part); k != "" {
			parts = append(parts, k)
		}
	}
	return parts
}

func (g *Gazetteer) result(p place) Result {
	return Result{
		Address:                g.display(p),
		Name:                   p.name,
		CountryCode:            p.country,
		Kind:                   p.kind,
		Point:                  p.point,
		Bounds:                 g.bounds(p),
		IsAddressInUSTerritory: usTerritories[p.country],
	}
}

func (g *Gazetteer) suggestion(p place) Suggestion {
	s := Suggestion{
		Address:     g.display(p),
		Name:        p.name,
		Country:     g.countryName(p.country),
		CountryCode: p.country,
		Kind:        p.kind,
		Point:       p.point,
		Population:  p.population,
	}
	if p.kind == KindCity {
		s.Region = g.regionName(p.region)
	}
	return s
}

// display is "City, Region, Country", "Region, Country" or "Country".
func (g *Gazetteer) display(p place) string {
	parts := []string{p.name}
	if p.kind == KindCity {
		if r := g.regionName(p.region); r != "" {
			parts = append(parts, r)
		}
	}
	if p.kind != KindCountry {
		parts = append(parts, g.countryName(p.country))
	}
	return strings.Join(parts, ", ")
}

func (g *Gazetteer) countryName(code string) string {
	if i, ok := g.countries[code]; ok {
		return g.places[i].name
	}
	return code
}

func (g *Gazetteer) regionName(adminKey string) string {
	if i, ok := g.regions[adminKey]; ok {
		return g.places[i].name
	}
	return ""
}

// bounds is the outline of a country or US state, else the box around a region's or country's
// towns, and for a city a box sized by its population.
func (g *Gazetteer) bounds(p place) geom.Shape {
	area := p.region
	if p.kind == KindCountry {
		area = p.country
	}
	if p.kind != KindCity {
		if s, ok := g.shapes[area]; ok {
			return s
		}
		if box := g.cityBoxes[area]; box != nil {
			return padRect(box.rect(), minCityRadiusKm).Shape()
		}
	}
	r := geom.Rect{MinLat: p.point.Lat, MaxLat: p.point.Lat, MinLon: p.point.Lon, MaxLon: p.point.Lon}
	return padRect(r, cityRadiusKm(p.population)).Shape()
}

const (
	minCityRadiusKm = 3
	maxCityRadiusKm = 50
)

// cityRadiusKm is half the side of a city's box: 3 km for a town, about 5 km at 100,000 people,
// 13 km at a million, 32 km at ten million (growing as population^0.4, roughly with the built-up
// area), never more than 50 km.
func cityRadiusKm(population int) float64 {
	r := 5 * math.Pow(float64(population)/1e5, 0.4)
	return math.Max(minCityRadiusKm, math.Min(maxCityRadiusKm, r))
}

const kmPerDegreeLat = 111.32

// padRect widens r by km on every side, keeping latitudes on the globe and wrapping longitudes
// across the antimeridian.
func padRect(r geom.Rect, km float64) geom.Rect {
	dLat := km / kmPerDegreeLat
	out := geom.Rect{MinLat: math.Max(-90, r.MinLat-dLat), MaxLat: math.Min(90, r.MaxLat+dLat)}
	widest := math.Max(math.Abs(out.MinLat), math.Abs(out.MaxLat))
	dLon := km / (kmPerDegreeLat * math.Max(0.01, math.Cos(widest*math.Pi/180)))
	width := r.MaxLon - r.MinLon
	if width < 0 {
		width += 360
	}
	if width+2*dLon >= 360 {
		out.MinLon, out.MaxLon = -180, 180
		return out
	}
	out.MinLon, out.MaxLon = wrapLon(r.MinLon-dLon), wrapLon(r.MaxLon+dLon)
	return out
}

func wrapLon(lon float64) float64 {
	switch {
	case lon > 180:
		return lon - 360
	case lon < -180:
		return lon + 360
	}
	return lon
}
