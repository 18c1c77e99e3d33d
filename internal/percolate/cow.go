package percolate

import (
	"maps"
	"sync/atomic"

	"github.com/sightline/sightline/internal/query"
)

// shardCount splits each index map so that a change copies only 1/shardCount of it.
const shardCount = 1024

// cowMap is a map read without locks and changed by copy-on-write, shard by shard: a reader loads
// a shard's current immutable map with one atomic load; a writer (one at a time, under the
// Index's lock) copies the shards it touches, changes the copies and publishes them. Readers
// never wait, and no change rebuilds more than the shards it touches.
//
// A Bloom filter of the keys ever stored answers most lookups of absent keys, the common case
// for a post's words, without touching the shards. It is blocked: a key sets three bits of one
// 64-bit word, so a lookup reads one word. Bits are never cleared: a stale bit only costs a
// lookup.
type cowMap[K comparable, V any] struct {
	shards [shardCount]atomic.Pointer[map[K]V]
	hash   func(K) uint64
	bloom  []atomic.Uint64
}

// hashString is the token hash of internal/query, so a post's tokens come with it.
func hashString(s string) uint64 { return query.HashToken(s) }

// newStringMap makes a map whose Bloom filter has 2^bloomBits bits.
func newStringMap[V any](bloomBits int) *cowMap[string, V] {
	return &cowMap[string, V]{
		hash:  hashString,
		bloom: make([]atomic.Uint64, 1<<bloomBits/64),
	}
}

// newUint64Map is for grid cells and pattern lookup hashes.
func newUint64Map[V any](bloomBits int) *cowMap[uint64, V] {
	return &cowMap[uint64, V]{
		hash: func(k uint64) uint64 {
			// A multiplicative mix so that neighbouring keys land in different shards.
			k ^= k >> 31
			k *= 0x9E3779B97F4A7C15
			return k ^ k>>29
		},
		bloom: make([]atomic.Uint64, 1<<bloomBits/64),
	}
}

// bloomSlot picks the filter word and bits of a hash, from other bits than the shard number uses.
func (m *cowMap[K, V]) bloomSlot(h uint64) (word int, mask uint64) {
	word = int(h >> 8 & uint64(len(m.bloom)-1)) // a power of two
	return word, 1<<(h>>40&63) | 1<<(h>>46&63) | 1<<(h>>52&63)
}

func (m *cowMap[K, V]) get(k K) (V, bool) {
	return m.getHashed(k, m.hash(k))
}

// mayHave reports whether the key may be present: false is certain (the Bloom filter alone). A
// caller with many keys to look up checks them all first, letting the processor overlap the
// memory accesses, then looks up only those that pass.
func (m *cowMap[K, V]) mayHave(k K) bool {
	word, mask := m.bloomSlot(m.hash(k))
	return m.bloom[word].Load()&mask == mask
}

// bloomWord reads the Bloom filter word of a hash (see Matcher.touch).
func (m *cowMap[K, V]) bloomWord(h uint64) uint64 {
	word, _ := m.bloomSlot(h)
	return m.bloom[word].Load()
}

// getHashed is get for a key whose hash the caller already has.
func (m *cowMap[K, V]) getHashed(k K, h uint64) (V, bool) {
	var zero V
	if word, mask := m.bloomSlot(h); m.bloom[word].Load()&mask != mask {
		return zero, false
	}
	p := m.shards[h%shardCount].Load()
	if p == nil {
		return zero, false
	}
	v, ok := (*p)[k]
	return v, ok
}

// change is what a writer does to one key: given the current value (ok false when absent) it
// returns the new one (keep false to delete the key).
type change[V any] func(old V, ok bool) (v V, keep bool)

// apply runs every change, copying each touched shard once. Only one writer may call it at a
// time.
func (m *cowMap[K, V]) apply(changes map[K][]change[V]) {
	byShard := map[uint64][]K{}
	for k := range changes {
		h := m.hash(k)
		byShard[h%shardCount] = append(byShard[h%shardCount], k)
		// Set before the shard is published, so no reader can miss the key.
		word, mask := m.bloomSlot(h)
		m.bloom[word].Or(mask)
	}
	for s, keys := range byShard {
		next := map[K]V{}
		if cur := m.shards[s].Load(); cur != nil {
			next = maps.Clone(*cur)
		}
		for _, k := range keys {
			v, ok := next[k]
			for _, ch := range changes[k] {
				v, ok = ch(v, ok)
			}
			if ok {
				next[k] = v
			} else {
				delete(next, k)
			}
		}
		m.shards[s].Store(&next)
	}
}

// len counts the keys (for statistics; not synchronized with writers).
func (m *cowMap[K, V]) len() int {
	n := 0
	for i := range m.shards {
		if p := m.shards[i].Load(); p != nil {
			n += len(*p)
		}
	}
	return n
}
