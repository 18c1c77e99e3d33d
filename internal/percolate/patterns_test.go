package percolate

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/sightline/sightline/internal/geom"
	"github.com/sightline/sightline/internal/query"
)

// TestPatternLookupFindsEveryMatch checks the lookup keys against plain pattern matching: over a
// small alphabet, so that similar words abound, every token must find exactly the registered
// patterns that match it (deletion variants on long words, literal keys of every shape).
func TestPatternLookupFindsEveryMatch(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	word := func(maxLen int) string {
		rs := make([]rune, 1+r.IntN(maxLen))
		for i := range rs {
			rs[i] = []rune("abcé")[r.IntN(4)]
		}
		return string(rs)
	}
	ix := New()
	var patterns []*query.Pattern
	seen := map[string]bool{}
	for len(patterns) < 400 {
		var text string
		switch r.IntN(6) {
		case 0:
			text = word(14) + "~" + string(rune('1'+r.IntN(2)))
		case 1:
			text = word(10) + "*"
		case 2:
			text = "*" + word(10)
		case 3:
			text = "*" + word(10) + "*"
		case 4:
			text = word(4) + "?" + word(6)
		default:
			text = word(12) + "~"
		}
		q, issues := query.Parse(text, query.ModeSavedSearch)
		if q == nil {
			t.Fatalf("%q: %v", text, issues)
		}
		p := q.Root.(*query.Term).Patterns[0]
		if key := patternKey(p); !seen[key] && key != p.Text {
			seen[key] = true
			patterns = append(patterns, p)
		}
	}
	b := ix.newBatch()
	for _, p := range patterns {
		ix.registry.register(&ix.patterns, p, b.lookups)
	}
	b.apply()

	var ps patternScratch
	hits := 0
	tokens := sized(5000, 1500)
	for i := 0; i < tokens; i++ {
		tok := word(16)
		got := entryKeys(ps.compute(&ix.patterns, tok))
		var want []string
		for _, p := range patterns {
			if p.Matches(tok) {
				want = append(want, patternKey(p))
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("token %q: lookup found %q, matching patterns are %q", tok, got, want)
		}
		hits += len(want)
	}
	if hits < tokens/5 {
		t.Fatalf("only %d pattern hits: the test proves little", hits)
	}
}

func TestDeletionVariants(t *testing.T) {
	got := deletionVariants([]rune("abc"), 2)
	want := []string{"abc", "bc", "c", "b", "ac", "a", "ab"}
	if !slices.Equal(got, want) {
		t.Fatalf("deletionVariants(abc, 2) = %q, want %q", got, want)
	}
}

// TestStreamFrequenciesChooseKeys: once the sketch has seen enough posts, an AND is indexed under
// the term that is rarer in the stream, whatever the lengths say.
func TestStreamFrequenciesChooseKeys(t *testing.T) {
	ix := New()
	var text query.Text
	for i := 0; i < minSampledPosts; i++ {
		text.Reset("", "the breakingnewsupdate of today")
		ix.freq.observe(&text)
	}
	if share, ok := ix.freq.estimate("breakingnewsupdate"); !ok || share < 0.99 {
		t.Fatalf("estimate = %v, %v; want about 1", share, ok)
	}
	if share, ok := ix.freq.estimate("zebra"); !ok || share > 0.01 {
		t.Fatalf("estimate of an unseen word = %v, %v", share, ok)
	}
	q, _ := query.Parse("breakingnewsupdate zebra", query.ModeSavedSearch)
	ks, _, _ := ix.queryKeys(q.Root)
	if len(ks.terms) != 1 || ks.terms[0] != "zebra" {
		t.Fatalf("keys = %v, want the rarer zebra", ks.terms)
	}
	fresh := New() // no stream yet: the longer word is taken as the rarer one
	ks, _, _ = fresh.queryKeys(q.Root)
	if len(ks.terms) != 1 || ks.terms[0] != "breakingnewsupdate" {
		t.Fatalf("keys without statistics = %v", ks.terms)
	}
}

// TestCellsCoverTheirBox: every point of a box falls in one of the cells the box is indexed
// under, at the level those cells are of, across the antimeridian and at the poles too.
func TestCellsCoverTheirBox(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	for i := 0; i < 3000; i++ {
		lat0, lat1 := r.Float64()*180-90, r.Float64()*180-90
		if lat0 > lat1 {
			lat0, lat1 = lat1, lat0
		}
		width := []float64{0.01, 0.3, 5, 40, 200, 359}[r.IntN(6)] * r.Float64()
		minLon := r.Float64()*360 - 180
		maxLon := minLon + width
		if maxLon > 180 {
			maxLon -= 360 // wraps: MinLon > MaxLon
		}
		box := geom.Rect{MinLat: lat0, MinLon: minLon, MaxLat: lat1, MaxLon: maxLon}
		cells := coverCells(box)
		if len(cells) == 0 {
			t.Fatalf("no cells for %+v", box)
		}
		level := int(cells[0] >> 56)
		for j := 0; j < 20; j++ {
			p := geom.Point{Lat: lat0 + r.Float64()*(lat1-lat0), Lon: minLon + r.Float64()*width}
			if p.Lon > 180 {
				p.Lon -= 360
			}
			if !box.Contains(p) {
				continue
			}
			if !slices.Contains(cells, pointCell(level, p)) {
				t.Fatalf("point %+v of box %+v is in no covering cell", p, box)
			}
		}
	}
}

// TestCachedTokensLearnNewPatterns: a matcher that already knows a token's patterns finds the
// ones registered afterwards, by catching up on a few or recomputing after many.
func TestCachedTokensLearnNewPatterns(t *testing.T) {
	ix := New()
	put := func(id int64, keywords string) {
		t.Helper()
		if err := ix.Put(SavedSearch{ID: id, Keywords: keywords, Providers: []string{"x"}, Enabled: true}); err != nil {
			t.Fatal(err)
		}
	}
	put(1, "colr~")
	m := ix.NewMatcher()
	doc := Doc{Provider: "x", Text: "the netword of colour"}
	if got := m.Match(&doc, now); !slices.Equal(got, []int64{1}) {
		t.Fatalf("before: %v", got)
	}
	put(2, "netw*") // one new pattern: the cached answer for "netword" catches up
	if got := m.Match(&doc, now); !slices.Equal(got, []int64{1, 2}) {
		t.Fatalf("after one new pattern: %v", got)
	}
	for i := range maxCatchUp + 10 { // too many to catch up on: recomputed
		put(int64(100+i), fmt.Sprintf("zz%03d*", i))
	}
	put(3, "*word")
	if got := m.Match(&doc, now); !slices.Equal(got, []int64{1, 2, 3}) {
		t.Fatalf("after many new patterns: %v", got)
	}
	var batch []SavedSearch // more than the registrations kept
	for i := range maxRecent + 5 {
		batch = append(batch, SavedSearch{ID: int64(10000 + i), Keywords: fmt.Sprintf("yy%05d*", i), Providers: []string{"x"}, Enabled: true})
	}
	batch = append(batch, SavedSearch{ID: 4, Keywords: "n?tword", Providers: []string{"x"}, Enabled: true})
	if err := ix.Put(batch...); err != nil {
		t.Fatal(err)
	}
	if got := m.Match(&doc, now); !slices.Equal(got, []int64{1, 2, 3, 4}) {
		t.Fatalf("after a large batch: %v", got)
	}
}

// TestTokenWords: the packed words are the token's bytes in order, zero-padded, whatever its
// length.
func TestTokenWords(t *testing.T) {
	for n := 0; n <= maxCachedToken; n++ {
		tok := "abcdefghijklmnopqrstuvwxyz"[:n]
		var want [maxCachedToken / 8]uint64
		for i := range n {
			want[i/8] |= uint64(tok[i]) << (8 * (i % 8))
		}
		if got := tokenWords(tok); got != want {
			t.Errorf("tokenWords(%q) = %x, want %x", tok, got, want)
		}
	}
}

// entries makes pattern entries of the given keys, for cached answers.
func entries(keys ...string) []*patternEntry {
	var out []*patternEntry
	for _, k := range keys {
		out = append(out, &patternEntry{key: k})
	}
	return out
}

func entryKeys(es []*patternEntry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.key)
	}
	return out
}

// TestPatternPostingsFollowChanges: the searches kept on a pattern's entry follow every Put and
// Remove, including a search replaced by itself and a pattern dropped and registered again in
// one batch.
func TestPatternPostingsFollowChanges(t *testing.T) {
	ix := New()
	search := func(id int64, keywords string) SavedSearch {
		return SavedSearch{ID: id, Keywords: keywords, Providers: []string{"x"}, Enabled: true}
	}
	steps := []struct {
		put    []SavedSearch
		remove []int64
		want   map[string][]int64 // post text: matching searches
	}{
		{put: []SavedSearch{search(1, "colr~"), search(2, "colr~")}, want: map[string][]int64{"colour": {1, 2}}},
		{put: []SavedSearch{search(1, "colr~")}, want: map[string][]int64{"colour": {1, 2}}},
		{remove: []int64{2}, want: map[string][]int64{"colour": {1}}},
		{put: []SavedSearch{search(1, "colr~")}, want: map[string][]int64{"colour": {1}}}, // its last user, replaced
		{put: []SavedSearch{search(1, "netw*")}, want: map[string][]int64{"colour": nil, "network": {1}}},
		{put: []SavedSearch{search(3, "colr~")}, want: map[string][]int64{"colour": {3}, "network": {1}}},
		{remove: []int64{1, 3}, want: map[string][]int64{"colour": nil, "network": nil}},
	}
	m := ix.NewMatcher()
	for i, step := range steps {
		if err := ix.Put(step.put...); err != nil {
			t.Fatal(err)
		}
		ix.Remove(step.remove...)
		for text, want := range step.want {
			got := m.Match(&Doc{Provider: "x", Text: text}, now)
			if len(got) == 0 {
				got = nil
			}
			if !slices.Equal(got, want) {
				t.Fatalf("step %d, %q: matched %v, want %v", i, text, got, want)
			}
		}
	}
}

// TestTokenCache: a cached answer is returned only for the very token it was computed for.
func TestTokenCache(t *testing.T) {
	long := strings.Repeat("x", maxCachedToken+1)
	cases := []struct {
		name             string
		putTok, getTok   string
		putHash, getHash uint64
		keys             []*patternEntry
		busy             bool // a writer holds the slot
		hit              bool
	}{
		{name: "same token", putTok: "netword", getTok: "netword", putHash: 7, getHash: 7, keys: entries("k"), hit: true},
		{name: "no keys", putTok: "colour", getTok: "colour", putHash: 9, getHash: 9, hit: true},
		{name: "other token, same hash", putTok: "netword", getTok: "network", putHash: 7, getHash: 7, keys: entries("k")},
		{name: "same words, other length", putTok: "ab", getTok: "ab\x00", putHash: 3, getHash: 3},
		{name: "another set", putTok: "netword", getTok: "netword", putHash: 7, getHash: 8},
		{name: "longest cached", putTok: long[1:], getTok: long[1:], putHash: 5, getHash: 5, keys: entries("k"), hit: true},
		{name: "longer than the inline words", putTok: long, getTok: long, putHash: 5, getHash: 5, keys: entries("k"), hit: true},
		{name: "longer, no keys", putTok: long, getTok: long, putHash: 5, getHash: 5, hit: true},
		{name: "longer, same start and length", putTok: long + "ab", getTok: long + "ba", putHash: 5, getHash: 5, keys: entries("k")},
		{name: "longer, no keys, same start and length", putTok: long + "ab", getTok: long + "ba", putHash: 5, getHash: 5},
		{name: "longer than a length byte", putTok: strings.Repeat(long, 20), getTok: strings.Repeat(long, 20), putHash: 5, getHash: 5, keys: entries("k"), hit: true},
		{name: "longer than a length byte, other length", putTok: strings.Repeat(long, 20), getTok: strings.Repeat(long, 21), putHash: 5, getHash: 5, keys: entries("k")},
		{name: "set being written", putTok: "netword", getTok: "netword", putHash: 7, getHash: 7, busy: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newTokenCache(minCacheSlots)
			if tc.busy {
				for i := range c.set(tc.putHash).ways {
					c.set(tc.putHash).ways[i].meta.Store(1)
				}
			}
			pw := tokenWords(tc.putTok[:min(len(tc.putTok), maxCachedToken)])
			c.put(tc.putTok, tc.putHash, &pw, 42, tc.keys)
			gw := tokenWords(tc.getTok[:min(len(tc.getTok), maxCachedToken)])
			found, gen, ok := c.get(tc.getTok, tc.getHash, &gw)
			if ok != tc.hit {
				t.Fatalf("hit = %v, want %v", ok, tc.hit)
			}
			if ok && (gen != 42 || !slices.Equal(found, tc.keys)) {
				t.Fatalf("got %q at generation %d, want %q at 42", entryKeys(found), gen, entryKeys(tc.keys))
			}
		})
	}
}

// TestTokenCacheWays: tokens sharing a set are all kept, up to cacheWays of them; a newcomer
// then replaces the one that came first, and refreshing a token's answer keeps its place.
func TestTokenCacheWays(t *testing.T) {
	if size := unsafe.Sizeof(cacheSet{}); size != 64 {
		t.Fatalf("a set is %d bytes, not one cache line", size)
	}
	c := newTokenCache(minCacheSlots)
	sets := uint64(len(c.sets))
	tok := func(i int) string { return fmt.Sprintf("tok%d", i) }
	put := func(i int, gen uint64) {
		w := tokenWords(tok(i))
		c.put(tok(i), 5+uint64(i)*sets, &w, gen, entries(tok(i))) // every token in set 5
	}
	cached := func(i int) (uint64, bool) {
		w := tokenWords(tok(i))
		found, gen, ok := c.get(tok(i), 5+uint64(i)*sets, &w)
		if ok && !slices.Equal(entryKeys(found), []string{tok(i)}) {
			t.Fatalf("token %d: cached %q", i, entryKeys(found))
		}
		return gen, ok
	}
	for i := range cacheWays {
		put(i, 1)
	}
	put(0, 2) // refreshed in its way: still the first to have come
	for i := range cacheWays {
		if _, ok := cached(i); !ok {
			t.Fatalf("token %d of %d sharing a set was dropped", i, cacheWays)
		}
	}
	if gen, _ := cached(0); gen != 2 {
		t.Fatalf("refreshed answer at generation %d, want 2", gen)
	}
	put(cacheWays, 1)
	if _, ok := cached(0); ok {
		t.Fatal("the first token was kept when a newcomer came")
	}
	for i := 1; i <= cacheWays; i++ {
		if gen, ok := cached(i); !ok || gen != 1 {
			t.Fatalf("token %d: cached %v at generation %d, want its answer at 1", i, ok, gen)
		}
	}
}

// TestTokenCacheConcurrent: matchers filling and reading a cache of a few sets at once (ways
// moving down all the time) only ever get a token's own answer, short tokens and long ones that
// share their length and inline bytes alike.
func TestTokenCacheConcurrent(t *testing.T) {
	c := newTokenCache(4 * cacheWays)
	var wg sync.WaitGroup
	var hits atomic.Int64
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 1))
			for range 20000 {
				i := r.IntN(40)
				tok := fmt.Sprintf("token%02d", i)
				if i%2 == 1 {
					tok = fmt.Sprintf("a long token with the same start, %02d", i)
				}
				words := tokenWords(tok[:min(len(tok), maxCachedToken)])
				h := query.HashToken(tok)
				if r.IntN(2) == 0 {
					c.put(tok, h, &words, uint64(i), entries(tok))
					continue
				}
				if found, gen, ok := c.get(tok, h, &words); ok {
					hits.Add(1)
					if gen != uint64(i) || !slices.Equal(entryKeys(found), []string{tok}) {
						t.Errorf("%s: got %q at generation %d", tok, entryKeys(found), gen)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	if hits.Load() == 0 {
		t.Fatal("no hit at all: the test proves nothing")
	}
}

// TestCacheSizedByPatterns: the shared cache appears with the first pattern and grows with them.
func TestCacheSizedByPatterns(t *testing.T) {
	for _, tc := range []struct {
		patterns int64
		slots    int
	}{{1, minCacheSlots}, {32, minCacheSlots}, {33, 2 * minCacheSlots}, {8192, maxCacheSlots}, {1 << 20, maxCacheSlots}} {
		if got := cacheSlotsFor(tc.patterns); got != tc.slots {
			t.Errorf("cacheSlotsFor(%d) = %d, want %d", tc.patterns, got, tc.slots)
		}
	}
	ix := New()
	if err := ix.Put(SavedSearch{ID: 1, Keywords: "plain", Providers: []string{"x"}, Enabled: true}); err != nil {
		t.Fatal(err)
	}
	if ix.patterns.cache.Load() != nil {
		t.Fatal("a cache without any pattern")
	}
	var batch []SavedSearch
	for i := range 40 {
		batch = append(batch, SavedSearch{ID: int64(10 + i), Keywords: fmt.Sprintf("yy%03d*", i), Providers: []string{"x"}, Enabled: true})
	}
	if err := ix.Put(batch...); err != nil {
		t.Fatal(err)
	}
	if c := ix.patterns.cache.Load(); c == nil || c.slots() != 2*minCacheSlots {
		t.Fatalf("cache for 40 patterns: %v", c)
	}
}

// TestMatchersShareTheCache: what one matcher learnt of a token, another finds in the cache.
func TestMatchersShareTheCache(t *testing.T) {
	ix := New()
	if err := ix.Put(SavedSearch{ID: 1, Keywords: "colr~", Providers: []string{"x"}, Enabled: true}); err != nil {
		t.Fatal(err)
	}
	doc := Doc{Provider: "x", Text: "the colour"}
	if got := ix.NewMatcher().Match(&doc, now); !slices.Equal(got, []int64{1}) {
		t.Fatalf("first matcher: %v", got)
	}
	w := tokenWords("colour")
	found, _, ok := ix.patterns.cache.Load().get("colour", query.HashToken("colour"), &w)
	if !ok || len(found) != 1 {
		t.Fatalf("cached answer for colour: %q, %v", entryKeys(found), ok)
	}
	if got := ix.NewMatcher().Match(&doc, now); !slices.Equal(got, []int64{1}) {
		t.Fatalf("second matcher: %v", got)
	}
}
