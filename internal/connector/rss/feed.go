package rss

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/text/encoding/htmlindex"

	"github.com/sightline/sightline/internal/connector"
	"github.com/sightline/sightline/internal/post"
)

// entry is one feed item, whatever the format, before it becomes a post.
type entry struct {
	key       string // guid, id or link: what identifies the item in the feed
	post      post.Post
	malformed error
}

// geo holds the two common ways of tagging an item with a point.
type geo struct {
	GeoRSSPoint string `xml:"http://www.georss.org/georss point"`
	FeatureName string `xml:"http://www.georss.org/georss featurename"`
	Lat         string `xml:"http://www.w3.org/2003/01/geo/wgs84_pos# lat"`
	Long        string `xml:"http://www.w3.org/2003/01/geo/wgs84_pos# long"`
	Point       struct {
		Lat  string `xml:"http://www.w3.org/2003/01/geo/wgs84_pos# lat"`
		Long string `xml:"http://www.w3.org/2003/01/geo/wgs84_pos# long"`
	} `xml:"http://www.w3.org/2003/01/geo/wgs84_pos# Point"`
}

// point returns the item's location: nil when it has none, an error when it has a broken one.
func (g geo) point() (p *post.Point, err error) {
	var lat, lon string
	switch {
	case strings.TrimSpace(g.GeoRSSPoint) != "":
		parts := strings.Fields(g.GeoRSSPoint)
		if len(parts) != 2 {
			return nil, fmt.Errorf("georss:point %q is not \"lat lon\"", g.GeoRSSPoint)
		}
		lat, lon = parts[0], parts[1]
	case g.Lat != "" || g.Long != "":
		lat, lon = g.Lat, g.Long
	case g.Point.Lat != "" || g.Point.Long != "":
		lat, lon = g.Point.Lat, g.Point.Long
	default:
		return nil, nil
	}
	la, err1 := strconv.ParseFloat(strings.TrimSpace(lat), 64)
	lo, err2 := strconv.ParseFloat(strings.TrimSpace(lon), 64)
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("point %q %q is not two numbers", lat, lon)
	}
	return &post.Point{Lat: la, Lon: lo}, nil
}

type media struct {
	URL    string `xml:"url,attr"`
	Type   string `xml:"type,attr"`
	Medium string `xml:"medium,attr"`
}

// mediaGroup is Media RSS's group, as YouTube uses it.
type mediaGroup struct {
	Description string  `xml:"http://search.yahoo.com/mrss/ description"`
	Contents    []media `xml:"http://search.yahoo.com/mrss/ content"`
	Thumbnails  []media `xml:"http://search.yahoo.com/mrss/ thumbnail"`
}

type rssDoc struct {
	Channel struct {
		Title    string    `xml:"title"`
		Language string    `xml:"language"`
		Items    []rssItem `xml:"item"`
	} `xml:"channel"`
	Items []rssItem `xml:"item"` // RSS 1.0 puts its items beside the channel
}

type rssItem struct {
	Title       string     `xml:"title"`
	Link        string     `xml:"link"`
	GUID        string     `xml:"guid"`
	Description string     `xml:"description"`
	Content     string     `xml:"http://purl.org/rss/1.0/modules/content/ encoded"`
	PubDate     string     `xml:"pubDate"`
	Date        string     `xml:"http://purl.org/dc/elements/1.1/ date"`
	Creator     string     `xml:"http://purl.org/dc/elements/1.1/ creator"`
	Author      string     `xml:"author"`
	Categories  []string   `xml:"category"`
	Enclosures  []media    `xml:"enclosure"`
	Media       []media    `xml:"http://search.yahoo.com/mrss/ content"`
	Thumbnails  []media    `xml:"http://search.yahoo.com/mrss/ thumbnail"`
	Group       mediaGroup `xml:"http://search.yahoo.com/mrss/ group"`
	geo
}

type atomText struct {
	Type  string `xml:"type,attr"`
	Text  string `xml:",chardata"`
	Inner string `xml:",innerxml"`
}

// plain returns the text of an Atom text construct.
func (t atomText) plain() string {
	if t.Type == "xhtml" {
		return connector.PlainText(t.Inner)
	}
	return connector.PlainText(t.Text)
}

type atomLink struct {
	Href string `xml:"href,attr"`
	Rel  string `xml:"rel,attr"`
}

type atomPerson struct {
	Name string `xml:"name"`
	URI  string `xml:"uri"`
}

type atomDoc struct {
	Title   string       `xml:"title"`
	Lang    string       `xml:"http://www.w3.org/XML/1998/namespace lang,attr"`
	Authors []atomPerson `xml:"author"`
	Entries []atomEntry  `xml:"entry"`
}

type atomEntry struct {
	ID         string       `xml:"id"`
	Title      atomText     `xml:"title"`
	Links      []atomLink   `xml:"link"`
	Published  string       `xml:"published"`
	Updated    string       `xml:"updated"`
	Summary    atomText     `xml:"summary"`
	Content    atomText     `xml:"content"`
	Authors    []atomPerson `xml:"author"`
	Categories []struct {
		Term string `xml:"term,attr"`
	} `xml:"category"`
	VideoID   string     `xml:"http://www.youtube.com/xml/schemas/2015 videoId"`
	ChannelID string     `xml:"http://www.youtube.com/xml/schemas/2015 channelId"`
	Group     mediaGroup `xml:"http://search.yahoo.com/mrss/ group"`
	geo
}

// parse reads an RSS 2.0, RSS 1.0 or Atom document into entries for provider, with their links
// resolved against base, the feed's address. Items that cannot become posts come back with
// malformed set, so the caller can count them.
func parse(body []byte, base *url.URL, provider string, now time.Time) ([]entry, error) {
	entries, err := parseEntries(body, provider, now)
	for i := range entries {
		resolveLinks(&entries[i].post, base)
	}
	return entries, err
}

func parseEntries(body []byte, provider string, now time.Time) ([]entry, error) {
	root, err := rootElement(body)
	if err != nil {
		return nil, err
	}
	switch root {
	case "rss", "RDF":
		var doc rssDoc
		if err := decode(body, &doc); err != nil {
			return nil, err
		}
		items := append(doc.Channel.Items, doc.Items...)
		entries := make([]entry, 0, len(items))
		for _, it := range items {
			entries = append(entries, it.entry(provider, doc.Channel.Title, doc.Channel.Language, now))
		}
		return entries, nil
	case "feed":
		var doc atomDoc
		if err := decode(body, &doc); err != nil {
			return nil, err
		}
		entries := make([]entry, 0, len(doc.Entries))
		for _, e := range doc.Entries {
			entries = append(entries, e.entry(provider, doc, now))
		}
		return entries, nil
	}
	return nil, fmt.Errorf("the document is <%s>, not an RSS or Atom feed", root)
}

func newDecoder(body []byte) *xml.Decoder {
	d := xml.NewDecoder(bytes.NewReader(body))
	d.Strict = false // real feeds carry HTML entities such as &nbsp; and stray ampersands
	d.Entity = xml.HTMLEntity
	d.CharsetReader = func(label string, input io.Reader) (io.Reader, error) {
		enc, err := htmlindex.Get(label)
		if err != nil {
			return nil, fmt.Errorf("feed encoding %q: %w", label, err)
		}
		return enc.NewDecoder().Reader(input), nil
	}
	return d
}

func rootElement(body []byte) (string, error) {
	d := newDecoder(body)
	for {
		tok, err := d.Token()
		if err != nil {
			return "", fmt.Errorf("not a feed: %w", err)
		}
		if start, ok := tok.(xml.StartElement); ok {
			return start.Name.Local, nil
		}
	}
}

func decode(body []byte, v any) error {
	if err := newDecoder(body).Decode(v); err != nil {
		return fmt.Errorf("reading the feed: %w", err)
	}
	return nil
}

func (it rssItem) entry(provider, channel, language string, now time.Time) entry {
	p := post.Post{
		Provider:    provider,
		TitleText:   connector.PlainText(it.Title),
		ContentText: connector.PlainText(firstOf(it.Content, it.Description, it.Group.Description)),
		PostLink:    strings.TrimSpace(it.Link),
		AuthorName:  rssAuthor(firstOf(it.Creator, it.Author)),
		Language:    language,
		Board:       strings.TrimSpace(channel),
		Tags:        it.Categories,
		PlaceName:   strings.TrimSpace(it.FeatureName),
	}
	p.AuthorScreenName = p.AuthorName
	malformed := fillCommon(&p, firstOf(it.PubDate, it.Date), it.geo, now)
	for _, m := range slices.Concat(it.Enclosures, it.Media, it.Group.Contents, it.Thumbnails) {
		addMedia(&p, m)
	}
	p = withKey(p, firstOf(it.GUID, it.Link))
	return entry{key: p.NativeID, post: p, malformed: malformed}
}

func (a atomEntry) entry(provider string, doc atomDoc, now time.Time) entry {
	authors := a.Authors
	if len(authors) == 0 {
		authors = doc.Authors
	}
	p := post.Post{
		Provider:    provider,
		TitleText:   a.Title.plain(),
		ContentText: firstOf(a.Content.plain(), a.Summary.plain(), connector.PlainText(a.Group.Description)),
		PostLink:    alternateLink(a.Links),
		Language:    doc.Lang,
		Board:       strings.TrimSpace(doc.Title),
		PlaceName:   strings.TrimSpace(a.FeatureName),
	}
	if len(authors) > 0 {
		p.AuthorName, p.AuthorScreenName, p.AuthorURL = authors[0].Name, authors[0].Name, authors[0].URI
	}
	for _, c := range a.Categories {
		p.Tags = append(p.Tags, c.Term)
	}
	malformed := fillCommon(&p, firstOf(a.Published, a.Updated), a.geo, now)
	if a.VideoID != "" {
		// A YouTube channel feed: the entry is a video, its thumbnail the preview.
		p.AuthorID = a.ChannelID
		video := post.Media{Large: "https://www.youtube.com/watch?v=" + a.VideoID}
		if len(a.Group.Thumbnails) > 0 {
			video.Normal = a.Group.Thumbnails[0].URL
		}
		p.Videos = append(p.Videos, video)
	} else {
		for _, m := range slices.Concat(a.Group.Contents, a.Group.Thumbnails) {
			addMedia(&p, m)
		}
	}
	p = withKey(p, firstOf(a.ID, p.PostLink))
	return entry{key: p.NativeID, post: p, malformed: malformed}
}

// fillCommon sets the published time and the location, reporting a broken one.
func fillCommon(p *post.Post, date string, g geo, now time.Time) error {
	p.PublishedAt = now // an undated item is dated when first seen
	if strings.TrimSpace(date) != "" {
		t, err := parseDate(date)
		if err != nil {
			return err
		}
		p.PublishedAt = t
	}
	pt, err := g.point()
	if err != nil {
		return err
	}
	p.Location = pt
	return nil
}

// withKey sets the native id: the item's own id, or for items without one a digest of what
// they say, so the same item keeps the same id from poll to poll.
func withKey(p post.Post, key string) post.Post {
	p.NativeID = strings.TrimSpace(key)
	if p.NativeID == "" {
		sum := sha256.Sum256([]byte(p.TitleText + "\x00" + p.ContentText))
		p.NativeID = "sha256:" + hex.EncodeToString(sum[:12])
	}
	return p
}

func addMedia(p *post.Post, m media) {
	url := strings.TrimSpace(m.URL)
	switch {
	case url == "":
	case m.Medium == "image" || strings.HasPrefix(m.Type, "image/") || (m.Medium == "" && m.Type == ""):
		p.Photos = append(p.Photos, post.Media{Large: url})
	case m.Medium == "video" || strings.HasPrefix(m.Type, "video/"):
		p.Videos = append(p.Videos, post.Media{Large: url})
	}
}

// resolveLinks makes the post's relative links absolute against base, as a browser reading the
// feed would. What is still not http or https after that is dropped by the post's normalisation.
func resolveLinks(p *post.Post, base *url.URL) {
	resolve := func(link *string) {
		ref := strings.TrimSpace(*link)
		if u, err := url.Parse(ref); err == nil && ref != "" {
			*link = base.ResolveReference(u).String()
		}
	}
	resolve(&p.PostLink)
	resolve(&p.AuthorURL)
	resolve(&p.AuthorThumbnail)
	for _, media := range [][]post.Media{p.Photos, p.Videos} {
		for i := range media {
			resolve(&media[i].Large)
			resolve(&media[i].Normal)
		}
	}
}

func alternateLink(links []atomLink) string {
	for _, l := range links {
		if l.Rel == "" || l.Rel == "alternate" {
			return strings.TrimSpace(l.Href)
		}
	}
	return ""
}

// rssAuthor turns RSS's "editor@example.com (Jane Doe)" into "Jane Doe".
func rssAuthor(s string) string {
	s = strings.TrimSpace(s)
	if open := strings.IndexByte(s, '('); open > 0 && strings.HasSuffix(s, ")") && strings.Contains(s[:open], "@") {
		return strings.TrimSpace(s[open+1 : len(s)-1])
	}
	return s
}

func firstOf(values ...string) string {
	for _, v := range values {
		if strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}

// dateLayouts are the date forms met in real feeds: RFC 822 and its sloppy variants for RSS,
// RFC 3339 for Atom and Dublin Core.
var dateLayouts = []string{
	time.RFC1123Z, time.RFC1123, time.RFC3339Nano, time.RFC3339,
	"Mon, 2 Jan 2006 15:04:05 -0700", "Mon, 2 Jan 2006 15:04:05 MST",
	"Mon, 2 Jan 2006 15:04 -0700", "2 Jan 2006 15:04:05 -0700", "2 Jan 2006 15:04:05 MST",
	time.RFC822Z, time.RFC822, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02",
}

func parseDate(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	for _, layout := range dateLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("date %q is not a date", s)
}
