// Package provider is the catalogue of data sources ("providers"): every provider key a post can
// carry, how the interface shows it, what can be searched in it, which Beacon category it belongs
// to and which subscription a user needs to see it.
package provider

import "slices"

// Region groups providers in the provider selector (monitor-area.md section 2).
type Region string

// Regions in the order the selector lists them.
const (
	Global              Region = "global"
	NorthAmerica        Region = "northAmerica"
	AsiaPacific         Region = "asiaPacific"
	Europe              Region = "europe"
	MiddleEastAndAfrica Region = "middleEastAndAfrica"
)

// Kind is what sort of content a provider carries, the selector's other grouping
// (search-side.md section 5).
type Kind string

// Kinds in the order the selector lists them.
const (
	KindSocial       Kind = "social"
	KindForum        Kind = "forum"
	KindNewsBlogs    Kind = "newsBlogs"
	KindChat         Kind = "chat"
	KindImageSharing Kind = "imageSharing"
	KindVideoSharing Kind = "videoSharing"
	KindOther        Kind = "other" // pastes, leaks and logs: none of the spec's kinds
)

// Category is the Beacon search area a provider's posts are found in (/beacon/v1/{category}).
type Category string

// Beacon categories.
const (
	Social    Category = "social"
	DarkWeb   Category = "darkweb"
	OpenWeb   Category = "openweb"
	Documents Category = "documents"
	DeepWeb   Category = "deep-web"
)

// Subscription is what a user must hold to see a provider's posts.
type Subscription string

// Subscriptions. Dark web, documents and breaches need Beacon; news and blogs need Locate
// (search-side.md section 6). Everything else is open to every user.
const (
	AnySubscription Subscription = ""
	Beacon          Subscription = "beacon"
	Locate          Subscription = "locate"
)

// SearchFeatures says which kinds of search a provider supports.
type SearchFeatures struct {
	Location  bool `json:"location"`
	Keyword   bool `json:"keyword"`
	Author    bool `json:"author"`
	BoardName bool `json:"boardName"`
}

// Provider is one catalogue entry.
type Provider struct {
	Name        string
	DisplayName string
	Colour      string // brand colour, #rrggbb
	Icon        string // icon name the web app maps to a glyph
	Region      Region
	Kind        Kind
	Category    Category
	Needs       Subscription
	Search      SearchFeatures
	// Enabled is false for specialty sources that need an approved use case; the selector shows
	// them greyed out with a "specialty data source" popup.
	Enabled bool
	// SupersetOf lists providers whose posts this one also carries (the firehose gnip carries
	// everything twitter does), so the selector can keep them from overlapping.
	SupersetOf []string
	// ContentType is the content type a post from this provider has when its source does not say.
	ContentType string
}

// Content types, repeated from package post so that this package stays dependency-free and post
// can validate against the catalogue.
const (
	socialMediaPost = "social_media_post"
	newsPost        = "news_post"
	threadPost      = "thread_post"
)

// Search feature sets shared by many entries.
var (
	keywordOnly        = SearchFeatures{Keyword: true}
	keywordAuthor      = SearchFeatures{Keyword: true, Author: true}
	keywordBoard       = SearchFeatures{Keyword: true, BoardName: true}
	keywordLocation    = SearchFeatures{Keyword: true, Location: true}
	keywordAuthorGeo   = SearchFeatures{Keyword: true, Author: true, Location: true}
	keywordAuthorBoard = SearchFeatures{Keyword: true, Author: true, BoardName: true}
)

// catalogue is the list of providers, in display order within each region.
var catalogue = []Provider{
	{Name: "twitter", DisplayName: "X", Colour: "#000000", Icon: "x", Region: Global, Category: Social, Search: keywordAuthorGeo, Enabled: true, ContentType: socialMediaPost, Kind: KindSocial},
	{Name: "facebook", DisplayName: "Facebook", Colour: "#1877F2", Icon: "facebook", Region: Global, Category: Social, Search: keywordLocation, Enabled: true, ContentType: socialMediaPost, Kind: KindSocial},
	{Name: "instagram", DisplayName: "Instagram", Colour: "#E4405F", Icon: "instagram", Region: Global, Category: Social, Search: keywordLocation, Enabled: true, ContentType: socialMediaPost, Kind: KindImageSharing},
	{Name: "reddit", DisplayName: "Reddit", Colour: "#FF4500", Icon: "reddit", Region: Global, Category: Social, Search: keywordAuthorBoard, Enabled: true, ContentType: threadPost, Kind: KindForum},
	{Name: "telegram", DisplayName: "Telegram", Colour: "#26A5E4", Icon: "telegram", Region: Global, Category: Social, Search: keywordAuthorBoard, Enabled: true, ContentType: socialMediaPost, Kind: KindChat},
	{Name: "discord", DisplayName: "Discord", Colour: "#5865F2", Icon: "discord", Region: Global, Category: Social, Search: keywordAuthorBoard, Enabled: true, ContentType: threadPost, Kind: KindChat},
	{Name: "youtube", DisplayName: "YouTube", Colour: "#FF0000", Icon: "youtube", Region: Global, Category: Social, Search: SearchFeatures{Keyword: true, Author: true, Location: true}, Enabled: true, ContentType: socialMediaPost, Kind: KindVideoSharing},
	{Name: "tiktok", DisplayName: "TikTok", Colour: "#FE2C55", Icon: "tiktok", Region: Global, Category: Social, Search: keywordLocation, Enabled: true, ContentType: socialMediaPost, Kind: KindVideoSharing},
	{Name: "bluesky", DisplayName: "Bluesky", Colour: "#0085FF", Icon: "bluesky", Region: Global, Category: Social, Search: keywordOnly, Enabled: true, ContentType: socialMediaPost, Kind: KindSocial},
	{Name: "mastodon", DisplayName: "Mastodon", Colour: "#6364FF", Icon: "mastodon", Region: Global, Category: Social, Search: keywordAuthor, Enabled: true, ContentType: socialMediaPost, Kind: KindSocial},
	{Name: "nostr", DisplayName: "Nostr", Colour: "#8E44AD", Icon: "nostr", Region: Global, Category: Social, Search: keywordOnly, Enabled: true, ContentType: socialMediaPost, Kind: KindSocial},
	{Name: "lemmy", DisplayName: "Lemmy", Colour: "#00BC8C", Icon: "lemmy", Region: Global, Category: Social, Search: keywordBoard, Enabled: true, ContentType: threadPost, Kind: KindForum},
	{Name: "flickr", DisplayName: "Flickr", Colour: "#FF0084", Icon: "flickr", Region: Global, Category: Social, Search: keywordAuthorGeo, Enabled: true, ContentType: socialMediaPost, Kind: KindImageSharing},
	{Name: "gnip", DisplayName: "X Firehose", Colour: "#1DA1F2", Icon: "x", Region: Global, Category: Social, Search: keywordLocation, Enabled: true, SupersetOf: []string{"twitter"}, ContentType: socialMediaPost, Kind: KindSocial},
	{Name: "news", DisplayName: "News", Colour: "#1565C0", Icon: "newspaper", Region: Global, Category: OpenWeb, Needs: Locate, Search: keywordLocation, Enabled: true, ContentType: newsPost, Kind: KindNewsBlogs},
	{Name: "blogs", DisplayName: "Blogs", Colour: "#FB8C00", Icon: "rss", Region: Global, Category: OpenWeb, Needs: Locate, Search: keywordOnly, Enabled: true, ContentType: newsPost, Kind: KindNewsBlogs},
	{Name: "webhose", DisplayName: "Web News", Colour: "#F57C00", Icon: "public", Region: Global, Category: OpenWeb, Needs: Locate, Search: keywordOnly, Enabled: true, ContentType: newsPost, Kind: KindNewsBlogs},
	{Name: "forum", DisplayName: "Forums", Colour: "#546E7A", Icon: "forum", Region: Global, Category: DeepWeb, Search: keywordBoard, Enabled: true, ContentType: threadPost, Kind: KindForum},
	{Name: "imageboard", DisplayName: "Imageboards", Colour: "#8D6E63", Icon: "image", Region: Global, Category: DeepWeb, Search: keywordBoard, Enabled: true, ContentType: threadPost, Kind: KindForum},
	{Name: "4chan", DisplayName: "4chan", Colour: "#789922", Icon: "4chan", Region: Global, Category: DeepWeb, Search: keywordBoard, Enabled: true, ContentType: threadPost, Kind: KindForum},
	{Name: "8kun", DisplayName: "8kun", Colour: "#2E7D32", Icon: "imageboard", Region: Global, Category: DeepWeb, Search: keywordBoard, Enabled: true, ContentType: threadPost, Kind: KindForum},
	{Name: "irc", DisplayName: "IRC", Colour: "#5D6D7E", Icon: "chat", Region: Global, Category: DeepWeb, Search: keywordBoard, Enabled: true, ContentType: threadPost, Kind: KindChat},
	{Name: "tor", DisplayName: "Tor", Colour: "#7D4698", Icon: "tor", Region: Global, Category: DarkWeb, Needs: Beacon, Search: keywordBoard, Enabled: true, ContentType: threadPost, Kind: KindForum},
	{Name: "i2p", DisplayName: "I2P", Colour: "#2A6A8C", Icon: "vpn-lock", Region: Global, Category: DarkWeb, Needs: Beacon, Search: keywordBoard, Enabled: true, ContentType: threadPost, Kind: KindForum},
	{Name: "darkweb", DisplayName: "Dark Web", Colour: "#37474F", Icon: "dark-web", Region: Global, Category: DarkWeb, Needs: Beacon, Search: keywordBoard, Enabled: true, ContentType: threadPost, Kind: KindForum},
	{Name: "marketplaces", DisplayName: "Marketplaces", Colour: "#6D4C41", Icon: "storefront", Region: Global, Category: DarkWeb, Needs: Beacon, Search: keywordBoard, Enabled: true, ContentType: threadPost, Kind: KindForum},
	{Name: "hacking", DisplayName: "Hacking Forums", Colour: "#00897B", Icon: "terminal", Region: Global, Category: DarkWeb, Needs: Beacon, Search: keywordBoard, Enabled: true, ContentType: threadPost, Kind: KindForum},
	{Name: "pastebin", DisplayName: "Pastes", Colour: "#02456C", Icon: "content-paste", Region: Global, Category: Documents, Needs: Beacon, Search: keywordOnly, Enabled: true, ContentType: socialMediaPost, Kind: KindOther},
	{Name: "leaks", DisplayName: "Leaks", Colour: "#C62828", Icon: "water-drop", Region: Global, Category: Documents, Needs: Beacon, Search: keywordOnly, Enabled: true, ContentType: threadPost, Kind: KindOther},
	{Name: "infectedhostdata", DisplayName: "Infected Host Data", Colour: "#AD1457", Icon: "bug-report", Region: Global, Category: Documents, Needs: Beacon, Search: keywordOnly, Enabled: false, ContentType: threadPost, Kind: KindOther},
	{Name: "gab", DisplayName: "Gab", Colour: "#00D178", Icon: "gab", Region: NorthAmerica, Category: Social, Search: keywordAuthor, Enabled: true, ContentType: socialMediaPost, Kind: KindSocial},
	{Name: "raddle", DisplayName: "Raddle", Colour: "#D0312D", Icon: "raddle", Region: NorthAmerica, Category: Social, Search: keywordAuthorBoard, Enabled: true, ContentType: threadPost, Kind: KindForum},
	{Name: "hackernews", DisplayName: "Hacker News", Colour: "#FF6600", Icon: "hackernews", Region: NorthAmerica, Category: Social, Search: keywordOnly, Enabled: true, ContentType: threadPost, Kind: KindForum},
	{Name: "weibo", DisplayName: "Weibo", Colour: "#E6162D", Icon: "weibo", Region: AsiaPacific, Category: Social, Search: keywordLocation, Enabled: true, ContentType: socialMediaPost, Kind: KindSocial},
	{Name: "vk", DisplayName: "VK", Colour: "#0077FF", Icon: "vk", Region: Europe, Category: Social, Search: keywordLocation, Enabled: true, ContentType: socialMediaPost, Kind: KindSocial},
	{Name: "nairaland", DisplayName: "Nairaland", Colour: "#006400", Icon: "forum", Region: MiddleEastAndAfrica, Category: DeepWeb, Search: keywordAuthorBoard, Enabled: true, ContentType: threadPost, Kind: KindForum},
}

// byName indexes the catalogue.
var byName = func() map[string]Provider {
	m := make(map[string]Provider, len(catalogue))
	for _, p := range catalogue {
		m[p.Name] = p
	}
	return m
}()

// All returns the whole catalogue in display order.
func All() []Provider {
	return slices.Clone(catalogue)
}

// Lookup returns the provider with this key.
func Lookup(name string) (Provider, bool) {
	p, ok := byName[name]
	return p, ok
}

// Known reports whether name is a provider key.
func Known(name string) bool {
	_, ok := byName[name]
	return ok
}

// generic are the provider keys that name a kind of site rather than one platform: the keys a
// tenant's own feed or page reader (RSS, HTML, onion, imageboard sites) may give its posts.
// A platform's key (twitter, hackernews, 4chan, ...) says the post came from that platform,
// which only the operator's sources, reading the platform itself, may say.
var generic = []string{"news", "blogs", "forum", "imageboard", "tor", "i2p", "darkweb", "marketplaces", "hacking",
	"pastebin", "leaks"}

// Generic reports whether name is a provider key any feed may take.
func Generic(name string) bool { return slices.Contains(generic, name) }

// GenericKeys lists the keys any feed may take, for messages.
func GenericKeys() []string { return slices.Clone(generic) }
