package query

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestParseHostileNesting: nesting of any size is refused quickly with the length or depth
// rule, never by running out of stack (800,000 brackets once killed the process).
func TestParseHostileNesting(t *testing.T) {
	for _, tt := range []struct {
		name  string
		query string
		codes []string
	}{
		{"800,000 brackets", strings.Repeat("(", 800_000), []string{CodeTooLong}},
		{"800,000 brackets after AND", "a AND " + strings.Repeat("(", 800_000), []string{CodeTooLongWithAnd}},
		{"600 exclusions of groups", "x " + strings.Repeat("-(", 600) + "a" + strings.Repeat(")", 600), []string{CodeTooDeep}},
		{"one level beyond the cap", strings.Repeat("(", MaxDepth+1) + "a" + strings.Repeat(")", MaxDepth+1), []string{CodeTooDeep}},
		{"at the cap", strings.Repeat("(", MaxDepth) + "a" + strings.Repeat(")", MaxDepth), nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var q *Query
			var issues []Issue
			// Quickly is next to a peer timed in the same run, the fastest of three of each so a
			// busy machine slows both alike: as many bytes of plain words. Nesting that blew up
			// would cost orders of magnitude more.
			hostile := fastest(func() { q, issues = Parse(tt.query, ModeSavedSearch) })
			plain := fastest(func() { Parse(strings.Repeat("a ", len(tt.query)/2+1), ModeSavedSearch) })
			if hostile > 20*plain+time.Millisecond {
				t.Errorf("took %v, %.0f times as long as as many bytes of plain words (%v)", hostile, float64(hostile)/float64(plain), plain)
			}
			var codes []string
			for _, is := range issues {
				codes = append(codes, is.Code)
			}
			if !slices.Equal(codes, tt.codes) {
				t.Fatalf("codes %v, want %v", codes, tt.codes)
			}
			if (q != nil) != (len(tt.codes) == 0) {
				t.Fatalf("query %v with issues %v", q, codes)
			}
		})
	}
}

// fastest is the shortest of three runs of f.
func fastest(f func()) time.Duration {
	best := time.Duration(1<<63 - 1)
	for range 3 {
		start := time.Now()
		f()
		best = min(best, time.Since(start))
	}
	return best
}
