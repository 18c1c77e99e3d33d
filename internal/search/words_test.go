package search

import (
	"slices"
	"testing"

	"github.com/sightline/sightline/internal/post"
)

// cloudOf is the word cloud of posts, each counting once.
func cloudOf(posts ...post.Post) []WordCount {
	t := newTally(0)
	for _, p := range posts {
		t.countWords(p, 1)
	}
	return topWords(t.words, WordCloudSize)
}

func words(cloud []WordCount) []string {
	var out []string
	for _, w := range cloud {
		out = append(out, w.Word)
	}
	return out
}

// Stop words of every language with a list stay out of the cloud, with English's; a post whose
// language is unknown has none of any list's counted.
func TestCloudLeavesOutStopWords(t *testing.T) {
	for _, tt := range []struct {
		language, text string
		want           []string
	}{
		{"en", "The crane fell into the harbour and it's 2026 now; they don't know why, haven’t they?", []string{"crane", "fell", "harbour", "know"}},
		{"es", "La grúa cayó en el puerto y los estibadores están allí", []string{"cayó", "estibadores", "grúa", "puerto"}},
		{"fr", "La grue est tombée dans le port et les dockers sont là depuis qu'il pleut", []string{"dockers", "grue", "pleut", "port", "tombée"}},
		{"de", "Der Kran ist über dem Hafen umgestürzt und die Arbeiter sind dort", []string{"Arbeiter", "Hafen", "Kran", "umgestürzt"}},
		{"pt", "O guindaste caiu no porto e os estivadores estão lá", []string{"caiu", "estivadores", "guindaste", "porto"}},
		{"pt-BR", "O guindaste caiu no porto, você viu?", []string{"caiu", "guindaste", "porto", "viu"}},
		{"it", "La gru è caduta nel porto e gli scaricatori sono là", []string{"caduta", "gru", "porto", "scaricatori"}},
		{"nl", "De kraan is in de haven gevallen en de havenarbeiders zijn daar", []string{"gevallen", "haven", "havenarbeiders", "kraan"}},
		{"tr", "Vinç limanda devrildi ve işçiler çok korktu çünkü", []string{"devrildi", "işçiler", "korktu", "limanda", "Vinç"}},
		{"ru", "Кран упал в порту, и докеры были там. Это всё!", []string{"докеры", "Кран", "порту", "упал"}},
		{"uk", "Кран упав у порту, і докери були там. Це все!", []string{"докери", "Кран", "порту", "упав"}},
		{"ar", "سقطت الرافعة في الميناء وكان العمال هناك", []string{"الرافعة", "العمال", "الميناء", "سقطت"}},
		{"und", "Der Kran und the crane, la grue et le port", []string{"crane", "grue", "Kran", "port"}},
	} {
		got := words(cloudOf(post.Post{Language: tt.language, ContentText: tt.text}))
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: %q, want %q", tt.language, got, tt.want)
		}
	}
}

// Case and accents are merged as the search merges them, the word shown as most posts wrote it;
// numbers, links, handles and addresses stay out, and a hashtag is the word it spells.
func TestCloudMergesWrittenForms(t *testing.T) {
	for _, tt := range []struct {
		name  string
		posts []string
		want  []WordCount
	}{
		{"case", []string{"Paris is burning", "Paris again", "PARIS NOW", "paris paris"},
			[]WordCount{{"Paris", 4}, {"burning", 1}}},
		{"accents", []string{"Café crème", "Café noir", "cafe creme", "CAFÉ"},
			[]WordCount{{"Café", 4}, {"crème", 2}, {"noir", 1}}},
		{"sharp s", []string{"Straße gesperrt", "Strasse gesperrt", "Straße frei"},
			[]WordCount{{"Straße", 3}, {"gesperrt", 2}, {"frei", 1}}},
		{"a tie goes to capitals or accents", []string{"lyon", "Lyon", "creme", "crème"}, []WordCount{{"crème", 2}, {"Lyon", 2}}},
		{"then to the form sorting first", []string{"LYON", "Lyon"}, []WordCount{{"LYON", 2}}},
		{"once a post", []string{"flood FLOOD Flood"}, []WordCount{{"flood", 1}}},
		{"numbers", []string{"2026 10km 3rd 1,000 covid19 g7 mh17"}, []WordCount{{"covid19", 1}, {"mh17", 1}}},
		{"links, handles and addresses", []string{
			"Read https://example.com/flood, www.News.org/x and bbc.co.uk/news (@floodwatch) a@b.org #Flood",
		}, []WordCount{{"Flood", 1}, {"Read", 1}}},
		{"hashtags", []string{"#flood", "flood", "#Flood"}, []WordCount{{"flood", 3}}},
	} {
		var posts []post.Post
		for _, text := range tt.posts {
			posts = append(posts, post.Post{Language: "en", ContentText: text})
		}
		if got := cloudOf(posts...); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestIsLinkOrHandle(t *testing.T) {
	for chunk, want := range map[string]bool{
		"https://example.com/a": true, "(http://x.org).": true, "www.Example.com": true, "example.com": true,
		"bbc.co.uk/news": true, "t.co/abc": true, "@floodwatch,": true, "a@b.org": true,
		"flood.": false, "end.Then": false, "e.g.": false, "U.S.": false, "3.5": false, "#flood": false, "Paris": false,
	} {
		if got := isLinkOrHandle(chunk); got != want {
			t.Errorf("%q: %v, want %v", chunk, got, want)
		}
	}
}

// A sample's words add to the newest's, written forms and all.
func TestTalliesAdd(t *testing.T) {
	newest, sample := newTally(0), newTally(0)
	newest.countWords(post.Post{ContentText: "Paris flood"}, 1)
	sample.countWords(post.Post{ContentText: "PARIS"}, 2.5)
	sample.countWords(post.Post{ContentText: "PARIS storm"}, 2.5)
	newest.add(sample)
	want := []WordCount{{"PARIS", 6}, {"storm", 3}, {"flood", 1}}
	if got := topWords(newest.words, WordCloudSize); !slices.Equal(got, want) {
		t.Errorf("%v, want %v", got, want)
	}
}
