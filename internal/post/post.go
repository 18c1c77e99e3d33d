// Package post defines the Post: one piece of content from any provider, normalized, as it
// travels through the stream, the store, the percolator and the API.
package post

import "time"

// Content types (monitor-area.md section 9).
const (
	TypeSocialMediaPost = "social_media_post"
	TypeNewsPost        = "news_post"
	TypeThreadPost      = "thread_post"
	TypeFPThreadPost    = "fp_thread_post"
)

// Community kinds of boards (monitor-area.md section 9).
const (
	CommunityMarketplaces     = "marketplaces"
	CommunityDiscussionBoards = "discussion-boards"
	CommunityBreachedData     = "breached-data"
)

// Post is a normalized post. ID is derived from (Provider, NativeID) so that a redelivered or
// re-crawled post is the same post.
type Post struct {
	ID       string `json:"id"`
	Provider string `json:"provider"`
	NativeID string `json:"native_id"`
	Type     string `json:"content_type"`

	AuthorID         string `json:"author_id,omitempty"`
	AuthorName       string `json:"author_name,omitempty"`
	AuthorScreenName string `json:"author_screen_name,omitempty"`
	AuthorThumbnail  string `json:"author_thumbnail,omitempty"`
	AuthorURL        string `json:"author_url,omitempty"`
	// AuthorFollowers is how many accounts followed the author when the post was collected;
	// 0 when the provider does not say.
	AuthorFollowers int64 `json:"author_followers,omitempty"`

	TitleText   string   `json:"title_text,omitempty"`
	ContentText string   `json:"content_text,omitempty"`
	PostLink    string   `json:"post_link,omitempty"`
	Language    string   `json:"language,omitempty"`
	Tags        []string `json:"tags,omitempty"`
	// Engagement is how much the audience had reacted when the post was collected: likes or
	// favourites, reposts or shares and replies added together (a Reddit post's score and
	// comments); 0 when the provider does not say. Locate's "most popular" orders by it.
	Engagement int64 `json:"engagement,omitempty"`

	// PublishedAt is when the author published the post (the spec's createdAt);
	// DiscoveredAt is when Sightline first saw it.
	PublishedAt  time.Time `json:"published_at"`
	DiscoveredAt time.Time `json:"discovered_at"`

	Location  *Point  `json:"location,omitempty"`
	PlaceName string  `json:"place_name,omitempty"`
	Photos    []Media `json:"photos,omitempty"`
	Videos    []Media `json:"videos,omitempty"`

	Board         string `json:"board,omitempty"`
	CommunityKind string `json:"community_kind,omitempty"`
	ThreadID      string `json:"thread_id,omitempty"`
	ParentID      string `json:"parent_id,omitempty"`

	DetectedObjects    []string            `json:"detected_objects,omitempty"`
	MentionedLocations []MentionedLocation `json:"mentioned_locations,omitempty"`
	Entities           Entities            `json:"entities"`
	Threat             Threat              `json:"threat"`
	// USPI, the spec's US-persons marker: the post was made in, or names a place of, the United
	// States or one of its territories, so it may hold information about US persons. Set by
	// the enricher; screens show it to organizations that are US-persons compliant.
	USPI bool `json:"uspi,omitempty"`

	// Demo marks simulator content so the UI can label it as demo data.
	Demo bool `json:"demo,omitempty"`

	// Source is the provenance of a post pushed through the ingest API: the name of the API
	// token that pushed it (a signed-in tenant admin's e-mail without one). Connectors' posts
	// have none. SourceUserID is the user who pushed it, so that ingest stats can show an
	// operator their own sources. The ingest service sets both; what a client sends is ignored.
	// SourceUserID stays out of JSON, which every organization reads: the stream carries it
	// beside the post, and the store in a column of its own.
	Source       string `json:"source,omitempty"`
	SourceUserID int64  `json:"-"`

	// Tenant is the tenant whose own source or ingest produced the post: only that tenant sees
	// it. 0 is a post of the operator's shared public sources, which every tenant sees
	// (docs/connectors.md, "Who sees a source's posts"). Like SourceUserID it stays out of the
	// post's JSON: the stream carries it beside the post, and the store in a column of its own.
	Tenant int64 `json:"-"`
	// Origin says where the post came from, for the reader; set by the ingest service and the
	// sources manager, never taken from what a client or a feed sends.
	Origin *Origin `json:"origin,omitempty"`

	// StoryID is the story the post belongs to: the id of the story's first post, the post's
	// own id when it joined none (docs/stories.md). The stories stage sets it; what a client or
	// a feed sends is ignored.
	StoryID string `json:"storyId"`

	// DeletedAt is when Sightline learned that the provider deleted the post (a connector's
	// deletion event, or an ingest token's report; docs/ingest.md, "Deleted posts"); nil while
	// the provider still has it. A deleted post keeps everything stored about it: it is
	// evidence of what was said. What a client or a feed sends here is ignored.
	DeletedAt *time.Time `json:"deletedAt,omitempty"`
}

// Kinds of origin.
const (
	// OriginShared is one of the operator's shared public sources (or the simulator).
	OriginShared = "shared"
	// OriginSource is one of the reading tenant's own sources.
	OriginSource = "source"
	// OriginIngest is the ingest API or CLI, under an API token's name.
	OriginIngest = "ingest"
)

// Origin is a post's provenance as the API and the post card show it.
type Origin struct {
	Kind string `json:"kind"`
	// Name is the source's name (shared or the tenant's) or the ingest token's name; "" for
	// the simulator.
	Name string `json:"name,omitempty"`
	// Type is the source's type (rss, html, mastodon, ...); "" for ingest.
	Type string `json:"type,omitempty"`
}

// VisibleTo reports whether a user of the tenant may see a post owned by owner (a post's
// Tenant): shared posts reach everyone, a tenant's own posts reach that tenant only.
func VisibleTo(owner, tenant int64) bool { return owner == 0 || owner == tenant }

// Point is a WGS84 coordinate.
type Point struct {
	Lat float64 `json:"lat"`
	Lon float64 `json:"lon"`
}

// Media is a photo or video in its two renditions.
type Media struct {
	Large  string `json:"large"`
	Normal string `json:"normal,omitempty"`
}

// MentionedLocation is a place named in the text, resolved by the gazetteer.
type MentionedLocation struct {
	Name        string `json:"name"`
	CountryCode string `json:"country_code"`
	Point       Point  `json:"point"`
}

// Entities are the things extracted from a post's text (search-side.md section 3, translation
// target entity lists).
type Entities struct {
	ExternalLinks []string `json:"external_links,omitempty"`
	IPs           []string `json:"external_ips,omitempty"`
	Phones        []string `json:"phones,omitempty"`
	Emails        []string `json:"emails,omitempty"`
	CreditCards   []string `json:"credit_cards,omitempty"`
	SSNs          []string `json:"ssns,omitempty"`
	Handles       []string `json:"authors,omitempty"`
}

// Threat is an explainable threat score: 0 (none) to 100, with the reasons that produced it.
type Threat struct {
	Score   int      `json:"score"`
	Reasons []string `json:"reasons,omitempty"`
}
