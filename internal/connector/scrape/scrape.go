// Package scrape reads web pages that have no feed or API (forums, markets, paste sites) with
// CSS selectors: one selector picks the items of a page, others pick each item's title, text,
// author, time and link.
package scrape

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html/charset"

	"github.com/sightline/sightline/internal/connector"
	"github.com/sightline/sightline/internal/outbound"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/provider"
)

// Selectors pick an item's parts. Each is a CSS selector inside the item; "selector@attr"
// takes an attribute instead of the text ("time@datetime", "a.title@href"), and "@attr" the
// item's own attribute. Only Item is required, and an item needs a title or a text.
type Selectors struct {
	Item   string `json:"item"`
	Title  string `json:"title"`
	Text   string `json:"text"`
	Author string `json:"author"`
	Time   string `json:"time"`
	// TimeLayout is the time's Go layout ("2006-01-02 15:04"); empty tries RFC 3339, RFC 1123
	// and a few common forms. A time without a zone is UTC, unless TimeZone names one.
	TimeLayout string `json:"timeLayout"`
	TimeZone   string `json:"timeZone"`
	Link       string `json:"link"`
	// Image picks a picture's address ("img@src").
	Image string `json:"image"`
}

// Page configures one page read.
type Page struct {
	// Name identifies the page among the sources ("html:" + Name) and keys its cursor.
	Name string `json:"name"`
	URL  string `json:"url"`
	// Provider is the catalogue provider its posts carry (forum, marketplaces, pastebin, leaks,
	// hacking, darkweb...); forum by default.
	Provider string `json:"provider"`
	// Board names the forum section, market or site the items belong to; CommunityKind is
	// marketplaces, discussion-boards or breached-data.
	Board         string    `json:"board"`
	CommunityKind string    `json:"communityKind"`
	Selectors     Selectors `json:"selectors"`
	// Interval overrides the configuration's interval for this page.
	Interval connector.Duration `json:"interval,omitzero"`
}

// Config configures the pages.
type Config struct {
	Enabled  bool               `json:"enabled"`
	Pages    []Page             `json:"pages"`
	Interval connector.Duration `json:"interval"`
	Backoff  connector.Backoff  `json:"backoff"`
}

// DefaultConfig polls every ten minutes, with no pages until some are configured.
func DefaultConfig() Config {
	return Config{Interval: connector.Duration(10 * time.Minute), Backoff: connector.DefaultBackoff}
}

// maxPageSize bounds a page.
const maxPageSize = 8 << 20

// Source polls one page.
type Source struct {
	page     Page
	name     string
	base     *url.URL
	zone     *time.Location
	interval time.Duration
	backoff  connector.Backoff
	client   *outbound.Client
	cursors  connector.CursorStore
	status   *connector.Status
	sleep    func(context.Context, time.Duration) error
	now      func() time.Time
}

// New returns the source of one page of cfg, named "html:" + its name.
func New(page Page, cfg Config, cursors connector.CursorStore, client *outbound.Client) (*Source, error) {
	if page.Name == "" || page.URL == "" || page.Selectors.Item == "" {
		return nil, fmt.Errorf("html: a page needs a name, a url and an item selector")
	}
	base, err := url.Parse(page.URL)
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return nil, fmt.Errorf("html: page %s: %q is not an absolute http or https URL", page.Name, outbound.RedactURL(page.URL))
	}
	page.Provider = cmp.Or(page.Provider, "forum")
	if !provider.Known(page.Provider) {
		return nil, fmt.Errorf("html: page %s: provider %q is not a known provider", page.Name, page.Provider)
	}
	sel := page.Selectors
	for _, s := range []string{sel.Item, sel.Title, sel.Text, sel.Author, sel.Time, sel.Link, sel.Image} {
		css, _, _ := strings.Cut(s, "@")
		if css == "" {
			continue
		}
		if _, err := compile(css); err != nil {
			return nil, fmt.Errorf("html: page %s: selector %q: %v", page.Name, s, err)
		}
	}
	zone := time.UTC
	if sel.TimeZone != "" {
		if zone, err = time.LoadLocation(sel.TimeZone); err != nil {
			return nil, fmt.Errorf("html: page %s: %v", page.Name, err)
		}
	}
	interval := time.Duration(cfg.Interval)
	if page.Interval > 0 {
		interval = time.Duration(page.Interval)
	}
	s := &Source{page: page, name: "html:" + page.Name, base: base, zone: zone, interval: interval, backoff: cfg.Backoff,
		client: client, cursors: cursors, now: time.Now}
	s.status = connector.NewStatus(s.name)
	return s, nil
}

// compile checks a selector: goquery matches nothing with an invalid one, silently.
func compile(css string) (cascadia.SelectorGroup, error) {
	return cascadia.ParseGroup(css)
}

func (s *Source) Name() string { return s.name }

func (s *Source) Stats() connector.Stats { return s.status.Stats() }

// Run polls the page until ctx ends. The cursor is a connector.Seen of the items' keys.
func (s *Source) Run(ctx context.Context, emit connector.EmitFunc) error {
	var seen connector.Seen
	poller := connector.Poller{Status: s.status, Backoff: s.backoff, Interval: s.interval, Sleep: s.sleep}
	return poller.RunWithCursor(ctx, s.cursors, s.name, &seen, func(ctx context.Context) error {
		return s.poll(ctx, emit, &seen)
	})
}

func (s *Source) poll(ctx context.Context, emit connector.EmitFunc, seen *connector.Seen) error {
	resp, err := connector.Get(ctx, s.client, s.page.URL, http.Header{"Accept": {"text/html,application/xhtml+xml;q=0.9,*/*;q=0.5"}})
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := outbound.ReadAll(resp.Body, maxPageSize)
	if err != nil {
		return fmt.Errorf("reading %s: %w", outbound.RedactURL(s.page.URL), err)
	}
	posts, skipped, err := parse(body, resp.Header.Get("Content-Type"), s.base, s.page, s.zone, s.now())
	if err != nil {
		return fmt.Errorf("%s: %w", outbound.RedactURL(s.page.URL), err)
	}
	for _, err := range skipped {
		s.status.Skipped(err)
	}
	// Pages list newest first, mostly: emit from the bottom up.
	slices.Reverse(posts)
	return connector.SendFresh(ctx, s.status, emit, seen, slices.Values(posts))
}

// parse reads the items of an HTML page into posts, with links resolved against base.
// Items that cannot become posts are returned as errors, to be counted as skipped. An item
// without a time is stamped now: it is new when first seen.
func parse(body []byte, contentType string, base *url.URL, page Page, zone *time.Location, now time.Time) ([]post.Post, []error, error) {
	r, err := charset.NewReader(bytes.NewReader(body), contentType)
	if err != nil {
		return nil, nil, fmt.Errorf("decoding the page: %w", err)
	}
	doc, err := goquery.NewDocumentFromReader(r)
	if err != nil {
		return nil, nil, fmt.Errorf("parsing the page: %w", err)
	}
	sel := page.Selectors
	var posts []post.Post
	var skipped []error
	doc.Find(sel.Item).Each(func(i int, item *goquery.Selection) {
		p := post.Post{
			Provider:         page.Provider,
			Type:             post.TypeThreadPost,
			Board:            page.Board,
			CommunityKind:    page.CommunityKind,
			TitleText:        pick(item, sel.Title),
			ContentText:      pick(item, sel.Text),
			AuthorName:       pick(item, sel.Author),
			AuthorScreenName: pick(item, sel.Author),
		}
		if page.Provider == "pastebin" {
			p.Type = post.TypeSocialMediaPost
		}
		if p.TitleText == "" && p.ContentText == "" {
			skipped = append(skipped, fmt.Errorf("%w: item %d has neither a title nor a text", connector.ErrMalformed, i+1))
			return
		}
		p.AuthorID = p.AuthorName
		if link := pick(item, sel.Link); link != "" {
			if u, err := base.Parse(link); err == nil {
				p.PostLink = u.String()
			}
		}
		if img := pick(item, sel.Image); img != "" {
			if u, err := base.Parse(img); err == nil {
				p.Photos = []post.Media{{Large: u.String()}}
			}
		}
		p.PublishedAt = now.UTC()
		if raw := pick(item, sel.Time); raw != "" {
			t, err := parseTime(raw, sel.TimeLayout, zone)
			if err != nil {
				skipped = append(skipped, fmt.Errorf("%w: item %d: %v", connector.ErrMalformed, i+1, err))
				return
			}
			p.PublishedAt = t
		}
		// The link identifies an item; without one, its author, title and text do.
		p.NativeID = p.PostLink
		if p.NativeID == "" {
			sum := sha256.Sum256([]byte(p.AuthorName + "\x00" + p.TitleText + "\x00" + p.ContentText))
			p.NativeID = page.Name + "/" + hex.EncodeToString(sum[:12])
		}
		p.ThreadID = p.NativeID
		posts = append(posts, p)
	})
	return posts, skipped, nil
}

// pick applies a "selector@attr" to item: the text of the first match, or its attribute.
func pick(item *goquery.Selection, spec string) string {
	if spec == "" {
		return ""
	}
	css, attr, hasAttr := strings.Cut(spec, "@")
	target := item
	if css != "" {
		target = item.Find(css).First()
	}
	if target.Length() == 0 {
		return ""
	}
	if hasAttr {
		v, _ := target.Attr(attr)
		return strings.TrimSpace(v)
	}
	html, err := target.Html()
	if err != nil {
		return strings.TrimSpace(target.Text())
	}
	return connector.PlainText(html)
}

var layouts = []string{
	time.RFC3339Nano, time.RFC1123Z, time.RFC1123, "2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02T15:04:05",
	"2006-01-02", "02.01.2006 15:04", "Jan 2, 2006 15:04", "Jan 2, 2006", "2 Jan 2006 15:04", "02/01/2006 15:04",
}

func parseTime(raw, layout string, zone *time.Location) (time.Time, error) {
	raw = strings.Join(strings.Fields(raw), " ")
	candidates := layouts
	if layout != "" {
		candidates = []string{layout}
	}
	for _, l := range candidates {
		if t, err := time.ParseInLocation(l, raw, zone); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("time %q does not match %s", raw, cmp.Or(layout, "any known layout"))
}
