// Package lemmy reads a Lemmy instance through its API v3: the newest posts
// (/api/v3/post/list?sort=New) and comments (/api/v3/comment/list?sort=New) of configured
// communities, or of every community the instance knows.
package lemmy

import (
	"cmp"
	"context"
	"encoding/json"
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

// Config configures the source of one instance.
type Config struct {
	Enabled bool   `json:"enabled"`
	BaseURL string `json:"baseURL"`
	// Communities are read by name ("worldnews" or "worldnews@lemmy.ml"); none reads every
	// community the instance federates with (type_=All).
	Communities []string `json:"communities"`
	// Comments also reads the newest comments.
	Comments bool `json:"comments"`
	// Limit is the page size (at most 50).
	Limit    int                `json:"limit"`
	Interval connector.Duration `json:"interval"`
	Backoff  connector.Backoff  `json:"backoff"`
}

// DefaultConfig reads every community lemmy.world knows, once a minute, off until switched on.
func DefaultConfig() Config {
	return Config{
		BaseURL:  "https://lemmy.world",
		Comments: true,
		Limit:    50,
		Interval: connector.Duration(time.Minute),
		Backoff:  connector.DefaultBackoff,
	}
}

// Source reads one instance.
type Source struct {
	cfg      Config
	host     string
	listings []listing
	client   *outbound.Client
	cursors  connector.CursorStore
	status   *connector.Status
	sleep    func(context.Context, time.Duration) error
}

type listing struct {
	key      string // in the cursor
	query    string
	comments bool
}

// New returns the source of cfg's instance.
func New(cfg Config, cursors connector.CursorStore, client *outbound.Client) (*Source, error) {
	base, err := url.Parse(cfg.BaseURL)
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return nil, fmt.Errorf("lemmy: %q is not an absolute http or https URL", outbound.RedactURL(cfg.BaseURL))
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	cfg.Limit = min(max(cfg.Limit, 1), 50)
	s := &Source{cfg: cfg, host: base.Host, client: client, cursors: cursors}
	s.status = connector.NewStatus(s.Name())
	scopes := map[string]string{"all": "type_=All"}
	keys := []string{"all"}
	if len(cfg.Communities) > 0 {
		scopes, keys = map[string]string{}, nil
		for _, c := range cfg.Communities {
			c = strings.TrimPrefix(strings.TrimSpace(c), "!")
			if c == "" {
				return nil, fmt.Errorf("lemmy: a community name is empty")
			}
			scopes[c] = "community_name=" + url.QueryEscape(c)
			keys = append(keys, c)
		}
	}
	for _, k := range keys {
		s.listings = append(s.listings, listing{k + "/posts", scopes[k], false})
		if cfg.Comments {
			s.listings = append(s.listings, listing{k + "/comments", scopes[k], true})
		}
	}
	return s, nil
}

func (s *Source) Name() string { return "lemmy:" + s.host }

func (s *Source) Stats() connector.Stats { return s.status.Stats() }

// Run polls until ctx ends.
func (s *Source) Run(ctx context.Context, emit connector.EmitFunc) error {
	cur := connector.Listings{}
	poller := connector.Poller{Status: s.status, Backoff: s.cfg.Backoff, Interval: time.Duration(s.cfg.Interval), Sleep: s.sleep}
	return poller.RunWithCursor(ctx, s.cursors, s.Name(), &cur, func(ctx context.Context) error {
		for _, l := range s.listings {
			if err := s.poll(ctx, emit, l, cur.Of(l.key)); err != nil {
				return fmt.Errorf("%s: %w", l.key, err)
			}
		}
		return nil
	})
}

type person struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	DisplayName string `json:"display_name"`
	ActorID     string `json:"actor_id"`
	Avatar      string `json:"avatar"`
}

type community struct {
	Name    string `json:"name"`
	Title   string `json:"title"`
	ActorID string `json:"actor_id"`
	Local   bool   `json:"local"`
}

type postData struct {
	ID           int64  `json:"id"`
	Name         string `json:"name"`
	Body         string `json:"body"`
	URL          string `json:"url"`
	ThumbnailURL string `json:"thumbnail_url"`
	Published    string `json:"published"`
	ApID         string `json:"ap_id"`
	Language     int    `json:"language_id"`
}

type commentData struct {
	ID        int64  `json:"id"`
	PostID    int64  `json:"post_id"`
	Content   string `json:"content"`
	Published string `json:"published"`
	ApID      string `json:"ap_id"`
	Path      string `json:"path"`
}

// view is a PostView or a CommentView.
type view struct {
	Post      postData     `json:"post"`
	Comment   *commentData `json:"comment"`
	Creator   person       `json:"creator"`
	Community community    `json:"community"`
	// Counts are a post's score (upvotes less downvotes) and comments, or a comment's score and
	// replies (child_count).
	Counts struct {
		Score      int64 `json:"score"`
		Comments   int64 `json:"comments"`
		ChildCount int64 `json:"child_count"`
	} `json:"counts"`
}

type page struct {
	Posts    []json.RawMessage `json:"posts"`
	Comments []json.RawMessage `json:"comments"`
}

func (s *Source) poll(ctx context.Context, emit connector.EmitFunc, l listing, seen *connector.Seen) error {
	kind := "post"
	if l.comments {
		kind = "comment"
	}
	u := fmt.Sprintf("%s/api/v3/%s/list?sort=New&limit=%d&%s", s.cfg.BaseURL, kind, s.cfg.Limit, l.query)
	var pg page
	if err := connector.GetJSON(ctx, s.client, u, nil, &pg); err != nil {
		return err
	}
	items := pg.Posts
	if l.comments {
		items = pg.Comments
	}
	slices.Reverse(items) // newest first
	return connector.SendFresh(ctx, s.status, emit, seen, connector.Decode(s.status, l.key, items, s.toPost))
}

// parseTime reads Lemmy's times: RFC 3339 since 0.19, without a zone (UTC) before.
func parseTime(v string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		return t.UTC(), nil
	}
	return time.Parse("2006-01-02T15:04:05.999999999", v)
}

// board names a community as the instance does: "name" when local, "name@host" when not.
func board(c community) string {
	if c.Local || c.ActorID == "" {
		return c.Name
	}
	if u, err := url.Parse(c.ActorID); err == nil && u.Host != "" {
		return c.Name + "@" + u.Host
	}
	return c.Name
}

// toPost converts a post or comment view. Ids are the instance's, prefixed with its host and
// kind, so comments find their post and parent comment by id.
func (s *Source) toPost(v view) (post.Post, error) {
	postID := s.host + "/post/" + strconv.FormatInt(v.Post.ID, 10)
	p := post.Post{
		Provider:         "lemmy",
		Type:             post.TypeThreadPost,
		AuthorID:         cmp.Or(v.Creator.ActorID, strconv.FormatInt(v.Creator.ID, 10)),
		AuthorName:       cmp.Or(v.Creator.DisplayName, v.Creator.Name),
		AuthorScreenName: v.Creator.Name,
		AuthorThumbnail:  v.Creator.Avatar,
		AuthorURL:        v.Creator.ActorID,
		Board:            board(v.Community),
		CommunityKind:    post.CommunityDiscussionBoards,
		ThreadID:         postID,
		Engagement:       connector.Engagement(v.Counts.Score, v.Counts.Comments, v.Counts.ChildCount),
	}
	if u, err := url.Parse(v.Creator.ActorID); err == nil && u.Host != "" && v.Creator.Name != "" {
		p.AuthorScreenName = v.Creator.Name + "@" + u.Host
	}
	var published string
	if v.Comment != nil {
		if v.Comment.ID == 0 {
			return post.Post{}, fmt.Errorf("a comment without an id")
		}
		p.NativeID = s.host + "/comment/" + strconv.FormatInt(v.Comment.ID, 10)
		p.ContentText = v.Comment.Content
		p.PostLink = v.Comment.ApID
		p.TitleText = ""
		published = v.Comment.Published
		// path is "0.<ancestors>.<self>": the parent is the comment before this one, or the post.
		p.ParentID = postID
		if parts := strings.Split(v.Comment.Path, "."); len(parts) >= 3 {
			p.ParentID = s.host + "/comment/" + parts[len(parts)-2]
		}
	} else {
		if v.Post.ID == 0 {
			return post.Post{}, fmt.Errorf("a post without an id")
		}
		p.NativeID = postID
		p.TitleText = v.Post.Name
		p.ContentText = v.Post.Body
		p.PostLink = v.Post.ApID
		published = v.Post.Published
		if v.Post.URL != "" {
			p.Entities.ExternalLinks = []string{v.Post.URL}
		}
		if v.Post.ThumbnailURL != "" {
			p.Photos = []post.Media{{Large: v.Post.ThumbnailURL}}
		}
	}
	t, err := parseTime(published)
	if err != nil {
		return post.Post{}, fmt.Errorf("%s: published %q is not a time", p.NativeID, published)
	}
	p.PublishedAt = t
	return p, nil
}
