package query

import (
	"math/rand/v2"
	"testing"
)

// osaDistance is the textbook full-matrix optimal string alignment distance.
func osaDistance(a, b []rune) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

func TestWithinEditsAgreesWithFullMatrix(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	word := func() []rune {
		rs := make([]rune, r.IntN(9))
		for i := range rs {
			rs[i] = rune('a' + r.IntN(3))
		}
		return rs
	}
	for i := 0; i < 200000; i++ {
		a, b, k := word(), word(), r.IntN(3)
		if got, want := WithinEdits(a, b, k), osaDistance(a, b) <= k; got != want {
			t.Fatalf("WithinEdits(%q, %q, %d) = %v, distance is %d", string(a), string(b), k, got, osaDistance(a, b))
		}
	}
}
