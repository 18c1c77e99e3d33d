package workload

import (
	"fmt"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/percolate"
)

// BenchmarkMatch times one matcher (one core) over posts against 10,000 and 100,000 searches;
// bench percolate gives the figures on every core.
func BenchmarkMatch(b *testing.B) {
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	for _, searches := range []int64{10000, 100000} {
		b.Run(fmt.Sprint(searches), func(b *testing.B) {
			g := NewGenerator(1)
			ix := percolate.New()
			var specs []percolate.SavedSearch
			for id := int64(1); id <= searches; id++ {
				specs = append(specs, g.Search(id, now))
			}
			if err := ix.Put(specs...); err != nil {
				b.Fatal(err)
			}
			posts := make([]percolate.Doc, 20000)
			for i := range posts {
				posts[i] = g.Post(now)
			}
			m := ix.NewMatcher()
			for i := range 5000 { // warm the token cache, as a running stream has
				m.Match(&posts[len(posts)-1-i], now)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				m.Match(&posts[i%len(posts)], now)
			}
		})
	}
}

// BenchmarkAnalyze times the analysis of generated posts (their text, title and names), the
// first step of every match.
func BenchmarkAnalyze(b *testing.B) {
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	g := NewGenerator(1)
	posts := make([]percolate.Doc, 2000)
	for i := range posts {
		posts[i] = g.Post(now)
	}
	var a percolate.Analyzed
	i := 0
	for b.Loop() {
		a.Reset(&posts[i%len(posts)])
		i++
	}
}
