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
		{"explicit threat with place, time and warning",
			"There will be a bomb at the Houston central station on Saturday. You have been warned.",
			60, []string{"violence (+60): bomb + intent (there will be) + target (station) + time (saturday) + warning (you have been warned)"}},
		{"intent and target",
			"i'm going to shoot everyone at the mall tomorrow",
			50, []string{"violence (+50): shoot + intent (i m going to) + target (everyone) + time (tomorrow)"}},
		{"a complete threat counts alone",
			"I will kill you.",
			40, []string{"violence (+40): i will kill"}},
		{"an object pronoun is a target",
			"ich steche dich morgen ab",
			55, []string{"violence (+55): steche + intent (future tense) + target (dich) + time (morgen)"}},
		{"future tense carries intent",
			"Я взорву школу завтра",
			55, []string{"violence (+55): взорву + intent (future tense) + target (школу) + time (завтра)"}},
		{"harm word alone",
			"the bomb went off",
			15, []string{"violence (+15): bomb"}},
		{"eyewitness: no intent, no warning",
			"Loud explosion near the central station in Lyon",
			0, nil},
		{"figurative in context",
			"this album is the bomb, we will shoot the video at the station on saturday",
			0, nil},
		{"\"me\" is nobody's target",
			"my mom is gonna kill me tomorrow",
			0, nil},
		{"news of a past attack",
			"Two people were killed when a gunman opened fire at a supermarket yesterday, police said. The bomb squad searched the station.",
			0, nil},
		{"idiom",
			"Killing time at the airport before my flight to Tokyo.",
			0, nil},
		{"weapon with intent",
			"j'ai un fusil et je vais m'en servir à la fac lundi",
			60, []string{"violence (+50): fusil + intent (je vais) + target (fac) + time (lundi)", "weapons (+10): fusil"}},
		{"weapons for sale",
			"Selling Glock 19, no serial, BTC only",
			50, []string{"weapons (+50): glock + offer (selling) + illicit (no serial)"}},
		{"lawful weapon sale",
			"Hunting rifle for sale, license required",
			10, []string{"weapons (+10): rifle"}},
		{"weapons and violence",
			"C4 and detonators for sale. We will blow up the embassy on Friday.",
			100, []string{"weapons (+60): c4, detonators + offer (for sale)", "violence (+55): blow up + intent (we will) + target (embassy) + time (friday)"}},
		{"stolen data offered",
			"Fresh dump: 2.3M rows, names, SSNs, DOB. 0.5 BTC",
			60, []string{"cyber (+60): dump + data (names, ssns, dob) + volume (3m) + offer (fresh) + illicit (btc)"}},
		{"data leak in the news",
			"The company confirmed a data breach and asked customers to reset passwords",
			0, nil},
		{"leak words need an offer",
			"Our database was updated last night",
			0, nil},
		{"access for sale",
			"Selling RDP access to a hospital network, domain admin, $3k",
			60, []string{"cyber (+60): rdp access, domain admin + volume (3k) + offer (selling)"}},
		{"ransomware named",
			"LockBit ransomware hit the hospital",
			60, []string{"cyber (+60): lockbit, ransomware"}},
		{"advisory",
			"Security advisory: remote code execution in the VPN appliance, patch now",
			0, nil},
		{"doxxing with a call to act",
			"This is his home address: 1423 Maple Ave, Dayton. go get him",
			60, []string{"doxxing (+60): home address + street (ave) + call to act (go get him)"}},
		{"an address threatened",
			"подожжём его дом, адрес: ул. Мира 7",
			65, []string{"violence (+45): подожжем + intent (future tense) + target (его)", "doxxing (+20): address (адрес) + street (ул)"}},
		{"an address alone",
			"My grandma lives at 12 Main Street",
			0, nil},
		{"entities",
			"John 536-22-1234 card 4111 1111 1111 1111",
			50, []string{"doxxing (+50): 1 SSN, 1 credit card number"}},
		{"extremism",
			"Join the jihad and restore the caliphate",
			50, []string{"extremism (+50): jihad, caliphate"}},
		{"self-harm",
			"I want to die, no reason to live",
			60, []string{"self-harm (+60): want to die, no reason to live"}},
		{"several categories, highest first",
			"pipe bomb at the school, kill them all. 1488",
			100, []string{"violence (+55): kill them all + target (school)", "weapons (+40): pipe bomb", "extremism (+30): 1488"}},
		{"accents and case folded",
			"VOUS ÊTES PRÉVENUS : il y aura une BOMBE à la GARE samedi",
			60, []string{"violence (+60): bombe + intent (il y aura) + target (gare) + time (samedi) + warning (vous etes prevenus)"}},
		{"Arabic \"and\" prefix",
			"متوفر كلاشنكوف وقنابل يدوية للبيع",
			60, []string{"weapons (+60): كلاشنكوف, قنابل يدوية + offer (متوفر)"}},
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

// Ordinary posts, many with threat words in an everyday sense, stay under 15: the score a benign
// post keeps under in the evaluation (docs/accuracy.md).
func TestThreatBenignTextStaysLow(t *testing.T) {
	for _, text := range []string{
		"",
		"Lovely weather in Lisbon today, heading to the beach with friends.",
		"Our team won the match 3-1, what a shot from the captain in the second half!",
		"She delivered her address to the nation and thanked the volunteers.",
		"The fire department held an open day at the station; kids loved the trucks.",
		"New album drops Friday, this track is the bomb.",
		"gonna kill it at the office presentation tomorrow",
		"Going to shoot the wedding in Porto on Saturday, so excited!",
		"The bomb cyclone will hit the east coast on Friday, stay home if you can",
		"This heat is killing me, 40 degrees in Seville",
		"Die Schule beginnt morgen um 8 Uhr, die Kinder freuen sich.",
		"Vamos a quemar calorías mañana en el gimnasio a las 7",
		"Je vais tirer au sort le gagnant demain à midi !",
		"Завтра в школе будет концерт, приходите все!",
		"غدا سنذهب إلى المدرسة في الساعة الثامنة",
		"Selling pokemon cards, mint condition, shipping worldwide",
		"Vendo bicicleta, precio 200€, entrega en Madrid",
		"We are hiring: database administrator, remote, send your CV",
		"Our new shop: 12 Main Street, opens Saturday at 10am, come visit!",
		"Exploit every opportunity to learn something new.",
	} {
		if got := Threat(text, Entities(text)); got.Score >= 15 {
			t.Errorf("Threat(%q) = %d %q, want under 15", text, got.Score, got.Reasons)
		}
	}
}

func TestThreatCaps(t *testing.T) {
	text := "There will be a bomb at the station on Saturday. You have been warned."
	if got := Threat(text, post.Entities{}); got.Score != categoryCap {
		t.Errorf("one category scored %d %q, want its cap %d", got.Score, got.Reasons, categoryCap)
	}
	text += " Selling pipe bombs and TATP. Fresh fullz for sale."
	if got := Threat(text, post.Entities{}); got.Score != 100 {
		t.Errorf("score %d %q, want the maximum 100", got.Score, got.Reasons)
	}
}

func TestIsClock(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"at 9pm", true}, {"um 14h30", true}, {"à 14h", true}, {"at 15:00", true}, {"the 14th", true},
		{"2.3M rows", false}, {"500 rounds", false}, {"call 555 0100", false}, {"in 1995", false},
	}
	for _, tt := range tests {
		if got := isClock(query.Tokens(tt.text), 1); got != tt.want {
			t.Errorf("isClock(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

// Every term folds to tokens and is listed once, so each token sequence has one role and each
// reason names one lexicon entry; weighted roles have weights, the others do not.
func TestLexicon(t *testing.T) {
	weighted := []role{harm, threatPhrase, weapon, goods, tech, extremist, selfHarmTerm, doxxTerm}
	seen := map[string]role{}
	for _, g := range lexicon {
		if slices.Contains(weighted, g.role) != (g.weight > 0) || g.weight > categoryCap {
			t.Errorf("role %d: weight %d", g.role, g.weight)
		}
		for _, s := range g.terms {
			key := strings.Join(query.Tokens(s), " ")
			if key == "" {
				t.Errorf("%q has no tokens", s)
			}
			if r, dup := seen[key]; dup {
				t.Errorf("%q listed twice (roles %d and %d)", s, r, g.role)
			}
			seen[key] = g.role
		}
	}
}
