package alerts

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/story"
)

// A story is told of again when, since its last notice, its posts tripled, it reached three
// more providers or two more languages, or its threat rose to high; not for less.
func TestEscalation(t *testing.T) {
	last := StoryNotice{PostCount: 4, Providers: 1, Languages: 1}
	for _, tt := range []struct {
		name string
		now  StoryNotice
		want string
	}{
		{"nothing new", last, ""},
		{"more posts, not three times", StoryNotice{PostCount: 11, Providers: 3, Languages: 2}, ""},
		{"three times the posts", StoryNotice{PostCount: 12, Providers: 1, Languages: 1}, EscalationPosts},
		{"three more providers", StoryNotice{PostCount: 5, Providers: 4, Languages: 1}, EscalationProviders},
		{"two more languages", StoryNotice{PostCount: 5, Providers: 1, Languages: 3}, EscalationLanguages},
		{"threat rises to high", StoryNotice{PostCount: 5, Providers: 1, Languages: 1, ThreatHigh: true}, EscalationThreat},
		{"every reason that holds, in order", StoryNotice{PostCount: 40, Providers: 9, Languages: 9, ThreatHigh: true},
			"posts_tripled,more_providers,more_languages,threat_high"},
		{"tripled and three more providers", StoryNotice{PostCount: 12, Providers: 4, Languages: 2}, "posts_tripled,more_providers"},
	} {
		if got := Escalation(last, tt.now); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
	if got := Escalation(StoryNotice{PostCount: 2, ThreatHigh: true}, StoryNotice{PostCount: 3, ThreatHigh: true}); got != "" {
		t.Errorf("a threat already high escalates again: %q", got)
	}
	// A one-post story that grows to three is still small: its count escalates from three.
	for _, tt := range []struct {
		from, to int64
		want     string
	}{
		{1, 3, ""}, {1, 8, ""}, {1, 9, EscalationPosts}, {2, 8, ""}, {2, 9, EscalationPosts}, {3, 9, EscalationPosts},
	} {
		if got := Escalation(StoryNotice{PostCount: tt.from}, StoryNotice{PostCount: tt.to}); got != tt.want {
			t.Errorf("%d → %d posts: %q, want %q", tt.from, tt.to, got, tt.want)
		}
	}
}

// A story's languages, for its escalations, are the languages named: posts too short or too
// ambiguous to tell (und) or without one do not add a language.
func TestNamedLanguages(t *testing.T) {
	for _, tt := range []struct {
		name  string
		langs []story.Count
		want  int
	}{
		{"none", nil, 0},
		{"one named", []story.Count{{Name: "en", Count: 4}}, 1},
		{"und is no language", []story.Count{{Name: "en", Count: 4}, {Name: "und", Count: 2}}, 1},
		{"nor is none given", []story.Count{{Name: "en", Count: 4}, {Name: "", Count: 1}, {Name: "und", Count: 1}}, 1},
		{"only undetermined", []story.Count{{Name: "und", Count: 3}}, 0},
		{"three named", []story.Count{{Name: "en", Count: 4}, {Name: "fr", Count: 1}, {Name: "und", Count: 9}, {Name: "ar", Count: 1}}, 3},
	} {
		if got := namedLanguages(tt.langs); got != tt.want {
			t.Errorf("%s: %d languages, want %d", tt.name, got, tt.want)
		}
	}
	// The escalation: English with one more named language and undetermined posts is one more
	// language, not the two the rule asks.
	last := StoryNotice{PostCount: 4, Providers: 1, Languages: namedLanguages([]story.Count{{Name: "en", Count: 4}})}
	now := StoryNotice{PostCount: 6, Providers: 1, Languages: namedLanguages([]story.Count{{Name: "en", Count: 4}, {Name: "fr", Count: 1}, {Name: "und", Count: 1}})}
	if got := Escalation(last, now); got != "" {
		t.Errorf("en → en, fr, und escalates: %q", got)
	}
}

// After a notice, a story's escalations wait for EscalationCooldown, unless its threat rose to
// high; the reasons of a held escalation are told in words together.
func TestCooledAt(t *testing.T) {
	told := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	last := StoryNotice{PostCount: 4, Providers: 1, Languages: 1, At: told}
	end := told.Add(EscalationCooldown)
	for _, tt := range []struct {
		name    string
		reasons []string
		now     time.Time
		want    time.Time
	}{
		{"an escalation within the cooldown waits for its end", []string{EscalationProviders}, told.Add(20 * time.Second), end},
		{"two reasons within it wait as one", []string{EscalationPosts, EscalationProviders}, told.Add(59 * time.Second), end},
		{"at the cooldown's end: at once", []string{EscalationProviders}, end, time.Time{}},
		{"after it: at once", []string{EscalationLanguages}, told.Add(10 * time.Minute), time.Time{}},
		{"threat to high: at once", []string{EscalationThreat}, told.Add(time.Second), time.Time{}},
		{"threat to high with others: at once", []string{EscalationProviders, EscalationThreat}, told.Add(time.Second), time.Time{}},
	} {
		if got := CooledAt(last, tt.reasons, tt.now); !got.Equal(tt.want) {
			t.Errorf("%s: sent at %v, want %v", tt.name, got, tt.want)
		}
	}
	for _, tt := range []struct{ escalation, want string }{
		{"first_match", "first matched the search"},
		{"posts_tripled", "its post count tripled"},
		{"posts_tripled,more_providers", "its post count tripled; it reached three more sources"},
	} {
		if got := EscalationText(tt.escalation); got != tt.want {
			t.Errorf("%q in words: %q, want %q", tt.escalation, got, tt.want)
		}
		if got := Reasons(tt.escalation); strings.Join(got, ",") != tt.escalation || slices.Contains(got, "") {
			t.Errorf("%q's reasons: %q", tt.escalation, got)
		}
	}
}
