package percolate

import (
	"sync/atomic"

	"github.com/sightline/sightline/internal/query"
)

// freqSampleEvery: a matcher feeds one post in this many to the frequency sketch.
const freqSampleEvery = 16

// minSampledPosts is how many sampled posts make the sketch's estimates trusted over the
// length-based guess.
const minSampledPosts = 500

// freqSketch estimates the share of posts containing a token (a count-min sketch over a sample
// of the stream, fixed memory). It tells which term of an AND is the most selective when a
// search is indexed.
type freqSketch struct {
	rows  [4][1 << 16]atomic.Uint32
	posts atomic.Uint64
}

func (s *freqSketch) observe(t *query.Text) {
	s.posts.Add(1)
	for i := 0; i < t.Len(); i++ {
		h := t.TokenHash(i)
		for r := range s.rows {
			s.rows[r][uint16(h>>(16*r))].Add(1)
		}
	}
}

// estimate returns the share of sampled posts holding tok (an over-estimate, never under), or
// ok false while too few posts were sampled.
func (s *freqSketch) estimate(tok string) (share float64, ok bool) {
	posts := s.posts.Load()
	if posts < minSampledPosts {
		return 0, false
	}
	h := query.HashToken(tok)
	least := ^uint32(0)
	for r := range s.rows {
		least = min(least, s.rows[r][uint16(h>>(16*r))].Load())
	}
	return float64(least) / float64(posts), true
}
