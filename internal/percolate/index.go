package percolate

import (
	"errors"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sightline/sightline/internal/geom"
	"github.com/sightline/sightline/internal/query"
)

// Index is the percolator: saved searches indexed by the keys a matching post must hit.
// Put and Remove may run while posts are matched: matching never takes a lock (it reads
// copy-on-write shards, see cowMap), and a change copies only the shards it touches.
// A post matched during a Put may see the search before or after the change, never a mix.
type Index struct {
	mu       sync.Mutex // serializes writers
	searches map[int64]*entry
	registry patternRegistry
	nextSeq  uint32

	postings *cowMap[string, []posting]
	cells    *cowMap[uint64, []posting]
	patterns patternIndex
	// providerBits gives each provider named by a search one bit (the 64th is shared by any
	// beyond 63); postings carry the bits of their search's providers so that a post from another
	// provider skips them without verification.
	providerBits atomic.Pointer[map[string]uint64]
	maxSeq       atomic.Uint32
	freq         freqSketch
	active       atomic.Int64

	// matchers keeps idle matchers with their token caches (a sync.Pool would drop them at
	// every garbage collection).
	matchers chan *Matcher
}

// entry is the writer's record of an indexed search.
type entry struct {
	c    *Compiled
	seq  uint32 // dense number for the per-post "already seen" marks
	keys searchKeys
}

// overflowBit is the provider bit shared by the 64th provider and beyond.
const overflowBit = uint64(1) << 63

// posting is a search under one of its keys, with what matching reads before verifying it
// inline. c is the search's version: a Put compiles a new one.
type posting struct {
	c         *Compiled
	seq       uint32
	providers uint64
	proven    query.Node // what a hit proves of the keyword query (see searchKeys.proven)
}

// New returns an empty index.
func New() *Index {
	ix := &Index{
		searches: map[int64]*entry{},
		registry: patternRegistry{byKey: map[string]*patternState{}},
		postings: newStringMap[[]posting](22),
		cells:    newUint64Map[[]posting](16),
	}
	ix.patterns.lookups = newUint64Map[[]patternRef](22)
	ix.providerBits.Store(&map[string]uint64{})
	ix.matchers = make(chan *Matcher, runtime.GOMAXPROCS(0))
	return ix
}

// Len returns the number of searches held (including disabled and paused ones).
func (ix *Index) Len() int {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return len(ix.searches)
}

// Active returns the number of searches indexed for matching (enabled and not paused).
func (ix *Index) Active() int { return int(ix.active.Load()) }

// Put adds saved searches or replaces those with the same ID, in one batch (loading many at once
// is much cheaper than one by one). A search that does not compile is left out (an earlier
// version of it is removed) and reported in the returned error, one *CompileError each.
func (ix *Index) Put(searches ...SavedSearch) error {
	var errs []error
	compiled := make([]*Compiled, 0, len(searches))
	for _, s := range searches {
		c, err := Compile(s)
		if err != nil {
			errs = append(errs, err)
			ix.Remove(s.ID)
			continue
		}
		compiled = append(compiled, c)
	}
	ix.PutCompiled(compiled...)
	return errors.Join(errs...)
}

// PutCompiled is Put for searches already compiled.
func (ix *Index) PutCompiled(searches ...*Compiled) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	b := ix.newBatch()
	for _, c := range searches {
		seq := ix.nextSeq
		if old := ix.searches[c.ID]; old != nil {
			// The same number: a post that sees both versions during the change counts once.
			seq = old.seq
			b.unindex(old)
		} else {
			ix.nextSeq++
		}
		e := &entry{c: c, seq: seq}
		if c.active {
			e.keys = ix.chooseKeys(c)
			b.index(e)
		}
		ix.searches[c.ID] = e
	}
	b.apply()
}

// Remove drops saved searches; unknown IDs are ignored.
func (ix *Index) Remove(ids ...int64) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	b := ix.newBatch()
	for _, id := range ids {
		if old := ix.searches[id]; old != nil {
			b.unindex(old)
			delete(ix.searches, id)
		}
	}
	b.apply()
}

// batch gathers the changes of one Put or Remove, applied shard by shard at the end.
type batch struct {
	ix       *Index
	postings map[string][]change[[]posting]
	// patternPostings are the changes to postings kept on pattern entries (see patternEntry).
	patternPostings map[*patternEntry][]change[[]posting]
	cells           map[uint64][]change[[]posting]
	lookups         map[uint64][]change[[]patternRef]
	patterns        []patternRef // registered for the first time by this batch
	newBits         bool
	bits            map[string]uint64
	added           int64
}

func (ix *Index) newBatch() *batch {
	return &batch{
		ix:              ix,
		postings:        map[string][]change[[]posting]{},
		patternPostings: map[*patternEntry][]change[[]posting]{},
		cells:           map[uint64][]change[[]posting]{},
		lookups:         map[uint64][]change[[]patternRef]{},
		bits:            *ix.providerBits.Load(),
	}
}

func (b *batch) providerMask(providers []string) uint64 {
	var mask uint64
	for _, p := range providers {
		bit, ok := b.bits[p]
		if !ok {
			if !b.newBits {
				b.bits, b.newBits = cloneBits(b.bits), true
			}
			bit = uint64(1) << min(len(b.bits), 63) // the 64th and later share overflowBit
			b.bits[p] = bit
		}
		mask |= bit
	}
	return mask
}

func cloneBits(m map[string]uint64) map[string]uint64 {
	out := make(map[string]uint64, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}

func (b *batch) index(e *entry) {
	p := posting{c: e.c, seq: e.seq, providers: b.providerMask(e.c.providers), proven: e.keys.proven}
	add := func(old []posting, _ bool) ([]posting, bool) {
		return append(old[:len(old):len(old)], p), true
	}
	for _, pat := range e.keys.patterns {
		if ref := b.ix.registry.register(&b.ix.patterns, pat, b.lookups); ref != nil {
			b.patterns = append(b.patterns, *ref)
		}
	}
	for _, k := range e.keys.terms {
		b.change(k, add)
	}
	for _, k := range e.keys.cells {
		b.cells[k] = append(b.cells[k], add)
	}
	b.added++
}

func (b *batch) unindex(e *entry) {
	if !e.c.active {
		return
	}
	target := e.c
	remove := func(old []posting, _ bool) ([]posting, bool) {
		out := make([]posting, 0, len(old))
		for _, p := range old {
			if p.c != target {
				out = append(out, p)
			}
		}
		return out, len(out) > 0
	}
	for _, k := range e.keys.terms {
		b.change(k, remove)
	}
	for _, k := range e.keys.cells {
		b.cells[k] = append(b.cells[k], remove)
	}
	for _, pat := range e.keys.patterns {
		b.ix.registry.unregister(&b.ix.patterns, pat, b.lookups)
	}
	b.added--
}

// change records a change to the postings of a key: on its pattern's entry when the key is a
// registered pattern's (registered before, unregistered after, this call), else in the map.
func (b *batch) change(key string, ch change[[]posting]) {
	if st := b.ix.registry.byKey[key]; st != nil {
		b.patternPostings[st.ref.entry] = append(b.patternPostings[st.ref.entry], ch)
		return
	}
	b.postings[key] = append(b.postings[key], ch)
}

// apply publishes the batch: new provider bits and pattern lookups first, so that a posting is
// never visible before what a post needs to reach it.
func (b *batch) apply() {
	ix := b.ix
	if b.newBits {
		ix.providerBits.Store(&b.bits)
	}
	ix.patterns.publishLengths()
	ix.patterns.lookups.apply(b.lookups)
	ix.patterns.publish(b.patterns)
	ix.patterns.sizeCache()
	if ix.nextSeq > ix.maxSeq.Load() {
		ix.maxSeq.Store(ix.nextSeq)
	}
	ix.postings.apply(b.postings)
	for e, changes := range b.patternPostings {
		var ps []posting
		p := e.postings.Load()
		ok := p != nil
		if ok {
			ps = *p
		}
		for _, ch := range changes {
			ps, ok = ch(ps, ok)
		}
		if ok {
			e.postings.Store(&ps)
		} else {
			e.postings.Store(nil)
		}
	}
	ix.cells.apply(b.cells)
	ix.active.Add(b.added)
}

// Matcher matches posts against an Index. It holds per-goroutine scratch (the analyzed post,
// "seen" marks): use one per goroutine, and keep it, as Index.Match and MatchBatch do with up to
// GOMAXPROCS of them.
type Matcher struct {
	ix       *Index
	a        Analyzed
	seen     []uint32
	stamp    uint32
	patterns patternScratch
	keyBuf   []byte
	lists    [][]posting
	out      []int64
	sampleN  uint32
	verified uint64
	touched  uint64
}

// NewMatcher returns a matcher for the index.
func (ix *Index) NewMatcher() *Matcher { return &Matcher{ix: ix} }

// Candidates returns how many candidates the matcher has verified so far.
func (m *Matcher) Candidates() uint64 { return m.verified }

// Match returns the IDs of the saved searches the post matches at time now, sorted. The slice
// is reused by the next call.
func (m *Matcher) Match(d *Doc, now time.Time) []int64 {
	ix := m.ix
	m.out = m.out[:0]
	m.a.Reset(d)
	bit := (*ix.providerBits.Load())[m.a.provider]
	if bit == 0 {
		return m.out // no search asks for this provider
	}
	if n := int(ix.maxSeq.Load()); n > len(m.seen) {
		m.seen = append(m.seen, make([]uint32, n-len(m.seen)+n/4)...)
	}
	m.stamp++
	if m.stamp == 0 { // wrapped: old marks could look current
		clear(m.seen)
		m.stamp = 1
	}
	if m.sampleN++; m.sampleN%freqSampleEvery == 0 {
		ix.freq.observe(&m.a.text)
	}

	// A post whose provider has its own bit already passed the provider check on the posting.
	exactBit := bit != overflowBit
	visit := func(ps []posting) {
		for _, p := range ps {
			if p.providers&bit == 0 {
				continue
			}
			if int(p.seq) >= len(m.seen) {
				m.seen = append(m.seen, make([]uint32, int(p.seq)+1-len(m.seen))...)
			}
			if m.seen[p.seq] == m.stamp {
				continue
			}
			m.seen[p.seq] = m.stamp
			m.verified++
			if p.c.match(&m.a, now, p.proven, exactBit) {
				m.out = append(m.out, p.c.ID)
			}
		}
	}
	lookup := func(key string) {
		if ps, ok := ix.postings.get(key); ok {
			visit(ps)
		}
	}

	text := &m.a.text
	hasPatterns := ix.patterns.registered.Load() > 0
	var cache *tokenCache
	if hasPatterns {
		cache = ix.patterns.cache.Load()
	}
	m.touch(text, cache)
	// The tokens' posting lists first, one lookup after the other: each is a chain of dependent
	// memory reads, and with nothing in between the processor follows several at once.
	m.lists = m.lists[:0]
	for i := 0; i < text.Len(); i++ {
		if ps, ok := ix.postings.getHashed(text.Token(i), text.TokenHash(i)); ok {
			m.lists = append(m.lists, ps)
		}
	}
	for _, ps := range m.lists {
		visit(ps)
	}
	if hasPatterns {
		for i := 0; i < text.Len(); i++ {
			for _, e := range m.patterns.matching(&ix.patterns, text.Token(i), text.TokenHash(i)) {
				if ps := e.postings.Load(); ps != nil {
					visit(*ps)
				}
			}
		}
	}
	m.lookupPrefixed(authorPrefix, m.a.authorName, lookup)
	m.lookupPrefixed(authorPrefix, m.a.authorID, lookup)
	m.lookupPrefixed(boardPrefix, m.a.board, lookup)
	for _, o := range m.a.objects {
		m.lookupPrefixed(objectPrefix, o, lookup)
	}
	visitCells := func(p geom.Point) {
		for level := range cellSizes {
			if ps, ok := ix.cells.get(pointCell(level, p)); ok {
				visit(ps)
			}
		}
	}
	if d.Location != nil {
		visitCells(*d.Location)
	}
	for _, p := range d.Mentioned {
		visitCells(p)
	}
	slices.Sort(m.out)
	// A search changed during this match may have been met in both versions.
	m.out = slices.Compact(m.out)
	return m.out
}

// touch reads, for every token, the Bloom filter word and the cache set that the token loop
// then reads. These loads do not depend on each other, so the processor overlaps their misses
// (most are misses: both tables are far larger than its caches) instead of waiting for each in
// turn; the loop then finds them in its cache.
func (m *Matcher) touch(text *query.Text, cache *tokenCache) {
	var sum uint64
	for i := 0; i < text.Len(); i++ {
		h := text.TokenHash(i)
		sum += m.ix.postings.bloomWord(h)
		if cache != nil {
			sum += cache.set(h).ways[0].meta.Load()
		}
	}
	m.touched = sum // kept, so the compiler does not drop the loads
}

func (m *Matcher) lookupPrefixed(prefix, name string, lookup func(string)) {
	if name == "" {
		return
	}
	m.keyBuf = append(append(m.keyBuf[:0], prefix...), name...)
	lookup(string(m.keyBuf))
}

func (ix *Index) getMatcher() *Matcher {
	select {
	case m := <-ix.matchers:
		return m
	default:
		return ix.NewMatcher()
	}
}

func (ix *Index) putMatcher(m *Matcher) {
	select {
	case ix.matchers <- m:
	default:
	}
}

// Match returns the IDs of the saved searches the post matches at time now, sorted.
func (ix *Index) Match(d *Doc, now time.Time) []int64 {
	m := ix.getMatcher()
	defer ix.putMatcher(m)
	return slices.Clone(m.Match(d, now))
}

// MatchBatch matches posts on all cores; result i belongs to docs[i].
func (ix *Index) MatchBatch(docs []Doc, now time.Time) [][]int64 {
	out := make([][]int64, len(docs))
	workers := min(runtime.GOMAXPROCS(0), len(docs))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := ix.getMatcher()
			defer ix.putMatcher(m)
			for {
				i := int(next.Add(1)) - 1
				if i >= len(docs) {
					return
				}
				out[i] = slices.Clone(m.Match(&docs[i], now))
			}
		}()
	}
	wg.Wait()
	return out
}
