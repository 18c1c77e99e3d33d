package geo

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/sightline/sightline/internal/geom"
	"github.com/sightline/sightline/internal/problem"
)

func gazetteer(t testing.TB) *Gazetteer {
	t.Helper()
	g, err := LoadGazetteer()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestEmbeddedData(t *testing.T) {
	g := gazetteer(t)
	if n := len(g.places); n < 100000 {
		t.Errorf("%d places, want the 110,000-odd GeoNames cities plus regions and countries", n)
	}
	for code, s := range g.shapes {
		if err := s.Valid(); err != nil {
			t.Errorf("shape %s: %v", code, err)
		}
	}
	states := 0
	for code := range g.shapes {
		if strings.HasPrefix(code, "US.") {
			states++
		}
	}
	if states != 51 {
		t.Errorf("%d US state shapes, want 50 and DC", states)
	}
	for code := range usTerritories {
		if _, ok := g.shapes[code]; !ok {
			t.Errorf("no shape for US territory %s", code)
		}
	}
}

func TestKey(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Paris", "paris"},
		{"São Paulo", "sao paulo"},
		{"SAO  PAULO", "sao paulo"},
		{"Saint-Étienne", "saint etienne"},
		{"Hagåtña", "hagatna"},
		{"Straße", "strasse"},
		{"Łódź", "lodz"},
		{"Côte d'Ivoire", "cote d ivoire"},
		{"Washington, D.C.", "washington d c"},
		{"Москва", "москва"},
		{" ,.- ", ""},
	}
	for _, tt := range tests {
		if got := key(tt.in); got != tt.want {
			t.Errorf("key(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestLookup(t *testing.T) {
	g := gazetteer(t)
	tests := []struct {
		address     string
		wantAddress string
		kind        Kind
		country     string
		inUS        bool
		inside      geom.Point // a point the bounds must hold
	}{
		{"Paris", "Paris, Île-de-France, France", KindCity, "FR", false, geom.Point{Lat: 48.8566, Lon: 2.3522}},
		{"paris, france", "Paris, Île-de-France, France", KindCity, "FR", false, geom.Point{Lat: 48.8566, Lon: 2.3522}},
		{"Paris, TX", "Paris, Texas, United States", KindCity, "US", true, geom.Point{Lat: 33.66, Lon: -95.55}},
		{"Springfield", "Springfield, Missouri, United States", KindCity, "US", true, geom.Point{Lat: 37.21, Lon: -93.29}},
		{"Springfield, IL", "Springfield, Illinois, United States", KindCity, "US", true, geom.Point{Lat: 39.80, Lon: -89.64}},
		{"Springfield, Illinois, United States", "Springfield, Illinois, United States", KindCity, "US", true, geom.Point{Lat: 39.80, Lon: -89.64}},
		{"San Juan, PR", "San Juan, San Juan, Puerto Rico", KindCity, "PR", true, geom.Point{Lat: 18.4655, Lon: -66.1057}},
		{"San Juan, Puerto Rico", "San Juan, San Juan, Puerto Rico", KindCity, "PR", true, geom.Point{Lat: 18.4655, Lon: -66.1057}},
		{"San Juan", "San Juan, San Juan, Argentina", KindCity, "AR", false, geom.Point{Lat: -31.53, Lon: -68.53}},
		{"Guam", "Guam", KindCountry, "GU", true, geom.Point{Lat: 13.4757, Lon: 144.7489}},
		{"Hagåtña", "Hagåtña, Hagatna, Guam", KindCity, "GU", true, geom.Point{Lat: 13.4757, Lon: 144.7489}},
		{"London", "London, England, United Kingdom", KindCity, "GB", false, geom.Point{Lat: 51.5074, Lon: -0.1278}},
		{"São Paulo", "São Paulo, São Paulo, Brazil", KindCity, "BR", false, geom.Point{Lat: -23.55, Lon: -46.63}},
		{"Sao Paulo", "São Paulo, São Paulo, Brazil", KindCity, "BR", false, geom.Point{Lat: -23.55, Lon: -46.63}},
		{"SAO PAULO, BRAZIL", "São Paulo, São Paulo, Brazil", KindCity, "BR", false, geom.Point{Lat: -23.55, Lon: -46.63}},
		{"Texas", "Texas, United States", KindRegion, "US", true, geom.Point{Lat: 30.2672, Lon: -97.7431}},
		{"California", "California, United States", KindRegion, "US", true, geom.Point{Lat: 34.05, Lon: -118.24}},
		{"Washington, DC", "Washington, D.C., District of Columbia, United States", KindCity, "US", true, geom.Point{Lat: 38.8977, Lon: -77.0365}},
		{"Germany", "Germany", KindCountry, "DE", false, geom.Point{Lat: 52.52, Lon: 13.405}},
		{"Deutschland", "Germany", KindCountry, "DE", false, geom.Point{Lat: 52.52, Lon: 13.405}},
		{"USA", "United States", KindCountry, "US", true, geom.Point{Lat: 39.74, Lon: -104.99}},
		{"United States of America", "United States", KindCountry, "US", true, geom.Point{Lat: 61.2, Lon: -149.9}},
		{"Puerto Rico", "Puerto Rico", KindCountry, "PR", true, geom.Point{Lat: 18.2, Lon: -66.5}},
		{"Bavaria", "Bavaria, Germany", KindRegion, "DE", false, geom.Point{Lat: 48.137, Lon: 11.575}},
		{"Fiji", "Fiji", KindCountry, "FJ", false, geom.Point{Lat: -17.8, Lon: 177.95}},
		// More detail than the gazetteer holds resolves to the most specific part it knows.
		{"10 Downing Street, London", "London, England, United Kingdom", KindCity, "GB", false, geom.Point{Lat: 51.5034, Lon: -0.1276}},
	}
	for _, tt := range tests {
		t.Run(tt.address, func(t *testing.T) {
			r, err := g.Lookup(context.Background(), tt.address)
			if err != nil {
				t.Fatal(err)
			}
			if r.Address != tt.wantAddress || r.Kind != tt.kind || r.CountryCode != tt.country {
				t.Errorf("got %q %s %s, want %q %s %s", r.Address, r.Kind, r.CountryCode, tt.wantAddress, tt.kind, tt.country)
			}
			if r.IsAddressInUSTerritory != tt.inUS {
				t.Errorf("IsAddressInUSTerritory = %v, want %v", r.IsAddressInUSTerritory, tt.inUS)
			}
			if err := r.Bounds.Valid(); err != nil {
				t.Fatalf("bounds: %v", err)
			}
			if !r.Bounds.Contains(tt.inside) {
				t.Errorf("bounds %v do not hold %v", r.Bounds.Bounds(), tt.inside)
			}
			if r.Kind == KindCity && !r.Bounds.Contains(r.Point) {
				t.Errorf("city box does not hold the city %v", r.Point)
			}
		})
	}
}

// A failed lookup is a problem the API answers as it is: an empty address is invalid input
// (422) naming the field, an address that finds nothing is not found (404).
func TestLookupErrorsAreProblems(t *testing.T) {
	g := gazetteer(t)
	for _, tt := range []struct {
		address string
		kind    problem.Kind
		message string
	}{
		{" ", problem.KindInvalid, "The address field is required."},
		{"Qwzxyvb", problem.KindNotFound, "We could not find that address. Check the spelling or try a nearby city."},
	} {
		_, err := g.Lookup(context.Background(), tt.address)
		p, ok := problem.As(err)
		if !ok || p.Kind != tt.kind || p.Message != tt.message {
			t.Errorf("Lookup(%q) = %#v, want kind %v saying %q", tt.address, err, tt.kind, tt.message)
			continue
		}
		if tt.kind == problem.KindInvalid && len(p.Fields["address"]) != 1 {
			t.Errorf("Lookup(%q) names the fields %v, want address", tt.address, p.Fields)
		}
	}
}

func TestLookupErrors(t *testing.T) {
	g := gazetteer(t)
	for _, address := range []string{"", "  ", ",,", "--"} {
		if _, err := g.Lookup(context.Background(), address); !errors.Is(err, ErrEmptyAddress) {
			t.Errorf("Lookup(%q) = %v, want ErrEmptyAddress", address, err)
		}
	}
	for _, address := range []string{"Qwzxyvb", "Springfield, Narnia", "Paris, Japan", "Lyon, Texas, USA"} {
		_, err := g.Lookup(context.Background(), address)
		var nf *NotFoundError
		if !errors.As(err, &nf) || !errors.Is(err, ErrNotFound) || nf.Address != address {
			t.Errorf("Lookup(%q) = %v, want a *NotFoundError", address, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := g.Lookup(ctx, "Paris"); !errors.Is(err, context.Canceled) {
		t.Errorf("Lookup with a cancelled context = %v", err)
	}
}

// The cities' boxes grow with population and stay within their limits.
func TestCityBoxSize(t *testing.T) {
	tests := []struct {
		population int
		wantKm     float64
	}{
		{0, minCityRadiusKm},
		{1000, minCityRadiusKm},
		{100000, 5},
		{1000000, 12.56},
		{10000000, 31.55},
		{100000000, maxCityRadiusKm},
	}
	for _, tt := range tests {
		if got := cityRadiusKm(tt.population); math.Abs(got-tt.wantKm) > 0.01 {
			t.Errorf("cityRadiusKm(%d) = %.2f, want %.2f", tt.population, got, tt.wantKm)
		}
	}
}

func TestPadRectAcrossTheAntimeridian(t *testing.T) {
	r := padRect(geom.Rect{MinLat: -18, MaxLat: -17, MinLon: 179.9, MaxLon: 179.95}, 20)
	if r.MinLon < r.MaxLon {
		t.Fatalf("box %+v should cross the antimeridian", r)
	}
	for _, p := range []geom.Point{{Lat: -17.5, Lon: 179.99}, {Lat: -17.5, Lon: -179.9}} {
		if !r.Contains(p) {
			t.Errorf("box %+v misses %v", r, p)
		}
	}
	if s := r.Shape(); s.Valid() != nil || len(s) != 2 {
		t.Errorf("shape of a crossing box: %v", s)
	}
}

func TestAutocomplete(t *testing.T) {
	g := gazetteer(t)
	tests := []struct {
		text  string
		limit int
		want  []string // addresses that must be among the suggestions, in this order
		not   []string // addresses that must not be
		only  string   // every suggestion's address must contain this
	}{
		{text: "par", want: []string{"Paraguay", "Paris, Île-de-France, France"}},
		{text: "Pari", want: []string{"Paris, Île-de-France, France"}},
		// The state of São Paulo is named for its city: the name means the city.
		{text: "sao pa", want: []string{"São Paulo, São Paulo, Brazil"}, not: []string{"São Paulo, Brazil"}},
		{text: "São Pa", want: []string{"São Paulo, São Paulo, Brazil"}, not: []string{"São Paulo, Brazil"}},
		{text: "tex", want: []string{"Texas, United States"}},
		{text: "springfield, il", limit: 50, want: []string{"Springfield, Illinois, United States"}, only: "Illinois"},
		{text: "springfield, m", limit: 50, want: []string{"Springfield, Missouri, United States", "Springfield, Massachusetts, United States"}},
		{text: "san juan, pr", want: []string{"San Juan, San Juan, Puerto Rico"}, only: "Puerto Rico"},
		{text: "lond", limit: 3, want: []string{"London, England, United Kingdom", "Londrina, Paraná, Brazil", "London, Ontario, Canada"}},
		{text: "deutsch", want: []string{"Germany"}},
		{text: "qwzxyvb"},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			got, err := g.Autocomplete(context.Background(), tt.text, tt.limit)
			if err != nil {
				t.Fatal(err)
			}
			limit := tt.limit
			if limit == 0 {
				limit = defaultSuggestions
			}
			if len(got) > limit {
				t.Errorf("%d suggestions, limit %d", len(got), limit)
			}
			var addresses []string
			for i, s := range got {
				addresses = append(addresses, s.Address)
				if i > 0 && s.Population > got[i-1].Population {
					t.Errorf("suggestion %d (%s, %d) outranks %s (%d)", i, s.Address, s.Population, got[i-1].Address, got[i-1].Population)
				}
				if tt.only != "" && !strings.Contains(s.Address, tt.only) {
					t.Errorf("suggestion %q should be in %s", s.Address, tt.only)
				}
			}
			at := -1
			for _, w := range tt.want {
				i := slices.Index(addresses, w)
				if i <= at {
					t.Errorf("want %q after position %d in %q", w, at, addresses)
				}
				at = i
			}
			for _, n := range tt.not {
				if slices.Contains(addresses, n) {
					t.Errorf("%q should not be suggested: %q", n, addresses)
				}
			}
			if len(tt.want) == 0 && len(got) != 0 {
				t.Errorf("want no suggestions, got %q", addresses)
			}
		})
	}
}

func TestAutocompleteEmptyAndLimits(t *testing.T) {
	g := gazetteer(t)
	for _, tt := range []struct {
		text  string
		limit int
		want  int
	}{
		{"", 10, 0},
		{" , ", 10, 0},
		{"s", 0, defaultSuggestions},
		{"s", -3, defaultSuggestions},
		{"s", 1000, defaultSuggestions},
		{"s", 50, 50},
		{"s", 1, 1},
	} {
		got, err := g.Autocomplete(context.Background(), tt.text, tt.limit)
		if err != nil || len(got) != tt.want || got == nil {
			t.Errorf("Autocomplete(%q, %d) = %d suggestions, %v; want %d", tt.text, tt.limit, len(got), err, tt.want)
		}
	}
}

// A suggestion's address, looked up, finds the same place: the builder sends it back verbatim.
func TestSuggestionsLookUpToThemselves(t *testing.T) {
	g := gazetteer(t)
	for _, prefix := range []string{"a", "new", "san", "sai", "wash", "ile", "g", "springfield", "u"} {
		suggestions, err := g.Autocomplete(context.Background(), prefix, 50)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range suggestions {
			r, err := g.Lookup(context.Background(), s.Address)
			if err != nil {
				t.Errorf("Lookup(%q): %v", s.Address, err)
				continue
			}
			// Homonyms with the same display (two Washingtons in England) give the most populous.
			if r.Address != s.Address || r.Kind != s.Kind {
				t.Errorf("Lookup(%q) = %q (%s), want the suggestion (%s)", s.Address, r.Address, r.Kind, s.Kind)
			}
		}
	}
}

func TestInUSTerritory(t *testing.T) {
	g := gazetteer(t)
	tests := []struct {
		name string
		p    geom.Point
		want bool
	}{
		{"Wake Island (atoll)", geom.Point{Lat: 19.2796, Lon: 166.6499}, true},
		{"Johnston Atoll", geom.Point{Lat: 16.7295, Lon: -169.5336}, true},
		{"Jarvis Island", geom.Point{Lat: -0.3744, Lon: -159.9962}, true},
		{"Midway Atoll", geom.Point{Lat: 28.2072, Lon: -177.3735}, true},
		{"San Juan, Puerto Rico", geom.Point{Lat: 18.4655, Lon: -66.1057}, true},
		{"Hagåtña, Guam", geom.Point{Lat: 13.4757, Lon: 144.7489}, true},
		{"Pago Pago, American Samoa", geom.Point{Lat: -14.2756, Lon: -170.702}, true},
		{"Charlotte Amalie, US Virgin Islands", geom.Point{Lat: 18.3419, Lon: -64.9307}, true},
		{"Saipan, Northern Mariana Islands", geom.Point{Lat: 15.1833, Lon: 145.75}, true},
		{"Honolulu", geom.Point{Lat: 21.3069, Lon: -157.8583}, true},
		{"Anchorage", geom.Point{Lat: 61.2181, Lon: -149.9003}, true},
		{"Key West", geom.Point{Lat: 24.5551, Lon: -81.78}, true},
		{"London", geom.Point{Lat: 51.5074, Lon: -0.1278}, false},
		{"Tijuana, 5 km from the border", geom.Point{Lat: 32.5149, Lon: -117.0382}, false},
		{"Windsor, Ontario, across from Detroit", geom.Point{Lat: 42.3149, Lon: -83.0364}, false},
		{"Havana", geom.Point{Lat: 23.1136, Lon: -82.3666}, false},
		{"Road Town, British Virgin Islands", geom.Point{Lat: 18.4286, Lon: -64.6185}, false},
		{"open Pacific", geom.Point{Lat: 0, Lon: -140}, false},
	}
	for _, tt := range tests {
		if got := g.InUSTerritory(tt.p); got != tt.want {
			t.Errorf("%s %v: InUSTerritory = %v, want %v", tt.name, tt.p, got, tt.want)
		}
	}
}

func BenchmarkInUSTerritory(b *testing.B) {
	g := gazetteer(b)
	rng := rand.New(rand.NewPCG(5, 6))
	points := make([]geom.Point, 1024)
	for i := range points {
		points[i] = geom.Point{Lat: rng.Float64()*140 - 60, Lon: rng.Float64()*360 - 180}
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		g.InUSTerritory(points[i%len(points)])
	}
}

func TestResultForms(t *testing.T) {
	g := gazetteer(t)
	r, err := g.Lookup(context.Background(), "San Juan, Puerto Rico")
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var reply struct {
		Address string     `json:"address"`
		Bounds  string     `json:"bounds"`
		InUS    *bool      `json:"is_address_in_us_territory"`
		Point   geom.Point `json:"point"`
	}
	if err := json.Unmarshal(b, &reply); err != nil {
		t.Fatal(err)
	}
	bounds, err := geom.ParseWKT(reply.Bounds)
	if err != nil {
		t.Fatalf("bounds %q: %v", reply.Bounds, err)
	}
	if reply.Address != r.Address || reply.InUS == nil || !*reply.InUS || !bounds.Contains(reply.Point) {
		t.Errorf("address reply %s", b)
	}

	feature, err := r.GeoJSON()
	if err != nil {
		t.Fatal(err)
	}
	shape, err := geom.ParseGeoJSON(feature)
	if err != nil {
		t.Fatalf("%s: %v", feature, err)
	}
	if !shape.Contains(r.Point) {
		t.Errorf("GeoJSON bounds miss the point: %s", feature)
	}
	var props struct {
		Properties struct {
			Address string `json:"address"`
			InUS    bool   `json:"is_address_in_us_territory"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(feature, &props); err != nil || props.Properties.Address != r.Address || !props.Properties.InUS {
		t.Errorf("feature properties %s (%v)", feature, err)
	}
}

func FuzzLookup(f *testing.F) {
	g := gazetteer(f)
	for _, s := range []string{"Paris", "San Juan, PR", "São Paulo", ",,,", "Washington, D.C.", "\xff\xfe", "a,b,c,d,e"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, address string) {
		r, err := g.Lookup(context.Background(), address)
		if err != nil {
			if !errors.Is(err, ErrEmptyAddress) && !errors.Is(err, ErrNotFound) {
				t.Fatalf("Lookup(%q): unexpected error %v", address, err)
			}
			return
		}
		if r.Bounds.Valid() != nil || r.Address == "" {
			t.Fatalf("Lookup(%q) = %+v", address, r)
		}
		if _, err := g.Autocomplete(context.Background(), address, 5); err != nil {
			t.Fatal(err)
		}
	})
}
