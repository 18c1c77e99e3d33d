package filters

import (
	"slices"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/sightline/sightline/internal/connector/simulator"
	"github.com/sightline/sightline/internal/query"
)

func TestVocabulary(t *testing.T) {
	if !slices.IsSorted(objects) || len(slices.Compact(slices.Clone(objects))) != len(objects) {
		t.Fatal("the vocabulary must be sorted without duplicates, for binary search")
	}
	for _, o := range objects {
		if utf8.RuneCountInString(o) < MinEntryLength || entryKey(ObjectDetection, o) != o {
			t.Errorf("%q could not be an entry of an object list as it is spelled", o)
		}
	}
}

// Every object the demo simulator puts on its pictures can be chosen in an object list.
func TestVocabularyCoversTheSimulator(t *testing.T) {
	g := simulator.NewGenerator(1)
	now := time.Now()
	seen := map[string]bool{}
	for range 20000 {
		for _, o := range g.Next(now).DetectedObjects {
			seen[o] = true
		}
	}
	if len(seen) < 20 {
		t.Fatalf("only %d distinct objects in the simulator's posts; the test sees too little", len(seen))
	}
	for o := range seen {
		if _, ok := supportedObject(o); !ok {
			t.Errorf("the simulator emits %q, which object lists cannot hold", o)
		}
	}
}

func TestRankObjects(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		usage map[string]int64
		limit int
		want  []string
	}{
		{"exact, then prefix, then word prefix, then inside", "car", nil, 10,
			[]string{"car", "carrot", "credit card", "police car"}},
		{"use raises an object within its tier", "ca", map[string]int64{"cat": 3, "cake": 1, "credit card": 9}, 10,
			[]string{"cat", "cake", "car", "carrot", "credit card", "police car", "suitcase"}},
		{"empty text lists the most used, then alphabetically", "", map[string]int64{"rifle": 2, "drone": 5}, 4,
			[]string{"drone", "rifle", "airplane", "ammunition"}},
		{"folded text", "  POLICE ", nil, 10, []string{"police car"}},
		{"limit", "s", nil, 3, []string{"sandwich", "scissors", "server rack"}},
		{"nothing", "zzz", nil, 10, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, u := range rankObjects(query.Fold(tt.text), tt.usage, tt.limit) {
				got = append(got, u.Keyword)
				if u.Uses != tt.usage[u.Keyword] {
					t.Errorf("%s: uses %d, want %d", u.Keyword, u.Uses, tt.usage[u.Keyword])
				}
			}
			if !slices.Equal(got, tt.want) && !(len(got) == 0 && len(tt.want) == 0) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
