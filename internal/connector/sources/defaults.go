package sources

import "encoding/json"

// DefaultSeeds are the public sources a fresh install reads when the network allows it
// (sightline serve without --sources, and make run): each a row an operator may switch off.
// Offline, each reports itself unreachable and the simulator keeps the demo alive.
func DefaultSeeds() []Seed {
	seeds := []Seed{
		{Type: "hackernews", Name: "Hacker News", Config: raw(`{}`)},
		{Type: "bluesky", Name: "Bluesky (Jetstream)", Config: raw(`{}`)},
	}
	// The public timelines of a few large Mastodon instances, their local posts only: the
	// federated timelines would repeat one another.
	for _, instance := range []string{"mastodon.social", "mastodon.online", "mstdn.social", "mas.to"} {
		seeds = append(seeds, Seed{Type: "mastodon", Name: "Mastodon " + instance,
			Config: raw(`{"baseURL":"https://` + instance + `","timelines":["public:local"]}`)})
	}
	// World news in several languages.
	for _, feed := range []struct{ name, url string }{
		{"BBC News World", "https://feeds.bbci.co.uk/news/world/rss.xml"},
		{"BBC Mundo", "https://feeds.bbci.co.uk/mundo/rss.xml"},
		{"BBC Arabic", "https://feeds.bbci.co.uk/arabic/rss.xml"},
		{"BBC Russian", "https://feeds.bbci.co.uk/russian/rss.xml"},
		{"Al Jazeera", "https://www.aljazeera.com/xml/rss/all.xml"},
		{"DW (English)", "https://rss.dw.com/rdf/rss-en-all"},
		{"DW (Deutsch)", "https://rss.dw.com/rdf/rss-de-all"},
		{"France 24 (English)", "https://www.france24.com/en/rss"},
		{"France 24 (français)", "https://www.france24.com/fr/rss"},
		{"RFI (English)", "https://www.rfi.fr/en/rss"},
		{"RFI (français)", "https://www.rfi.fr/fr/rss"},
		{"Le Monde International", "https://www.lemonde.fr/international/rss_full.xml"},
		{"El País", "https://feeds.elpais.com/mrss-s/pages/ep/site/elpais.com/portada"},
		{"Folha Mundo", "https://feeds.folha.uol.com.br/mundo/rss091.xml"},
		{"ANSA Mondo", "https://www.ansa.it/sito/notizie/mondo/mondo_rss.xml"},
		{"Tagesschau", "https://www.tagesschau.de/xml/rss2/"},
		{"NHK News (国際)", "https://www3.nhk.or.jp/rss/news/cat6.xml"},
		{"ABC News Australia", "https://www.abc.net.au/news/feed/51120/rss.xml"},
		{"The Guardian World", "https://www.theguardian.com/world/rss"},
		{"NPR World", "https://feeds.npr.org/1004/rss.xml"},
		{"The New York Times World", "https://rss.nytimes.com/services/xml/rss/nyt/World.xml"},
		{"Times of India World", "https://timesofindia.indiatimes.com/rssfeeds/296589292.cms"},
	} {
		b, _ := json.Marshal(rssRow{URL: feed.url})
		seeds = append(seeds, Seed{Type: "rss", Name: feed.name, Config: b})
	}
	// The other public connectors' rows (Reddit's listings of a few large subreddits, GDELT's
	// 15-minute updates, ...) go here, each with its type's settings.
	seeds = append(seeds, moreDefaultSeeds...)
	for i := range seeds {
		seeds[i].Enabled = true
	}
	return seeds
}

// moreDefaultSeeds are the default rows of connectors added after the first set: Reddit's
// newest posts of a few large subreddits, and GDELT's world news of the last 15 minutes.
var moreDefaultSeeds = []Seed{
	{Type: "reddit", Name: "Reddit", Config: raw(`{"subreddits":["worldnews","news","europe","cybersecurity"]}`)},
	{Type: "gdelt", Name: "GDELT", Config: raw(`{}`)},
}

func raw(s string) json.RawMessage { return json.RawMessage(s) }
