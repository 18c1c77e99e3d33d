package percolate

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/geom"
)

var now = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func at(t time.Time) *time.Time { return &t }

func mustShape(t testing.TB, wkt string) geom.Shape {
	s, err := geom.ParseWKT(wkt)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestCompileProblems(t *testing.T) {
	base := SavedSearch{ID: 1, Keywords: "osint", Providers: []string{"reddit"}, Enabled: true}
	tests := []struct {
		name  string
		edit  func(*SavedSearch)
		codes []string
	}{
		{"valid", func(*SavedSearch) {}, nil},
		{"bad keywords", func(s *SavedSearch) { s.Keywords = "a and (b" }, []string{"lowercase_operator", "unbalanced_brackets"}},
		{"nothing to search", func(s *SavedSearch) { s.Keywords = "" }, []string{CodeEmptySearch}},
		{"author only", func(s *SavedSearch) { s.Keywords, s.Author = "", "@jane, Bob" }, nil},
		{"author with operators", func(s *SavedSearch) { s.Author = "jane OR bob" }, []string{CodeAuthorOperators}},
		{"no providers", func(s *SavedSearch) { s.Providers = nil }, []string{CodeNoProviders}},
		{"end before start", func(s *SavedSearch) { s.Start, s.End = at(now), at(now.Add(-time.Hour)) }, []string{CodeInvalidDateRange}},
		{"same start and end", func(s *SavedSearch) { s.Start, s.End = at(now), at(now) }, []string{CodeInvalidDateRange}},
		{"bad polygon", func(s *SavedSearch) { s.Bounds = geom.Shape{geom.Polygon{geom.Ring{{Lat: 0, Lon: 0}}}} }, []string{CodeInvalidBounds}},
		{"empty filter", func(s *SavedSearch) { s.Filters = []FilterList{{Kind: KeywordInclusion, Entries: []string{"!!"}}} }, []string{CodeEmptyFilter}},
		{"unknown filter", func(s *SavedSearch) { s.Filters = []FilterList{{Kind: "colour"}} }, []string{CodeUnknownFilter}},
		{"board only", func(s *SavedSearch) { s.Keywords, s.Boards = "", []string{"pol"} }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := base
			tt.edit(&s)
			_, err := Compile(s)
			var codes []string
			var ce *CompileError
			if errors.As(err, &ce) {
				for _, p := range ce.Problems {
					codes = append(codes, p.Code)
				}
			} else if err != nil {
				t.Fatalf("unexpected error type %T", err)
			}
			if !reflect.DeepEqual(codes, tt.codes) {
				t.Fatalf("codes = %v, want %v (%v)", codes, tt.codes, err)
			}
		})
	}
}

func TestConstraints(t *testing.T) {
	paris := mustShape(t, "POLYGON((2.2 48.8,2.5 48.8,2.5 48.95,2.2 48.95,2.2 48.8))")
	inParis := &geom.Point{Lat: 48.85, Lon: 2.35}
	post := Doc{
		Provider: "Reddit", Title: "Breaking", Text: "Protest near the Café tonight",
		AuthorName: "Jane Doe", AuthorScreenName: "@JaneD", Published: now.Add(-time.Hour),
		HasImages: true, Board: "WorldNews", Objects: []string{"Car", "person"},
	}
	// Areas across the date line, drawn across it and split at it as the geocoder does.
	drawnPacific := mustShape(t, "POLYGON((170 -20,-170 -20,-170 -10,170 -10,170 -20))")
	splitFiji := mustShape(t, "MULTIPOLYGON(((177 -19,180 -19,180 -16,177 -16,177 -19)),((-180 -19,-179 -19,-179 -16,-180 -16,-180 -19)))")
	postAt := func(lat, lon float64) Doc {
		d := post
		d.Location = &geom.Point{Lat: lat, Lon: lon}
		return d
	}
	withPoint := post
	withPoint.Location = inParis
	mentioning := post
	mentioning.Mentioned = []geom.Point{{Lat: 10, Lon: 10}, *inParis}
	search := SavedSearch{ID: 7, Keywords: "protest cafe", Providers: []string{"reddit"}, Enabled: true}
	tests := []struct {
		name string
		edit func(*SavedSearch)
		doc  Doc
		want bool
	}{
		{"keywords", func(*SavedSearch) {}, post, true},
		{"keywords in title", func(s *SavedSearch) { s.Keywords = "breaking" }, post, true},
		{"keywords missing", func(s *SavedSearch) { s.Keywords = "riot" }, post, false},
		{"disabled", func(s *SavedSearch) { s.Enabled = false }, post, false},
		{"paused", func(s *SavedSearch) { s.Paused = true }, post, false},
		{"other provider", func(s *SavedSearch) { s.Providers = []string{"telegram"} }, post, false},
		{"one of providers", func(s *SavedSearch) { s.Providers = []string{"telegram", "REDDIT"} }, post, true},
		{"author name", func(s *SavedSearch) { s.Author = "jane doe" }, post, true},
		{"author screen name", func(s *SavedSearch) { s.Author = "bob, janed" }, post, true},
		{"other author", func(s *SavedSearch) { s.Author = "bob" }, post, false},
		{"author only", func(s *SavedSearch) { s.Keywords, s.Author = "", "@janed" }, post, true},
		{"inside bounds", func(s *SavedSearch) { s.Bounds = paris }, withPoint, true},
		{"mentioned inside bounds", func(s *SavedSearch) { s.Bounds = paris }, mentioning, true},
		{"no location", func(s *SavedSearch) { s.Bounds = paris }, post, false},
		{"location only", func(s *SavedSearch) { s.Keywords, s.Bounds = "", paris }, withPoint, true},
		{"drawn across the date line, east of it", func(s *SavedSearch) { s.Bounds = drawnPacific }, postAt(-15, 175), true},
		{"drawn across the date line, west of it", func(s *SavedSearch) { s.Bounds = drawnPacific }, postAt(-15, -175), true},
		{"drawn across the date line, on it", func(s *SavedSearch) { s.Bounds = drawnPacific }, postAt(-15, 180), true},
		{"drawn across the date line, not the long way", func(s *SavedSearch) { s.Bounds = drawnPacific }, postAt(-15, 0), false},
		{"split at the date line, east part", func(s *SavedSearch) { s.Bounds = splitFiji }, postAt(-17.7, 178), true},
		{"split at the date line, west part", func(s *SavedSearch) { s.Bounds = splitFiji }, postAt(-16.5, -179.5), true},
		{"split at the date line, outside", func(s *SavedSearch) { s.Bounds = splitFiji }, postAt(-17.7, 170), false},
		{"within dates", func(s *SavedSearch) { s.Start, s.End = at(now.Add(-2*time.Hour)), at(now.Add(time.Hour)) }, post, true},
		{"published before start", func(s *SavedSearch) { s.Start = at(now.Add(-30 * time.Minute)) }, post, false},
		{"not started yet", func(s *SavedSearch) { s.Start = at(now.Add(time.Hour)) }, post, false},
		{"ended", func(s *SavedSearch) { s.End = at(now.Add(-time.Minute)) }, post, false},
		{"images only", func(s *SavedSearch) { s.ImagesOnly = true }, post, true},
		{"videos only", func(s *SavedSearch) { s.VideosOnly = true }, post, false},
		{"board", func(s *SavedSearch) { s.Boards = []string{"worldnews"} }, post, true},
		{"other board", func(s *SavedSearch) { s.Boards = []string{"pol"} }, post, false},
		{"inclusion list met", func(s *SavedSearch) {
			s.Filters = []FilterList{{Kind: KeywordInclusion, Entries: []string{"riot", "tonight"}}}
		}, post, true},
		{"inclusion list missed", func(s *SavedSearch) {
			s.Filters = []FilterList{{Kind: KeywordInclusion, Entries: []string{"riot"}}}
		}, post, false},
		{"exclusion list hit", func(s *SavedSearch) {
			s.Filters = []FilterList{{Kind: KeywordExclusion, Entries: []string{"the café"}}}
		}, post, false},
		{"excluded author", func(s *SavedSearch) {
			s.Filters = []FilterList{{Kind: AuthorExclusion, Entries: []string{"@janed"}}}
		}, post, false},
		{"detected object", func(s *SavedSearch) {
			s.Filters = []FilterList{{Kind: ObjectDetection, Entries: []string{"car"}}}
		}, post, true},
		{"object missing", func(s *SavedSearch) {
			s.Filters = []FilterList{{Kind: ObjectDetection, Entries: []string{"knife"}}}
		}, post, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := search
			tt.edit(&s)
			c, err := Compile(s)
			if err != nil {
				t.Fatal(err)
			}
			if got := c.Match(&tt.doc, now); got != tt.want {
				t.Fatalf("Compiled.Match = %v, want %v", got, tt.want)
			}
			ix := New()
			if err := ix.Put(s); err != nil {
				t.Fatal(err)
			}
			got := len(ix.Match(&tt.doc, now)) == 1
			if got != tt.want {
				t.Fatalf("Index.Match = %v, want %v", got, tt.want)
			}
		})
	}
}

// gen makes random searches and posts over a small vocabulary, so that terms, patterns and
// typos collide often.
type gen struct {
	r     *rand.Rand
	words []string
}

func newGen(seed uint64) *gen {
	words := strings.Fields("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu " +
		"café cafe naïve resume résumé straße strasse network networks work teamwork netwerk " +
		"colour color colr a an the of 2024 x_y ab ba abc acb protest protests riot riots " +
		"internationalization internationalisation pneumonoultramicroscopicsilicovolcanoconiosis")
	return &gen{r: rand.New(rand.NewPCG(seed, seed^0x9e37)), words: words}
}

func (g *gen) word() string { return g.words[g.r.IntN(len(g.words))] }

func (g *gen) typo(w string) string {
	r := []rune(w)
	if len(r) < 3 {
		return w
	}
	i := g.r.IntN(len(r) - 1)
	switch g.r.IntN(3) {
	case 0:
		r[i], r[i+1] = r[i+1], r[i]
	case 1:
		r = append(r[:i], r[i+1:]...)
	default:
		r[i] = 'z'
	}
	return string(r)
}

func (g *gen) pattern() string {
	w := []rune(g.word())
	switch g.r.IntN(12) {
	case 0:
		if len(w) > 2 {
			return string(w[:2]) + "*"
		}
	case 1:
		if len(w) > 2 {
			return "*" + string(w[len(w)-2:])
		}
	case 2:
		if len(w) > 3 {
			return "*" + string(w[1:3]) + "*"
		}
	case 3:
		if len(w) > 2 {
			w[1] = '?'
			return string(w)
		}
	case 4:
		return string(w) + "~" + fmt.Sprint(g.r.IntN(3))
	case 5:
		return string(w) + "~"
	case 6:
		return fmt.Sprintf("%q", g.word()+" "+g.word())
	case 7:
		return fmt.Sprintf("%q~%d", g.word()+" "+g.word(), g.r.IntN(3))
	case 8:
		if len(w) > 3 {
			return string(w[:len(w)-1]) + "*" // long literal starts
		}
	case 9:
		if len(w) > 3 {
			return "*" + string(w[1:]) // long literal ends
		}
	}
	return string(w)
}

func (g *gen) clause(depth int) string {
	switch n := g.r.IntN(10); {
	case depth < 2 && n < 2:
		return "(" + g.clause(depth+1) + " OR " + g.clause(depth+1) + ")"
	case depth < 2 && n < 3:
		return "(" + g.clause(depth+1) + " " + g.clause(depth+1) + ")"
	default:
		return g.pattern()
	}
}

func (g *gen) query() string {
	parts := []string{g.clause(0)}
	for g.r.IntN(3) == 0 {
		op := []string{" ", " AND ", " OR ", ", "}[g.r.IntN(4)]
		parts = append(parts, op, g.clause(0))
	}
	if g.r.IntN(4) == 0 {
		parts = append(parts, " -"+g.clause(1))
	}
	return strings.Join(parts, "")
}

var (
	providers = []string{"reddit", "telegram", "x", "mastodon"}
	authors   = []string{"jane", "bob", "@ann", "Ünal"}
	boards    = []string{"pol", "news", "tech"}
	box       = "POLYGON((0 0,10 0,10 10,0 10,0 0))"
	pacific   = "POLYGON((170 -10,-170 -10,-170 10,170 10,170 -10))"
)

func (g *gen) search(t testing.TB, id int64) SavedSearch {
	s := SavedSearch{ID: id, Enabled: g.r.IntN(20) != 0, Paused: g.r.IntN(20) == 0}
	pick := func(from []string, n int) []string {
		var out []string
		for range n {
			out = append(out, from[g.r.IntN(len(from))])
		}
		return out
	}
	s.Providers = pick(providers, 1+g.r.IntN(2))
	if g.r.IntN(6) != 0 {
		s.Keywords = g.query()
	}
	if g.r.IntN(8) == 0 || s.Keywords == "" {
		switch g.r.IntN(4) {
		case 0:
			s.Author = strings.Join(pick(authors, 1+g.r.IntN(2)), ", ")
		case 1:
			s.Boards = pick(boards, 1)
		case 2:
			s.Bounds = mustShape(t, box)
		default:
			s.Bounds = mustShape(t, pacific)
		}
	}
	if g.r.IntN(6) == 0 {
		s.Start = at(now.Add(-time.Duration(g.r.IntN(48)) * time.Hour))
	}
	if g.r.IntN(6) == 0 {
		s.End = at(now.Add(time.Duration(g.r.IntN(48)-6) * time.Hour))
		if s.Start != nil && !s.End.After(*s.Start) {
			s.End = nil
		}
	}
	s.ImagesOnly = g.r.IntN(10) == 0
	s.VideosOnly = g.r.IntN(15) == 0
	if g.r.IntN(5) == 0 {
		kinds := []FilterKind{KeywordInclusion, KeywordExclusion, AuthorExclusion, ObjectDetection}
		kind := kinds[g.r.IntN(len(kinds))]
		entries := []string{g.word(), g.word()}
		switch kind {
		case AuthorExclusion:
			entries = pick(authors, 2)
		case ObjectDetection:
			entries = pick([]string{"car", "person", "knife"}, 2)
		}
		s.Filters = []FilterList{{Kind: kind, Entries: entries}}
	}
	return s
}

func (g *gen) doc() Doc {
	n := 3 + g.r.IntN(25)
	words := make([]string, n)
	for i := range words {
		words[i] = g.word()
		if g.r.IntN(8) == 0 {
			words[i] = g.typo(words[i])
		}
		if g.r.IntN(10) == 0 {
			words[i] = strings.ToUpper(words[i])
		}
	}
	d := Doc{
		Provider:  providers[g.r.IntN(len(providers))],
		Title:     g.word(),
		Text:      strings.Join(words, " "),
		Published: now.Add(-time.Duration(g.r.IntN(72)) * time.Hour),
		HasImages: g.r.IntN(3) == 0,
		HasVideos: g.r.IntN(5) == 0,
		Board:     boards[g.r.IntN(len(boards))],
	}
	if g.r.IntN(2) == 0 {
		d.AuthorName = authors[g.r.IntN(len(authors))]
	}
	if g.r.IntN(3) == 0 {
		d.Location = &geom.Point{Lat: g.r.Float64()*30 - 10, Lon: g.r.Float64()*40 - 20}
	}
	if g.r.IntN(4) == 0 {
		d.Mentioned = []geom.Point{{Lat: g.r.Float64()*20 - 10, Lon: 160 + g.r.Float64()*40}}
		if d.Mentioned[0].Lon > 180 {
			d.Mentioned[0].Lon -= 360
		}
	}
	if g.r.IntN(3) == 0 {
		d.Objects = []string{[]string{"car", "person", "knife"}[g.r.IntN(3)]}
	}
	return d
}

// TestAgreesWithBruteForce is the percolator's contract: for generated searches and posts, the
// sized is a test's size: full in make test, small under -short (make check), where the
// agreement tests must run in seconds yet cover the same cases.
func sized(full, short int) int {
	if testing.Short() {
		return short
	}
	return full
}

// index returns exactly the searches whose own matcher accepts the post.
func TestAgreesWithBruteForce(t *testing.T) {
	for seed := uint64(1); seed <= uint64(sized(4, 1)); seed++ {
		g := newGen(seed)
		ix := New()
		var compiled []*Compiled
		var specs []SavedSearch
		for id := int64(1); id <= 400; id++ {
			s := g.search(t, id)
			c, err := Compile(s)
			if err != nil {
				continue // the generator writes some invalid queries; Put must skip them too
			}
			compiled = append(compiled, c)
			specs = append(specs, s)
		}
		if len(compiled) < 300 {
			t.Fatalf("only %d valid searches generated", len(compiled))
		}
		if err := ix.Put(specs...); err != nil {
			t.Fatal(err)
		}
		matched := 0
		for i := 0; i < 1500; i++ {
			d := g.doc()
			want := MatchAll(compiled, &d, now)
			got := ix.Match(&d, now)
			if len(got) == 0 {
				got = nil
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("seed %d post %d %+v:\n index %v\n brute %v", seed, i, d, got, want)
			}
			matched += len(want)
		}
		if matched < 500 {
			t.Fatalf("seed %d: only %d matches in total, the test proves little", seed, matched)
		}
	}
}

// TestChangesWhileMatching changes searches while other goroutines match, then checks the final
// state against brute force. Run with -race.
func TestChangesWhileMatching(t *testing.T) {
	g := newGen(99)
	ix := New()
	specs := map[int64]SavedSearch{}
	for id := int64(1); id <= 200; id++ {
		specs[id] = g.search(t, id)
	}
	for _, s := range specs {
		_ = ix.Put(s)
	}
	docs := make([]Doc, 200)
	for i := range docs {
		docs[i] = g.doc()
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := ix.NewMatcher()
			for i := w; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				m.Match(&docs[i%len(docs)], now)
			}
		}()
	}
	wr := newGen(7)
	for i := 0; i < 300; i++ {
		id := int64(1 + wr.r.IntN(250))
		if wr.r.IntN(3) == 0 {
			ix.Remove(id)
			delete(specs, id)
			continue
		}
		s := wr.search(t, id)
		if ix.Put(s) == nil {
			specs[id] = s
		} else {
			delete(specs, id)
		}
	}
	close(stop)
	wg.Wait()

	var compiled []*Compiled
	for _, s := range specs {
		c, err := Compile(s)
		if err != nil {
			t.Fatalf("a search the index accepted does not compile: %v", err)
		}
		compiled = append(compiled, c)
	}
	if ix.Len() != len(compiled) {
		t.Fatalf("index holds %d searches, want %d", ix.Len(), len(compiled))
	}
	for i := range docs {
		want := MatchAll(compiled, &docs[i], now)
		got := ix.Match(&docs[i], now)
		if len(got) == 0 {
			got = nil
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("post %d after changes: index %v, brute %v", i, got, want)
		}
	}
	batch := ix.MatchBatch(docs, now)
	for i := range docs {
		if !reflect.DeepEqual(batch[i], ix.Match(&docs[i], now)) {
			t.Fatalf("MatchBatch differs from Match on post %d", i)
		}
	}
}
