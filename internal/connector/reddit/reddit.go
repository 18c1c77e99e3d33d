// Package reddit reads Reddit's listings: the newest posts and comments of subreddits
// (/r/{sub}/new, /r/{sub}/comments) and searches (/search?q=), through the public JSON
// listings or, with credentials, through the OAuth API. Its rate-limit headers are honoured.
package reddit

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/sightline/sightline/internal/connector"
	"github.com/sightline/sightline/internal/outbound"
	"github.com/sightline/sightline/internal/post"
)

// Name is the source's name, the key of its cursor.
const Name = "reddit"

// Config configures the source.
type Config struct {
	Enabled bool `json:"enabled"`
	// Subreddits whose newest posts are read, without "r/".
	Subreddits []string `json:"subreddits"`
	// Comments also reads the subreddits' newest comments.
	Comments bool `json:"comments"`
	// Searches are queries of Reddit's search, newest first.
	Searches []string `json:"searches"`
	// BaseURL serves the public JSON listings.
	BaseURL string `json:"baseURL"`
	// With ClientID and ClientSecret the source reads OAuthBaseURL with a token from TokenURL:
	// the client-credentials grant, or the password grant when Username is set too.
	OAuthBaseURL string `json:"oauthBaseURL"`
	TokenURL     string `json:"tokenURL"`
	ClientID     string `json:"clientID"`
	ClientSecret string `json:"clientSecret"`
	Username     string `json:"username"`
	Password     string `json:"password"`
	// Limit is the listing page size (at most 100).
	Limit    int                `json:"limit"`
	Interval connector.Duration `json:"interval"`
	Backoff  connector.Backoff  `json:"backoff"`
}

// DefaultConfig reads the public listings once a minute, off until switched on.
func DefaultConfig() Config {
	return Config{
		BaseURL:      "https://www.reddit.com",
		OAuthBaseURL: "https://oauth.reddit.com",
		TokenURL:     "https://www.reddit.com/api/v1/access_token",
		Limit:        100,
		Interval:     connector.Duration(time.Minute),
		Backoff:      connector.DefaultBackoff,
	}
}

// Source reads every configured listing, one after the other, each round.
type Source struct {
	cfg      Config
	base     string
	listings []listing
	client   *outbound.Client
	tokens   oauth2.TokenSource
	cursors  connector.CursorStore
	status   *connector.Status
	sleep    func(context.Context, time.Duration) error
	now      func() time.Time

	mu sync.Mutex
	// limitedUntil is when the rate-limit window ends after a reply said none was left.
	limitedUntil time.Time
}

// listing is one listing read: its key in the cursor and its path and query.
type listing struct {
	key, path string
}

// New returns the source of cfg's listings.
func New(cfg Config, cursors connector.CursorStore, client *outbound.Client) (*Source, error) {
	s := &Source{cfg: cfg, client: client, cursors: cursors, status: connector.NewStatus(Name), now: time.Now}
	s.cfg.Limit = min(max(cfg.Limit, 1), 100)
	s.base = strings.TrimRight(cfg.BaseURL, "/")
	if cfg.ClientID != "" {
		s.base = strings.TrimRight(cfg.OAuthBaseURL, "/")
		s.tokens = tokenSource(cfg, client)
	}
	if u, err := url.Parse(s.base); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("reddit: %q is not an absolute http or https URL", outbound.RedactURL(s.base))
	}
	for _, sub := range cfg.Subreddits {
		sub = strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(sub), "/"), "r/")
		if sub == "" || strings.ContainsAny(sub, "/?#") {
			return nil, fmt.Errorf("reddit: %q is not a subreddit name", sub)
		}
		s.listings = append(s.listings, listing{"r/" + sub, "/r/" + url.PathEscape(sub) + "/new"})
		if cfg.Comments {
			s.listings = append(s.listings, listing{"r/" + sub + "/comments", "/r/" + url.PathEscape(sub) + "/comments"})
		}
	}
	for _, q := range cfg.Searches {
		if strings.TrimSpace(q) == "" {
			return nil, errors.New("reddit: a search is empty")
		}
		s.listings = append(s.listings, listing{"search:" + q, "/search?sort=new&q=" + url.QueryEscape(q)})
	}
	if len(s.listings) == 0 {
		return nil, errors.New("reddit: no subreddits or searches are configured")
	}
	return s, nil
}

// tokenSource gets tokens through the outbound client: client credentials, or the password
// grant of a script app when a username is configured.
func tokenSource(cfg Config, client *outbound.Client) oauth2.TokenSource {
	ctx := context.WithValue(context.Background(), oauth2.HTTPClient, client.HTTP())
	if cfg.Username != "" {
		conf := &oauth2.Config{ClientID: cfg.ClientID, ClientSecret: cfg.ClientSecret,
			Endpoint: oauth2.Endpoint{TokenURL: cfg.TokenURL, AuthStyle: oauth2.AuthStyleInHeader}}
		return oauth2.ReuseTokenSource(nil, passwordSource{conf: conf, ctx: ctx, user: cfg.Username, password: cfg.Password})
	}
	conf := &clientcredentials.Config{ClientID: cfg.ClientID, ClientSecret: cfg.ClientSecret, TokenURL: cfg.TokenURL,
		AuthStyle: oauth2.AuthStyleInHeader}
	return conf.TokenSource(ctx)
}

type passwordSource struct {
	conf           *oauth2.Config
	ctx            context.Context
	user, password string
}

func (p passwordSource) Token() (*oauth2.Token, error) {
	return p.conf.PasswordCredentialsToken(p.ctx, p.user, p.password)
}

func (s *Source) Name() string { return Name }

func (s *Source) Stats() connector.Stats { return s.status.Stats() }

// Run polls the listings until ctx ends.
func (s *Source) Run(ctx context.Context, emit connector.EmitFunc) error {
	cur := connector.Listings{}
	poller := connector.Poller{Status: s.status, Backoff: s.cfg.Backoff, Interval: time.Duration(s.cfg.Interval), Sleep: s.sleep}
	return poller.RunWithCursor(ctx, s.cursors, Name, &cur, func(ctx context.Context) error {
		for _, l := range s.listings {
			if err := s.poll(ctx, emit, l, cur.Of(l.key)); err != nil {
				return fmt.Errorf("%s: %w", l.key, err)
			}
		}
		return nil
	})
}

// listingDoc is a Listing: things of kind t3 (posts) or t1 (comments).
type listingDoc struct {
	Kind string `json:"kind"`
	Data struct {
		Children []json.RawMessage `json:"children"`
	} `json:"data"`
}

type thing struct {
	Kind string `json:"kind"`
	Data item   `json:"data"`
}

type item struct {
	ID            string  `json:"id"`
	Name          string  `json:"name"`
	Subreddit     string  `json:"subreddit"`
	Title         string  `json:"title"`
	Selftext      string  `json:"selftext"`
	Body          string  `json:"body"`
	Author        string  `json:"author"`
	AuthorFull    string  `json:"author_fullname"`
	CreatedUTC    float64 `json:"created_utc"`
	Permalink     string  `json:"permalink"`
	URL           string  `json:"url"`
	IsSelf        bool    `json:"is_self"`
	LinkID        string  `json:"link_id"`
	ParentID      string  `json:"parent_id"`
	LinkFlairText string  `json:"link_flair_text"`
	PostHint      string  `json:"post_hint"`
	Score         int64   `json:"score"`
	NumComments   int64   `json:"num_comments"`
	Preview       *struct {
		Images []struct {
			Source struct {
				URL string `json:"url"`
			} `json:"source"`
			Resolutions []struct {
				URL   string `json:"url"`
				Width int    `json:"width"`
			} `json:"resolutions"`
		} `json:"images"`
	} `json:"preview"`
}

// poll reads one listing page and emits its new things, oldest first.
func (s *Source) poll(ctx context.Context, emit connector.EmitFunc, l listing, seen *connector.Seen) error {
	sep := "?"
	if strings.Contains(l.path, "?") {
		sep = "&"
	}
	u := s.base + l.path
	if s.tokens == nil {
		u = s.base + strings.Replace(l.path, "?", ".json?", 1)
		if !strings.Contains(l.path, "?") {
			u += ".json"
		}
	}
	u += sep + "raw_json=1&limit=" + strconv.Itoa(s.cfg.Limit)
	var doc listingDoc
	if err := s.get(ctx, u, &doc); err != nil {
		return err
	}
	if doc.Kind != "Listing" {
		return fmt.Errorf("%w: the reply is a %q, not a Listing", connector.ErrMalformed, doc.Kind)
	}
	things := doc.Data.Children
	slices.Reverse(things) // newest first in the listing
	for _, raw := range things {
		var th thing
		if err := json.Unmarshal(raw, &th); err != nil || th.Data.ID == "" || th.Data.CreatedUTC <= 0 {
			s.status.Skipped(fmt.Errorf("%w: %s: a thing without an id or a time (%v)", connector.ErrMalformed, l.key, err))
			continue
		}
		at := time.Unix(0, int64(th.Data.CreatedUTC*1e9)).UTC()
		key := th.Kind + "_" + th.Data.ID
		if !seen.Fresh(key, at) {
			continue
		}
		p, ok := toPost(th)
		if ok {
			if err := connector.Send(ctx, s.status, emit, p); err != nil {
				return err
			}
		} else {
			s.status.Skipped(fmt.Errorf("%w: %s: %s is neither a post nor a comment", connector.ErrMalformed, l.key, th.Kind))
		}
		seen.Add(key, at)
	}
	return nil
}

// get fetches u, waiting first when the last reply said the rate limit was used up, and
// remembering what this reply says about it.
func (s *Source) get(ctx context.Context, u string, v any) error {
	s.mu.Lock()
	wait := s.limitedUntil.Sub(s.now())
	s.mu.Unlock()
	if wait > 0 {
		sleep := s.sleep
		if sleep == nil {
			sleep = connector.Sleep
		}
		if err := sleep(ctx, wait); err != nil {
			return err
		}
	}
	header := http.Header{"Accept": {"application/json"}}
	if s.tokens != nil {
		tok, err := s.tokens.Token()
		if err != nil {
			return fmt.Errorf("getting an OAuth token: %w", outbound.RedactError(err))
		}
		header.Set("Authorization", "Bearer "+tok.AccessToken)
	}
	resp, err := connector.Get(ctx, s.client, u, header)
	if err != nil {
		var h *connector.HTTPError
		if errors.As(err, &h) && h.StatusCode == http.StatusTooManyRequests && h.RetryAfter == 0 {
			h.RetryAfter = s.resetWait()
		}
		return err
	}
	defer resp.Body.Close()
	s.noteRateLimit(resp.Header)
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		return fmt.Errorf("GET %s: %w: %v", outbound.RedactURL(u), connector.ErrMalformed, err)
	}
	return nil
}

// noteRateLimit reads X-Ratelimit-Remaining (requests left, a decimal) and X-Ratelimit-Reset
// (seconds until the window ends): with none left, the next request waits for the reset.
func (s *Source) noteRateLimit(h http.Header) {
	remaining, err := strconv.ParseFloat(strings.TrimSpace(h.Get("X-Ratelimit-Remaining")), 64)
	if err != nil || remaining >= 1 {
		return
	}
	reset, err := strconv.ParseFloat(strings.TrimSpace(h.Get("X-Ratelimit-Reset")), 64)
	if err != nil || reset <= 0 {
		reset = 60
	}
	s.mu.Lock()
	s.limitedUntil = s.now().Add(time.Duration(reset * float64(time.Second)))
	s.mu.Unlock()
}

func (s *Source) resetWait() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return max(0, s.limitedUntil.Sub(s.now()))
}

// toPost converts a post (t3) or a comment (t1). Thread ids are the post's id, so a comment's
// thread is its link_id without the "t3_" prefix.
func toPost(th thing) (post.Post, bool) {
	it := th.Data
	p := post.Post{
		Provider:         Name,
		Type:             post.TypeThreadPost,
		AuthorID:         cmp.Or(it.AuthorFull, it.Author),
		AuthorName:       it.Author,
		AuthorScreenName: it.Author,
		PublishedAt:      time.Unix(0, int64(it.CreatedUTC*1e9)).UTC(),
		Board:            "r/" + it.Subreddit,
		CommunityKind:    post.CommunityDiscussionBoards,
		// The score is upvotes less downvotes; with the comments it is how much the thing
		// was engaged with. Listings carry no follower counts.
		Engagement: connector.Engagement(it.Score, it.NumComments),
	}
	if it.Author != "" && it.Author != "[deleted]" {
		p.AuthorURL = "https://www.reddit.com/user/" + url.PathEscape(it.Author)
	}
	if it.Permalink != "" {
		p.PostLink = "https://www.reddit.com" + it.Permalink
	}
	switch th.Kind {
	case "t3":
		p.NativeID = it.ID
		p.ThreadID = it.ID
		p.TitleText = it.Title
		p.ContentText = it.Selftext
		if it.LinkFlairText != "" {
			p.Tags = []string{it.LinkFlairText}
		}
		if !it.IsSelf && it.URL != "" {
			p.Entities.ExternalLinks = []string{it.URL}
		}
		if it.Preview != nil && len(it.Preview.Images) > 0 && (it.PostHint == "image" || it.PostHint == "link") {
			img := it.Preview.Images[0]
			m := post.Media{Large: html.UnescapeString(img.Source.URL)}
			for _, r := range img.Resolutions {
				if r.Width >= 320 {
					m.Normal = html.UnescapeString(r.URL)
					break
				}
			}
			if m.Large != "" {
				p.Photos = []post.Media{m}
			}
		}
	case "t1":
		p.NativeID = it.ID
		p.ContentText = it.Body
		p.ThreadID = strings.TrimPrefix(it.LinkID, "t3_")
		if parent, ok := strings.CutPrefix(it.ParentID, "t1_"); ok {
			p.ParentID = parent
		} else {
			p.ParentID = p.ThreadID
		}
	default:
		return post.Post{}, false
	}
	return p, true
}
