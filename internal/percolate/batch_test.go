package percolate

import (
	"reflect"
	"slices"
	"testing"
)

// TestMatchBatchSizes: whatever the batch size (empty, fewer posts than workers, many), each
// result is what Match and brute force give for its post, and appending to one result leaves the
// others alone.
func TestMatchBatchSizes(t *testing.T) {
	g := newGen(21)
	ix := New()
	var compiled []*Compiled
	for id := int64(1); id <= 300; id++ {
		s := g.search(t, id)
		if c, err := Compile(s); err == nil {
			compiled = append(compiled, c)
			if err := ix.Put(s); err != nil {
				t.Fatal(err)
			}
		}
	}
	docs := make([]Doc, sized(40, 10)*16+3)
	for i := range docs {
		docs[i] = g.doc()
	}
	for _, n := range []int{0, 1, 16 - 1, 16, 16 + 1, 3*16 + 5, len(docs)} {
		got := ix.MatchBatch(docs[:n], now)
		for i := range got {
			if len(got[i]) == 0 {
				got[i] = nil // MatchAll says nil for none
			}
		}
		if len(got) != n {
			t.Fatalf("%d posts: %d results", n, len(got))
		}
		matched := 0
		for i := range got {
			want := MatchAll(compiled, &docs[i], now)
			if !reflect.DeepEqual(got[i], want) {
				t.Fatalf("%d posts, post %d: batch %v, brute force %v", n, i, got[i], want)
			}
			if single := ix.Match(&docs[i], now); !slices.Equal(got[i], single) {
				t.Fatalf("%d posts, post %d: batch %v, Match %v", n, i, got[i], single)
			}
			matched += len(want)
		}
		if n == len(docs) && matched < len(docs)/13 {
			t.Fatalf("only %d matches: the test proves little", matched)
		}
		// Appending to one result must leave the others alone.
		before := make([][]int64, len(got))
		for i := range got {
			before[i] = slices.Clone(got[i])
		}
		for i := range got {
			_ = append(got[i], -1)
		}
		for i := range got {
			if !slices.Equal(got[i], before[i]) {
				t.Fatalf("%d posts: appending to a result changed result %d", n, i)
			}
		}
	}
}
