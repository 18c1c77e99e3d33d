package workload

import (
	"testing"
	"time"

	"github.com/sightline/sightline/internal/percolate"
)

func BenchmarkMatch(b *testing.B) {
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	g := NewGenerator(1)
	ix := percolate.New()
	var specs []percolate.SavedSearch
	for id := int64(1); id <= 10000; id++ {
		specs = append(specs, g.Search(id, now))
	}
	if err := ix.Put(specs...); err != nil {
		b.Fatal(err)
	}
	posts := make([]percolate.Doc, 5000)
	for i := range posts {
		posts[i] = g.Post(now)
	}
	m := ix.NewMatcher()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.Match(&posts[i%len(posts)], now)
	}
}
