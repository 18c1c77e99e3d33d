package geo

import (
	"bufio"
	"compress/gzip"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/sightline/sightline/internal/geom"
)

// The files are made by gen/main.go; see docs/geocoder.md for their sources and licences.
//
//go:embed data/*.gz
var dataFiles embed.FS

// place is one entry of the gazetteer: a city, a first-level region or a country.
type place struct {
	name       string
	key        string
	kind       Kind
	country    string // ISO 3166-1 alpha-2
	region     string // GeoNames admin1 key, "US.CA"; empty for countries
	population int    // for regions and countries, the sum of their cities
	point      geom.Point
	// shadowed marks a region outside the US named like a city inside it (the state of São Paulo):
	// the name means the city, so the region is not suggested and loses lookups to the city.
	shadowed bool
	// commonWord marks names that are also English words (Nice, Reading, Central): at the start
	// of a sentence they are more likely the word than the place.
	commonWord bool
}

// nameRef points from one name or alias key to a place, for prefix search.
type nameRef struct {
	key   string
	place int32
}

// Gazetteer is the embedded Geocoder. It is immutable once loaded and safe for concurrent use.
type Gazetteer struct {
	places []place
	byKey  map[string][]int32 // most populous first
	names  []nameRef          // sorted by key
	// abbreviations are alias keys written in capitals in the source ("USA", "UK"); in text they
	// count only when written in capitals.
	abbreviations map[string]bool

	countries map[string]int32 // country code -> place
	regions   map[string]int32 // admin1 key -> place
	// countryKeys and regionKeys are the keys that name a place's country or region in an
	// address qualifier ("Springfield, IL", "Paris, France").
	countryKeys map[string][]string
	regionKeys  map[string][]string
	cityBoxes   map[string]*pointBox // around the cities of each region (admin1 key) and country (code)

	shapes      map[string]geom.Shape // country code or US state admin1 key -> outline
	shapeBounds map[string]geom.Rect
	prepared    map[string]geom.Prepared // the outlines ready for point tests
}

// LoadGazetteer returns the gazetteer built from the embedded data. The first call parses it
// (about half a second); later calls return the same value.
func LoadGazetteer() (*Gazetteer, error) { return loadOnce() }

var loadOnce = sync.OnceValues(loadGazetteer)

func loadGazetteer() (*Gazetteer, error) {
	g := &Gazetteer{
		byKey:         map[string][]int32{},
		abbreviations: map[string]bool{},
		countries:     map[string]int32{},
		regions:       map[string]int32{},
		countryKeys:   map[string][]string{},
		regionKeys:    map[string][]string{},
		cityBoxes:     map[string]*pointBox{},
		shapes:        map[string]geom.Shape{},
		shapeBounds:   map[string]geom.Rect{},
		prepared:      map[string]geom.Prepared{},
	}
	steps := []struct {
		file string
		read func(io.Reader) error
	}{
		{"countries.tsv.gz", g.readCountries},
		{"admin1.tsv.gz", g.readRegions},
		{"cities.tsv.gz", g.readCities},
		{"shapes.ndjson.gz", g.readShapes},
	}
	for _, step := range steps {
		if err := readGzip("data/"+step.file, step.read); err != nil {
			return nil, fmt.Errorf("geo: %s: %w", step.file, err)
		}
	}
	g.placeCountriesAndRegions()
	g.index()
	return g, nil
}

func readGzip(name string, read func(io.Reader) error) error {
	f, err := dataFiles.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	return read(zr)
}

// eachLine calls fn with the tab-separated fields of every line, which must have want fields.
func eachLine(r io.Reader, want int, fn func([]string) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		fields := strings.Split(sc.Text(), "\t")
		if len(fields) != want {
			return fmt.Errorf("line %d: %d fields, want %d", n, len(fields), want)
		}
		if err := fn(fields); err != nil {
			return fmt.Errorf("line %d: %w", n, err)
		}
	}
	return sc.Err()
}

// readCountries reads "code, display name, aliases". Countries get their point and population
// once cities and shapes are read.
func (g *Gazetteer) readCountries(r io.Reader) error {
	return eachLine(r, 3, func(f []string) error {
		code, name := f[0], f[1]
		g.countries[code] = g.add(place{name: name, key: key(name), kind: KindCountry, country: code})
		keys := []string{strings.ToLower(code)}
		for _, alias := range strings.Split(f[2], "|") {
			k := key(alias)
			if alias == strings.ToUpper(alias) && alias != strings.ToLower(alias) { // not "مصر": Arabic has no capitals
				g.abbreviations[k] = true
			}
			if k != "" && !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
		g.countryKeys[code] = keys
		return nil
	})
}

// readRegions reads "admin1 key, name, common-word flag".
func (g *Gazetteer) readRegions(r io.Reader) error {
	return eachLine(r, 3, func(f []string) error {
		adminKey, name := f[0], f[1]
		country, code, ok := strings.Cut(adminKey, ".")
		if !ok {
			return fmt.Errorf("admin1 key %q has no country", adminKey)
		}
		g.regions[adminKey] = g.add(place{name: name, key: key(name), kind: KindRegion, country: country,
			region: adminKey, commonWord: f[2] == "1"})
		g.regionKeys[adminKey] = []string{key(name), strings.ToLower(code)}
		return nil
	})
}

// readCities reads "name, country, admin1 code, population, lat, lon, common-word flag" and adds
// each city's population to its region and country.
func (g *Gazetteer) readCities(r io.Reader) error {
	return eachLine(r, 7, func(f []string) error {
		pop, err := strconv.Atoi(f[3])
		if err != nil {
			return err
		}
		lat, err := strconv.ParseFloat(f[4], 64)
		if err != nil {
			return err
		}
		lon, err := strconv.ParseFloat(f[5], 64)
		if err != nil {
			return err
		}
		c := place{name: f[0], key: key(f[0]), kind: KindCity, country: f[1], population: pop,
			point: geom.Point{Lat: lat, Lon: lon}, commonWord: f[6] == "1"}
		if f[2] != "" {
			c.region = f[1] + "." + f[2]
		}
		if _, ok := g.regions[c.region]; !ok {
			c.region = "" // GeoNames codes some cities to regions it no longer lists
		}
		for _, area := range []string{c.region, c.country} {
			i, ok := g.regions[area]
			if !ok {
				i, ok = g.countries[area]
			}
			if !ok {
				continue
			}
			g.places[i].population += pop
			box := g.cityBoxes[area]
			if box == nil {
				box = &pointBox{}
				g.cityBoxes[area] = box
			}
			box.add(c.point)
		}
		g.add(c)
		return nil
	})
}

// readShapes reads one {"code","name","geometry"} object per line.
func (g *Gazetteer) readShapes(r io.Reader) error {
	dec := json.NewDecoder(r)
	for {
		var s struct {
			Code     string          `json:"code"`
			Geometry json.RawMessage `json:"geometry"`
		}
		if err := dec.Decode(&s); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
		shape, err := geom.ParseGeoJSON(s.Geometry)
		if err != nil {
			return fmt.Errorf("%s: %w", s.Code, err)
		}
		g.shapes[s.Code] = shape
		g.shapeBounds[s.Code] = shape.Bounds()
		g.prepared[s.Code] = shape.Prepare()
	}
}

// placeCountriesAndRegions gives countries and regions a point: the centre of the largest
// polygon of their outline, else the centre of the box around their cities. Places with neither
// (regions without towns, uninhabited islands) cannot be located and are left out of the index.
func (g *Gazetteer) placeCountriesAndRegions() {
	locate := func(i int32, area string) {
		if s, ok := g.shapes[area]; ok {
			g.places[i].point = largestPolygonCentre(s)
		} else if box, ok := g.cityBoxes[area]; ok {
			g.places[i].point = rectCentre(box.rect())
		} else {
			g.places[i].kind = "" // not indexed
		}
	}
	for code, i := range g.countries {
		locate(i, code)
	}
	for adminKey, i := range g.regions {
		locate(i, adminKey)
	}
}

// index fills byKey and names from every locatable place, its aliases included.
func (g *Gazetteer) index() {
	addKey := func(k string, i int32) {
		if k == "" || slices.Contains(g.byKey[k], i) {
			return
		}
		g.byKey[k] = append(g.byKey[k], i)
		g.names = append(g.names, nameRef{key: k, place: i})
	}
	for i := range g.places {
		p := &g.places[i]
		if p.kind == "" {
			continue
		}
		addKey(p.key, int32(i))
		if before, _, ok := strings.Cut(p.name, ","); ok && p.kind == KindCity {
			addKey(key(before), int32(i)) // "Washington, D.C." is also "Washington"
		}
		if p.kind == KindCountry {
			// The ISO code (first) qualifies addresses ("Paris, FR") but is no name: "IN" and "IT"
			// are words. Written abbreviations ("USA", "UK") are names.
			for j, k := range g.countryKeys[p.country] {
				if j > 0 || g.abbreviations[k] {
					addKey(k, int32(i))
				}
			}
		}
	}
	// Other names go to every place of the name in the country: "Москва" is the city and the
	// region of Moscow, as "Moscow" is, and mention finding chooses between them the same way.
	for _, o := range otherNames {
		for _, i := range g.byKey[key(o.name)] {
			if p := g.places[i]; p.country == o.country && p.name == o.name {
				for _, n := range strings.Split(o.names, "|") {
					addKey(key(n), i)
				}
			}
		}
	}
	for _, list := range g.byKey {
		sort.SliceStable(list, func(a, b int) bool { return g.places[list[a]].population > g.places[list[b]].population })
	}
	for _, i := range g.regions {
		r := &g.places[i]
		r.shadowed = r.country != "US" && slices.ContainsFunc(g.byKey[r.key], func(c int32) bool {
			return g.places[c].kind == KindCity && g.places[c].region == r.region
		})
	}
	sort.Slice(g.names, func(a, b int) bool {
		if g.names[a].key != g.names[b].key {
			return g.names[a].key < g.names[b].key
		}
		return g.names[a].place < g.names[b].place
	})
}

func (g *Gazetteer) add(p place) int32 {
	g.places = append(g.places, p)
	return int32(len(g.places) - 1)
}

// pointBox is the smallest box around some points. Longitudes are tracked both in [-180, 180]
// and in [0, 360) so that a region straddling the antimeridian gets a narrow box crossing it
// rather than one spanning the globe.
type pointBox struct {
	n                    int
	minLat, maxLat       float64
	minLon, maxLon       float64
	minLon360, maxLon360 float64
}

func (b *pointBox) add(p geom.Point) {
	lon360 := p.Lon
	if lon360 < 0 {
		lon360 += 360
	}
	if b.n == 0 {
		b.minLat, b.maxLat, b.minLon, b.maxLon, b.minLon360, b.maxLon360 = p.Lat, p.Lat, p.Lon, p.Lon, lon360, lon360
	}
	b.n++
	b.minLat, b.maxLat = math.Min(b.minLat, p.Lat), math.Max(b.maxLat, p.Lat)
	b.minLon, b.maxLon = math.Min(b.minLon, p.Lon), math.Max(b.maxLon, p.Lon)
	b.minLon360, b.maxLon360 = math.Min(b.minLon360, lon360), math.Max(b.maxLon360, lon360)
}

func (b *pointBox) rect() geom.Rect {
	r := geom.Rect{MinLat: b.minLat, MaxLat: b.maxLat, MinLon: b.minLon, MaxLon: b.maxLon}
	if b.maxLon360-b.minLon360 < b.maxLon-b.minLon {
		r.MinLon, r.MaxLon = wrapLon(b.minLon360), wrapLon(b.maxLon360)
	}
	return r
}

func rectCentre(r geom.Rect) geom.Point {
	lon := (r.MinLon + r.MaxLon) / 2
	if r.MinLon > r.MaxLon { // crosses the antimeridian
		lon = wrapLon((r.MinLon + r.MaxLon + 360) / 2)
	}
	return geom.Point{Lat: (r.MinLat + r.MaxLat) / 2, Lon: lon}
}

// largestPolygonCentre is the area centroid of the shape's largest outer ring in the plane: the
// mainland's middle, not the middle of a country's scattered islands.
func largestPolygonCentre(s geom.Shape) geom.Point {
	var best geom.Point
	bestArea := -1.0
	for _, poly := range s {
		if len(poly) == 0 {
			continue
		}
		var area, cx, cy, shift float64
		ring := poly[0]
		for i := 1; i < len(ring); i++ {
			// Longitudes are unwrapped so a ring crossing the antimeridian stays in one piece.
			a, b := ring[i-1], ring[i]
			a.Lon += shift
			if d := b.Lon + shift - a.Lon; d > 180 {
				shift -= 360
			} else if d < -180 {
				shift += 360
			}
			b.Lon += shift
			cross := a.Lon*b.Lat - b.Lon*a.Lat
			area += cross
			cx += (a.Lon + b.Lon) * cross
			cy += (a.Lat + b.Lat) * cross
		}
		if area == 0 {
			continue
		}
		if math.Abs(area) > bestArea {
			bestArea = math.Abs(area)
			best = geom.Point{Lat: cy / (3 * area), Lon: wrapLon(cx / (3 * area))}
		}
	}
	return best
}
