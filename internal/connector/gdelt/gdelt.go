// Package gdelt reads the GDELT DOC 2.0 API: for each configured query, the articles GDELT saw
// in the last polling window (mode=artlist, format=json, timespan), as news posts.
package gdelt

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/connector"
	"github.com/sightline/sightline/internal/outbound"
	"github.com/sightline/sightline/internal/post"
)

// Name is the source's name, the key of its cursor.
const Name = "gdelt"

// Config configures the source.
type Config struct {
	Enabled bool   `json:"enabled"`
	BaseURL string `json:"baseURL"`
	// Queries in GDELT's query syntax ("ransomware sourcelang:english", "(protest OR riot)").
	Queries []string `json:"queries"`
	// Timespan is how far back each request looks, in GDELT's form ("15min", "1h"). It should
	// be at least Interval, or articles between polls are missed.
	Timespan string `json:"timespan"`
	// MaxRecords is the page size (at most 250).
	MaxRecords int                `json:"maxRecords"`
	Interval   connector.Duration `json:"interval"`
	// Pause is the wait between two queries of a round: GDELT asks for one request every five
	// seconds.
	Pause   connector.Duration `json:"pause"`
	Backoff connector.Backoff  `json:"backoff"`
}

// DefaultConfig polls the 15-minute window of the topics analysts watch every 15 minutes, off
// until switched on.
func DefaultConfig() Config {
	return Config{
		BaseURL: "https://api.gdeltproject.org/api/v2/doc/doc",
		Queries: []string{
			"(protest OR riot OR strike OR demonstration)",
			"(attack OR explosion OR shooting OR terrorism)",
			"(ransomware OR \"data breach\" OR cyberattack OR leak)",
			"(earthquake OR flood OR wildfire OR hurricane OR disaster)",
		},
		Timespan:   "15min",
		MaxRecords: 250,
		Interval:   connector.Duration(15 * time.Minute),
		Pause:      connector.Duration(5 * time.Second),
		Backoff:    connector.DefaultBackoff,
	}
}

// Source polls GDELT.
type Source struct {
	cfg     Config
	client  *outbound.Client
	cursors connector.CursorStore
	status  *connector.Status
	sleep   func(context.Context, time.Duration) error
}

// New returns the source of cfg's queries.
func New(cfg Config, cursors connector.CursorStore, client *outbound.Client) (*Source, error) {
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("gdelt: %q is not an absolute http or https URL", outbound.RedactURL(cfg.BaseURL))
	}
	if len(cfg.Queries) == 0 || slices.Contains(cfg.Queries, "") {
		return nil, errors.New("gdelt: a query is needed, and none may be empty")
	}
	cfg.MaxRecords = min(max(cfg.MaxRecords, 1), 250)
	if cfg.Timespan == "" {
		cfg.Timespan = "15min"
	}
	return &Source{cfg: cfg, client: client, cursors: cursors, status: connector.NewStatus(Name), sleep: connector.Sleep}, nil
}

func (s *Source) Name() string { return Name }

func (s *Source) Stats() connector.Stats { return s.status.Stats() }

// Run polls until ctx ends. The cursor is, per query, what was emitted (connector.Seen): the
// windows of two polls overlap, and GDELT lists an article under several queries.
func (s *Source) Run(ctx context.Context, emit connector.EmitFunc) error {
	cur := connector.Listings{}
	poller := connector.Poller{Status: s.status, Backoff: s.cfg.Backoff, Interval: time.Duration(s.cfg.Interval), Sleep: s.sleep}
	return poller.RunWithCursor(ctx, s.cursors, Name, &cur, func(ctx context.Context) error {
		for i, q := range s.cfg.Queries {
			if i > 0 {
				if err := s.sleep(ctx, time.Duration(s.cfg.Pause)); err != nil {
					return err
				}
			}
			if err := s.poll(ctx, emit, q, cur.Of(q)); err != nil {
				return fmt.Errorf("query %q: %w", q, err)
			}
		}
		return nil
	})
}

// article is an entry of artlist mode.
type article struct {
	URL           string `json:"url"`
	URLMobile     string `json:"url_mobile"`
	Title         string `json:"title"`
	SeenDate      string `json:"seendate"`
	SocialImage   string `json:"socialimage"`
	Domain        string `json:"domain"`
	Language      string `json:"language"`
	SourceCountry string `json:"sourcecountry"`
}

func (s *Source) poll(ctx context.Context, emit connector.EmitFunc, query string, seen *connector.Seen) error {
	q := url.Values{
		"query": {query}, "mode": {"artlist"}, "format": {"json"}, "sort": {"datedesc"},
		"timespan": {s.cfg.Timespan}, "maxrecords": {strconv.Itoa(s.cfg.MaxRecords)},
	}
	var reply struct {
		Articles []json.RawMessage `json:"articles"`
	}
	// GDELT answers an empty result with {} and a refused query with a plain-text message,
	// which is a malformed reply.
	if err := connector.GetJSON(ctx, s.client, s.cfg.BaseURL+"?"+q.Encode(), nil, &reply); err != nil {
		return err
	}
	items := reply.Articles
	slices.Reverse(items) // newest first
	return connector.SendFresh(ctx, s.status, emit, seen, connector.Decode(s.status, fmt.Sprintf("query %q", query), items, toPost))
}

// toPost converts an article: the URL is its id and link, the domain its board, the source
// country its place name, the language a code.
func toPost(a article) (post.Post, error) {
	if a.URL == "" {
		return post.Post{}, errors.New("an article without a url")
	}
	seen, err := time.Parse("20060102T150405Z", a.SeenDate)
	if err != nil {
		return post.Post{}, fmt.Errorf("article %s: seendate %q is not a time", outbound.RedactURL(a.URL), a.SeenDate)
	}
	p := post.Post{
		Provider:    "news",
		NativeID:    a.URL,
		Type:        post.TypeNewsPost,
		TitleText:   a.Title,
		PostLink:    a.URL,
		PublishedAt: seen.UTC(),
		AuthorID:    a.Domain,
		AuthorName:  a.Domain,
		Board:       a.Domain,
		PlaceName:   a.SourceCountry,
		Language:    languages[strings.ToLower(a.Language)],
	}
	if a.Domain != "" {
		p.AuthorURL = "https://" + a.Domain
	}
	if a.SocialImage != "" {
		p.Photos = []post.Media{{Large: a.SocialImage}}
	}
	return p, nil
}

// languages maps the language names GDELT reports to ISO 639-1 codes.
var languages = map[string]string{
	"afrikaans": "af", "albanian": "sq", "arabic": "ar", "armenian": "hy", "azerbaijani": "az", "bengali": "bn",
	"bosnian": "bs", "bulgarian": "bg", "catalan": "ca", "chinese": "zh", "croatian": "hr", "czech": "cs",
	"danish": "da", "dutch": "nl", "english": "en", "estonian": "et", "finnish": "fi", "french": "fr",
	"galician": "gl", "georgian": "ka", "german": "de", "greek": "el", "gujarati": "gu", "hebrew": "he",
	"hindi": "hi", "hungarian": "hu", "icelandic": "is", "indonesian": "id", "italian": "it", "japanese": "ja",
	"kannada": "kn", "kazakh": "kk", "korean": "ko", "latvian": "lv", "lithuanian": "lt", "macedonian": "mk",
	"malay": "ms", "malayalam": "ml", "marathi": "mr", "mongolian": "mn", "nepali": "ne", "norwegian": "no",
	"persian": "fa", "polish": "pl", "portuguese": "pt", "punjabi": "pa", "romanian": "ro", "russian": "ru",
	"serbian": "sr", "sinhalese": "si", "slovak": "sk", "slovenian": "sl", "somali": "so", "spanish": "es",
	"swahili": "sw", "swedish": "sv", "tamil": "ta", "telugu": "te", "thai": "th", "turkish": "tr",
	"ukrainian": "uk", "urdu": "ur", "vietnamese": "vi",
}
