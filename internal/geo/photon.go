package geo

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/geom"
	"github.com/sightline/sightline/internal/problem"
)

// Photon is a Geocoder backed by a Photon server (github.com/komoot/photon), for deployments
// that want OpenStreetMap's street-level coverage instead of the embedded gazetteer.
type Photon struct {
	baseURL   string
	client    *http.Client
	lang      string
	territory *Gazetteer
}

var _ Geocoder = (*Photon)(nil)

// ErrGeocoderFailed is what a failed call to the geocoder's server unwraps to (502), beside
// the cause.
var ErrGeocoderFailed error = problem.BadGateway("The geocoder did not answer. Try again in a moment.")

// failed wraps a failure of the geocoder's server; a cancelled request stays only that.
func failed(ctx context.Context, format string, args ...any) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return fmt.Errorf("%w (photon: %s)", ErrGeocoderFailed, fmt.Sprintf(format, args...))
}

// photonTimeout bounds one call: the builder debounces typing by 250 ms and waits on the answer.
const photonTimeout = 5 * time.Second

// NewPhoton returns a client for the Photon server at baseURL ("http://photon:2322"). lang picks
// the language of names ("en", "de", "fr"; empty for Photon's default). The gazetteer answers the
// US territory question when Photon gives no country code; it may be nil.
func NewPhoton(baseURL, lang string, territory *Gazetteer) *Photon {
	return &Photon{
		baseURL:   strings.TrimRight(baseURL, "/"),
		client:    &http.Client{Timeout: photonTimeout},
		lang:      lang,
		territory: territory,
	}
}

// Autocomplete asks Photon for places matching text, in Photon's order.
func (p *Photon) Autocomplete(ctx context.Context, text string, limit int) ([]Suggestion, error) {
	if limit <= 0 || limit > maxSuggestions {
		limit = defaultSuggestions
	}
	if key(text) == "" {
		return []Suggestion{}, nil
	}
	features, err := p.search(ctx, text, limit)
	if err != nil {
		return nil, err
	}
	out := make([]Suggestion, 0, len(features))
	for _, f := range features {
		r := f.result()
		out = append(out, Suggestion{
			Address:     r.Address,
			Name:        r.Name,
			Region:      f.Properties.State,
			Country:     f.Properties.Country,
			CountryCode: r.CountryCode,
			Kind:        r.Kind,
			Point:       r.Point,
		})
	}
	return out, nil
}

// Lookup resolves an address to Photon's best match.
func (p *Photon) Lookup(ctx context.Context, address string) (Result, error) {
	if key(address) == "" {
		return Result{}, ErrEmptyAddress
	}
	features, err := p.search(ctx, address, 1)
	if err != nil {
		return Result{}, err
	}
	if len(features) == 0 {
		return Result{}, &NotFoundError{Address: address}
	}
	r := features[0].result()
	if r.CountryCode != "" {
		r.IsAddressInUSTerritory = usTerritories[r.CountryCode]
	} else if p.territory != nil {
		r.IsAddressInUSTerritory = p.territory.InUSTerritory(r.Point)
	}
	return r, nil
}

// photonFeature is the part of a Photon GeoJSON feature the geocoder reads.
type photonFeature struct {
	Geometry struct {
		Coordinates []float64 `json:"coordinates"` // lon, lat
	} `json:"geometry"`
	Properties struct {
		Name        string    `json:"name"`
		Type        string    `json:"type"` // house, street, city, district, county, state, country ...
		City        string    `json:"city"`
		State       string    `json:"state"`
		Country     string    `json:"country"`
		CountryCode string    `json:"countrycode"`
		Extent      []float64 `json:"extent"` // west, north, east, south
	} `json:"properties"`
}

func (p *Photon) search(ctx context.Context, text string, limit int) ([]photonFeature, error) {
	q := url.Values{"q": {text}, "limit": {strconv.Itoa(limit)}}
	if p.lang != "" {
		q.Set("lang", p.lang)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.baseURL+"/api?"+q.Encode(), nil)
	if err != nil {
		return nil, failed(ctx, "%v", err)
	}
	resp, err := p.client.Do(req)
	if err != nil {
		return nil, failed(ctx, "%v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, failed(ctx, "%s", resp.Status)
	}
	var body struct {
		Features []photonFeature `json:"features"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 4<<20)).Decode(&body); err != nil {
		return nil, failed(ctx, "reading the reply: %v", err)
	}
	valid := body.Features[:0]
	for _, f := range body.Features {
		if len(f.Geometry.Coordinates) >= 2 && f.Properties.Name != "" {
			valid = append(valid, f)
		}
	}
	return valid, nil
}

func (f photonFeature) result() Result {
	pr := f.Properties
	point := geom.Point{Lat: f.Geometry.Coordinates[1], Lon: f.Geometry.Coordinates[0]}
	kind := KindPlace
	switch pr.Type {
	case "country":
		kind = KindCountry
	case "state":
		kind = KindRegion
	case "city":
		kind = KindCity
	}
	var parts []string
	for _, part := range []string{pr.Name, pr.City, pr.State, pr.Country} {
		if part != "" && !containsFold(parts, part) {
			parts = append(parts, part)
		}
	}
	r := Result{
		Address:     strings.Join(parts, ", "),
		Name:        pr.Name,
		CountryCode: strings.ToUpper(pr.CountryCode),
		Kind:        kind,
		Point:       point,
	}
	box := geom.Rect{MinLat: point.Lat, MaxLat: point.Lat, MinLon: point.Lon, MaxLon: point.Lon}
	if len(pr.Extent) == 4 {
		// West, north, east, south; west > east when the place crosses the antimeridian.
		box = geom.Rect{
			MinLon: pr.Extent[0], MaxLon: pr.Extent[2],
			MinLat: math.Min(pr.Extent[1], pr.Extent[3]), MaxLat: math.Max(pr.Extent[1], pr.Extent[3]),
		}
	}
	if box.MinLat == box.MaxLat || box.MinLon == box.MaxLon {
		box = padRect(box, minCityRadiusKm) // a point, or a place Photon gives no extent for
	}
	r.Bounds = box.Shape()
	return r
}

func containsFold(list []string, s string) bool {
	for _, v := range list {
		if strings.EqualFold(v, s) {
			return true
		}
	}
	return false
}
