// Package mastodon reads public Mastodon timelines (the federated or local public timeline, or
// a hashtag) from one instance: by polling the REST API, paging forward from a cursor, or, with
// an access token, through the streaming API, catching up over REST after every reconnection.
package mastodon

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/connector"
	"github.com/sightline/sightline/internal/outbound"
	"github.com/sightline/sightline/internal/post"
)

// Config configures the timelines read from one instance.
type Config struct {
	Enabled bool   `json:"enabled"`
	BaseURL string `json:"baseURL"`
	// Token is an access token with read scope. Some instances require one for public
	// timelines, and the streaming API always does.
	Token string `json:"token"`
	// Timelines to read: "public", "public:local" or "tag:NAME".
	Timelines []string `json:"timelines"`
	// Stream reads through the streaming API instead of polling; it needs Token.
	Stream   bool               `json:"stream"`
	Interval connector.Duration `json:"interval"`
	Backoff  connector.Backoff  `json:"backoff"`
}

// DefaultConfig polls the federated timeline of mastodon.social once a minute, off until
// switched on.
func DefaultConfig() Config {
	return Config{
		BaseURL:   "https://mastodon.social",
		Timelines: []string{"public"},
		Interval:  connector.Duration(time.Minute),
		Backoff:   connector.DefaultBackoff,
	}
}

// pageSize is the API's largest page.
const pageSize = 40

// maxPagesPerRound bounds catching up in one round, so a source far behind saves its cursor
// and reports progress regularly.
const maxPagesPerRound = 25

// requestTimeout bounds one REST request, and the wait for a stream's first reply.
const requestTimeout = 30 * time.Second

// saveEvery bounds how often a stream saves its cursor.
const saveEvery = time.Second

// Source reads one timeline.
type Source struct {
	cfg      Config
	timeline timeline
	host     string
	client   *outbound.Client
	cursors  connector.CursorStore
	status   *connector.Status
	sleep    func(context.Context, time.Duration) error
	// threadLookupEvery spaces the thread lookups: the constant, or 0 in tests that look up
	// every reply.
	threadLookupEvery time.Duration
	// deleted is where the stream's delete events are reported; nil ignores them.
	deleted connector.DeleteFunc
}

// OnDelete makes the stream report the statuses its delete events name (connector.Deleter).
// Polling sees no deletions: the REST timelines only leave deleted statuses out.
func (s *Source) OnDelete(fn connector.DeleteFunc) { s.deleted = fn }

// timeline is where a timeline's REST and streaming endpoints are.
type timeline struct {
	name   string
	rest   string // path and query of the REST timeline
	stream string // path and query of the streaming endpoint
}

func parseTimeline(name string) (timeline, error) {
	switch {
	case name == "public":
		return timeline{name, "/api/v1/timelines/public?", "/api/v1/streaming/public"}, nil
	case name == "public:local":
		return timeline{name, "/api/v1/timelines/public?local=true&", "/api/v1/streaming/public/local"}, nil
	case strings.HasPrefix(name, "tag:") && len(name) > len("tag:"):
		tag := url.PathEscape(strings.TrimPrefix(name, "tag:"))
		return timeline{name, "/api/v1/timelines/tag/" + tag + "?", "/api/v1/streaming/hashtag?tag=" + tag}, nil
	}
	return timeline{}, fmt.Errorf("mastodon: timeline %q is not public, public:local or tag:NAME", name)
}

// New returns the source of one of cfg's timelines. With Stream set, client must be made with
// outbound.Options.Stream: the streaming connection is meant to stay open.
func New(cfg Config, timelineName string, cursors connector.CursorStore, client *outbound.Client) (*Source, error) {
	tl, err := parseTimeline(timelineName)
	if err != nil {
		return nil, err
	}
	base, err := url.Parse(cfg.BaseURL)
	if err != nil || base.Host == "" {
		return nil, fmt.Errorf("mastodon: base URL %q is not an absolute URL", outbound.RedactURL(cfg.BaseURL))
	}
	if cfg.Stream && cfg.Token == "" {
		return nil, errors.New("mastodon: streaming needs an access token")
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	s := &Source{cfg: cfg, timeline: tl, host: base.Host, client: client, cursors: cursors, threadLookupEvery: threadLookupEvery}
	s.status = connector.NewStatus(s.Name())
	return s, nil
}

func (s *Source) Name() string { return "mastodon:" + s.host + ":" + s.timeline.name }

func (s *Source) Stats() connector.Stats { return s.status.Stats() }

// Run reads the timeline until ctx ends. The cursor is the id of the newest status emitted.
func (s *Source) Run(ctx context.Context, emit connector.EmitFunc) error {
	cursor, err := s.cursors.Load(ctx, s.Name())
	if err != nil {
		return fmt.Errorf("%s: loading the cursor: %w", s.Name(), err)
	}
	r := &reader{Source: s, emit: emit, cursor: cursor, saver: connector.NewCursorSaver(s.cursors, s.Name(), s.status, saveEvery, cursor),
		threads: map[string]string{}}
	poller := connector.Poller{Status: s.status, Backoff: s.cfg.Backoff, Interval: time.Duration(s.cfg.Interval), Sleep: s.sleep}
	round := r.catchUp
	if s.cfg.Stream {
		round = r.stream
	}
	return poller.Run(ctx, func(ctx context.Context) error {
		defer func() { r.saver.Flush(ctx, r.cursor) }()
		return round(ctx)
	})
}

// reader is one run's position in the timeline.
type reader struct {
	*Source
	emit   connector.EmitFunc
	cursor string // newest status id emitted
	saver  *connector.CursorSaver
	// threads maps statuses seen (native ids) to their thread, so most replies find their
	// thread without a request; lastLookup bounds the requests for the others.
	threads    map[string]string
	lastLookup time.Time
}

// threadCacheSize bounds the statuses whose thread is remembered.
const threadCacheSize = 50_000

// threadLookupEvery spaces the context requests that find the thread of a reply to a status
// not seen: at most a third of the API's 300 requests in five minutes.
const threadLookupEvery = 3 * time.Second

// thread returns the thread of a reply: its parent's when the parent was seen, else the
// first of its ancestors (GET /api/v1/statuses/{id}/context) when a lookup is due, else its
// parent's id.
func (r *reader) thread(ctx context.Context, st status) string {
	parent := r.host + "/" + st.InReplyToID
	if t, ok := r.threads[parent]; ok {
		return t
	}
	if time.Since(r.lastLookup) < r.Source.threadLookupEvery {
		return parent
	}
	r.lastLookup = time.Now()
	var c struct {
		Ancestors []struct {
			ID string `json:"id"`
		} `json:"ancestors"`
	}
	lookupCtx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	u := r.cfg.BaseURL + "/api/v1/statuses/" + url.PathEscape(st.ID) + "/context"
	if err := connector.GetJSON(lookupCtx, r.client, u, r.authorization(), &c); err != nil || len(c.Ancestors) == 0 || c.Ancestors[0].ID == "" {
		return parent
	}
	return r.host + "/" + c.Ancestors[0].ID
}

func (r *reader) rememberThread(id, thread string) {
	if len(r.threads) >= threadCacheSize {
		clear(r.threads)
	}
	r.threads[id] = thread
}

func (r *reader) authorization() http.Header {
	if r.cfg.Token == "" {
		return nil
	}
	return http.Header{"Authorization": {"Bearer " + r.cfg.Token}}
}

// catchUp pages forward from the cursor with min_id, which returns the statuses immediately
// newer than it (since_id would return the newest ones and leave a gap when more than a page
// arrived between polls). A source without a cursor starts with the newest page.
func (r *reader) catchUp(ctx context.Context) error {
	for range maxPagesPerRound {
		u := r.cfg.BaseURL + r.timeline.rest + fmt.Sprintf("limit=%d", pageSize)
		if r.cursor != "" {
			u += "&min_id=" + url.QueryEscape(r.cursor)
		}
		var page []json.RawMessage
		pageCtx, cancel := context.WithTimeout(ctx, requestTimeout)
		err := connector.GetJSON(pageCtx, r.client, u, r.authorization(), &page)
		cancel()
		if err != nil {
			return err
		}
		// Pages come newest first; emit oldest first so the cursor only moves forward.
		slices.Reverse(page)
		for _, raw := range page {
			if err := r.handle(ctx, raw); err != nil {
				return err
			}
		}
		if len(page) < pageSize {
			return nil
		}
	}
	return nil
}

// handle emits one status unless it is at or before the cursor.
func (r *reader) handle(ctx context.Context, raw json.RawMessage) error {
	var st status
	if err := json.Unmarshal(raw, &st); err != nil {
		r.status.Skipped(fmt.Errorf("%w: %v", connector.ErrMalformed, err))
		// Still move past it, if its id can be read, so it is not fetched again.
		var idOnly struct{ ID string }
		if json.Unmarshal(raw, &idOnly) == nil && newer(idOnly.ID, r.cursor) {
			r.cursor = idOnly.ID
		}
		return nil
	}
	if !newer(st.ID, r.cursor) {
		return nil
	}
	if err := connector.Send(ctx, r.status, r.emit, r.toPost(ctx, st)); err != nil {
		return err
	}
	r.cursor = st.ID
	r.saver.Save(ctx, r.cursor)
	return nil
}

// newer reports whether status id a comes after b. Ids are decimal numbers that grow with
// time but do not fit every language's integers, so they are compared as digit strings.
func newer(a, b string) bool {
	if len(a) != len(b) {
		return len(a) > len(b)
	}
	return a > b
}

type account struct {
	Username    string `json:"username"`
	Acct        string `json:"acct"`
	DisplayName string `json:"display_name"`
	URL         string `json:"url"`
	Avatar      string `json:"avatar"`
	Followers   int64  `json:"followers_count"`
}

type attachment struct {
	Type       string `json:"type"`
	URL        string `json:"url"`
	PreviewURL string `json:"preview_url"`
}

type status struct {
	ID          string       `json:"id"`
	URI         string       `json:"uri"`
	URL         string       `json:"url"`
	CreatedAt   time.Time    `json:"created_at"`
	InReplyToID string       `json:"in_reply_to_id"`
	SpoilerText string       `json:"spoiler_text"`
	Language    string       `json:"language"`
	Content     string       `json:"content"`
	Account     account      `json:"account"`
	Media       []attachment `json:"media_attachments"`
	Tags        []struct {
		Name string `json:"name"`
	} `json:"tags"`
	Reblog     *status `json:"reblog"`
	Favourites int64   `json:"favourites_count"`
	Reblogs    int64   `json:"reblogs_count"`
	Replies    int64   `json:"replies_count"`
}

// toPost converts a status. Ids are the instance's, prefixed with its host, so that parents
// are found by id and two instances' ids never collide.
func (r *reader) toPost(ctx context.Context, st status) post.Post {
	if st.Reblog != nil {
		// A boost carries no content of its own: the post is the boosted status.
		st = *st.Reblog
	}
	handle := st.Account.Acct
	if handle != "" && !strings.Contains(handle, "@") {
		handle += "@" + r.host
	}
	p := post.Post{
		Provider:         "mastodon",
		NativeID:         r.host + "/" + st.ID,
		Type:             post.TypeSocialMediaPost,
		AuthorID:         st.Account.URL,
		AuthorName:       st.Account.DisplayName,
		AuthorScreenName: handle,
		AuthorThumbnail:  st.Account.Avatar,
		AuthorURL:        st.Account.URL,
		TitleText:        st.SpoilerText,
		ContentText:      connector.PlainText(st.Content),
		PostLink:         cmp.Or(st.URL, st.URI),
		Language:         st.Language,
		PublishedAt:      st.CreatedAt,
		Engagement:       connector.Engagement(st.Favourites, st.Reblogs, st.Replies),
		AuthorFollowers:  connector.Followers(st.Account.Followers),
	}
	if p.AuthorName == "" {
		p.AuthorName = st.Account.Username
	}
	if st.InReplyToID != "" {
		p.ParentID = r.host + "/" + st.InReplyToID
		p.ThreadID = r.thread(ctx, st)
	} else {
		p.ThreadID = p.NativeID
	}
	r.rememberThread(p.NativeID, p.ThreadID)
	for _, t := range st.Tags {
		p.Tags = append(p.Tags, t.Name)
	}
	for _, m := range st.Media {
		media := post.Media{Large: m.URL, Normal: m.PreviewURL}
		switch m.Type {
		case "image":
			p.Photos = append(p.Photos, media)
		case "video", "gifv":
			p.Videos = append(p.Videos, media)
		}
	}
	return p
}
