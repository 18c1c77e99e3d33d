// Package workload generates a realistic percolation workload (saved searches and posts), for
// `sightline bench percolate` and `bench ingest` (internal/bench) and the percolator's tests.
//
// Vocabulary: several synthetic languages with their own alphabets (accents, ß, Cyrillic, Greek)
// whose words are drawn with Zipf frequencies, frequent words being short as in real languages,
// and two million entity names (people, groups, places, products: what analysts monitor), which
// posts mention a few at a time, also with Zipf frequencies.
// Posts: 20 to 300 words of one language, a title, an author from a large pool with prolific
// accounts, providers, points and mentioned locations around towns, media and detected objects.
// Searches mix keyword lists, ANDs, phrases, proximity, exclusions, wildcards, similarity,
// authors, boards, polygons, date ranges and filter lists, mostly on entity names and on
// uncommon words, the way analysts write them. docs/performance.md gives the resulting match
// rates.
package workload

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/sightline/sightline/internal/geom"
	"github.com/sightline/sightline/internal/percolate"
)

type language struct {
	name       string
	weight     float64
	consonants []string
	vowels     []string
}

var languages = []language{
	{name: "en", weight: 0.45, consonants: strings.Fields("b c d f g h k l m n p r s t v w th sh ch st"), vowels: strings.Fields("a e i o u ea ou")},
	{name: "fr", weight: 0.15, consonants: strings.Fields("b c d f g j l m n p r s t v qu ch"), vowels: strings.Fields("a e i o u é è à ê ou ai eu")},
	{name: "de", weight: 0.12, consonants: strings.Fields("b d f g h k l m n p r s t w z sch st ß"), vowels: strings.Fields("a e i o u ä ö ü ei au")},
	{name: "es", weight: 0.12, consonants: strings.Fields("b c d f g j l m n ñ p r s t v ll"), vowels: strings.Fields("a e i o u á é í ó ú")},
	{name: "ru", weight: 0.1, consonants: strings.Fields("б в г д ж з к л м н п р с т ф х ш"), vowels: strings.Fields("а е и о у ы я ю")},
	{name: "el", weight: 0.06, consonants: strings.Fields("β γ δ ζ θ κ λ μ ν ξ π ρ σ τ φ χ"), vowels: strings.Fields("α ε η ι ο υ ω ά έ ί")},
}

// vocabularySize is the number of distinct words per language.
const vocabularySize = 200000

// Analysts search for specific things: search words are drawn log-uniformly from these ranks,
// never among the most common words.
const (
	searchRankFrom = 10000
	searchRankTo   = vocabularySize
)

// Entity names, and the ranks searches draw them from (log-uniformly).
const (
	entities         = 2000000
	searchEntityFrom = 500
	searchEntityTo   = entities
)

// Generator makes searches and posts; the same seed gives the same workload.
type Generator struct {
	r        *rand.Rand
	zipf     *rand.Zipf
	entities *rand.Zipf
	vocab    [][]string // per language, words by rank (most frequent first)
	places   []geom.Point
}

// providerNames and their share of the stream.
var providerNames = []string{"twitter", "reddit", "telegram", "mastodon", "bluesky", "4chan", "news", "youtube",
	"tiktok", "vk", "discord", "forum", "darkweb", "pastebin", "gab", "hackernews", "rss", "nostr", "leaks", "marketplaces"}

var boardNames = []string{"pol", "news", "int", "biz", "g", "k", "worldnews", "politics", "technology", "security"}

var objectNames = []string{"person", "car", "truck", "weapon", "knife", "flag", "crowd", "fire", "smoke", "building"}

// NewGenerator builds the vocabularies; the same seed gives the same searches and posts.
func NewGenerator(seed uint64) *Generator {
	r := rand.New(rand.NewPCG(seed, 0x5157))
	g := &Generator{
		r:        r,
		zipf:     rand.NewZipf(r, 1.07, 2, vocabularySize-1),
		entities: rand.NewZipf(r, 1.1, 1, entities-1),
	}
	for range places {
		// Places people post from and monitor: towns anywhere between the polar circles.
		g.places = append(g.places, geom.Point{Lat: r.Float64()*120 - 60, Lon: r.Float64()*360 - 180})
	}
	for _, l := range languages {
		// The vocabulary does not depend on the seed: it is the language, not the sample.
		lr := rand.New(rand.NewPCG(uint64(len(l.name)), uint64(l.name[0])<<8|uint64(l.name[1])))
		seen := map[string]bool{}
		var words []string
		for rank := 0; len(words) < vocabularySize; rank++ {
			// Zipf's law of abbreviation: frequent words are short.
			syllables := 1 + int(math.Log10(float64(rank+10))*0.6) + lr.IntN(2)
			var b strings.Builder
			for range syllables {
				b.WriteString(l.consonants[lr.IntN(len(l.consonants))])
				b.WriteString(l.vowels[lr.IntN(len(l.vowels))])
			}
			if lr.IntN(3) == 0 {
				b.WriteString(l.consonants[lr.IntN(len(l.consonants))])
			}
			if w := b.String(); !seen[w] {
				seen[w] = true
				words = append(words, w)
			}
		}
		g.vocab = append(g.vocab, words)
	}
	return g
}

// language draws a language by its share of the stream and returns its vocabulary.
func (g *Generator) language() []string {
	x := g.r.Float64()
	for i, l := range languages {
		if x < l.weight {
			return g.vocab[i]
		}
		x -= l.weight
	}
	return g.vocab[0]
}

// word draws a word with its stream frequency.
func (g *Generator) word(vocab []string) string { return vocab[g.zipf.Uint64()] }

// searchWord draws a word an analyst would search for.
func (g *Generator) searchWord(vocab []string) string {
	from, to := math.Log(searchRankFrom), math.Log(searchRankTo)
	rank := int(math.Exp(from + g.r.Float64()*(to-from)))
	return vocab[min(rank, vocabularySize-1)]
}

var (
	entityConsonants = strings.Fields("b c d f g h j k l m n p r s t v w x z kr tr")
	entityVowels     = strings.Fields("a e i o u y ai ei")
)

// entityName spells entity number i as four pseudo-random syllables: names are scattered in the
// space of such strings, as real names are, rather than filling it (where every name would be
// a small typo away from many others).
func entityName(i uint64) string {
	h := i + 0x9E3779B97F4A7C15 // splitmix64
	h = (h ^ h>>30) * 0xBF58476D1CE4E5B9
	h = (h ^ h>>27) * 0x94D049BB133111EB
	h ^= h >> 31
	var b strings.Builder
	for range 4 {
		b.WriteString(entityConsonants[h%uint64(len(entityConsonants))])
		h /= uint64(len(entityConsonants))
		b.WriteString(entityVowels[h%uint64(len(entityVowels))])
		h /= uint64(len(entityVowels))
	}
	return b.String()
}

// searchTerm draws what an analyst searches for: mostly an entity, else an uncommon word.
func (g *Generator) searchTerm(vocab []string) string {
	if g.r.IntN(10) < 7 {
		from, to := math.Log(searchEntityFrom), math.Log(searchEntityTo)
		return entityName(uint64(math.Exp(from + g.r.Float64()*(to-from))))
	}
	return g.searchWord(vocab)
}

// Accounts: a fifth of the posts come from a thousand prolific accounts, the rest from a million.
const (
	prolificAccounts = 1000
	accounts         = 1000000
	places           = 300
)

func (g *Generator) author() string {
	if g.r.IntN(5) == 0 {
		return fmt.Sprintf("user%d", g.r.IntN(prolificAccounts))
	}
	return fmt.Sprintf("user%d", g.r.IntN(accounts))
}

func (g *Generator) near(p geom.Point, spread float64) geom.Point {
	return geom.Point{
		Lat: math.Max(-89, math.Min(89, p.Lat+g.r.NormFloat64()*spread)),
		Lon: math.Remainder(p.Lon+g.r.NormFloat64()*spread, 360),
	}
}

func (g *Generator) providers() []string {
	n := 1 + g.r.IntN(5)
	if g.r.IntN(4) == 0 {
		n = len(providerNames) // "all providers", the builder's default
	}
	out := make([]string, 0, n)
	for _, i := range g.r.Perm(len(providerNames))[:n] {
		out = append(out, providerNames[i])
	}
	return out
}

// Post returns one post published around now.
func (g *Generator) Post(now time.Time) percolate.Doc {
	l := g.language()
	words := make([]string, 20+g.r.IntN(281))
	for i := range words {
		words[i] = g.word(l)
		switch g.r.IntN(40) {
		case 0:
			first, size := utf8.DecodeRuneInString(words[i])
			words[i] = string(unicode.ToUpper(first)) + words[i][size:]
		case 1:
			words[i] = "#" + words[i]
		case 2:
			words[i] += ","
		}
	}
	// A few entity mentions, capitalized as names are.
	for range g.r.IntN(5) {
		name := entityName(g.entities.Uint64())
		words[g.r.IntN(len(words))] = strings.ToUpper(name[:1]) + name[1:]
	}
	title := make([]string, g.r.IntN(12))
	for i := range title {
		title[i] = g.word(l)
	}
	d := percolate.Doc{
		Provider:         providerNames[min(int(g.r.ExpFloat64()*4), len(providerNames)-1)],
		Title:            strings.Join(title, " "),
		Text:             strings.Join(words, " "),
		AuthorName:       g.author(),
		AuthorScreenName: "@" + g.author(),
		Published:        now.Add(-time.Duration(g.r.IntN(3600)) * time.Second),
		HasImages:        g.r.IntN(5) < 2,
		HasVideos:        g.r.IntN(10) == 0,
	}
	if g.r.IntN(10) < 3 {
		p := g.near(g.places[g.r.IntN(len(g.places))], 0.5)
		d.Location = &p
	}
	if g.r.IntN(5) == 0 {
		d.Mentioned = []geom.Point{g.near(g.places[g.r.IntN(len(g.places))], 0.1)}
	}
	if g.r.IntN(4) == 0 {
		d.Board = boardNames[g.r.IntN(len(boardNames))]
	}
	if d.HasImages && g.r.IntN(2) == 0 {
		d.Objects = []string{objectNames[g.r.IntN(len(objectNames))], objectNames[g.r.IntN(len(objectNames))]}
	}
	return d
}

// Search returns one enabled saved search.
func (g *Generator) Search(id int64, now time.Time) percolate.SavedSearch {
	l := g.language()
	s := percolate.SavedSearch{ID: id, Providers: g.providers(), Enabled: true, Paused: g.r.IntN(50) == 0}
	w := func() string { return g.searchTerm(l) }
	kind := g.r.IntN(100)
	switch {
	case kind < 30: // a pasted keyword list
		items := make([]string, 2+g.r.IntN(4))
		for i := range items {
			items[i] = w()
		}
		s.Keywords = strings.Join(items, ", ")
	case kind < 45:
		s.Keywords = w() + " OR " + w()
	case kind < 60:
		s.Keywords = w() + " " + w()
		if g.r.IntN(2) == 0 {
			s.Keywords += " AND (" + w() + " OR " + w() + ")"
		}
	case kind < 68:
		s.Keywords = fmt.Sprintf("%q %s", w()+" "+w(), w())
	case kind < 72:
		s.Keywords = fmt.Sprintf("%q~%d", w()+" "+w(), 1+g.r.IntN(5))
	case kind < 78:
		prefix := []rune(w())
		s.Keywords = string(prefix[:min(len(prefix), 5+g.r.IntN(3))]) + "*"
		if g.r.IntN(2) == 0 {
			s.Keywords += " " + w()
		}
	case kind < 80:
		suffix := []rune(w())
		s.Keywords = "*" + string(suffix[max(0, len(suffix)-6):])
	case kind < 85:
		s.Keywords = w() + "~"
		if g.r.IntN(2) == 0 {
			s.Keywords = w() + "~1 OR " + w() + "~1"
		}
	case kind < 90:
		s.Author = g.author()
		if g.r.IntN(2) == 0 {
			s.Author += ", " + g.author()
		}
	case kind < 95:
		c := g.near(g.places[g.r.IntN(len(g.places))], 0.3)
		// Near the antimeridian the box wraps (MinLon > MaxLon) and becomes two polygons.
		s.Bounds = geom.Rect{MinLat: c.Lat - 0.15, MinLon: math.Remainder(c.Lon-0.2, 360), MaxLat: c.Lat + 0.15, MaxLon: math.Remainder(c.Lon+0.2, 360)}.Shape()
		if g.r.IntN(2) == 0 {
			s.Keywords = w() + ", " + w()
		}
	default:
		s.Boards = []string{boardNames[g.r.IntN(len(boardNames))]}
		s.Keywords = w()
	}
	if s.Keywords != "" && g.r.IntN(5) == 0 {
		s.Keywords = "(" + s.Keywords + ") -" + w()
	}
	if s.Keywords != "" && g.r.IntN(10) == 0 {
		s.Bounds = geom.Rect{MinLat: -60, MinLon: -170, MaxLat: 70, MaxLon: -30}.Shape() // the Americas
	}
	if g.r.IntN(8) == 0 {
		start := now.Add(-time.Duration(g.r.IntN(30*24)) * time.Hour)
		s.Start = &start
		if g.r.IntN(2) == 0 {
			end := now.Add(time.Duration(1+g.r.IntN(30*24)) * time.Hour)
			s.End = &end
		}
	}
	s.ImagesOnly = g.r.IntN(20) == 0
	s.VideosOnly = g.r.IntN(50) == 0
	if g.r.IntN(10) == 0 {
		switch g.r.IntN(3) {
		case 0:
			s.Filters = []percolate.FilterList{{Kind: percolate.KeywordExclusion, Entries: []string{g.word(l), w(), w()}}}
		case 1:
			s.Filters = []percolate.FilterList{{Kind: percolate.AuthorExclusion, Entries: []string{g.author(), g.author()}}}
		default:
			s.Filters = []percolate.FilterList{{Kind: percolate.KeywordInclusion, Entries: []string{g.word(l), w()}}}
		}
	}
	return s
}
