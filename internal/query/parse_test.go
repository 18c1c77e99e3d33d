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
			start := time.Now()
			q, issues := Parse(tt.query, ModeSavedSearch)
			if elapsed := time.Since(start); elapsed > 100*time.Millisecond {
				t.Errorf("took %v", elapsed)
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
