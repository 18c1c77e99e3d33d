package api_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/filters"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

const configurations = "/api/v1/configurations-manager/configurations"

func TestLocationConfigurationAccessMatrix(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		fe := newFiltersEnv(t, s)
		c := fe.client()
		people := []string{"creator@acme.test", "owner@acme.test", "admin@acme.test", "analyst@acme.test", "owner@globex.test"}
		tokens := map[string]string{}
		for _, p := range people {
			tokens[p] = fe.bearerFor(p)
		}
		create := func(token, name, address string) reply {
			t.Helper()
			return c.do("POST", configurations, map[string]string{"name": name, "address": address}, withBearer(token))
		}

		type outcome struct {
			status  int
			message string
		}
		ok200, gone := outcome{status: 200}, outcome{404, authz.MsgNotFoundLocation}
		editors := map[string]outcome{"creator@acme.test": ok200, "owner@acme.test": ok200, "admin@acme.test": ok200,
			"analyst@acme.test": {403, authz.MsgLocationReadOnly}, "owner@globex.test": gone}
		readers := map[string]outcome{"creator@acme.test": ok200, "owner@acme.test": ok200, "admin@acme.test": ok200,
			"analyst@acme.test": ok200, "owner@globex.test": gone}
		tests := []struct {
			name   string
			method string
			byFPID bool
			body   any
			want   map[string]outcome
		}{
			{"read by id", "GET", false, nil, readers},
			{"read by fpid", "GET", true, nil, readers},
			{"rename", "PUT", false, map[string]string{"name": "Renamed", "address": "Paris, France"}, editors},
			{"move by fpid", "PUT", true, map[string]string{"name": "Moved", "address": "Lyon, France"}, editors},
			{"delete", "DELETE", false, nil, editors},
		}
		for _, tt := range tests {
			for _, person := range people {
				t.Run(tt.name+" by "+person, func(t *testing.T) {
					made := create(tokens["creator@acme.test"], "Paris office", "Paris, France")
					if made.status != 201 {
						t.Fatalf("create = %d %v", made.status, made.body)
					}
					ref := fmt.Sprint(int64(dig(made.body, "data", "id").(float64)))
					if tt.byFPID {
						ref = dig(made.body, "data", "fpid").(string)
					}
					r := c.do(tt.method, configurations+"/"+ref, tt.body, withBearer(tokens[person]))
					want := tt.want[person]
					if r.status != want.status || (want.message != "" && r.body["message"] != want.message) {
						t.Errorf("= %d %v, want %d %q", r.status, r.body, want.status, want.message)
					}
				})
			}
		}

		// Everyone in the organization may add configurations and see them all; canEdit says who
		// may change each.
		for _, person := range people {
			if r := create(tokens[person], "Made by "+person, "Berlin"); r.status != 201 ||
				dig(r.body, "data", "canEdit") != true || dig(r.body, "data", "owner", "email") != person {
				t.Errorf("%s creates: %d %v", person, r.status, r.body)
			}
		}
		canEdit := func(person, name string) any {
			r := c.do("GET", configurations+"?limit=1000&q="+url.QueryEscape(name), nil, withBearer(tokens[person]))
			items, _ := r.body["data"].([]any)
			if r.status != 200 || len(items) != 1 {
				return fmt.Sprintf("%d items (%d)", len(items), r.status)
			}
			return items[0].(map[string]any)["canEdit"]
		}
		for person, want := range map[string]any{"creator@acme.test": true, "admin@acme.test": true, "analyst@acme.test": false,
			"owner@globex.test": "0 items (200)"} {
			if got := canEdit(person, "Made by creator"); got != want {
				t.Errorf("%s: canEdit %v, want %v", person, got, want)
			}
		}
	})
}

func TestLocationConfigurationsManager(t *testing.T) {
	fe := newFiltersEnv(t, storetest.Open(t, store.SQLite))
	c := fe.client()
	token := fe.bearerFor("analyst@acme.test")
	for i := 1; i <= 22; i++ {
		if r := c.do("POST", configurations, map[string]string{"name": fmt.Sprintf("Site %02d", i), "address": "Madrid"},
			withBearer(token)); r.status != 201 {
			t.Fatalf("create %d = %d %v", i, r.status, r.body)
		}
	}
	zurich := c.do("POST", configurations, map[string]string{"name": "Zürich office", "address": "  Zurich,   Switzerland "}, withBearer(token))
	if zurich.status != 201 || dig(zurich.body, "data", "address") != "Zurich, Switzerland" ||
		dig(zurich.body, "data", "address_bounds", "type") != "Feature" ||
		dig(zurich.body, "data", "address_bounds", "properties", "country_code") != "CH" ||
		dig(zurich.body, "data", "address_bounds", "geometry", "type") == nil {
		t.Fatalf("create = %d %v", zurich.status, zurich.body)
	}

	type meta struct {
		current, last, perPage, total int
		from, to                      any
		prev, next                    any
		names                         []string
	}
	page := func(query string) (meta, reply) {
		r := c.do("GET", configurations+query, nil, withBearer(token))
		if r.status != 200 {
			return meta{}, r
		}
		m := meta{current: int(dig(r.body, "meta", "current_page").(float64)), last: int(dig(r.body, "meta", "last_page").(float64)),
			perPage: int(dig(r.body, "meta", "per_page").(float64)), total: int(dig(r.body, "meta", "total").(float64)),
			from: dig(r.body, "meta", "from"), to: dig(r.body, "meta", "to"),
			prev: dig(r.body, "links", "prev"), next: dig(r.body, "links", "next")}
		for _, item := range r.body["data"].([]any) {
			m.names = append(m.names, item.(map[string]any)["name"].(string))
		}
		return m, r
	}
	tests := []struct {
		query                   string
		current, last, per, tot int
		from, to                any
		prev, next              any
		first, lastName         string
		count                   int
	}{
		{"", 0, 2, 10, 23, 1.0, 10.0, nil, configurations + "?limit=10&page=1", "Site 01", "Site 10", 10},
		{"?page=2", 2, 2, 10, 23, 21.0, 23.0, configurations + "?limit=10&page=1", nil, "Site 21", "Zürich office", 3},
		{"?page=5", 5, 2, 10, 23, nil, nil, configurations + "?limit=10&page=2", nil, "", "", 0},
		{"?limit=1000", 0, 0, 1000, 23, 1.0, 23.0, nil, nil, "Site 01", "Zürich office", 23},
		{"?q=ZURICH", 0, 0, 10, 1, 1.0, 1.0, nil, nil, "Zürich office", "Zürich office", 1},
		{"?q=site+2&limit=2", 0, 1, 2, 3, 1.0, 2.0, nil, configurations + "?limit=2&page=1&q=site+2", "Site 20", "Site 21", 2},
		{"?q=nothing", 0, 0, 10, 0, nil, nil, nil, nil, "", "", 0},
	}
	for _, tt := range tests {
		m, r := page(tt.query)
		if r.status != 200 {
			t.Errorf("%s = %d %v", tt.query, r.status, r.body)
			continue
		}
		first, last := "", ""
		if len(m.names) > 0 {
			first, last = m.names[0], m.names[len(m.names)-1]
		}
		if m.current != tt.current || m.last != tt.last || m.perPage != tt.per || m.total != tt.tot || m.from != tt.from ||
			m.to != tt.to || m.prev != tt.prev || m.next != tt.next || first != tt.first || last != tt.lastName ||
			len(m.names) != tt.count {
			t.Errorf("%s: %+v", tt.query, m)
		}
	}
	for _, query := range []string{"?limit=1001", "?limit=0", "?page=-1", "?page=first"} {
		if r := c.do("GET", configurations+query, nil, withBearer(token)); r.status != 422 {
			t.Errorf("%s = %d, want 422", query, r.status)
		}
	}

	invalid := []struct {
		body    map[string]string
		field   string
		message string
	}{
		{map[string]string{"address": "Paris"}, "name", filters.MsgNameRequired},
		{map[string]string{"name": "HQ"}, "address", "The address field is required."},
		{map[string]string{"name": "HQ", "address": "Atlantis, Narnia"}, "address",
			"We could not find this address. Check the spelling or try a nearby city."},
	}
	for _, tt := range invalid {
		if r := c.do("POST", configurations, tt.body, withBearer(token)); r.status != 422 || fieldError(r, tt.field) != tt.message {
			t.Errorf("%v = %d %v", tt.body, r.status, r.body)
		}
	}

	// Moving a configuration geocodes the new address; renaming keeps the bounds. The city is
	// named as the gazetteer writes it (its other names, "Geneva" among them, find it).
	ref := configurations + "/" + dig(zurich.body, "data", "fpid").(string)
	moved := c.do("PUT", ref, map[string]string{"name": "Geneva office", "address": "Geneva, Switzerland"}, withBearer(token))
	if moved.status != 200 || dig(moved.body, "data", "address_bounds", "properties", "name") != "Genève" {
		t.Errorf("move = %d %v", moved.status, moved.body)
	}

	geocoded := c.do("GET", "/api/v1/configurations-manager/geocode?address="+url.QueryEscape("Lyon, France"), nil, withBearer(token))
	if geocoded.status != 200 || dig(geocoded.body, "data", "type") != "Feature" || dig(geocoded.body, "data", "properties", "name") != "Lyon" {
		t.Errorf("geocode = %d %v", geocoded.status, geocoded.body)
	}
	if r := c.do("GET", "/api/v1/configurations-manager/geocode?address=Atlantis,+Narnia", nil, withBearer(token)); r.status != 422 {
		t.Errorf("geocode nowhere = %d %v", r.status, r.body)
	}

	// The asset limit counts location configurations.
	a := fe.actor("analyst@acme.test")
	setAssetLimit(t, fe.env, a.OrganizationID, 23)
	r := c.do("POST", configurations, map[string]string{"name": "One too many", "address": "Rome"}, withBearer(token))
	if r.status != 422 || r.body["limitExceeded"] != true || r.body["title"] != account.MsgAssetLimitTitle ||
		r.body["description"] != account.MsgAssetLimitDescription {
		t.Errorf("over the asset limit = %d %v", r.status, r.body)
	}
	if r := c.do("DELETE", ref, nil, withBearer(token)); r.status != 200 {
		t.Fatalf("delete = %d %v", r.status, r.body)
	}
	if r := c.do("POST", configurations, map[string]string{"name": "Fits again", "address": "Rome"}, withBearer(token)); r.status != 201 {
		t.Errorf("under the limit again = %d %v", r.status, r.body)
	}
}

func TestLocationConfigurationImport(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		fe := newFiltersEnv(t, s)
		c := fe.client()
		acme, globex := fe.bearerFor("analyst@acme.test"), fe.bearerFor("owner@globex.test")
		importCSV := func(token, body string) reply {
			return c.sendRaw("POST", configurations+"/import", "text/csv", []byte(body), withBearer(token))
		}

		// A header row names the columns, in any order; blank lines are skipped.
		r := importCSV(acme, "Address,Name\n\"Paris, France\",Paris office\n\"Atlantis, Narnia\",Lost city\n"+
			"\"Lyon, France\",\n\n\"Lyon, France\",Lyon depot\n")
		if r.status != 200 {
			t.Fatalf("import = %d %v", r.status, r.body)
		}
		if got := fmt.Sprint(dig(r.body, "data", "created"), dig(r.body, "data", "failed")); got != "2 2" {
			t.Errorf("created and failed = %s, want 2 2: %v", got, r.body)
		}
		var lines []string
		for _, p := range dig(r.body, "data", "places").([]any) {
			p := p.(map[string]any)
			lines = append(lines, fmt.Sprint(p["line"], "|", p["name"], "|", p["created"], "|", p["message"]))
		}
		want := []string{
			"2|Paris office|true|<nil>",
			"3|Lost city|false|We could not find this address. Check the spelling or try a nearby city.",
			"4||false|The name field is required.",
			"6|Lyon depot|true|<nil>",
		}
		if fmt.Sprint(lines) != fmt.Sprint(want) {
			t.Errorf("report lines = %q\nwant %q", lines, want)
		}

		// The organization's list holds what was created; another organization sees none of it.
		if r := c.do("GET", configurations, nil, withBearer(acme)); fmt.Sprint(dig(r.body, "meta", "total")) != "2" {
			t.Errorf("acme has %v configurations", dig(r.body, "meta", "total"))
		}
		if r := c.do("GET", configurations, nil, withBearer(globex)); fmt.Sprint(dig(r.body, "meta", "total")) != "0" {
			t.Errorf("globex sees %v configurations", dig(r.body, "meta", "total"))
		}

		for _, bad := range []struct{ name, body, message string }{
			{"nothing in it", "name,address\n\n", "The file names no place: put a name and an address on each line."},
			{"too many places", strings.Repeat("Depot,\"Paris, France\"\n", filters.MaxImportPlaces+1),
				fmt.Sprintf("An import may hold at most %d places; this file has %d.", filters.MaxImportPlaces, filters.MaxImportPlaces+1)},
		} {
			t.Run(bad.name, func(t *testing.T) {
				r := importCSV(acme, bad.body)
				if r.status != 422 || fmt.Sprint(dig(r.body, "errors", "file")) != "["+bad.message+"]" {
					t.Errorf("= %d %v", r.status, r.body)
				}
			})
		}
	})
}

// A configuration's proximity radius: the default follows the address's bounds, a chosen one is
// kept, a place may be given as coordinates (its bounds the circle of its radius), and bad
// numbers get the field's message.
func TestLocationConfigurationRadius(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		fe := newFiltersEnv(t, s)
		c := fe.client()
		acme := fe.bearerFor("analyst@acme.test")
		radius := func(r reply) string {
			return fmt.Sprint(dig(r.body, "data", "radius_meters"), " ", dig(r.body, "data", "radius_is_default"))
		}

		byAddress := c.do("POST", configurations, map[string]any{"name": "Paris office", "address": "Paris, France"}, withBearer(acme))
		if byAddress.status != 201 {
			t.Fatalf("create = %d %v", byAddress.status, byAddress.body)
		}
		defaultRadius := dig(byAddress.body, "data", "radius_meters").(float64)
		if dig(byAddress.body, "data", "radius_is_default") != true || defaultRadius < 1000 || defaultRadius > filters.MaxRadiusMeters {
			t.Errorf("default radius of Paris = %s, want a few km, default", radius(byAddress))
		}
		center := dig(byAddress.body, "data", "center").(map[string]any)
		if lat := center["lat"].(float64); lat < 48 || lat > 49.5 {
			t.Errorf("center of Paris = %v", center)
		}
		ref := dig(byAddress.body, "data", "fpid").(string)
		chosen := c.do("PUT", configurations+"/"+ref, map[string]any{"name": "Paris office", "address": "Paris, France",
			"radius_meters": 2500}, withBearer(acme))
		if radius(chosen) != "2500 false" || fmt.Sprint(dig(chosen.body, "data", "address_bounds")) !=
			fmt.Sprint(dig(byAddress.body, "data", "address_bounds")) {
			t.Errorf("chosen radius = %d %s, bounds changed: %v", chosen.status, radius(chosen), chosen.body)
		}
		if again := c.do("GET", configurations+"/"+ref, nil, withBearer(acme)); radius(again) != "2500 false" {
			t.Errorf("stored radius = %s", radius(again))
		}

		byPoint := c.do("POST", configurations, map[string]any{"name": "Depot", "lat": 51.5072, "lon": -0.1276,
			"radius_meters": 300}, withBearer(acme))
		if byPoint.status != 201 || radius(byPoint) != "300 false" || dig(byPoint.body, "data", "address") != "51.50720, -0.12760" {
			t.Fatalf("create by point = %d %s %v", byPoint.status, radius(byPoint), byPoint.body)
		}
		if p := dig(byPoint.body, "data", "point"); fmt.Sprint(p) != "map[lat:51.5072 lon:-0.1276]" {
			t.Errorf("point = %v", p)
		}
		if p := dig(byAddress.body, "data", "point"); p != nil {
			t.Errorf("an address's point = %v, want null", p)
		}
		ring := dig(byPoint.body, "data", "address_bounds", "geometry", "coordinates").([]any)[0].([]any)
		if len(ring) != 65 {
			t.Errorf("a point's bounds have %d positions, want the 65 of a closed circle", len(ring))
		}
		// Back to the default: 1 km for a point.
		pointRef := dig(byPoint.body, "data", "fpid").(string)
		if r := c.do("PUT", configurations+"/"+pointRef, map[string]any{"name": "Depot", "lat": 51.5072, "lon": -0.1276},
			withBearer(acme)); radius(r) != "1000 true" {
			t.Errorf("default point radius = %d %s", r.status, radius(r))
		}

		for _, bad := range []struct {
			name  string
			body  map[string]any
			field string
			msg   string
		}{
			{"radius too small", map[string]any{"name": "X", "address": "Paris, France", "radius_meters": 5}, "radius_meters", filters.MsgRadiusRange},
			{"radius too large", map[string]any{"name": "X", "address": "Paris, France", "radius_meters": 600_000}, "radius_meters", filters.MsgRadiusRange},
			{"latitude out of range", map[string]any{"name": "X", "lat": 91, "lon": 0}, "lat", filters.MsgLatitudeRange},
			{"longitude out of range", map[string]any{"name": "X", "lat": 0, "lon": -181}, "lon", filters.MsgLongitudeRange},
			{"latitude alone", map[string]any{"name": "X", "lat": 10}, "lat", filters.MsgCoordinatesPair},
		} {
			t.Run(bad.name, func(t *testing.T) {
				r := c.do("POST", configurations, bad.body, withBearer(acme))
				if r.status != 422 || fmt.Sprint(dig(r.body, "errors", bad.field)) != "["+bad.msg+"]" {
					t.Errorf("= %d %v", r.status, r.body)
				}
			})
		}

		// An import mixes addresses and coordinates, with radii; bad numbers refuse their line.
		r := c.sendRaw("POST", configurations+"/import", "text/csv", []byte("name,address,latitude,longitude,radius\n"+
			"Gate A,,48.8584,2.2945,150\n"+
			"HQ,\"Lyon, France\",,,\n"+
			"Bad lat,,north,2.29,\n"+
			"Bad radius,,48.85,2.29,wide\n"+
			"Far,,48.85,2.29,900000\n"), withBearer(acme))
		var lines []string
		for _, p := range dig(r.body, "data", "places").([]any) {
			p := p.(map[string]any)
			lines = append(lines, fmt.Sprint(p["line"], "|", p["name"], "|", p["address"], "|", p["created"], "|", p["message"]))
		}
		want := []string{
			"2|Gate A|48.85840, 2.29450|true|<nil>",
			"3|HQ|Lyon, France|true|<nil>",
			"4|Bad lat||false|" + filters.MsgLatitudeRange,
			"5|Bad radius||false|" + filters.MsgRadiusRange,
			"6|Far||false|" + filters.MsgRadiusRange,
		}
		if r.status != 200 || fmt.Sprint(lines) != fmt.Sprint(want) {
			t.Errorf("import = %d\n%q\nwant %q", r.status, lines, want)
		}
		list := c.do("GET", configurations+"?q=gate", nil, withBearer(acme))
		if got := dig(list.body, "data").([]any); len(got) != 1 || fmt.Sprint(got[0].(map[string]any)["radius_meters"]) != "150" {
			t.Errorf("imported gate = %v", list.body)
		}
	})
}
