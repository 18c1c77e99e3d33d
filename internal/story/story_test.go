package story

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/enrich"
	"github.com/sightline/sightline/internal/geo"
	"github.com/sightline/sightline/internal/percolate/workload"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/query"
)

var t0 = time.Date(2026, 11, 20, 8, 0, 0, 0, time.UTC)

// enriched builds a post as the pipeline hands it over: with its entities and places.
func enriched(t testing.TB, id, lang, text string, at time.Time) *post.Post {
	t.Helper()
	g, err := geo.LoadGazetteer()
	if err != nil {
		t.Fatal(err)
	}
	return &post.Post{ID: id, Language: lang, ContentText: text, PublishedAt: at,
		Entities: enrich.Entities(text), MentionedLocations: g.MentionedLocations(text)}
}

func TestCanonicalURL(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"https://www.reuters.com/world/quake-2026-11-20/?utm_source=twitter&utm_medium=social#top", "reuters.com/world/quake-2026-11-20"},
		{"http://m.example.com/a/b/amp?id=7&fbclid=xyz", "example.com/a/b?id=7"},
		{"https://example.com/a?b=2&a=1", "example.com/a?a=1&b=2"},
		{"https://www.bbc.co.uk/", ""},
		{"https://www.bbc.co.uk/?ref=home", ""},
		{"ftp://example.com/file", ""},
		{"not a link", ""},
	} {
		if got := CanonicalURL(tc.in); got != tc.want {
			t.Errorf("CanonicalURL(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestNumbers(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"1,200 evacuated", []string{"1200"}},
		{"1.200 Menschen evakuiert", []string{"1200"}},
		{"1 200 personnes", []string{"1200"}},
		{"a 6.4 quake, 12,5 km deep", []string{"6.4", "12.5"}},
		{"$900B and 007", []string{"900000000000", "7"}},
		// One amount written with its scale in several languages is one number.
		{"900 Milliarden Dollar, 900.000 millones, 900 مليار, 900 млрд", []string{"900000000000", "900000000000", "900000000000", "900000000000"}},
		{"187k jobs; 187 mil vagas; 187,000 emplois", []string{"187000", "187000", "187000"}},
		{"€1.8bn, 1,8 milliard d'euros, 1.800 millones, 1,8 mil millones", []string{"1800000000", "1800000000", "1800000000", "1800000000"}},
		{"2,3 milhões de clientes, 2.3 million customers", []string{"2300000", "2300000"}},
		// A letter after a number scales it only after a currency sign: 5m is five metres.
		{"a wave of 5m, a $5m fine", []string{"5", "5000000"}},
		{"COVID19 and A320 are words, not numbers", nil},
	} {
		if got := numbers(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("numbers(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestSkeleton checks that a name has one skeleton in the Latin and the Cyrillic script and
// through its inflections, and that short names have none.
func TestSkeleton(t *testing.T) {
	for _, names := range [][]string{
		{"Malatya", "Малатья", "Малатьи"},
		{"Sheremetyevo", "Шереметьево"},
		{"Kharkiv", "Харків", "Харькове", "Charkiw"},
		{"Lybidska", "Либідська", "Лыбедская"},
		{"Darnytskyi", "Дарницького"},
		{"Nizhnekamsk", "Нижнекамск", "Нижньокамську"},
	} {
		want := skeleton(names[0])
		if want == "" {
			t.Errorf("skeleton(%q) is empty", names[0])
		}
		for _, n := range names[1:] {
			if got := skeleton(n); got != want {
				t.Errorf("skeleton(%q) = %q, want %q as for %q", n, got, want, names[0])
			}
		}
	}
	for _, n := range []string{"Kyiv", "Київ", "Oslo", "COP31", "東京"} {
		if got := skeleton(n); got != "" {
			t.Errorf("skeleton(%q) = %q, want none", n, got)
		}
	}
}

// TestClusterer runs each case's posts through a fresh clusterer in order and compares the
// stories they fall into, written as one letter a post.
func TestClusterer(t *testing.T) {
	type in struct {
		lang, text string
		after      time.Duration
	}
	for _, tc := range []struct {
		name  string
		posts []in
		want  string
	}{
		{"exact copies, whatever the case and punctuation", []in{
			{"en", "Magnitude 6.4 earthquake strikes off the coast of Chile, no tsunami warning issued.", 0},
			{"en", "MAGNITUDE 6.4 EARTHQUAKE strikes off the coast of Chile - no tsunami warning issued", time.Minute},
		}, "aa"},
		{"a shared article link joins a quote-post to its source", []in{
			{"en", "Port strike halts container traffic https://www.example-news.com/business/port-strike-2026?utm_source=rss", 0},
			{"en", "This is going to hurt supply chains for weeks. https://example-news.com/business/port-strike-2026", time.Hour},
		}, "aa"},
		{"near copy: a wire story with one word changed", []in{
			{"en", "Firefighters battled a large blaze at a warehouse in Rotterdam on Tuesday night, sending thick smoke over the port, officials said.", 0},
			{"en", "Firefighters battled a huge blaze at a warehouse in Rotterdam on Tuesday night, sending thick smoke over the port, officials said.", time.Hour},
		}, "aa"},
		{"paraphrase of the same event", []in{
			{"en", "A 6.4 magnitude earthquake hit central Chile on Friday, shaking buildings in Santiago.", 0},
			{"en", "Buildings swayed in Santiago as a magnitude 6.4 quake struck central Chile.", 2 * time.Hour},
		}, "aa"},
		{"the same event in another language, sharing place and number", []in{
			{"en", "A 6.4 magnitude earthquake hit central Chile on Friday, shaking buildings in Santiago.", 0},
			{"es", "Un sismo de magnitud 6,4 sacudió el centro de Chile y se sintió con fuerza en Santiago.", 3 * time.Hour},
		}, "aa"},
		{"a comment sharing an article names the story through the link's words", []in{
			{"en", "RT @FDNY: We are operating at a crane collapse at 10th Ave and W 41st St in Manhattan. 6 injured.", 0},
			{"en", "Saw the crane come down from my office window. Terrifying. https://news.example/nyregion/manhattan-crane-collapse", time.Hour},
		}, "aa"},
		{"a sentence's first word is not a name", []in{
			{"en", "Protest by hauliers at the Ukrainian border, a queue of 1500 trucks at Dorohusk.", 0},
			{"en", "Blockade at Dorohusk in its second day, with 1500 trucks now waiting in the queue.", 2 * time.Hour},
		}, "aa"},
		{"an account named for the subject mentions it", []in{
			{"de", "Lufthansa-Piloten streiken am Dienstag, Hunderte Flüge fallen aus.", 0},
			{"de", "RT @lufthansa_de: Aufgrund des Streiks müssen wir am Dienstag rund 800 Flüge streichen.", time.Hour},
		}, "aa"},
		{"one template, two companies", []in{
			{"en", "MICRON CROSSES $900B MARKET VALUE", 0},
			{"en", "Micron's market value crosses $900B for the first time as shares rally", time.Hour},
			{"en", "SK HYNIX CROSSES $900B MARKET VALUE", 2 * time.Hour},
		}, "aab"},
		{"two ransomware attacks on different cities the same day", []in{
			{"en", "Ransomware attack knocks city services offline in Dallas, officials say.", 0},
			{"en", "Ransomware attack knocks city services offline in Denver, officials say.", time.Hour},
		}, "ab"},
		{"other language, same place, different numbers and no link: apart", []in{
			{"en", "Protest in Paris draws 20,000 against pension reform.", 0},
			{"fr", "Un incendie dans un immeuble à Lyon fait 3 blessés.", time.Hour},
		}, "ab"},
		{"across languages too far apart in time", []in{
			{"en", "A 6.4 magnitude earthquake hit central Chile on Friday, shaking buildings in Santiago.", 0},
			{"es", "Un sismo de magnitud 6,4 sacudió el centro de Chile y se sintió con fuerza en Santiago.", 30 * time.Hour},
		}, "ab"},
		{"a hashtag of several words names its event across languages, even where no place is read", []in{
			{"en", "Huge fire at a warehouse near the port of Hamburg, black smoke everywhere #HamburgFire", 0},
			{"ja", "Hamburgの港近くの倉庫で大規模な火災、黒煙がすごい #HamburgFire", time.Minute},
			{"ja", "Munichの港近くの倉庫で大規模な火災、黒煙がすごい #MunichFire", 2 * time.Minute},
		}, "aab"},
		{"two records, two sums of money: apart", []in{
			{"en", "BITCOIN TOPS $150,000 FOR THE FIRST TIME", 0},
			{"en", "ETHER TOPS $10,000 FOR THE FIRST TIME", time.Hour},
		}, "ab"},
		{"one amount written with its scale in other languages and a name in Cyrillic", []in{
			{"en", "Siemens Mobility wins a €3.2bn order for 120 high-speed trains.", 0},
			{"es", "Siemens gana un contrato de 3.200 millones de euros para suministrar 120 trenes de alta velocidad.", time.Hour},
			{"ru", "Сименс получил заказ на 3,2 млрд евро на поставку 120 скоростных поездов.", 2 * time.Hour},
		}, "aaa"},
		{"one template, two towns the gazetteer does not know in Cyrillic", []in{
			{"ru", "Беспилотники атаковали НПЗ в Рязани, на территории завода начался пожар.", 0},
			{"ru", "Беспилотники атаковали НПЗ в Саратове, на территории завода начался пожар.", time.Hour},
		}, "ab"},
		{"a name inflected is the same name", []in{
			{"uk", "Обстріл Запоріжжя: 2 загиблих і 11 поранених, зруйновано школу.", 0},
			{"uk", "RT @zoda_gov_ua: Удар по Запоріжжю. 2 загиблих, 11 поранених, рятувальники розбирають завали.", time.Hour},
		}, "aa"},
		{"the story's subject, written by its posts and no other, though neither post starts with it", []in{
			{"en", "EU fines Meta €1.2 billion over data transfers", 0},
			{"en", "Regulators hit Meta with a €1.2 billion fine over its data transfers", 5 * time.Minute},
			{"en", "RT @EUCompetition: The Commission fines Meta €1.2 billion for breaching the rules on data transfers.", 10 * time.Minute},
		}, "aaa"},
		{"one template, two banks: the name they share is the template's", []in{
			{"en", "Northwind Bank says hackers stole data of 2 million customers", 0},
			{"en", "Hackers stole data of 2 million customers, Northwind Bank says", 5 * time.Minute},
			{"en", "Contoso Bank says hackers stole data of 2 million customers", 10 * time.Minute},
		}, "aab"},
		{"a place of the same name read in another country is the same place", []in{
			{"en", "Wildfire near Santa Rosa, California forces evacuations; 1,200 acres burned", 0},
			{"en", "Evacuations east of Santa Rosa as the wildfire grows to 1,200 acres", 20 * time.Minute},
		}, "aa"},
		{"a district of the city the other post names", []in{
			{"en", "Police evacuate 4,000 residents in Hamburg after a WWII bomb is found on a building site", 0},
			{"en", "WWII bomb found in Altona: 4,000 residents told to leave their homes", 30 * time.Minute},
		}, "aa"},
		{"a suburb is not its city", []in{
			{"en", "Ransomware attack knocks city services offline in Miami, officials say.", 0},
			{"en", "Ransomware attack knocks village services offline in Pinecrest, officials say.", time.Hour},
		}, "ab"},
		{"out of the window", []in{
			{"en", "Magnitude 6.4 earthquake strikes off the coast of Chile, no tsunami warning issued.", 0},
			{"en", "Magnitude 6.4 earthquake strikes off the coast of Chile, no tsunami warning issued.", Window + time.Hour},
		}, "ab"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := New()
			letters := map[string]byte{}
			var got []byte
			for i, p := range tc.posts {
				s := c.Add(enriched(t, fmt.Sprint(i), p.lang, p.text, t0.Add(p.after)))
				if _, ok := letters[s]; !ok {
					letters[s] = byte('a' + len(letters))
				}
				got = append(got, letters[s])
			}
			if string(got) != tc.want {
				t.Errorf("stories %s, want %s", got, tc.want)
			}
		})
	}
}

// TestRepliesJoinTheirThread checks that a reply, whatever it says, is in the story of the post it
// answers while that post is in the window, and otherwise is placed by what it says.
func TestRepliesJoinTheirThread(t *testing.T) {
	c := New()
	root := enriched(t, "r", "en", "Huge fire at a warehouse near the port of Hamburg, black smoke everywhere", t0)
	root.Provider, root.NativeID = "reddit", "t3_1"
	c.Add(root)
	reply := enriched(t, "x", "ar", "أؤكد، أنا قريب من المكان.", t0.Add(time.Minute))
	reply.Provider, reply.NativeID, reply.ParentID, reply.ThreadID = "reddit", "t1_2", "t3_1", "t3_1"
	if got := c.Add(reply); got != "r" {
		t.Errorf("reply's story %q, want its parent's r", got)
	}
	elsewhere := enriched(t, "y", "ar", "نفس الشيء هنا، انتبهوا لأنفسكم.", t0.Add(2*time.Minute))
	elsewhere.Provider, elsewhere.NativeID, elsewhere.ParentID = "twitter", "9", "t3_1" // another provider's id
	if got := c.Add(elsewhere); got == "r" {
		t.Errorf("a reply on another provider joined r through an id that is not its parent")
	}
	late := enriched(t, "z", "en", "Can confirm, I'm nearby.", t0.Add(Window+time.Hour))
	late.Provider, late.NativeID, late.ParentID = "reddit", "t1_3", "t3_1"
	if got := c.Add(late); got != "z" {
		t.Errorf("a reply whose parent left the window: story %q, want its own", got)
	}
}

// TestSeed checks that a window rebuilt from stored posts gives the next post the same story as
// the clusterer that saw them live.
func TestSeed(t *testing.T) {
	first := enriched(t, "p1", "en", "A 6.4 magnitude earthquake hit central Chile on Friday, shaking buildings in Santiago.", t0)
	next := enriched(t, "p2", "en", "Buildings swayed in Santiago as a magnitude 6.4 quake struck central Chile.", t0.Add(time.Hour))
	live := New()
	live.Add(first)
	rebuilt := New()
	rebuilt.Seed(first, "p1")
	if a, b := live.Add(next), rebuilt.Add(next); a != "p1" || b != "p1" {
		t.Errorf("live gives %s, rebuilt %s, want p1", a, b)
	}
}

func TestWindowEvicts(t *testing.T) {
	c := New()
	for i := range 100 {
		c.Add(enriched(t, fmt.Sprint(i), "en", fmt.Sprintf("Report number %d from the field", i), t0.Add(time.Duration(i)*time.Hour)))
	}
	if n := c.Len(); n != int(Window/time.Hour)+1 {
		t.Errorf("%d posts in the window, want %d", n, int(Window/time.Hour)+1)
	}
}

// BenchmarkAdd is the clustering stage's cost a post on a stream of many events (the post's
// entities and places come from enrichment, before the stage, and are not counted).
func BenchmarkAdd(b *testing.B) {
	topics := []string{
		"Flooding closes roads in %s after %d hours of rain, police say",
		"Fire at a warehouse in %s injures %d workers, firefighters say",
		"Protest in %s draws %d people against the new budget",
		"Power cut leaves %d homes dark in %s overnight",
		"Strike halts trains around %s for a %dth day",
	}
	cities := []string{"Houston", "Lyon", "Madrid", "Berlin", "Lisbon", "Toronto", "Osaka", "Lagos", "Lima", "Dallas"}
	var posts []*post.Post
	for i := range 20000 {
		city := cities[i%len(cities)]
		text := fmt.Sprintf(topics[i%len(topics)], city, 10+i%97)
		if i%5 == 0 {
			text = fmt.Sprintf(topics[i%len(topics)], city, 10+i%97) + " more to follow"
		}
		posts = append(posts, enriched(b, fmt.Sprint(i), "en", text, t0.Add(time.Duration(i)*10*time.Second)))
	}
	c := New()
	ids := make([]string, len(posts))
	for i := range ids {
		ids[i] = fmt.Sprint(i)
	}
	// CPU time, beside the wall time: the machines it runs on are often shared.
	before := cpuTime()
	for i := 0; b.Loop(); i++ {
		p := *posts[i%len(posts)]
		p.ID = ids[i%len(ids)] + "/" + ids[i/len(ids)%len(ids)]
		p.PublishedAt = t0.Add(time.Duration(i) * 10 * time.Second)
		c.Add(&p)
	}
	b.ReportMetric(float64(cpuTime()-before)/float64(b.N), "cpu-ns/op")
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestStage checks the pipeline's way through: a batch gets its stories in order, a redelivered
// post keeps its story, and a stage rebuilt from stored posts carries on where the first stopped.
func TestStage(t *testing.T) {
	quake := "A 6.4 magnitude earthquake hit central Chile on Friday, shaking buildings in Santiago."
	batch := []post.Post{
		*enriched(t, "p1", "en", quake, t0),
		*enriched(t, "p2", "en", "Ransomware attack knocks city services offline in Dallas, officials say.", t0.Add(time.Minute)),
	}
	first := NewStage()
	first.Assign(batch)
	if batch[0].StoryID != "p1" || batch[1].StoryID != "p2" {
		t.Fatalf("stories %q %q, want each its own", batch[0].StoryID, batch[1].StoryID)
	}
	again := []post.Post{*enriched(t, "p1", "en", quake, t0)}
	if first.Assign(again); again[0].StoryID != "p1" {
		t.Errorf("redelivered post in story %q, want p1", again[0].StoryID)
	}

	restarted := NewStage()
	for i := range batch {
		restarted.Seed(&batch[i])
	}
	next := []post.Post{*enriched(t, "p3", "en", "Buildings swayed in Santiago as a magnitude 6.4 quake struck central Chile.", t0.Add(time.Hour))}
	if restarted.Assign(next); next[0].StoryID != "p1" {
		t.Errorf("after a restart the paraphrase is in story %q, want p1", next[0].StoryID)
	}
}

func TestTitle(t *testing.T) {
	long := strings.Repeat("word ", 50)
	for _, tc := range []struct {
		p    post.Post
		want string
	}{
		{post.Post{TitleText: "Quake hits Chile", ContentText: "Details follow."}, "Quake hits Chile"},
		{post.Post{ContentText: "Magnitude 6.4 earthquake strikes Chile. More soon."}, "Magnitude 6.4 earthquake strikes Chile."},
		{post.Post{ContentText: "Is the bridge closed? Police say yes"}, "Is the bridge closed?"},
		{post.Post{ContentText: "No sentence end at all"}, "No sentence end at all"},
		{post.Post{ContentText: long}, strings.TrimSpace(long[:maxTitle-1]) + "…"},
	} {
		if got := Title(tc.p); got != tc.want {
			t.Errorf("Title(%q) = %q, want %q", tc.p.ContentText, got, tc.want)
		}
	}
}

// The analyzer reuses its buffers but folds as the index does.
func TestAnalyzerTokens(t *testing.T) {
	var a analyzer
	for _, text := range []string{
		"MICRON CROSSES $900B, Micron crosses $900B",
		"Über 1.200 Menschen in München évacués\nRT @AP: the the the",
		"Взрыв в Киеве: 3 погибших; انفجار في بيروت",
		"",
	} {
		if got, want := a.tokens(text), query.Tokens(text); !slices.Equal(got, want) {
			t.Errorf("tokens(%q) = %q, want %q", text, got, want)
		}
	}
}

// simhash counts bits eight at a time; it must give what Charikar's definition gives, also past
// the 255 pairs after which its byte counters are emptied.
func TestSimhash(t *testing.T) {
	definition := func(words []uint64) uint64 {
		var v [64]int32
		for i := range words {
			h := words[i]
			if i+1 < len(words) {
				h = mix(words[i]*31 + words[i+1])
			} else if i > 0 {
				continue
			}
			for b := range 64 {
				v[b] += int32(h>>b&1)*2 - 1
			}
		}
		var out uint64
		for b := range 64 {
			if v[b] > 0 {
				out |= 1 << b
			}
		}
		return out
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 3, 10, 254, 255, 256, 257, 511, 600, 1000} {
		for range 20 {
			words := make([]uint64, n)
			for i := range words {
				words[i] = r.Uint64()
				if r.IntN(3) == 0 {
					words[i] = 7 // repeated pairs push bits one way
				}
			}
			if got, want := simhash(words), definition(words); got != want {
				t.Fatalf("simhash of %d words = %x, want %x", n, got, want)
			}
		}
	}
}

// TestFeatureTableMatchesWindow checks the window's table of features against its posts, on a
// stream of long posts through a window of 500: each feature's df and lowercase count are those
// of the posts in the window, its ring holds the latest posts with it (up to ringSize),
// and a feature no post of the window has or writes has no id.
func TestFeatureTableMatchesWindow(t *testing.T) {
	gen := workload.NewGenerator(1)
	c := New()
	step := Window / 500
	for i := range 2000 {
		d := gen.Post(t0)
		p := post.Post{ID: fmt.Sprint(i), Provider: d.Provider, TitleText: d.Title, ContentText: d.Text, PublishedAt: t0.Add(time.Duration(i) * step)}
		c.Add(&p)
		if i%500 != 499 {
			continue
		}
		df, lower := map[uint64]int32{}, map[uint64]int32{}
		latest, kinds := map[uint64][]uint32{}, map[uint64]kind{}
		for _, e := range c.entries[c.head:] {
			for _, f := range e.sig.features {
				df[f.hash]++
				kinds[f.hash] = f.kind
				latest[f.hash] = append(latest[f.hash], e.seq)
			}
			for _, id := range e.sig.lowerIDs {
				lower[c.feats.infos[id].hash]++
			}
		}
		for h := range lower {
			if _, ok := df[h]; !ok {
				df[h] = 0
			}
		}
		if len(c.feats.ids) != len(df) {
			t.Errorf("after %d posts: %d features have ids, %d are in the window", i+1, len(c.feats.ids), len(df))
		}
		for h, n := range df {
			id := c.feats.lookup(h)
			info := c.feats.infos[id]
			if id == 0 || info.hash != h || info.df != n || info.lower != lower[h] {
				t.Fatalf("after %d posts: feature %x has id %d, df %d, lower %d; want df %d, lower %d", i+1, h, id, info.df, info.lower, n, lower[h])
			}
			// recent is the latest recentPostings, all the latest ringSize (maxPostings for a
			// word or a skeleton, which outside counts): both as the window has them.
			newer, newest := c.feats.recent(id)
			for _, check := range []struct {
				name string
				seqs []uint32
				n    int
			}{
				{"recent", append(slices.Clone(newer), newest...), recentPostings},
				{"all", c.feats.all(id), int(ringSize(kinds[h]))},
			} {
				var ring []uint32
				for _, seq := range check.seqs {
					if !c.gone(seq) {
						ring = append(ring, seq)
					}
				}
				slices.Sort(ring)
				want := latest[h][max(0, len(latest[h])-check.n):]
				if !slices.Equal(ring, want) {
					t.Fatalf("after %d posts: feature %x's postings (%s) %v, want %v", i+1, h, check.name, ring, want)
				}
			}
		}
	}
}

// Where two ids' keys differ they must order as the ids do: candidates tied on what they share
// are ordered by key first.
func TestIDKey(t *testing.T) {
	ids := []string{"", "1", "10", "100", "2", "9", "99999999", "999999990", "abcdefgh", "abcdefghi", "abcdefgz", "a\x00", "a", "b", "tw:123", "tw:1234567890"}
	for _, a := range ids {
		for _, b := range ids {
			if ka, kb := idKey(a), idKey(b); ka != kb && (ka < kb) != (a < b) {
				t.Errorf("idKey(%q) < idKey(%q) is %v, but %q < %q is %v", a, b, ka < kb, a, b, a < b)
			}
		}
	}
}
