package enrich

import (
	"slices"
	"strings"
	"testing"

	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/query"
)

func TestThreatReasons(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		score   int
		reasons []string
	}{
		{"violence", "I will kill you tomorrow. Murder.", 60, []string{"violence (+60): i will kill, murder"}},
		{"overlapping terms count once", "kill them all", 40, []string{"violence (+40): kill them all"}},
		{"violence in Spanish", "Te voy a matar", 40, []string{"violence (+40): te voy a matar"}},
		{"violence in French", "Un attentat a eu lieu", 30, []string{"violence (+30): attentat"}},
		{"violence in Russian", "Вчера произошёл теракт", 30, []string{"violence (+30): теракт"}},
		{"weapons", "Selling AK-47 and ammo, DM me", 30, []string{"weapons (+30): ak 47, ammo"}},
		{"weapons in German", "Sprengstoff gefunden", 25, []string{"weapons (+25): sprengstoff"}},
		{"extremism", "Join the jihad and restore the caliphate", 50, []string{"extremism (+50): jihad, caliphate"}},
		{"cyber", "LockBit ransomware hit the hospital", 60, []string{"cyber (+60): lockbit, ransomware"}},
		{"cyber leak", "Selling stealer logs and a combolist", 60, []string{"cyber (+60): stealer logs, combolist"}},
		{"self-harm", "I want to die, no reason to live", 60, []string{"self-harm (+60): want to die, no reason to live"}},
		{"self-harm in Portuguese", "quero morrer hoje", 35, []string{"self-harm (+35): quero morrer"}},
		{"doxxing words", "We doxxed him, here is his home address", 50, []string{"doxxing (+50): doxxed, home address"}},
		{"doxxing by entities", "John 536-22-1234 card 4111 1111 1111 1111", 50, []string{"doxxing (+50): 1 SSN, 1 credit card number"}},
		{"several categories, highest first", "pipe bomb at the school, kill them all. 1488", 100,
			[]string{"violence (+40): kill them all", "weapons (+40): pipe bomb", "extremism (+30): 1488"}},
		{"each term counts once", "ransomware ransomware ransomware", 30, []string{"cyber (+30): ransomware"}},
		{"accents and case folded", "ATENTADO en la ciudad; Anschlag in Berlin", 55, []string{"violence (+55): atentado, anschlag"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Threat(tt.text, Entities(tt.text))
			if got.Score != tt.score || !slices.Equal(got.Reasons, tt.reasons) {
				t.Errorf("Threat(%q) = %d %q, want %d %q", tt.text, got.Score, got.Reasons, tt.score, tt.reasons)
			}
		})
	}
}

func TestThreatManyEmails(t *testing.T) {
	var b strings.Builder
	for i := range manyEmails {
		b.WriteString(strings.Repeat("a", i+1) + "@example.com\n")
	}
	got := Threat(b.String(), Entities(b.String()))
	if got.Score != manyEmailWeight || !slices.Equal(got.Reasons, []string{"cyber (+20): 10 e-mail addresses"}) {
		t.Errorf("got %d %q", got.Score, got.Reasons)
	}
}

func TestThreatBenignTextScoresZero(t *testing.T) {
	for _, text := range []string{
		"",
		"Lovely weather in Lisbon today, heading to the beach with friends.",
		"The recipe calls for two cups of flour, butter and a pinch of salt.",
		"Our team won the match 3-1, what a shot from the captain in the second half!",
		"Killing time at the airport before my flight to Tokyo.",
		"She delivered her address to the nation and thanked the volunteers.",
		"We respect your personal information and academic credentials.",
		"The fire department held an open day at the station; kids loved the trucks.",
		"New album drops Friday, this track is the bomb.",
		"Il fait beau à Paris, on va au marché ce matin.",
		"Heute gehen wir im Park spazieren und essen Eis.",
		"Hoy vamos al cine con la familia.",
		"Exploit every opportunity to learn something new.",
	} {
		if got := Threat(text, Entities(text)); got.Score != 0 || len(got.Reasons) != 0 {
			t.Errorf("Threat(%q) = %d %q, want 0", text, got.Score, got.Reasons)
		}
	}
}

func TestThreatCaps(t *testing.T) {
	text := "kill you kill him kill her kill them murder massacre behead"
	got := Threat(text, post.Entities{})
	if got.Score != categoryCap {
		t.Errorf("one category scored %d, want its cap %d", got.Score, categoryCap)
	}
	text += " pipe bomb tatp semtex jihad caliphate daesh ransomware lockbit fullz kill myself suicidal doxxed swatting"
	if got := Threat(text, post.Entities{}); got.Score != 100 {
		t.Errorf("score %d, want the maximum 100", got.Score)
	}
}

// Every term folds to tokens and is listed once, so each reason names one lexicon entry.
func TestLexicon(t *testing.T) {
	seen := map[string]category{}
	for cat, terms := range lexicon {
		for _, term := range terms {
			if len(query.Tokens(term.term)) == 0 || term.weight <= 0 || term.weight > categoryCap {
				t.Errorf("%s: %q weight %d", cat, term.term, term.weight)
			}
			if other, dup := seen[term.term]; dup {
				t.Errorf("%q listed in %s and %s", term.term, other, cat)
			}
			seen[term.term] = cat
		}
	}
	if !slices.Equal(categories, []category{violence, weapons, extremism, cyber, selfHarm, doxxing}) || len(lexicon) != len(categories) {
		t.Errorf("categories %v, lexicon has %d", categories, len(lexicon))
	}
}
