// Package hackernews reads Hacker News through its public Firebase API: it walks item ids from
// its cursor up to /v0/maxitem.json, fetching /v0/item/{id}.json for each.
package hackernews

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/sightline/sightline/internal/connector"
	"github.com/sightline/sightline/internal/outbound"
	"github.com/sightline/sightline/internal/post"
)

// Name is the source's name, the key of its cursor.
const Name = "hackernews"

// Config configures the source.
type Config struct {
	Enabled bool   `json:"enabled"`
	BaseURL string `json:"baseURL"`
	// Interval is the pause between polls once the source has caught up.
	Interval connector.Duration `json:"interval"`
	// Backfill is how many items before the newest one a source without a cursor starts at.
	Backfill int `json:"backfill"`
	// MaxPerRound bounds the items fetched in one poll so that a source far behind still saves
	// its cursor and reports progress regularly.
	MaxPerRound int               `json:"maxPerRound"`
	Backoff     connector.Backoff `json:"backoff"`
}

// DefaultConfig reads the public API, off until switched on.
func DefaultConfig() Config {
	return Config{
		BaseURL:     "https://hacker-news.firebaseio.com/v0",
		Interval:    connector.Duration(30 * time.Second),
		Backfill:    100,
		MaxPerRound: 500,
		Backoff:     connector.DefaultBackoff,
	}
}

// maxThreadDepth bounds the walk from a comment up to its story.
const maxThreadDepth = 64

// rootCacheSize bounds the map of item ids to their story ids.
const rootCacheSize = 50_000

// Source is the Hacker News source.
type Source struct {
	cfg     Config
	client  *outbound.Client
	cursors connector.CursorStore
	status  *connector.Status
	sleep   func(context.Context, time.Duration) error
	// roots maps items seen recently to their story, so most comments find their thread
	// without another request.
	roots map[int]int
}

// New returns a source reading with client and keeping its position in cursors.
func New(cfg Config, cursors connector.CursorStore, client *outbound.Client) *Source {
	return &Source{cfg: cfg, client: client, cursors: cursors, status: connector.NewStatus(Name), roots: map[int]int{}}
}

func (s *Source) Name() string { return Name }

func (s *Source) Stats() connector.Stats { return s.status.Stats() }

// Run polls until ctx ends.
func (s *Source) Run(ctx context.Context, emit connector.EmitFunc) error {
	last := 0 // the id of the newest item handled
	poller := connector.Poller{Status: s.status, Backoff: s.cfg.Backoff, Interval: time.Duration(s.cfg.Interval), Sleep: s.sleep}
	return poller.RunWithCursor(ctx, s.cursors, Name, &last, func(ctx context.Context) error {
		return s.round(ctx, emit, &last)
	})
}

// item is an item of the Firebase API.
type item struct {
	ID      int    `json:"id"`
	Type    string `json:"type"`
	By      string `json:"by"`
	Time    int64  `json:"time"`
	Text    string `json:"text"`
	Title   string `json:"title"`
	URL     string `json:"url"`
	Parent  int    `json:"parent"`
	Deleted bool   `json:"deleted"`
	Dead    bool   `json:"dead"`
	// Score is a story's points and Descendants its comments; comments carry neither.
	Score       int64 `json:"score"`
	Descendants int64 `json:"descendants"`
}

// round emits the items after *last up to the newest, moving *last along. Run saves it after
// the round; a crash in between re-reads a few items, which the stream's idempotency by post
// id absorbs.
func (s *Source) round(ctx context.Context, emit connector.EmitFunc, last *int) error {
	var newest int
	if err := connector.GetJSON(ctx, s.client, s.cfg.BaseURL+"/maxitem.json", nil, &newest); err != nil {
		return err
	}
	if *last == 0 {
		*last = max(0, newest-s.cfg.Backfill)
	}
	start := *last
	end := min(newest, start+max(1, s.cfg.MaxPerRound))
	for id := start + 1; id <= end; id++ {
		it, err := s.fetch(ctx, id)
		switch {
		case errors.Is(err, connector.ErrMalformed):
			s.status.Skipped(err)
		case err != nil:
			return err
		case it == nil:
			// maxitem can run ahead of the item being readable: try again next round.
			return nil
		default:
			p, ok, err := s.toPost(ctx, it)
			if err != nil {
				return err
			}
			if ok {
				if err := connector.Send(ctx, s.status, emit, p); err != nil {
					return err
				}
			}
		}
		*last = id
	}
	return nil
}

// fetch returns item id, or nil when the API does not have it yet (it replies null).
func (s *Source) fetch(ctx context.Context, id int) (*item, error) {
	var it *item
	if err := connector.GetJSON(ctx, s.client, fmt.Sprintf("%s/item/%d.json", s.cfg.BaseURL, id), nil, &it); err != nil {
		return nil, err
	}
	if it != nil && it.ID != id {
		return nil, fmt.Errorf("item %d: %w: the reply is item %d", id, connector.ErrMalformed, it.ID)
	}
	return it, nil
}

// toPost converts an item. Deleted and dead items and poll options carry no content of their
// own, so ok is false for them.
func (s *Source) toPost(ctx context.Context, it *item) (p post.Post, ok bool, err error) {
	if it.Deleted || it.Dead || it.Type == "pollopt" {
		return post.Post{}, false, nil
	}
	p = post.Post{
		Provider:         Name,
		NativeID:         strconv.Itoa(it.ID),
		Type:             post.TypeThreadPost,
		AuthorID:         it.By,
		AuthorName:       it.By,
		AuthorScreenName: it.By,
		TitleText:        it.Title,
		ContentText:      connector.PlainText(it.Text),
		PostLink:         "https://news.ycombinator.com/item?id=" + strconv.Itoa(it.ID),
		PublishedAt:      time.Unix(it.Time, 0).UTC(),
		Board:            board(it),
		Engagement:       connector.Engagement(it.Score, it.Descendants),
	}
	if it.By != "" {
		p.AuthorURL = "https://news.ycombinator.com/user?id=" + it.By
	}
	if it.URL != "" {
		p.Entities.ExternalLinks = []string{it.URL}
	}
	if it.Type == "comment" {
		root, err := s.root(ctx, it)
		if err != nil {
			return post.Post{}, false, err
		}
		p.ParentID = strconv.Itoa(it.Parent)
		p.ThreadID = strconv.Itoa(root)
	} else {
		s.remember(it.ID, it.ID)
		p.ThreadID = p.NativeID
	}
	return p, true, nil
}

// board is the section of the site a story belongs to.
func board(it *item) string {
	switch {
	case it.Type == "job":
		return "jobs"
	case it.Type == "poll":
		return "polls"
	case len(it.Title) >= 7 && it.Title[:7] == "Ask HN:":
		return "ask"
	case len(it.Title) >= 8 && it.Title[:8] == "Show HN:":
		return "show"
	}
	return ""
}

// root finds the story a comment belongs to, walking up through its parents. A parent that
// cannot be read ends the walk there.
func (s *Source) root(ctx context.Context, it *item) (int, error) {
	root := it.Parent
	for range maxThreadDepth {
		if known, ok := s.roots[root]; ok {
			root = known
			break
		}
		parent, err := s.fetch(ctx, root)
		if errors.Is(err, connector.ErrMalformed) {
			break
		}
		if err != nil {
			return 0, fmt.Errorf("finding the story of comment %d: %w", it.ID, err)
		}
		if parent == nil || parent.Type != "comment" || parent.Parent == 0 {
			break
		}
		root = parent.Parent
	}
	s.remember(it.ID, root)
	return root, nil
}

func (s *Source) remember(id, root int) {
	if len(s.roots) >= rootCacheSize {
		clear(s.roots)
	}
	s.roots[id] = root
}
