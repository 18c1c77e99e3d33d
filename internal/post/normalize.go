package post

import (
	"fmt"
	"math"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/sightline/sightline/internal/provider"
)

// Length limits, in characters. Text is cut at the limit; identifiers and links are refused
// instead, because a cut one would point somewhere else.
const (
	MaxTitle      = 1_000
	MaxContent    = 50_000
	MaxName       = 256
	MaxIdentifier = 512
	MaxURL        = 2_048
	MaxTags       = 100
	MaxTag        = 100
	MaxMedia      = 20
	MaxObjects    = 50
)

// MaxFutureSkew is how far in the future a published time may be before the post is refused;
// it allows for clocks that are a little off.
const MaxFutureSkew = time.Hour

// InvalidError lists everything wrong with a post, one problem per entry, in words an API
// client can act on.
type InvalidError struct {
	Problems []string
}

func (e *InvalidError) Error() string {
	return strings.Join(e.Problems, "; ")
}

// Normalize cleans p in place (trims text, cuts over-long text, puts times in UTC, fills the
// discovered time and the content type, derives the id) and checks that what remains is a post
// Sightline can store. It returns an *InvalidError when it is not. now is the discovery time for
// posts that do not carry one.
func (p *Post) Normalize(now time.Time) error {
	var problems []string
	problem := func(format string, args ...any) {
		problems = append(problems, fmt.Sprintf(format, args...))
	}

	p.Provider = strings.ToLower(cleanText(p.Provider))
	p.NativeID = cleanText(p.NativeID)
	p.Type = strings.ToLower(cleanText(p.Type))
	p.CommunityKind = strings.ToLower(cleanText(p.CommunityKind))

	catalogued, known := provider.Lookup(p.Provider)
	switch {
	case p.Provider == "":
		problem("provider is required: a provider of the catalogue such as news or reddit")
	case !known:
		problem("provider %q is not a known provider", p.Provider)
	}
	if p.NativeID == "" {
		problem("native_id is required: the post's id at its provider, a string (id is accepted too)")
	}
	if p.Type == "" && known {
		p.Type = catalogued.ContentType
	}
	if p.Type != "" && !slices.Contains(ContentTypes, p.Type) {
		problem("content_type %q is not one of %s", p.Type, strings.Join(ContentTypes, ", "))
	}
	if p.CommunityKind != "" && !slices.Contains(CommunityKinds, p.CommunityKind) {
		problem("community_kind %q is not one of %s", p.CommunityKind, strings.Join(CommunityKinds, ", "))
	}

	for _, f := range []struct {
		name  string
		value *string
	}{
		{"native_id", &p.NativeID}, {"author_id", &p.AuthorID}, {"thread_id", &p.ThreadID}, {"parent_id", &p.ParentID},
	} {
		*f.value = cleanText(*f.value)
		if utf8.RuneCountInString(*f.value) > MaxIdentifier {
			problem("%s is longer than %d characters", f.name, MaxIdentifier)
		}
	}
	for _, f := range []struct {
		name  string
		value *string
		keep  func(string) bool
	}{
		{"post_link", &p.PostLink, isWebURL}, {"author_url", &p.AuthorURL, isWebURL},
		{"author_thumbnail", &p.AuthorThumbnail, isPictureURL},
	} {
		*f.value = cleanText(*f.value)
		if utf8.RuneCountInString(*f.value) > MaxURL {
			problem("%s is longer than %d characters", f.name, MaxURL)
		} else if !f.keep(*f.value) {
			*f.value = ""
		}
	}

	p.AuthorName = cut(cleanText(p.AuthorName), MaxName)
	p.AuthorScreenName = cut(strings.TrimPrefix(cleanText(p.AuthorScreenName), "@"), MaxName)
	p.Board = cut(cleanText(p.Board), MaxName)
	p.PlaceName = cut(cleanText(p.PlaceName), MaxName)
	p.TitleText = cut(cleanText(p.TitleText), MaxTitle)
	p.ContentText = cut(cleanText(p.ContentText), MaxContent)
	p.Language = normalizeLanguage(p.Language)
	p.Tags = normalizeWords(p.Tags, MaxTags, MaxTag, func(tag string) string {
		return strings.TrimLeftFunc(tag, func(r rune) bool { return r == '#' || unicode.IsSpace(r) })
	})
	p.DetectedObjects = normalizeWords(p.DetectedObjects, MaxObjects, MaxName, strings.ToLower)

	var mediaProblems []string
	p.Photos, mediaProblems = normalizeMedia("photos", p.Photos)
	problems = append(problems, mediaProblems...)
	p.Videos, mediaProblems = normalizeMedia("videos", p.Videos)
	problems = append(problems, mediaProblems...)

	if p.TitleText == "" && p.ContentText == "" && len(p.Photos) == 0 && len(p.Videos) == 0 {
		problem("a post needs a title, a text, a photo or a video")
	}

	if p.PublishedAt.IsZero() {
		problem("published_at is required: an RFC 3339 date-time such as 2026-11-25T06:00:00Z (createdAt is accepted too)")
	} else if p.PublishedAt.After(now.Add(MaxFutureSkew)) {
		problem("published_at %s is in the future", p.PublishedAt.UTC().Format(time.RFC3339))
	}
	p.PublishedAt = p.PublishedAt.UTC()
	if p.DiscoveredAt.IsZero() {
		p.DiscoveredAt = now
	}
	p.DiscoveredAt = p.DiscoveredAt.UTC()

	if p.Engagement < 0 {
		problem("engagement %d is negative: it counts reactions (likes, reposts, replies), 0 or more", p.Engagement)
	}
	if p.AuthorFollowers < 0 {
		problem("author_followers %d is negative: it counts followers, 0 or more", p.AuthorFollowers)
	}
	if p.Location != nil && !validPoint(*p.Location) {
		problem("location %v,%v is not a latitude in [-90, 90] and a longitude in [-180, 180]", p.Location.Lat, p.Location.Lon)
	}
	for i, m := range p.MentionedLocations {
		if !validPoint(m.Point) {
			problem("mentioned_locations[%d] has an invalid point", i)
		}
	}

	if len(problems) > 0 {
		return &InvalidError{Problems: problems}
	}
	p.ID = NewID(p.Provider, p.NativeID)
	return nil
}

// ContentTypes are the known content types.
var ContentTypes = []string{TypeSocialMediaPost, TypeNewsPost, TypeThreadPost, TypeFPThreadPost}

// CommunityKinds are the known community kinds.
var CommunityKinds = []string{CommunityMarketplaces, CommunityDiscussionBoards, CommunityBreachedData}

// cleanText makes s valid UTF-8 without NUL bytes (which the stores refuse) and trims it.
func cleanText(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.ReplaceAll(s, "\x00", "")
	return strings.TrimSpace(s)
}

// cut shortens s to at most max characters, never inside a character.
func cut(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	return strings.TrimSpace(string([]rune(s)[:max]))
}

// normalizeLanguage keeps the primary language subtag in lower case ("pt-BR" becomes "pt"),
// the form the enrichment and the filters use.
func normalizeLanguage(lang string) string {
	lang = strings.ToLower(cleanText(lang))
	if i := strings.IndexAny(lang, "-_"); i >= 0 {
		lang = lang[:i]
	}
	if len(lang) < 2 || len(lang) > 3 || strings.Trim(lang, "abcdefghijklmnopqrstuvwxyz") != "" {
		return ""
	}
	return lang
}

// normalizeWords trims, reshapes, cuts and deduplicates a word list, dropping empty words.
func normalizeWords(words []string, maxCount, maxLen int, reshape func(string) string) []string {
	var out []string
	for _, w := range words {
		w = cut(strings.TrimSpace(reshape(cleanText(w))), maxLen)
		if w == "" || slices.Contains(out, w) {
			continue
		}
		if len(out) == maxCount {
			break
		}
		out = append(out, w)
	}
	return out
}

func normalizeMedia(field string, media []Media) ([]Media, []string) {
	var out []Media
	var problems []string
	for i, m := range media {
		m.Large, m.Normal = cleanText(m.Large), cleanText(m.Normal)
		if utf8.RuneCountInString(m.Large) > MaxURL || utf8.RuneCountInString(m.Normal) > MaxURL {
			problems = append(problems, fmt.Sprintf("%s[%d] has a link longer than %d characters", field, i, MaxURL))
			continue
		}
		if !isPictureURL(m.Large) {
			m.Large = ""
		}
		if !isPictureURL(m.Normal) {
			m.Normal = ""
		}
		if m.Large == "" {
			m.Large = m.Normal
		}
		if m.Large == "" {
			continue
		}
		if len(out) == MaxMedia {
			break
		}
		out = append(out, m)
	}
	return out, problems
}

// DemoMediaPrefix is where Sightline serves its own demo pictures, from its own origin.
const DemoMediaPrefix = "/demo-media/"

// demoMediaPath is the one form of a demo picture's address: a file name under DemoMediaPrefix.
var demoMediaPath = regexp.MustCompile(`^` + regexp.QuoteMeta(DemoMediaPrefix) + `[a-z0-9-]+\.svg$`)

// isWebURL reports whether s is an absolute http or https address with a host and without
// credentials. Links and pictures of posts go to the analyst's browser: anything else there
// (javascript:, data:, a relative path on Sightline's own origin such as /logout) could act on
// the analyst, so it is dropped.
func isWebURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Opaque == "" && u.Hostname() != "" &&
		u.User == nil
}

// isPictureURL accepts what isWebURL does and Sightline's own demo pictures.
func isPictureURL(s string) bool {
	return isWebURL(s) || demoMediaPath.MatchString(s)
}

func validPoint(pt Point) bool {
	return !math.IsNaN(pt.Lat) && !math.IsNaN(pt.Lon) &&
		pt.Lat >= -90 && pt.Lat <= 90 && pt.Lon >= -180 && pt.Lon <= 180
}
