package percolate

import (
	"math/bits"
	"slices"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/sightline/sightline/internal/query"
)

// Wildcard and similarity patterns have no single token to be indexed under. Instead each
// distinct pattern is registered under lookup keys that any token it matches must produce:
//
//	P + literal start, up to 8 characters    wildcard with one ("netw*", "ab?d")
//	S + literal end, up to 8 characters      wildcard with a literal end only ("*work")
//	I + literal run, up to 8 characters      wildcard with neither ("*etw*"): its longest literal
//	                                         run, found among a token's substrings
//	D + deletion variant of the first 8      similarity: every string reachable by deleting up to
//	    characters                           MaxEdits characters from the word's first 8 (FastSS,
//	                                         with SymSpell's prefix).
//
// Why D keys find every similar token: words within k edits (transpositions included) have a
// common subsequence missing at most k characters of each; restricted to the first p characters
// of each word, the characters of one window matched outside the other's window are made up by
// characters unmatched in the other window, so the two prefixes still share a variant with at
// most k deletions on each side.
//
// Keys are polynomial hashes of the kind letter and the characters, so a token's keys (deletion
// variants included) are computed in O(1) each from prefix hashes, without building strings. The
// index counts the keys of each kind and length, so a token only produces keys of lengths that
// exist (a short common word produces no deletion variant when every similarity word is long),
// and a Bloom filter skips most lookups of absent keys. A hash collision only adds a pattern to
// verify. The patterns found are verified on the token, and the token's result (which patterns
// it matches) is cached, shared by the index's matchers, since a stream's vocabulary repeats
// (Zipf); see tokenCache.

// deletionPrefix is how many first characters of a word its deletion variants come from. Their
// number grows with its square, but each is a cheap Bloom probe; shorter variants are shared by
// many words, and each shared one is a lookup and a pattern to rule out. At 100,000 searches, 8
// instead of 7 took a post's probes from 512 to 606 and its lookups from 19.6 to 6.7.
const deletionPrefix = 8

// maxLiteralKey bounds the characters of P, S and I keys.
const maxLiteralKey = 8

// maxSimilarLength is the last length similarLengths tells apart.
const maxSimilarLength = 40

// maxKeyRunes bounds every key's length.
const maxKeyRunes = max(maxLiteralKey, deletionPrefix)

const (
	keyPrefix   = 'P'
	keySuffix   = 'S'
	keyInfix    = 'I'
	keyDeletion = 'D'
)

// hashBase is the polynomial base (odd, so powers never vanish modulo 2^64).
const hashBase = 0x100000001b3

// polyHash hashes the kind letter followed by the runes: sum of seq[k] * base^(len-1-k).
func polyHash(kind rune, runes []rune) uint64 {
	h := uint64(kind)
	for _, r := range runes {
		h = h*hashBase + uint64(r)
	}
	return h
}

// patternEntry is a registered pattern. Its postings are those of the searches indexed under
// it, kept here rather than in the index's postings map: a token's cached answer leads
// straight to them, without a lookup by key.
type patternEntry struct {
	key      string // posting key
	pattern  *query.Pattern
	postings atomic.Pointer[[]posting] // published by writers, nil for none
}

// patternRef is a pattern as the lookup lists hold it, with what rules most candidates out
// inline, so that doing so reads no other memory. chars has a bit for each character of a
// similarity word (charMask): a token missing more than edits of its bits, or having more than
// edits bits it lacks, cannot be within edits edits.
type patternRef struct {
	chars uint64
	edits int // -1 for a wildcard: no character test
	entry *patternEntry
}

// charMask sets one of 64 bits per distinct character (characters may share a bit, which only
// weakens the test above, never makes it wrong).
func charMask(runes []rune) uint64 {
	var m uint64
	for _, r := range runes {
		m |= 1 << (uint64(r) * 0x9E3779B97F4A7C15 >> 58)
	}
	return m
}

// mayMatch is the cheap test before verifying the pattern on a token with the given characters.
func (r patternRef) mayMatch(tokChars uint64) bool {
	return r.edits < 0 ||
		bits.OnesCount64(r.chars&^tokChars) <= r.edits && bits.OnesCount64(tokChars&^r.chars) <= r.edits
}

// patternIndex is the reader side of the registry; patternRegistry (writer side) maintains it.
type patternIndex struct {
	lookups *cowMap[uint64, []patternRef]
	// generation counts the patterns ever registered; recent holds the latest of them, so that a
	// matcher's cached answer for a token, computed at an older generation, can be brought up to
	// date by testing the token against the patterns registered since (see matching).
	generation atomic.Uint64
	recent     atomic.Pointer[[]registration]
	// keyCounts[kind][length] counts the registered keys of each kind and length (writers
	// only); keyLengths lists the lengths counted, so that a token only produces keys that can
	// find something.
	keyCounts  [4][maxKeyRunes + 1]int64
	keyLengths atomic.Pointer[keyLengths]
	// registered counts the patterns registered (0: posts skip pattern lookups altogether).
	registered atomic.Int64
	// similarLengths[l] counts the similarity patterns of l characters (the last slot: longer),
	// so that a token far longer or shorter than all of them skips the deletion keys.
	similarLengths [maxSimilarLength + 1]atomic.Int64
	// cache holds the answers for the stream's tokens (see tokenCache).
	cache atomic.Pointer[tokenCache]
}

type patternState struct {
	ref     patternRef
	refs    int
	lookups []lookupKey
}

// registration is a pattern and the generation its registration brought the index to.
type registration struct {
	generation uint64
	ref        patternRef
}

// maxRecent bounds the registrations kept for catching up; older cache entries are recomputed.
const maxRecent = 4096

// publish makes newly registered patterns known to the matchers' caches. Their lookup keys must
// already be visible, so that an answer computed at the new generation includes them.
func (ix *patternIndex) publish(added []patternRef) {
	if len(added) == 0 {
		return
	}
	gen := ix.generation.Load()
	// The list stays consecutive: older entries are kept only when every new one fits.
	var next []registration
	if p := ix.recent.Load(); p != nil && len(added) < maxRecent {
		old := *p
		next = append(next, old[max(0, len(old)+len(added)-maxRecent):]...)
	}
	first := gen + uint64(len(added)) - uint64(min(len(added), maxRecent)) + 1
	for i, ref := range added[len(added)-min(len(added), maxRecent):] {
		next = append(next, registration{generation: first + uint64(i), ref: ref})
	}
	ix.recent.Store(&next)
	ix.generation.Store(gen + uint64(len(added)))
}

type lookupKey struct {
	kind   rune
	length int
	hash   uint64
}

// patternRegistry counts the searches using each pattern (writer side, under the Index lock).
type patternRegistry struct {
	byKey map[string]*patternState
}

// lookupKeys returns the keys a pattern is registered under.
func lookupKeys(p *query.Pattern) []lookupKey {
	runes := []rune(p.Text)
	key := func(kind rune, rs []rune) lookupKey { return lookupKey{kind, len(rs), polyHash(kind, rs)} }
	if p.Kind == query.Fuzzy {
		var keys []lookupKey
		for _, v := range deletionVariants(runes[:min(len(runes), deletionPrefix)], p.MaxEdits) {
			keys = append(keys, key(keyDeletion, []rune(v)))
		}
		return keys
	}
	if prefix := []rune(p.Prefix()); len(prefix) > 0 {
		return []lookupKey{key(keyPrefix, prefix[:min(maxLiteralKey, len(prefix))])}
	}
	if i := strings.LastIndexAny(p.Text, "*?"); i+1 < len(p.Text) {
		suffix := []rune(p.Text[i+1:])
		return []lookupKey{key(keySuffix, suffix[max(0, len(suffix)-maxLiteralKey):])}
	}
	lit, _, _ := p.Literal()
	literal := []rune(lit)
	return []lookupKey{key(keyInfix, literal[:min(maxLiteralKey, len(literal))])}
}

var keyKinds = [...]rune{keyPrefix, keySuffix, keyInfix, keyDeletion}

func kindIndex(kind rune) int {
	for i, k := range keyKinds {
		if k == kind {
			return i
		}
	}
	panic("percolate: unknown lookup key kind")
}

// similarWithin reports whether a similarity pattern's word is within MaxEdits characters of n
// characters long: no other can match a token of that length.
func (ix *patternIndex) similarWithin(n int) bool {
	for l := max(0, n-query.MaxEdits); l <= min(n+query.MaxEdits, maxSimilarLength); l++ {
		if ix.similarLengths[l].Load() > 0 {
			return true
		}
	}
	return n+query.MaxEdits >= maxSimilarLength && ix.similarLengths[maxSimilarLength].Load() > 0
}

// keyLengths holds the lengths of the keys registered, of each kind, shortest first.
type keyLengths struct{ prefix, suffix, infix, deletion []int }

// publishLengths makes the key lengths counted known to the matchers. Writers only, before the
// lookups they counted are applied.
func (ix *patternIndex) publishLengths() {
	lengths := func(kind rune) (out []int) {
		for l, n := range ix.keyCounts[kindIndex(kind)] {
			if n > 0 {
				out = append(out, l)
			}
		}
		return out
	}
	ix.keyLengths.Store(&keyLengths{
		prefix:   lengths(keyPrefix),
		suffix:   lengths(keySuffix),
		infix:    lengths(keyInfix),
		deletion: lengths(keyDeletion),
	})
}

// register and unregister record the patterns of searches coming and going, as changes to the
// lookup map that the caller applies.
// register returns the pattern's ref when it is new to the index (to publish once applied).
func (r *patternRegistry) register(ix *patternIndex, p *query.Pattern, changes map[uint64][]change[[]patternRef]) (added *patternRef) {
	key := patternKey(p)
	if st := r.byKey[key]; st != nil {
		st.refs++
		return nil
	}
	ref := patternRef{edits: -1, entry: &patternEntry{key: key, pattern: p}}
	if p.Kind == query.Fuzzy {
		ref.chars, ref.edits = charMask([]rune(p.Text)), p.MaxEdits
	}
	st := &patternState{ref: ref, refs: 1, lookups: dedupe(lookupKeys(p))}
	r.byKey[key] = st
	for _, lk := range st.lookups {
		changes[lk.hash] = append(changes[lk.hash], func(old []patternRef, _ bool) ([]patternRef, bool) {
			return append(old[:len(old):len(old)], ref), true
		})
		ix.keyCounts[kindIndex(lk.kind)][lk.length]++
	}
	if p.Kind == query.Fuzzy {
		ix.similarLengths[min(utf8.RuneCountInString(p.Text), maxSimilarLength)].Add(1)
	}
	ix.registered.Add(1)
	return &st.ref
}

func (r *patternRegistry) unregister(ix *patternIndex, p *query.Pattern, changes map[uint64][]change[[]patternRef]) {
	key := patternKey(p)
	st := r.byKey[key]
	if st == nil {
		return
	}
	if st.refs--; st.refs > 0 {
		return
	}
	delete(r.byKey, key)
	for _, lk := range st.lookups {
		entry := st.ref.entry
		changes[lk.hash] = append(changes[lk.hash], func(old []patternRef, _ bool) ([]patternRef, bool) {
			out := make([]patternRef, 0, len(old))
			for _, r := range old {
				if r.entry != entry {
					out = append(out, r)
				}
			}
			return out, len(out) > 0
		})
		ix.keyCounts[kindIndex(lk.kind)][lk.length]--
	}
	if p := st.ref.entry.pattern; p.Kind == query.Fuzzy {
		ix.similarLengths[min(utf8.RuneCountInString(p.Text), maxSimilarLength)].Add(-1)
	}
	ix.registered.Add(-1)
}

// patternScratch is a matcher's working memory for finding a token's patterns.
type patternScratch struct {
	runes   []rune
	prefix  []uint64 // prefix[k]: hash of the kind letter and runes[:k]
	powers  []uint64
	probes  []uint64
	visited []*patternEntry
}

// tokenCache remembers which patterns each token of the stream matches. It is shared by
// every matcher of the index: a stream's rare words keep coming, and a word one worker met is
// then known to the others (at 100,000 searches, a shared cache computes 40 % fewer answers than
// one cache per worker of the same total size). A token's hash picks a set, one cache line of
// cacheWays tokens; a newcomer takes the first way and the others move down, the last one
// leaving. Each answer records the generation it was computed at; registering patterns
// invalidates nothing, a stale answer is brought up to date when next used.
//
// Ways are read and written without locks, each as a sequence lock made of atomics: a writer
// makes its version odd, fills it and makes the version even again; a reader that saw an odd
// version, or another one after reading, treats the way as a miss. Writers that meet a busy way
// skip caching. Answers computed after maxCachedGeneration registrations are not cached.
//
// A way holds a token's length and its first maxCachedToken bytes inline, which settles most
// lookups without reading further; a longer token is kept whole with its answer and compared
// there. Longer tokens were once left uncached, and were computed again at every occurrence:
// 1.8 a post in the benchmark's stream (a Cyrillic or Greek word of nine letters is 18 bytes).
type tokenCache struct {
	sets []cacheSet
}

// cacheWays is how many tokens a set holds. Over the benchmark's stream, with the cache's 64 MB,
// 15.5 tokens of a post were computed again when each token had a slot of its own (64 bytes,
// tokens up to 24 bytes) and 10.8 with two 32-byte ways to a line (tokens up to 16 bytes): a
// rare word no longer evicts the common one that shares its slot, and twice as many fit.
const cacheWays = 2

type cacheSet struct {
	ways [cacheWays]cacheWay
}

type cacheWay struct {
	meta  atomic.Uint64 // generation<<32 | lengthByte(token length)<<24 | version
	tok   [maxCachedToken / 8]atomic.Uint64
	found atomic.Pointer[cacheAnswer] // nil when the token is short and matches no pattern
}

// cacheAnswer is a cached token's answer; never changed once stored (matchers share it).
type cacheAnswer struct {
	found []*patternEntry
	long  string // the whole token, when it is longer than maxCachedToken bytes
}

// lengthByte is a token's length as a way's meta holds it.
func lengthByte(n int) int { return min(n, 0xff) }

const (
	maxCachedToken      = 16
	maxCachedGeneration = 1<<32 - 1
	versionMask         = 1<<24 - 1
)

// Cache sizes in tokens: 256 per registered pattern, a power of two between these bounds (32
// bytes a token: 64 MB at most, reached from about 8,000 patterns).
const (
	minCacheSlots = 1 << 13
	maxCacheSlots = 1 << 21
)

func cacheSlotsFor(patterns int64) int {
	n := minCacheSlots
	for n < maxCacheSlots && int64(n) < patterns*256 {
		n *= 2
	}
	return n
}

func newTokenCache(slots int) *tokenCache {
	return &tokenCache{sets: make([]cacheSet, slots/cacheWays)}
}

// sizeCache replaces the cache with a larger one when the patterns registered call for it (the
// answers are dropped: they are recomputed on demand). Writers only, under the Index lock.
func (ix *patternIndex) sizeCache() {
	want := cacheSlotsFor(ix.registered.Load())
	if c := ix.cache.Load(); c != nil && c.slots() >= want {
		return
	}
	if ix.registered.Load() == 0 {
		return // nothing to cache until a pattern is registered
	}
	ix.cache.Store(newTokenCache(want))
}

// slots is how many tokens the cache holds.
func (c *tokenCache) slots() int { return len(c.sets) * cacheWays }

// set returns the set of a token hash.
func (c *tokenCache) set(h uint64) *cacheSet { return &c.sets[h&uint64(len(c.sets)-1)] }

// tokenWords packs a token of at most maxCachedToken bytes into words, zero-padded, little
// endian: with one or two 8-byte loads when it has 8 bytes or more. It is written for 16 bytes
// (two words); TestTokenWords fails if maxCachedToken changes.
func tokenWords(tok string) (w [maxCachedToken / 8]uint64) {
	n := len(tok)
	if n < 8 {
		for i := range n {
			w[0] |= uint64(tok[i]) << (8 * i)
		}
		return w
	}
	w[0] = load64(tok)
	if n > 8 {
		w[1] = load64(tok[n-8:]) >> (8 * (16 - n)) // its last 8 bytes, less those already in w[0]
	}
	return w
}

// load64 reads the first 8 bytes of s, little endian (one load).
func load64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// holds reports whether the way's meta m says it holds a token of n bytes (lengthByte) whose
// first maxCachedToken bytes are packed as words.
func (w *cacheWay) holds(m uint64, n int, words *[maxCachedToken / 8]uint64) bool {
	if int(m>>24&0xff) != n {
		return false
	}
	for i := range words {
		if w.tok[i].Load() != words[i] {
			return false
		}
	}
	return true
}

// lock makes the way's version odd, returning its meta from before; false if it is busy.
func (w *cacheWay) lock() (uint64, bool) {
	m := w.meta.Load()
	return m, m&1 == 0 && w.meta.CompareAndSwap(m, m+1)
}

// unlock publishes what the way holds now, with the next version after m (from lock).
func (w *cacheWay) unlock(m, gen uint64, n int) {
	w.meta.Store(gen<<32 | uint64(n)<<24 | (m+2)&versionMask)
}

// get returns the cached answer for tok (packed words) and its generation; h is its hash.
// words packs tok's first maxCachedToken bytes (tokenWords).
func (c *tokenCache) get(tok string, h uint64, words *[maxCachedToken / 8]uint64) (found []*patternEntry, gen uint64, ok bool) {
	s := c.set(h)
	n := lengthByte(len(tok))
	for i := range s.ways {
		w := &s.ways[i]
		m := w.meta.Load()
		if m&1 != 0 || !w.holds(m, n, words) {
			continue
		}
		a := w.found.Load()
		if w.meta.Load() != m {
			return nil, 0, false // a writer changed the way meanwhile
		}
		if len(tok) > maxCachedToken && (a == nil || a.long != tok) {
			continue // another long token that starts alike
		}
		if a != nil {
			found = a.found
		}
		return found, m >> 32, true
	}
	return nil, 0, false
}

// isToken reports whether the way, whose meta is m, holds tok. Only writers call it; its answer
// is certain only while the way is locked.
func (w *cacheWay) isToken(m uint64, tok string, words *[maxCachedToken / 8]uint64) bool {
	if !w.holds(m, lengthByte(len(tok)), words) {
		return false
	}
	if len(tok) <= maxCachedToken {
		return true
	}
	a := w.found.Load()
	return a != nil && a.long == tok
}

// put caches an answer: in the token's own way when it has one (a stale answer brought up to
// date), else in the first way, the others moving down. found must never be changed afterwards
// (matchers share it). words packs tok's first maxCachedToken bytes (tokenWords).
func (c *tokenCache) put(tok string, h uint64, words *[maxCachedToken / 8]uint64, gen uint64, found []*patternEntry) {
	if gen > maxCachedGeneration {
		return
	}
	var a *cacheAnswer // allocated here only, not on every call
	if len(found) > 0 || len(tok) > maxCachedToken {
		a = &cacheAnswer{found: found}
		if len(tok) > maxCachedToken {
			a.long = strings.Clone(tok) // tok is part of the post's text, which must not be kept
		}
	}
	n := lengthByte(len(tok))
	s := c.set(h)
	for i := range s.ways {
		w := &s.ways[i]
		if m := w.meta.Load(); m&1 == 0 && w.isToken(m, tok, words) {
			if m, ok := w.lock(); ok {
				if w.isToken(m, tok, words) { // still: another writer may have come between
					w.found.Store(a)
					w.unlock(m, gen, n)
				} else {
					w.meta.Store(m) // released unchanged
				}
			}
			return
		}
	}
	var metas [cacheWays]uint64
	for i := cacheWays - 1; i >= 0; i-- {
		m, ok := s.ways[i].lock()
		if !ok {
			for j := i + 1; j < cacheWays; j++ {
				s.ways[j].meta.Store(metas[j]) // unchanged: released as it was
			}
			return // another matcher is writing this set
		}
		metas[i] = m
	}
	for i := cacheWays - 1; i > 0; i-- {
		to, from := &s.ways[i], &s.ways[i-1]
		for k := range to.tok {
			to.tok[k].Store(from.tok[k].Load())
		}
		to.found.Store(from.found.Load())
		to.unlock(metas[i], metas[i-1]>>32, int(metas[i-1]>>24&0xff))
	}
	first := &s.ways[0]
	for k := range words {
		first.tok[k].Store(words[k])
	}
	first.found.Store(a)
	first.unlock(metas[0], gen, n)
}

// maxCatchUp is how many newer patterns a stale cached answer is tested against before it is
// recomputed instead.
const maxCatchUp = 64

// matching returns the registered patterns that tok, whose hash (query.HashToken) is h, matches.
// The slice is shared: callers must not change it.
func (ps *patternScratch) matching(ix *patternIndex, tok string, h uint64) []*patternEntry {
	// Read first: a pattern registered meanwhile is found by the lookups or caught up later (a
	// key found twice costs one more lookup, never a wrong answer).
	gen := ix.generation.Load()
	c := ix.cache.Load()
	if c == nil { // registered before the cache was sized: computed, not cached
		return ps.compute(ix, tok)
	}
	words := tokenWords(tok[:min(len(tok), maxCachedToken)])
	if found, at, ok := c.get(tok, h, &words); ok {
		if at == gen {
			return found
		}
		if found, ok := ps.catchUp(ix, tok, found, at, gen); ok {
			c.put(tok, h, &words, gen, found)
			return found
		}
	}
	found := ps.compute(ix, tok)
	c.put(tok, h, &words, gen, found)
	return found
}

// catchUp adds to found, computed at generation from, the patterns registered up to generation to
// that tok matches; ok is false when those registrations are no longer all known, or too many.
func (ps *patternScratch) catchUp(ix *patternIndex, tok string, found []*patternEntry, from, to uint64) ([]*patternEntry, bool) {
	p := ix.recent.Load()
	if p == nil || to-from > maxCatchUp {
		return nil, false
	}
	recent := *p
	if len(recent) == 0 {
		return nil, false
	}
	// Generations in recent are consecutive; the first one needed is from+1.
	first := len(recent) - int(recent[len(recent)-1].generation-from)
	if first < 0 || first >= len(recent) || recent[first].generation != from+1 {
		return nil, false
	}
	ps.runes = ps.runes[:0]
	for _, r := range tok {
		ps.runes = append(ps.runes, r)
	}
	chars := charMask(ps.runes)
	out := found[:len(found):len(found)] // appending must not write into a slice handed out before
	for _, reg := range recent[first:] {
		if reg.generation > to {
			break
		}
		if reg.ref.mayMatch(chars) && reg.ref.entry.pattern.MatchesRunes(ps.runes) {
			out = append(out, reg.ref.entry)
		}
	}
	return out, true
}

func (ps *patternScratch) compute(ix *patternIndex, tok string) []*patternEntry {
	ps.visited = ps.visited[:0]
	ps.runes = ps.runes[:0]
	for _, r := range tok {
		ps.runes = append(ps.runes, r)
	}
	runes := ps.runes
	n := len(runes)
	chars := charMask(runes)
	// First every key the token produces, then the Bloom filter on all of them (independent
	// memory reads the processor overlaps), then the lookups of the few that pass.
	ps.probes = ps.probes[:0]
	probe := func(h uint64) { ps.probes = append(ps.probes, h) }
	lengths := ix.keyLengths.Load()
	if lengths == nil {
		return nil // registered, not yet applied: no lookup can find it
	}
	for _, l := range lengths.prefix {
		if l <= n {
			probe(polyHash(keyPrefix, runes[:l]))
		}
	}
	for _, l := range lengths.suffix {
		if l <= n {
			probe(polyHash(keySuffix, runes[n-l:]))
		}
	}
	for _, l := range lengths.infix {
		for i := 0; i+l <= n; i++ {
			probe(polyHash(keyInfix, runes[i:i+l]))
		}
	}
	if lens := lengths.deletion; len(lens) > 0 && ix.similarWithin(n) {
		ps.deletionHashes(lens, probe)
	}
	passed := ps.probes[:0]
	for _, h := range ps.probes {
		if ix.lookups.mayHave(h) {
			passed = append(passed, h)
		}
	}
	var found []*patternEntry
	for _, h := range passed {
		refs, _ := ix.lookups.get(h)
		for _, r := range refs {
			// A token's keys find only a few patterns: a list beats a map here.
			if !r.mayMatch(chars) || slices.Contains(ps.visited, r.entry) {
				continue
			}
			ps.visited = append(ps.visited, r.entry)
			if r.entry.pattern.MatchesRunes(runes) {
				found = append(found, r.entry)
			}
		}
	}
	return found
}

// deletionHashes calls visit with the key of every variant of the token's first deletionPrefix
// runes with up to MaxEdits runes deleted whose length is among lens, each computed in O(1) from
// prefix hashes: the hash of a concatenation A+C is hash(A)*base^len(C) + hash(C).
func (ps *patternScratch) deletionHashes(lens []int, visit func(uint64)) {
	runes := ps.runes[:min(len(ps.runes), deletionPrefix)]
	n := len(runes)
	want := func(l int) bool {
		for _, x := range lens {
			if x == l {
				return true
			}
		}
		return false
	}
	whole, one, two := want(n), n >= 1 && want(n-1), n >= 2 && want(n-2)
	if !whole && !one && !two {
		return
	}
	m := n + 1 // the sequence hashed is the kind letter, then the runes
	at := func(k int) uint64 {
		if k == 0 {
			return keyDeletion
		}
		return uint64(runes[k-1])
	}
	ps.prefix = append(ps.prefix[:0], 0)
	ps.powers = append(ps.powers[:0], 1)
	for k := 0; k < m; k++ {
		ps.prefix = append(ps.prefix, ps.prefix[k]*hashBase+at(k))
		ps.powers = append(ps.powers, ps.powers[k]*hashBase)
	}
	prefix, pow := ps.prefix, ps.powers
	sub := func(a, b int) uint64 { return prefix[b] - prefix[a]*pow[b-a] } // hash of seq[a:b]
	if whole {
		visit(prefix[m])
	}
	for d1 := 1; d1 < m; d1++ {
		if one {
			visit(prefix[d1]*pow[m-1-d1] + sub(d1+1, m))
		}
		if two {
			for d2 := d1 + 1; d2 < m; d2++ {
				visit(prefix[d1]*pow[m-2-d1] + sub(d1+1, d2)*pow[m-1-d2] + sub(d2+1, m))
			}
		}
	}
}

// deletionVariants returns the distinct strings left by deleting up to k runes (k <= 2).
func deletionVariants(runes []rune, k int) []string {
	seen := map[string]bool{string(runes): true}
	out := []string{string(runes)}
	add := func(rs []rune) {
		s := string(rs)
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	buf := make([]rune, 0, len(runes))
	for i := range runes {
		if k >= 1 {
			buf = append(append(buf[:0], runes[:i]...), runes[i+1:]...)
			add(buf)
		}
		if k >= 2 {
			for j := i + 1; j < len(runes); j++ {
				buf = append(append(append(buf[:0], runes[:i]...), runes[i+1:j]...), runes[j+1:]...)
				add(buf)
			}
		}
	}
	return out
}

func dedupe[T comparable](items []T) []T {
	seen := map[T]bool{}
	out := items[:0]
	for _, it := range items {
		if !seen[it] {
			seen[it] = true
			out = append(out, it)
		}
	}
	return out
}
