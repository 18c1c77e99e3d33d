// Package telegram reads public Telegram channels through their web preview
// (https://t.me/s/{channel}): the newest messages of a channel, and older pages with
// ?before={id} to close the gap since the last round.
package telegram

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/sightline/sightline/internal/connector"
	"github.com/sightline/sightline/internal/outbound"
	"github.com/sightline/sightline/internal/post"
)

// Name is the source's name, the key of its cursor.
const Name = "telegram"

// Config configures the source.
type Config struct {
	Enabled bool `json:"enabled"`
	// BaseURL serves the previews at /s/{channel}.
	BaseURL string `json:"baseURL"`
	// Channels are public channel usernames, without "@" or "t.me/".
	Channels []string `json:"channels"`
	// MaxPages bounds the older pages read per channel and round to close a gap.
	MaxPages int                `json:"maxPages"`
	Interval connector.Duration `json:"interval"`
	// Pause is the wait between two requests of a round.
	Pause   connector.Duration `json:"pause"`
	Backoff connector.Backoff  `json:"backoff"`
}

// DefaultConfig polls every two minutes, with no channels until some are configured.
func DefaultConfig() Config {
	return Config{
		BaseURL:  "https://t.me",
		MaxPages: 5,
		Interval: connector.Duration(2 * time.Minute),
		Pause:    connector.Duration(2 * time.Second),
		Backoff:  connector.DefaultBackoff,
	}
}

// maxPageSize bounds one preview page.
const maxPageSize = 4 << 20

// threadCacheSize bounds the messages whose thread is remembered.
const threadCacheSize = 20_000

// Source reads the channels.
type Source struct {
	cfg     Config
	client  *outbound.Client
	cursors connector.CursorStore
	status  *connector.Status
	sleep   func(context.Context, time.Duration) error
	// threads maps "channel/id" to the thread the message belongs to, so that a reply to a
	// reply finds the first message of the conversation.
	threads map[string]string
}

var channelName = regexp.MustCompile(`^[A-Za-z0-9_]{4,64}$`)

// New returns the source of cfg's channels.
func New(cfg Config, cursors connector.CursorStore, client *outbound.Client) (*Source, error) {
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("telegram: %q is not an absolute http or https URL", outbound.RedactURL(cfg.BaseURL))
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	if len(cfg.Channels) == 0 {
		return nil, fmt.Errorf("telegram: no channels are configured")
	}
	for i, c := range cfg.Channels {
		c = strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(c), "@"), "https://t.me/")
		if !channelName.MatchString(c) {
			return nil, fmt.Errorf("telegram: %q is not a channel username", c)
		}
		cfg.Channels[i] = c
	}
	cfg.MaxPages = max(cfg.MaxPages, 1)
	return &Source{cfg: cfg, client: client, cursors: cursors, status: connector.NewStatus(Name), threads: map[string]string{}}, nil
}

func (s *Source) Name() string { return Name }

func (s *Source) Stats() connector.Stats { return s.status.Stats() }

// Run polls until ctx ends. The cursor maps each channel to the id of the newest message
// emitted (ids grow within a channel).
func (s *Source) Run(ctx context.Context, emit connector.EmitFunc) error {
	cur := map[string]int64{}
	poller := connector.Poller{Status: s.status, Backoff: s.cfg.Backoff, Interval: time.Duration(s.cfg.Interval), Sleep: s.sleep}
	return poller.RunWithCursor(ctx, s.cursors, Name, &cur, func(ctx context.Context) error {
		for i, ch := range s.cfg.Channels {
			if i > 0 {
				if err := s.pause(ctx); err != nil {
					return err
				}
			}
			last := cur[ch]
			if err := s.channel(ctx, emit, ch, &last); err != nil {
				cur[ch] = last
				return fmt.Errorf("%s: %w", ch, err)
			}
			cur[ch] = last
		}
		return nil
	})
}

func (s *Source) pause(ctx context.Context) error {
	return s.sleep(ctx, time.Duration(s.cfg.Pause))
}

// channel reads the newest page and, while the oldest message on it is still after *last,
// older pages, then emits what is after *last, oldest first.
func (s *Source) channel(ctx context.Context, emit connector.EmitFunc, ch string, last *int64) error {
	var msgs []message
	before := int64(0)
	for page := 0; page < s.cfg.MaxPages; page++ {
		if page > 0 {
			if err := s.pause(ctx); err != nil {
				return err
			}
		}
		u := s.cfg.BaseURL + "/s/" + ch
		if before > 0 {
			u += "?before=" + strconv.FormatInt(before, 10)
		}
		got, skipped, err := s.fetch(ctx, u, ch)
		if err != nil {
			return err
		}
		for _, e := range skipped {
			s.status.Skipped(e)
		}
		msgs = append(msgs, got...)
		if len(got) == 0 || *last == 0 {
			break // an empty page, or a first round: the newest page is enough
		}
		oldest := slices.MinFunc(got, func(a, b message) int { return int(a.id - b.id) }).id
		if oldest <= *last+1 {
			break
		}
		before = oldest
	}
	slices.SortFunc(msgs, func(a, b message) int { return int(a.id - b.id) })
	msgs = slices.CompactFunc(msgs, func(a, b message) bool { return a.id == b.id })
	for _, m := range msgs {
		if m.id <= *last {
			continue
		}
		p := s.toPost(ch, m)
		if err := connector.Send(ctx, s.status, emit, p); err != nil {
			return err
		}
		*last = m.id
	}
	return nil
}

func (s *Source) fetch(ctx context.Context, u, ch string) ([]message, []error, error) {
	resp, err := connector.Get(ctx, s.client, u, http.Header{"Accept": {"text/html"}})
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	if resp.Request != nil && resp.Request.URL.Path != "" && !strings.HasPrefix(resp.Request.URL.Path, "/s/") {
		// t.me redirects the preview of a private or missing channel to the channel's page.
		return nil, nil, fmt.Errorf("channel %s has no public preview", ch)
	}
	body, err := outbound.ReadAll(resp.Body, maxPageSize)
	if err != nil {
		return nil, nil, fmt.Errorf("reading %s: %w", outbound.RedactURL(u), err)
	}
	msgs, skipped, err := parse(body, ch)
	return msgs, skipped, err
}

// message is one message of a preview page.
type message struct {
	id        int64
	author    string
	authorURL string
	avatar    string
	text      string
	html      string
	published time.Time
	link      string
	replyTo   int64
	photos    []string
	videos    []post.Media
	forwarded string
}

var backgroundURL = regexp.MustCompile(`background-image:\s*url\(['"]?([^'")]+)['"]?\)`)

// parse reads the messages of a preview page. Messages of other channels on it are ignored;
// messages without an id or a date are skipped.
func parse(body []byte, ch string) ([]message, []error, error) {
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(body))
	if err != nil {
		return nil, nil, fmt.Errorf("parsing the preview: %w", err)
	}
	var msgs []message
	var skipped []error
	doc.Find("div.tgme_widget_message[data-post]").Each(func(_ int, sel *goquery.Selection) {
		dataPost, _ := sel.Attr("data-post")
		owner, idText, _ := strings.Cut(dataPost, "/")
		id, err := strconv.ParseInt(idText, 10, 64)
		if !strings.EqualFold(owner, ch) || err != nil || id <= 0 {
			skipped = append(skipped, fmt.Errorf("%w: %s: message %q has no id of the channel", connector.ErrMalformed, ch, dataPost))
			return
		}
		m := message{id: id}
		datetime, _ := sel.Find(".tgme_widget_message_date time").Attr("datetime")
		if m.published, err = time.Parse(time.RFC3339, datetime); err != nil {
			skipped = append(skipped, fmt.Errorf("%w: %s/%d: date %q", connector.ErrMalformed, ch, id, datetime))
			return
		}
		m.published = m.published.UTC()
		m.link, _ = sel.Find("a.tgme_widget_message_date").Attr("href")
		ownerLink := sel.Find(".tgme_widget_message_owner_name").First()
		m.author = strings.TrimSpace(ownerLink.Text())
		m.authorURL, _ = ownerLink.Attr("href")
		m.avatar, _ = sel.Find(".tgme_widget_message_user_photo img").Attr("src")
		if fwd := sel.Find(".tgme_widget_message_forwarded_from_name"); fwd.Length() > 0 {
			m.forwarded = strings.TrimSpace(fwd.First().Text())
		}
		text := sel.Find(".tgme_widget_message_text.js-message_text").First()
		if h, err := text.Html(); err == nil {
			m.html = h
			m.text = connector.PlainText(h)
		}
		if href, ok := sel.Find("a.tgme_widget_message_reply").Attr("href"); ok {
			if i := strings.LastIndexByte(href, '/'); i >= 0 {
				m.replyTo, _ = strconv.ParseInt(strings.SplitN(href[i+1:], "?", 2)[0], 10, 64)
			}
		}
		sel.Find("a.tgme_widget_message_photo_wrap").Each(func(_ int, ph *goquery.Selection) {
			style, _ := ph.Attr("style")
			if match := backgroundURL.FindStringSubmatch(style); match != nil {
				m.photos = append(m.photos, match[1])
			}
		})
		sel.Find(".tgme_widget_message_video_player").Each(func(_ int, v *goquery.Selection) {
			var media post.Media
			media.Large, _ = v.Find("video").Attr("src")
			style, _ := v.Find(".tgme_widget_message_video_thumb").Attr("style")
			if match := backgroundURL.FindStringSubmatch(style); match != nil {
				media.Normal = match[1]
			}
			if media.Large == "" {
				media.Large = m.link // too large for the preview: watched on Telegram
			}
			m.videos = append(m.videos, media)
		})
		if m.text == "" && len(m.photos) == 0 && len(m.videos) == 0 {
			return // a service message or a sticker: nothing to search
		}
		msgs = append(msgs, m)
	})
	return msgs, skipped, nil
}

// toPost converts a message. Ids are "channel/id"; a reply's parent is the message it
// answers and its thread the parent's thread when known, else the parent.
func (s *Source) toPost(ch string, m message) post.Post {
	id := ch + "/" + strconv.FormatInt(m.id, 10)
	p := post.Post{
		Provider:         Name,
		NativeID:         id,
		Type:             post.TypeSocialMediaPost,
		AuthorID:         ch,
		AuthorName:       m.author,
		AuthorScreenName: ch,
		AuthorThumbnail:  m.avatar,
		AuthorURL:        s.cfg.BaseURL + "/" + ch,
		ContentText:      m.text,
		PostLink:         m.link,
		PublishedAt:      m.published,
		Board:            ch,
		ThreadID:         id,
	}
	if m.authorURL != "" {
		p.AuthorURL = m.authorURL
	}
	if p.PostLink == "" {
		p.PostLink = s.cfg.BaseURL + "/" + id
	}
	if m.replyTo > 0 {
		parent := ch + "/" + strconv.FormatInt(m.replyTo, 10)
		p.ParentID, p.ThreadID = parent, parent
		if root, ok := s.threads[parent]; ok {
			p.ThreadID = root
		}
	}
	if len(s.threads) >= threadCacheSize {
		clear(s.threads)
	}
	s.threads[id] = p.ThreadID
	for _, ph := range m.photos {
		p.Photos = append(p.Photos, post.Media{Large: ph})
	}
	p.Videos = m.videos
	p.Entities.ExternalLinks = links(m.html)
	if m.forwarded != "" {
		p.TitleText = "Forwarded from " + m.forwarded
	}
	return p
}

// links are the addresses the message's text links to.
func links(fragment string) []string {
	if fragment == "" {
		return nil
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(fragment))
	if err != nil {
		return nil
	}
	var out []string
	doc.Find("a[href]").Each(func(_ int, a *goquery.Selection) {
		href, _ := a.Attr("href")
		if strings.HasPrefix(href, "http://") || strings.HasPrefix(href, "https://") {
			if !slices.Contains(out, href) {
				out = append(out, href)
			}
		}
	})
	return out
}
