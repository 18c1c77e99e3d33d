// Package geo turns addresses into places: autocomplete, address lookup with bounds and the US
// territory test, and place names mentioned in text. The Geocoder interface lets a deployment
// use an external geocoder (Photon, Pelias, Nominatim); the default is the Gazetteer, which
// answers from GeoNames cities and Natural Earth / US Census shapes embedded in the binary and
// never touches the network.
package geo

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/sightline/sightline/internal/geom"
	"github.com/sightline/sightline/internal/problem"
)

// Geocoder converts typed text and addresses into places.
type Geocoder interface {
	// Autocomplete suggests places whose name starts with text, most populous first.
	Autocomplete(ctx context.Context, text string, limit int) ([]Suggestion, error)
	// Lookup resolves an address ("Paris", "Paris, France", "Springfield, IL", "Texas",
	// "Germany") to one place. It fails with ErrEmptyAddress or a *NotFoundError.
	Lookup(ctx context.Context, address string) (Result, error)
}

// Kind says what sort of place a suggestion or result is.
type Kind string

const (
	KindCity    Kind = "city"
	KindRegion  Kind = "region" // first-level division: a US state, a French région, ...
	KindCountry Kind = "country"
	KindPlace   Kind = "place" // finer than a city (a street, a building): external geocoders only
)

// Suggestion is one autocomplete item.
type Suggestion struct {
	// Address is the display form "City, Region, Country"; looking it up finds this place again.
	Address     string     `json:"address"`
	Name        string     `json:"name"`
	Region      string     `json:"region,omitempty"`
	Country     string     `json:"country,omitempty"`
	CountryCode string     `json:"country_code,omitempty"`
	Kind        Kind       `json:"kind"`
	Point       geom.Point `json:"point"`
	Population  int        `json:"population,omitempty"`
}

// Result is a resolved address.
type Result struct {
	Address     string
	Name        string
	CountryCode string
	Kind        Kind
	Point       geom.Point
	// Bounds is the country or state outline, or for a city a box sized by its population.
	Bounds geom.Shape
	// IsAddressInUSTerritory says the place lies in the United States or one of its territories
	// (PR, GU, VI, AS, MP, UM); the builder warns about US persons' data for such searches.
	IsAddressInUSTerritory bool
}

// MarshalJSON writes the reply of GET /api/v1/geocode/address: bounds as WKT.
func (r Result) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Address                string     `json:"address"`
		Name                   string     `json:"name"`
		CountryCode            string     `json:"country_code,omitempty"`
		Kind                   Kind       `json:"kind"`
		Point                  geom.Point `json:"point"`
		Bounds                 string     `json:"bounds"`
		IsAddressInUSTerritory bool       `json:"is_address_in_us_territory"`
	}{r.Address, r.Name, r.CountryCode, r.Kind, r.Point, r.Bounds.WKT(), r.IsAddressInUSTerritory})
}

// GeoJSON returns the result as a GeoJSON Feature whose geometry is the bounds: the reply of the
// configurations-manager geocode call, which stores it as a location configuration's
// address_bounds.
func (r Result) GeoJSON() (json.RawMessage, error) {
	return json.Marshal(struct {
		Type       string          `json:"type"`
		Geometry   json.RawMessage `json:"geometry"`
		Properties any             `json:"properties"`
	}{
		Type:     "Feature",
		Geometry: r.Bounds.GeoJSON(),
		Properties: struct {
			Address                string `json:"address"`
			Name                   string `json:"name"`
			CountryCode            string `json:"country_code,omitempty"`
			Kind                   Kind   `json:"kind"`
			IsAddressInUSTerritory bool   `json:"is_address_in_us_territory"`
		}{r.Address, r.Name, r.CountryCode, r.Kind, r.IsAddressInUSTerritory},
	})
}

// ErrEmptyAddress is returned for an address with no letters or digits: invalid input (422).
var ErrEmptyAddress error = problem.InvalidField("address", "The address field is required.")

// NotFoundError says no place matches the address. errors.Is(err, ErrNotFound) holds for it.
type NotFoundError struct {
	Address string
}

// ErrNotFound is what every *NotFoundError unwraps to: nothing by that address (404).
var ErrNotFound error = problem.NotFound("We could not find that address. Check the spelling or try a nearby city.")

func (e *NotFoundError) Error() string {
	return fmt.Sprintf("geo: no place matches the address %q", e.Address)
}

func (e *NotFoundError) Unwrap() error { return ErrNotFound }
