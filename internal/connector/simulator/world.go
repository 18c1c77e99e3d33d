package simulator

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/sightline/sightline/internal/post"
)

// city is a real city the simulated authors live in and post from.
type city struct {
	name     string
	lat, lon float64
	language string
}

var cities = []city{
	{"New York", 40.7128, -74.0060, "en"}, {"Los Angeles", 34.0522, -118.2437, "en"},
	{"Chicago", 41.8781, -87.6298, "en"}, {"Houston", 29.7604, -95.3698, "en"},
	{"Washington", 38.9072, -77.0369, "en"}, {"Miami", 25.7617, -80.1918, "en"},
	{"Seattle", 47.6062, -122.3321, "en"}, {"San Francisco", 37.7749, -122.4194, "en"},
	{"Boston", 42.3601, -71.0589, "en"}, {"Atlanta", 33.7490, -84.3880, "en"},
	{"Toronto", 43.6532, -79.3832, "en"}, {"Vancouver", 49.2827, -123.1207, "en"},
	{"London", 51.5074, -0.1278, "en"}, {"Manchester", 53.4808, -2.2426, "en"},
	{"Dublin", 53.3498, -6.2603, "en"}, {"Sydney", -33.8688, 151.2093, "en"},
	{"Melbourne", -37.8136, 144.9631, "en"}, {"Auckland", -36.8485, 174.7633, "en"},
	{"Lagos", 6.5244, 3.3792, "en"}, {"Nairobi", -1.2921, 36.8219, "en"},
	{"Johannesburg", -26.2041, 28.0473, "en"}, {"Mumbai", 19.0760, 72.8777, "en"},
	{"Delhi", 28.7041, 77.1025, "en"}, {"Singapore", 1.3521, 103.8198, "en"},
	{"Manila", 14.5995, 120.9842, "en"}, {"Accra", 5.6037, -0.1870, "en"},
	{"Madrid", 40.4168, -3.7038, "es"}, {"Barcelona", 41.3874, 2.1686, "es"},
	{"Seville", 37.3891, -5.9845, "es"}, {"Mexico City", 19.4326, -99.1332, "es"},
	{"Monterrey", 25.6866, -100.3161, "es"}, {"Bogotá", 4.7110, -74.0721, "es"},
	{"Lima", -12.0464, -77.0428, "es"}, {"Buenos Aires", -34.6037, -58.3816, "es"},
	{"Santiago", -33.4489, -70.6693, "es"}, {"Caracas", 10.4806, -66.9036, "es"},
	{"Quito", -0.1807, -78.4678, "es"},
	{"Paris", 48.8566, 2.3522, "fr"}, {"Marseille", 43.2965, 5.3698, "fr"},
	{"Lyon", 45.7640, 4.8357, "fr"}, {"Brussels", 50.8503, 4.3517, "fr"},
	{"Montreal", 45.5017, -73.5673, "fr"}, {"Dakar", 14.7167, -17.4677, "fr"},
	{"Abidjan", 5.3600, -4.0083, "fr"}, {"Geneva", 46.2044, 6.1432, "fr"},
	{"Berlin", 52.5200, 13.4050, "de"}, {"Hamburg", 53.5511, 9.9937, "de"},
	{"Munich", 48.1351, 11.5820, "de"}, {"Cologne", 50.9375, 6.9603, "de"},
	{"Vienna", 48.2082, 16.3738, "de"}, {"Zurich", 47.3769, 8.5417, "de"},
	{"Lisbon", 38.7223, -9.1393, "pt"}, {"Porto", 41.1579, -8.6291, "pt"},
	{"São Paulo", -23.5505, -46.6333, "pt"}, {"Rio de Janeiro", -22.9068, -43.1729, "pt"},
	{"Porto Alegre", -30.0346, -51.2177, "pt"}, {"Brasília", -15.7975, -47.8919, "pt"},
	{"Luanda", -8.8390, 13.2894, "pt"}, {"Maputo", -25.9692, 32.5732, "pt"},
	{"Cairo", 30.0444, 31.2357, "ar"}, {"Alexandria", 31.2001, 29.9187, "ar"},
	{"Riyadh", 24.7136, 46.6753, "ar"}, {"Jeddah", 21.4858, 39.1925, "ar"},
	{"Dubai", 25.2048, 55.2708, "ar"}, {"Amman", 31.9454, 35.9284, "ar"},
	{"Beirut", 33.8938, 35.5018, "ar"}, {"Baghdad", 33.3152, 44.3661, "ar"},
	{"Casablanca", 33.5731, -7.5898, "ar"}, {"Tunis", 36.8065, 10.1815, "ar"},
	{"Algiers", 36.7538, 3.0588, "ar"},
	{"Moscow", 55.7558, 37.6173, "ru"}, {"Saint Petersburg", 59.9311, 30.3609, "ru"},
	{"Novosibirsk", 55.0084, 82.9357, "ru"}, {"Yekaterinburg", 56.8389, 60.6057, "ru"},
	{"Minsk", 53.9006, 27.5590, "ru"}, {"Almaty", 43.2220, 76.8512, "ru"},
	{"Kyiv", 50.4501, 30.5234, "uk"}, {"Kharkiv", 49.9935, 36.2304, "uk"},
	{"Lviv", 49.8397, 24.0297, "uk"}, {"Odesa", 46.4825, 30.7233, "uk"},
	{"Tokyo", 35.6762, 139.6503, "ja"}, {"Osaka", 34.6937, 135.5023, "ja"},
	{"Nagoya", 35.1815, 136.9066, "ja"}, {"Sapporo", 43.0618, 141.3545, "ja"},
	{"Fukuoka", 33.5904, 130.4017, "ja"},
	{"Rome", 41.9028, 12.4964, "it"}, {"Milan", 45.4642, 9.1900, "it"},
	{"Naples", 40.8518, 14.2681, "it"}, {"Turin", 45.0703, 7.6869, "it"},
	{"Istanbul", 41.0082, 28.9784, "tr"}, {"Ankara", 39.9334, 32.8597, "tr"},
	{"Izmir", 38.4237, 27.1428, "tr"},
}

// names holds first and last names per language, each "Display|handle" where the display
// form is not Latin script.
var names = map[string][2][]string{
	"en": {{"James", "Olivia", "Noah", "Emma", "Liam", "Ava", "Ethan", "Grace", "Daniel", "Chloe"}, {"Carter", "Nguyen", "Patel", "Okafor", "Brooks", "Murphy", "Reyes", "Walsh", "Kim", "Adeyemi"}},
	"es": {{"Lucía", "Mateo", "Sofía", "Diego", "Valentina", "Javier", "Camila", "Andrés"}, {"García", "Martínez", "López", "Hernández", "Rojas", "Castillo", "Morales", "Vargas"}},
	"fr": {{"Camille", "Lucas", "Chloé", "Hugo", "Léa", "Antoine", "Manon", "Julien"}, {"Martin", "Bernard", "Dubois", "Lefèvre", "Moreau", "Fontaine", "Girard", "Diallo"}},
	"de": {{"Lena", "Jonas", "Marie", "Felix", "Anna", "Lukas", "Sophie", "Paul"}, {"Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Becker", "Hoffmann", "Wagner"}},
	"pt": {{"Ana", "João", "Beatriz", "Pedro", "Mariana", "Rafael", "Larissa", "Tiago"}, {"Silva", "Santos", "Oliveira", "Souza", "Costa", "Pereira", "Almeida", "Ferreira"}},
	"ar": {{"أحمد|ahmed", "فاطمة|fatima", "يوسف|youssef", "مريم|mariam", "عمر|omar", "ليلى|layla", "خالد|khaled", "نور|nour"}, {"حسن|hassan", "إبراهيم|ibrahim", "منصور|mansour", "العلي|alali", "سالم|salem", "حداد|haddad"}},
	"ru": {{"Алексей|aleksey", "Мария|maria", "Дмитрий|dmitry", "Анна|anna", "Иван|ivan", "Екатерина|ekaterina", "Сергей|sergey", "Ольга|olga"}, {"Иванов|ivanov", "Смирнов|smirnov", "Кузнецов|kuznetsov", "Попов|popov", "Соколов|sokolov", "Волков|volkov"}},
	"uk": {{"Олена|olena", "Андрій|andriy", "Оксана|oksana", "Тарас|taras", "Ірина|iryna", "Богдан|bohdan"}, {"Шевченко|shevchenko", "Коваленко|kovalenko", "Бондаренко|bondarenko", "Мельник|melnyk", "Ткаченко|tkachenko"}},
	"ja": {{"翔太|shota", "陽菜|hina", "大輝|daiki", "結衣|yui", "蓮|ren", "美咲|misaki"}, {"佐藤|sato", "鈴木|suzuki", "高橋|takahashi", "田中|tanaka", "伊藤|ito", "渡辺|watanabe"}},
	"it": {{"Giulia", "Marco", "Chiara", "Luca", "Francesca", "Matteo", "Sara", "Alessandro"}, {"Rossi", "Russo", "Ferrari", "Esposito", "Bianchi", "Romano", "Colombo", "Ricci"}},
	"tr": {{"Elif", "Mehmet", "Zeynep", "Mustafa", "Ayşe", "Emre", "Selin", "Burak"}, {"Yılmaz", "Kaya", "Demir", "Şahin", "Çelik", "Aydın", "Öztürk", "Arslan"}},
}

// contentKind is how a provider's posts read.
type contentKind int

const (
	social  contentKind = iota // short posts without a title
	news                       // a headline and a first line
	forum                      // threads: a title and a question, then replies
	darkweb                    // market listings, threats and replies
	paste                      // dumps
)

// profile is how a provider behaves in the simulation.
type profile struct {
	name   string
	weight int // share of the authors
	kind   contentKind
	geo    bool    // posts are often geotagged
	media  float64 // chance a post has a photo or video
	video  float64 // chance such media is a video
	boards []string
	// community is the community kind of its boards, for dark-web providers.
	community string
	// languages restricts its authors; nil allows every language.
	languages []string
}

var profiles = []profile{
	{name: "twitter", weight: 18, kind: social, geo: true, media: 0.35, video: 0.3},
	{name: "facebook", weight: 6, kind: social, geo: true, media: 0.4, video: 0.2},
	{name: "instagram", weight: 6, kind: social, geo: true, media: 1, video: 0.2},
	{name: "tiktok", weight: 5, kind: social, geo: true, media: 1, video: 1},
	{name: "youtube", weight: 4, kind: social, geo: true, media: 1, video: 1},
	{name: "flickr", weight: 2, kind: social, geo: true, media: 1, video: 0},
	{name: "vk", weight: 3, kind: social, geo: true, media: 0.3, video: 0.3, languages: []string{"ru", "uk"}},
	{name: "bluesky", weight: 4, kind: social, media: 0.2, video: 0.2},
	{name: "mastodon", weight: 3, kind: social, media: 0.2, video: 0.1},
	{name: "nostr", weight: 1, kind: social, media: 0.1},
	{name: "gab", weight: 2, kind: social, media: 0.2, video: 0.3},
	{name: "telegram", weight: 8, kind: social, media: 0.3, video: 0.4, boards: []string{"Breaking Wire", "City Watch", "Frontline Updates", "Market Rumours"}},
	{name: "discord", weight: 3, kind: social, media: 0.1, boards: []string{"#general", "#osint-chat", "#news"}},
	{name: "irc", weight: 1, kind: social, boards: []string{"#osint", "#security"}},
	{name: "reddit", weight: 10, kind: forum, media: 0.25, video: 0.2, boards: []string{"r/worldnews", "r/europe", "r/news", "r/OSINT", "r/cybersecurity"}},
	{name: "4chan", weight: 4, kind: forum, media: 0.6, boards: []string{"/pol/", "/k/", "/b/", "/g/", "/int/"}},
	{name: "8kun", weight: 1, kind: forum, media: 0.5, boards: []string{"/news/", "/k/"}},
	{name: "imageboard", weight: 1, kind: forum, media: 0.7, boards: []string{"/news/", "/random/"}},
	{name: "forum", weight: 3, kind: forum, boards: []string{"Politics", "Travel", "Crime Watch", "Local News"}},
	{name: "nairaland", weight: 1, kind: forum, boards: []string{"Politics", "Crime", "Travel"}, languages: []string{"en"}},
	{name: "raddle", weight: 1, kind: forum, boards: []string{"f/news", "f/worldnews"}},
	{name: "lemmy", weight: 1, kind: forum, boards: []string{"worldnews@lemmy.example", "technology@lemmy.example"}},
	{name: "hackernews", weight: 1, kind: forum, languages: []string{"en"}},
	{name: "news", weight: 8, kind: news, geo: true, media: 0.6, video: 0.2},
	{name: "blogs", weight: 3, kind: news, media: 0.4},
	{name: "webhose", weight: 2, kind: news, media: 0.3},
	{name: "tor", weight: 2, kind: darkweb, boards: []string{"Exploit Exchange", "Carding Lounge"}, community: "discussion-boards"},
	{name: "darkweb", weight: 2, kind: darkweb, boards: []string{"Leaks & Dumps", "Initial Access Brokers"}, community: "discussion-boards"},
	{name: "i2p", weight: 1, kind: darkweb, boards: []string{"Anon Board"}, community: "discussion-boards"},
	{name: "hacking", weight: 2, kind: darkweb, boards: []string{"Exploits", "Malware Development", "Initial Access"}, community: "discussion-boards"},
	{name: "marketplaces", weight: 2, kind: darkweb, media: 0.2, boards: []string{"Fraud > Fullz", "Digital Goods", "Services"}, community: "marketplaces"},
	{name: "pastebin", weight: 2, kind: paste},
	{name: "leaks", weight: 1, kind: paste, boards: []string{"Combolists", "Databases"}, community: "breached-data"},
}

// mediaItem is a demo picture and what object detection finds in it.
type mediaItem struct {
	name    string
	objects []string
	threat  bool // only shown with threatening posts
}

var mediaLibrary = []mediaItem{
	{"street-crowd", []string{"person", "crowd", "car"}, false},
	{"protest-signs", []string{"person", "crowd", "sign", "flag"}, false},
	{"police-line", []string{"person", "police car", "barrier"}, false},
	{"flooded-road", []string{"car", "water", "road"}, false},
	{"building-fire", []string{"fire", "smoke", "building"}, false},
	{"harbour-cranes", []string{"crane", "ship", "container"}, false},
	{"earthquake-rubble", []string{"building", "rubble", "person"}, false},
	{"power-lines", []string{"power line", "sky"}, false},
	{"city-skyline", []string{"building", "sky"}, false},
	{"traffic-jam", []string{"car", "bus", "truck", "road"}, false},
	{"server-room", []string{"computer", "server rack"}, false},
	{"laptop-code", []string{"laptop", "person"}, false},
	{"stadium", []string{"crowd", "stadium", "flag"}, false},
	{"concert-stage", []string{"crowd", "stage", "light"}, false},
	{"market-stall", []string{"person", "fruit", "table"}, false},
	{"coffee-cup", []string{"cup", "table"}, false},
	{"cat-window", []string{"cat", "window"}, false},
	{"drone-sky", []string{"drone", "sky"}, false},
	{"rifle-table", []string{"rifle", "ammunition", "table"}, true},
	{"handgun", []string{"handgun", "hand"}, true},
	{"military-convoy", []string{"truck", "military vehicle", "soldier"}, true},
	{"credit-cards", []string{"credit card", "laptop"}, true},
}

// avatarCount is how many demo avatars there are: avatar-1 to avatar-N.
const avatarCount = 12

// MediaNames lists every demo picture the simulator links to, each served as
// /demo-media/<name>.svg.
var MediaNames = func() []string {
	var all []string
	for _, m := range mediaLibrary {
		all = append(all, m.name)
	}
	for i := 1; i <= avatarCount; i++ {
		all = append(all, fmt.Sprintf("avatar-%d", i))
	}
	return all
}()

func mediaURL(name string) string { return post.DemoMediaPrefix + name + ".svg" }

// author is a recurring simulated account.
type author struct {
	id, name, handle string
	language         string
	home             city
	profile          int // index in profiles
	avatar           string
	followers        int64
}

// worldSeed fixes the cast: the same authors, with the same handles, in every run.
const worldSeed = 20250314

const authorCount = 600

// minAuthorsPerProvider guarantees every simulated provider some authors.
const minAuthorsPerProvider = 3

// asciiFold turns Latin letters with accents into plain ones for handles.
var asciiFold = strings.NewReplacer(
	"á", "a", "à", "a", "â", "a", "ã", "a", "ä", "a", "é", "e", "è", "e", "ê", "e", "í", "i", "ï", "i", "ı", "i",
	"ó", "o", "ô", "o", "õ", "o", "ö", "o", "ú", "u", "ü", "u", "ñ", "n", "ç", "c", "ş", "s", "ğ", "g", "ß", "ss",
)

// castAuthors builds the recurring authors.
func castAuthors() []author {
	rng := rand.New(rand.NewPCG(worldSeed, worldSeed))
	byLanguage := map[string][]city{}
	for _, c := range cities {
		byLanguage[c.language] = append(byLanguage[c.language], c)
	}
	authors := make([]author, 0, authorCount)
	used := map[string]bool{}
	for len(authors) < authorCount {
		var lang string
		var prof int
		if tail := authorCount - minAuthorsPerProvider*len(profiles); len(authors) < tail {
			lang = languages[weighted(rng, languageWeights)]
			allowed := make([]int, len(profiles))
			for i, p := range profiles {
				if p.languages == nil || slices.Contains(p.languages, lang) {
					allowed[i] = p.weight
				}
			}
			prof = weighted(rng, allowed)
		} else {
			// The last authors make sure every provider has a few; being last, they post
			// little (see pickAuthor) and leave the providers' weights as they are.
			prof = (len(authors) - tail) % len(profiles)
			allowed := make([]int, len(languages))
			for i, l := range languages {
				if profiles[prof].languages == nil || slices.Contains(profiles[prof].languages, l) {
					allowed[i] = languageWeights[i]
				}
			}
			lang = languages[weighted(rng, allowed)]
		}
		first, firstHandle := splitName(pick(rng, names[lang][0]))
		last, lastHandle := splitName(pick(rng, names[lang][1]))
		display := first + " " + last
		if lang == "ja" {
			display = last + first
		}
		handle := handleFor(rng, firstHandle, lastHandle)
		if used[handle] {
			continue
		}
		used[handle] = true
		authors = append(authors, author{
			id:       "sim-" + handle,
			name:     display,
			handle:   handle,
			language: lang,
			home:     pick(rng, byLanguage[lang]),
			profile:  prof,
			avatar:   mediaURL(fmt.Sprintf("avatar-%d", 1+rng.IntN(avatarCount))),
		})
		authors[len(authors)-1].followers = followersOf(handle, profiles[prof].kind)
	}
	return authors
}

// followersOf invents an author's follower count, drawn from their handle (so the cast's own
// draws are untouched): on social networks a few hundred for most and hundreds of thousands for
// a few, for news outlets more; forums, dark-web boards and pastes have no followers.
func followersOf(handle string, kind contentKind) int64 {
	h := fnv.New64a()
	h.Write([]byte(handle))
	rng := rand.New(rand.NewPCG(h.Sum64(), worldSeed))
	switch kind {
	case social:
		return int64(math.Exp(5.5 + rng.NormFloat64()*1.8))
	case news:
		return int64(math.Exp(9 + rng.NormFloat64()*1.5))
	}
	return 0
}

func splitName(s string) (display, handle string) {
	if d, h, ok := strings.Cut(s, "|"); ok {
		return d, h
	}
	return s, asciiFold.Replace(strings.ToLower(s))
}

func handleFor(rng *rand.Rand, first, last string) string {
	switch rng.IntN(4) {
	case 0:
		return first + "_" + last
	case 1:
		return first + last + fmt.Sprint(10+rng.IntN(90))
	case 2:
		return first[:1] + last
	default:
		return last + "." + first + fmt.Sprint(rng.IntN(10))
	}
}

func pick[T any](rng *rand.Rand, from []T) T {
	return from[rng.IntN(len(from))]
}

// weighted picks an index with probability proportional to its weight.
func weighted(rng *rand.Rand, weights []int) int {
	total := 0
	for _, w := range weights {
		total += w
	}
	n := rng.IntN(total)
	for i, w := range weights {
		if n < w {
			return i
		}
		n -= w
	}
	return len(weights) - 1
}
