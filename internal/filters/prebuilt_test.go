package filters

import (
	"strings"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/percolate"
)

// Every prebuilt list is one a user could have typed, and each entry does what the list says
// when the percolator applies it to a saved search.
func TestPrebuiltLists(t *testing.T) {
	ids, names := map[string]bool{}, map[string]bool{}
	now := time.Now()
	for _, p := range PrebuiltLists() {
		t.Run(p.ID, func(t *testing.T) {
			if ids[p.ID] || names[NameKey(p.Name)] {
				t.Errorf("id or name used twice")
			}
			ids[p.ID], names[NameKey(p.Name)] = true, true
			if p.Name == "" || p.Description == "" || len(p.Name) > MaxNameLength {
				t.Errorf("name %q, description %q", p.Name, p.Description)
			}
			kept, stripped, unsupported := clean(p.Type, p.Entries, nil)
			if len(kept) != len(p.Entries) || stripped != (Stripped{}) || unsupported != nil {
				t.Fatalf("cleaning keeps %d of %d entries: stripped %+v, unsupported %q", len(kept), len(p.Entries),
					stripped, unsupported)
			}
			search, err := percolate.Compile(percolate.SavedSearch{ID: 1, Keywords: "report", Providers: []string{"reddit"}, Enabled: true,
				Filters: []percolate.FilterList{{Kind: p.Type.Kind(p.Inclusion), Entries: p.Entries}}})
			if err != nil {
				t.Fatal(err)
			}
			plain := &percolate.Doc{Provider: "reddit", Text: "a report about the weather", Published: now}
			if got, want := search.Match(plain, now), p.Type == Keyword && !p.Inclusion; got != want {
				t.Errorf("a post without any entry matches: %v, want %v", got, want)
			}
			for _, e := range p.Entries {
				doc := &percolate.Doc{Provider: "reddit", Text: "a report: " + strings.ReplaceAll(e, "*", "ing") + " today", Published: now}
				if p.Type == ObjectDetection {
					doc = &percolate.Doc{Provider: "reddit", Text: "a report", Objects: []string{e}, Published: now}
				}
				if got, want := search.Match(doc, now), p.Inclusion; got != want {
					t.Errorf("a post with %q matches: %v, want %v", e, got, want)
				}
			}
		})
	}
}
