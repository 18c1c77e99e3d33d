package geo

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/sightline/sightline/internal/geom"
	"github.com/sightline/sightline/internal/problem"
)

// The testdata replies follow Photon's GeoJSON output: FeatureCollection, [lon, lat] points,
// extent as west, north, east, south; one feature (a street without a name) is to be skipped.

// photonServer replies to /api with the named testdata file, or with status when it is not 200,
// and records the last query.
func photonServer(t *testing.T, file string, status int) (*httptest.Server, *url.Values) {
	t.Helper()
	var body []byte
	if file != "" {
		var err error
		if body, err = os.ReadFile("testdata/" + file); err != nil {
			t.Fatal(err)
		}
	}
	var last url.Values
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api" {
			http.NotFound(w, r)
			return
		}
		last = r.URL.Query()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv, &last
}

func TestPhotonAutocomplete(t *testing.T) {
	srv, query := photonServer(t, "photon_san_juan.json", http.StatusOK)
	p := NewPhoton(srv.URL+"/", "en", nil)
	got, err := p.Autocomplete(context.Background(), "san juan", 5)
	if err != nil {
		t.Fatal(err)
	}
	if q := *query; q.Get("q") != "san juan" || q.Get("limit") != "5" || q.Get("lang") != "en" {
		t.Errorf("query %v", q)
	}
	want := []Suggestion{
		{Address: "San Juan, Puerto Rico", Name: "San Juan", Country: "Puerto Rico", CountryCode: "PR", Kind: KindCity, Point: geom.Point{Lat: 18.4655394, Lon: -66.1057355}},
		{Address: "San Juan, Argentina", Name: "San Juan", Region: "San Juan", Country: "Argentina", CountryCode: "AR", Kind: KindCity, Point: geom.Point{Lat: -31.5375, Lon: -68.5364136}},
		{Address: "San Juan, Metro Manila, Philippines", Name: "San Juan", Region: "Metro Manila", Country: "Philippines", CountryCode: "PH", Kind: KindCity, Point: geom.Point{Lat: 14.6, Lon: 121.0333}},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d suggestions %+v, want %d", len(got), got, len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("suggestion %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if empty, err := p.Autocomplete(context.Background(), " ", 5); err != nil || len(empty) != 0 || empty == nil {
		t.Errorf("blank text: %v, %v", empty, err)
	}
}

func TestPhotonLookup(t *testing.T) {
	g := gazetteer(t)
	tests := []struct {
		file    string
		address string
		name    string
		kind    Kind
		inUS    bool
		inside  []geom.Point
	}{
		{"photon_san_juan.json", "San Juan", "San Juan", KindCity, true, []geom.Point{{Lat: 18.42, Lon: -66.05}}},
		// Photon's extent of Fiji crosses the antimeridian.
		{"photon_fiji.json", "Fiji", "Fiji", KindCountry, false, []geom.Point{{Lat: -17.7, Lon: 178}, {Lat: -16.5, Lon: -179.9}}},
		// No country code: the gazetteer decides from the point, within its atoll tolerance.
		{"photon_wake.json", "Wake Island", "Wake Island", KindPlace, true, []geom.Point{{Lat: 19.3, Lon: 166.64}}},
	}
	for _, tt := range tests {
		t.Run(tt.address, func(t *testing.T) {
			srv, query := photonServer(t, tt.file, http.StatusOK)
			r, err := NewPhoton(srv.URL, "", g).Lookup(context.Background(), tt.address)
			if err != nil {
				t.Fatal(err)
			}
			if q := *query; q.Get("limit") != "1" || q.Has("lang") {
				t.Errorf("query %v", q)
			}
			if r.Name != tt.name || r.Kind != tt.kind || r.IsAddressInUSTerritory != tt.inUS {
				t.Errorf("got %+v", r)
			}
			if err := r.Bounds.Valid(); err != nil {
				t.Fatal(err)
			}
			for _, p := range append(tt.inside, r.Point) {
				if !r.Bounds.Contains(p) {
					t.Errorf("bounds %+v miss %v", r.Bounds.Bounds(), p)
				}
			}
		})
	}
}

func TestPhotonErrors(t *testing.T) {
	empty, _ := photonServer(t, "", http.StatusOK)
	if _, err := NewPhoton(empty.URL, "", nil).Lookup(context.Background(), "x"); !problem.Is(err, problem.KindBadGateway) {
		t.Errorf("an empty body should fail to decode, as a bad gateway: %v", err)
	}
	down, _ := photonServer(t, "", http.StatusServiceUnavailable)
	if _, err := NewPhoton(down.URL, "", nil).Autocomplete(context.Background(), "x", 3); !problem.Is(err, problem.KindBadGateway) ||
		!strings.Contains(err.Error(), "503") {
		t.Errorf("a 503 should fail as a bad gateway, naming the status: %v", err)
	}
	none, _ := photonServer(t, "photon_wake.json", http.StatusOK)
	p := NewPhoton(none.URL, "", nil)
	if _, err := p.Lookup(context.Background(), " , "); !errors.Is(err, ErrEmptyAddress) {
		t.Errorf("blank address: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Lookup(ctx, "Wake"); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}

	nothing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"type":"FeatureCollection","features":[]}`))
	}))
	defer nothing.Close()
	var nf *NotFoundError
	if _, err := NewPhoton(nothing.URL, "", nil).Lookup(context.Background(), "Qwzxy"); !errors.As(err, &nf) {
		t.Errorf("no features: %v", err)
	}
}
