package geo

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestMentionedLocations(t *testing.T) {
	g := gazetteer(t)
	tests := []struct {
		name string
		text string
		want []string // "Name/CC" in order of first mention
	}{
		{"cities and a country", "Protests in Paris and Lyon spread to Marseille, France.",
			[]string{"Paris/FR", "Lyon/FR", "Marseille/FR", "France/FR"}},
		{"a qualifier picks the homonym", "Paris, Texas is not Paris, France.",
			[]string{"Paris/US", "Texas/US", "Paris/FR", "France/FR"}},
		{"the most populous homonym", "Flooding reported near Springfield overnight.",
			[]string{"Springfield/US"}},
		{"a state named elsewhere picks the homonym", "Tornado sirens in Springfield. Illinois officials respond.",
			[]string{"Springfield/US", "Illinois/US"}},
		{"accents or not, one place", "Bomb threat at São Paulo airport; Sao Paulo police on alert",
			[]string{"São Paulo/BR"}},
		{"longest name wins", "New York City mayor visits Rio de Janeiro and the Isle of Man",
			[]string{"New York City/US", "Rio de Janeiro/BR", "Isle of Man/IM"}},
		{"lowercase is a word", "that was a nice reading of the split decision in paris", nil},
		{"common word at sentence start", "Reading is fun. Mobile phones are banned. Nice work.", nil},
		{"common word mid-sentence", "I moved to Reading last year, then to Nice.",
			[]string{"Reading/GB", "Nice/FR"}},
		{"common word with its country", "Reading, England police said so.",
			[]string{"Reading/GB", "England/GB"}},
		{"abbreviations only in capitals", "Let us know. The US and the UK agreed.",
			[]string{"United States/US", "United Kingdom/GB"}},
		{"all capitals", "BREAKING: EXPLOSION IN LONDON, MANCHESTER AND READING. LET US KNOW",
			[]string{"London/GB", "Manchester/GB"}},
		{"title case headline", "Huge Explosion Rocks Port Of Beirut", []string{"Beirut/LB"}},
		{"abbreviations in a title case headline", "US Troops Arrive In Poland", []string{"United States/US", "Poland/PL"}},
		{"title case hides common words", "Best Way To Sell Your Old Phone In Nice", nil},
		{"big regions", "Storms hit Bavaria and Ontario; Scotland braces.",
			[]string{"Bavaria/DE", "Ontario/CA", "Scotland/GB"}},
		{"generic region names are words", "Central banks in the Northern hemisphere.", nil},
		{"a region named after its city", "Flights to São Paulo resumed.", []string{"São Paulo/BR"}},
		{"small towns named elsewhere in context stay out", "Tornado sirens in Springfield. Illinois officials respond. Police said more.",
			[]string{"Springfield/US", "Illinois/US"}},
		{"a state qualifying a city", "Atlanta, Georgia police said.",
			[]string{"Atlanta/US", "Georgia/US"}},
		{"the country without US context", "Georgia and Armenia border talks.",
			[]string{"Georgia/GE", "Armenia/AM"}},
		{"a name with a comma", "The meeting was held in Washington, D.C. yesterday.",
			[]string{"Washington, D.C./US"}},
		{"handles, links and domains", "@Paris follow me https://example.com/Paris visit Paris.com and mail me@Berlin.de",
			nil},
		{"hashtags count", "Great day #Berlin", []string{"Berlin/DE"}},
		{"other languages' country names", "Manifestation en Allemagne et au Brésil.",
			[]string{"Germany/DE", "Brazil/BR"}},
		{"small towns need their country", "Ordino is lovely.", nil},
		{"small towns with their country", "Ordino, Andorra is lovely.",
			[]string{"Ordino/AD", "Andorra/AD"}},
		{"small capital with its territory", "Typhoon warning for Hagåtña, Guam",
			[]string{"Hagåtña/GU", "Guam/GU"}},
		{"a Spanish verb", "Caen los sistemas del banco otra vez.", nil},
		{"a Spanish word", "Como estas? Aquí todo bien.", nil},
		{"a German noun", "Das Essen war kalt.", nil},
		{"the same word after a preposition", "Je vais à Caen demain, puis en Essen.", []string{"Caen/FR", "Essen/DE"}},
		{"a word of another language is a name", "We drove from Caen to Rouen.", []string{"Caen/FR", "Rouen/FR"}},
		{"a Portuguese word with its region", "Estradas bloqueadas perto de Vitória, Espírito Santo.",
			[]string{"Vitória/BR", "Espírito Santo/BR"}},
		{"an English word after a preposition", "Lived in Bath for ten years. Bath time now.", []string{"Bath/GB"}},
		{"a preposition in capitals says nothing", "In Bath Time We Trust", nil},
		{"Russian and Ukrainian forms", "Еду из Москвы в Киев, потім до Львова.",
			[]string{"Moscow/RU", "Kyiv/UA", "Lviv/UA"}},
		{"other languages' city names", "Vuelos entre Londres y Nueva York; Demo in München.",
			[]string{"London/GB", "New York City/US", "Munich/DE"}},
		{"Arabic names and their one-letter words", "انقطاع المياه في دمشق وحلب وحريق بجدة والقاهرة",
			[]string{"Damascus/SY", "Aleppo/SY", "Jeddah/SA", "Cairo/EG"}},
		{"a country named like a bigger city", "Granada amaneció con nieve.", []string{"Granada/ES"}},
		{"nothing", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, m := range g.MentionedLocations(tt.text) {
				got = append(got, m.Name+"/"+m.CountryCode)
				if m.Point.Lat == 0 && m.Point.Lon == 0 {
					t.Errorf("%s has no point", m.Name)
				}
			}
			if strings.Join(got, "; ") != strings.Join(tt.want, "; ") {
				t.Errorf("MentionedLocations(%q)\n got %q\nwant %q", tt.text, got, tt.want)
			}
		})
	}
}

func TestMentionedLocationsCap(t *testing.T) {
	g := gazetteer(t)
	var b strings.Builder
	for _, c := range []string{"Paris", "Lyon", "Berlin", "Madrid", "Rome", "Vienna", "Prague", "Warsaw", "Budapest",
		"Lisbon", "Dublin", "Oslo", "Stockholm", "Helsinki", "Copenhagen", "Athens", "Sofia", "Bucharest", "Zagreb",
		"Belgrade", "Kyiv", "Vilnius", "Riga", "Tallinn"} {
		fmt.Fprintf(&b, "We went to %s. ", c)
	}
	if got := g.MentionedLocations(b.String()); len(got) != maxMentions {
		t.Errorf("%d mentions, want the cap of %d", len(got), maxMentions)
	}
}

func FuzzMentionedLocations(f *testing.F) {
	g := gazetteer(f)
	for _, s := range []string{"Paris, Texas", "U.S. and D.C.", "São Paulo", "@Paris.com", "A.B.C.D.E.F", "\xff Nice", "Rio de la"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got := g.MentionedLocations(text)
		if len(got) > maxMentions {
			t.Fatalf("%d mentions", len(got))
		}
		seen := map[string]bool{}
		for _, m := range got {
			k := m.Name + "/" + m.CountryCode
			if m.Name == "" || m.CountryCode == "" || seen[k] {
				t.Fatalf("MentionedLocations(%q) = %+v", text, got)
			}
			seen[k] = true
		}
	})
}

func BenchmarkMentionedLocations(b *testing.B) {
	g := gazetteer(b)
	text := "Protesters gathered outside the embassy in Berlin on Saturday, while police in Paris, Texas " +
		"reported a bomb threat. Analysts in New York City and São Paulo expect more unrest; see " +
		"https://example.com/report for details. #breaking @newsdesk"
	b.ReportAllocs()
	for b.Loop() {
		g.MentionedLocations(text)
	}
}

func BenchmarkLoadGazetteer(b *testing.B) {
	for b.Loop() {
		if _, err := loadGazetteer(); err != nil {
			b.Fatal(err)
		}
	}
}

// Each hand-written other name belongs to a place of the gazetteer.
func TestOtherNamesArePlaces(t *testing.T) {
	g := gazetteer(t)
	for _, o := range otherNames {
		if !slices.ContainsFunc(g.byKey[key(o.name)], func(i int32) bool {
			return g.places[i].name == o.name && g.places[i].country == o.country
		}) {
			t.Errorf("%s, %s is not in the gazetteer", o.name, o.country)
		}
	}
}
