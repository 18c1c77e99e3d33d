package enrich

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/sightline/sightline/internal/geo"
	"github.com/sightline/sightline/internal/post"
)

func enricher(t testing.TB) *Enricher {
	t.Helper()
	g, err := geo.LoadGazetteer()
	if err != nil {
		t.Fatal(err)
	}
	return New(g)
}

func TestDetectLanguage(t *testing.T) {
	tests := []struct{ text, want string }{
		{"", Undetermined},
		{"ok", Undetermined},
		{"lol 😂😂", Undetermined},
		{"Hello world", Undetermined},
		{"https://example.com/some/very/long/path/with/words", Undetermined}, // only letters of a link
		{"12345 67890 !!! ??? ... 2026-11-25", Undetermined},
		// Short posts, one or two per language the detector knows.
		{"Zebracorn launch confirmed for Friday", "en"},
		{"The protesters gathered in front of the parliament building this morning.", "en"},
		{"Power outage reported downtown, crews on site", "en"},
		{"Les manifestants se sont rassemblés devant le parlement ce matin.", "fr"},
		{"Coupure de courant signalée au centre-ville", "fr"},
		{"Los manifestantes se reunieron frente al parlamento esta mañana.", "es"},
		{"Corte de luz en el centro de la ciudad", "es"},
		{"Die Demonstranten versammelten sich heute Morgen vor dem Parlament.", "de"},
		{"Stromausfall in der Innenstadt gemeldet", "de"},
		{"Os manifestantes reuniram-se em frente ao parlamento esta manhã.", "pt"},
		{"I manifestanti si sono radunati davanti al parlamento stamattina.", "it"},
		{"Göstericiler bu sabah meclis binasının önünde toplandı.", "tr"},
		{"Протестующие собрались утром перед зданием парламента.", "ru"},
		{"Протестувальники зібралися вранці перед будівлею парламенту.", "uk"},
		{"تجمع المتظاهرون أمام مبنى البرلمان صباح اليوم", "ar"},
		{"抗议者今天早上聚集在议会大楼前面。", "zh"},
		{"抗議者たちは今朝、国会議事堂の前に集まりました。", "ja"},
		{"시위대가 오늘 아침 국회 앞에 모였습니다.", "ko"},
		{"De demonstranten verzamelden zich vanochtend voor het parlement.", "nl"},
		{"Protestujący zebrali się dziś rano przed budynkiem parlamentu.", "pl"},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			if got := DetectLanguage(tt.text); got != tt.want {
				t.Errorf("DetectLanguage(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}

func TestEnrich(t *testing.T) {
	e := enricher(t)
	p := &post.Post{
		TitleText: "Bomb Threat Reported At Airport In Lyon",
		ContentText: "Police in Lyon, France evacuated the terminal after a bomb threat posted by @anon_x. " +
			"Details at https://news.example.com/lyon. Contact press@example.org or +33 4 72 00 00 00.",
	}
	e.Enrich(p)
	if p.Language != "en" {
		t.Errorf("language %q", p.Language)
	}
	wantEntities := post.Entities{
		ExternalLinks: []string{"https://news.example.com/lyon"},
		Emails:        []string{"press@example.org"},
		Handles:       []string{"anon_x"},
		Phones:        []string{"+33472000000"},
	}
	if !reflect.DeepEqual(p.Entities, wantEntities) {
		t.Errorf("entities %+v, want %+v", p.Entities, wantEntities)
	}
	var places []string
	for _, l := range p.MentionedLocations {
		places = append(places, l.Name+"/"+l.CountryCode)
	}
	if !slices.Equal(places, []string{"Lyon/FR", "France/FR"}) {
		t.Errorf("mentioned locations %q", places)
	}
	// A report of a bomb threat is noted, not itself a threat: nobody says they will do anything.
	if p.Threat.Score != 15 || !slices.Equal(p.Threat.Reasons, []string{"violence (+15): bomb threat"}) {
		t.Errorf("threat %+v", p.Threat)
	}

	again := *p
	e.Enrich(&again)
	if !reflect.DeepEqual(&again, p) {
		t.Errorf("enriching twice changed the post:\n%+v\n%+v", again, *p)
	}
}

// The text decides the language; the provider's declared one stands only where the text cannot
// tell (issue 27: English posts carried their author's "Ukrainian" and Analyze refused them).
func TestEnrichLanguageFromTextOverDeclared(t *testing.T) {
	tests := []struct{ declared, text, want string }{
		{"pt", "This text is written in English but the provider said otherwise.", "en"},
		{"uk", "The power went out across the whole east side of town again tonight.", "en"},
		{"pt", "ok 👍", "pt"},
		{"", "ok 👍", Undetermined},
		{"", "Caen los sistemas del hospital otra vez, nadie sabe cuándo vuelven.", "es"},
	}
	for _, tt := range tests {
		p := &post.Post{Language: tt.declared, ContentText: tt.text}
		New(nil).Enrich(p)
		if p.Language != tt.want {
			t.Errorf("declared %q, %q: language %q, want %q", tt.declared, tt.text, p.Language, tt.want)
		}
	}
}

// BenchmarkEnrich runs on a long post full of entities and places, and on a typical short one.
func BenchmarkEnrich(b *testing.B) {
	e := enricher(b)
	posts := map[string]post.Post{
		"long": {
			TitleText: "Protests in Berlin and a bomb threat in Texas",
			ContentText: "Breaking: protesters gathered outside the parliament in Berlin this morning, while police " +
				"in Paris, Texas reported a bomb threat at a school. Analysts in New York City say the leaked " +
				"database (see https://example.com/leak) holds e-mails like admin@example.com and numbers " +
				"such as +1 (415) 555-2671. Follow @newsdesk for updates. #breaking #berlin",
		},
		"short": {ContentText: "Huge crowd at the concert in Lisbon tonight, the band was amazing! 🎶"},
	}
	for name, p := range posts {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				q := p
				e.Enrich(&q)
			}
		})
	}
}

// A long post in a language the function-word shortcut does not settle: the trigram detector
// runs, on the sample only.
func BenchmarkDetectLanguageLongUnknown(b *testing.B) {
	text := strings.Repeat("veřejné zasedání zastupitelstva města proběhne ve čtvrtek večer v budově radnice ", 40)
	for b.Loop() {
		DetectLanguage(text)
	}
}

// A post's language is its text's; the declared one only fills in when the text is too short
// to tell and does not contradict it.
func TestPostLanguage(t *testing.T) {
	tests := []struct{ text, declared, want string }{
		{"The power went out across the whole east side of town again tonight.", "uk", "en"},
		{"Se necesitan voluntarios en el banco de alimentos el sábado.", "pt", "es"},
		{"Precisamos de voluntários no banco de alimentos no sábado.", "es", "pt"},
		{"Завтра занять у школах не буде через негоду, каже мер.", "ru", "uk"},
		{"Завтра занятий в школах не будет из-за непогоды, говорит мэр.", "uk", "ru"},
		{"Check the live map https://example.org/outages/downtown-east @cityalerts #flood", "es", "en"},
		{"ok", "", Undetermined},
		{"ok", "en", "en"}, // too short to tell: the declared language stands
		{"👍👍", "es", "es"}, // no letters, nothing to contradict it
		{"Дякую", "UK", "uk"},
		{"Valeu, galera!", "pt-BR", "pt-br"}, // declared codes are lowercased
		{"Nice work", "uk", Undetermined},    // Latin letters are not Ukrainian
		{"Tudo bem?", "es", Undetermined},    // clearly Portuguese, too short to name
		{"Всем спасибо!", "uk", Undetermined},
		{"https://t.co/abc", "", Undetermined},
	}
	for _, tt := range tests {
		if got := PostLanguage(tt.text, tt.declared); got != tt.want {
			t.Errorf("PostLanguage(%q, %q) = %q, want %q", tt.text, tt.declared, got, tt.want)
		}
	}
}

// The US-persons marker: a post naming a place of the United States or its territories, or made
// there, carries it; one elsewhere, or near the border on the other side, does not.
func TestUSPersonsMarker(t *testing.T) {
	e := enricher(t)
	for _, tt := range []struct {
		name     string
		text     string
		location *post.Point
		want     bool
	}{
		{"names a US city", "Flooding reported in Houston, Texas this morning.", nil, true},
		{"names a territory", "Power is out across San Juan, Puerto Rico.", nil, true},
		{"names a place elsewhere", "Flooding reported in Lyon, France this morning.", nil, false},
		{"made in the US", "Nothing to see here.", &post.Point{Lat: 40.71, Lon: -74.0}, true},
		{"made across the border", "Nothing to see here.", &post.Point{Lat: 32.52, Lon: -117.04}, false},
		{"neither", "Nothing to see here.", nil, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := &post.Post{ContentText: tt.text, Location: tt.location}
			e.Enrich(p)
			if p.USPI != tt.want {
				t.Errorf("marker %v, want %v (places %v)", p.USPI, tt.want, p.MentionedLocations)
			}
		})
	}
	// Without a gazetteer the marker follows the places named, of which there are none.
	p := &post.Post{ContentText: "Houston", Location: &post.Point{Lat: 40.71, Lon: -74.0}}
	New(nil).Enrich(p)
	if p.USPI {
		t.Error("marked without a way to tell")
	}
}
