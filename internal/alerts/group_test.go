package alerts

import "testing"

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
		{"the first reason wins", StoryNotice{PostCount: 40, Providers: 9, Languages: 9, ThreatHigh: true}, EscalationPosts},
	} {
		if got := Escalation(last, tt.now); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
	if got := Escalation(StoryNotice{PostCount: 2, ThreatHigh: true}, StoryNotice{PostCount: 3, ThreatHigh: true}); got != "" {
		t.Errorf("a threat already high escalates again: %q", got)
	}
}
