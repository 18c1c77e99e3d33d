// Package imageboard reads 4chan-compatible imageboards through their read-only JSON API: per
// board, /{board}/catalog.json lists the live threads with their last modification, and
// /{board}/thread/{no}.json is read for every thread that changed since the last round.
package imageboard

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/connector"
	"github.com/sightline/sightline/internal/outbound"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/provider"
)

// Site is one imageboard.
type Site struct {
	// Name identifies the site among the sources ("imageboard:" + Name) and keys its cursor.
	Name string `json:"name"`
	// Provider is the catalogue provider its posts carry: 4chan, 8kun or imageboard.
	Provider string `json:"provider"`
	// APIURL serves catalog.json and thread/{no}.json per board; MediaURL serves the images
	// ({tim}{ext} and the thumbnail {tim}s.jpg); SiteURL is where threads are read.
	APIURL   string   `json:"apiURL"`
	MediaURL string   `json:"mediaURL"`
	SiteURL  string   `json:"siteURL"`
	Boards   []string `json:"boards"`
}

// Config configures the sites.
type Config struct {
	Enabled bool   `json:"enabled"`
	Sites   []Site `json:"sites"`
	// Interval is the pause between rounds; Pause the wait between two requests of a round
	// (4chan asks for at most one a second).
	Interval connector.Duration `json:"interval"`
	Pause    connector.Duration `json:"pause"`
	// MaxThreadsPerRound bounds the threads read in one round per board, so a first round or
	// a busy board still saves its cursor regularly.
	MaxThreadsPerRound int               `json:"maxThreadsPerRound"`
	Backoff            connector.Backoff `json:"backoff"`
}

// DefaultConfig reads 4chan's /pol/ and /g/ boards, off until switched on.
func DefaultConfig() Config {
	return Config{
		Sites: []Site{{
			Name: "4chan", Provider: "4chan", APIURL: "https://a.4cdn.org", MediaURL: "https://i.4cdn.org",
			SiteURL: "https://boards.4chan.org", Boards: []string{"pol", "g"},
		}},
		Interval:           connector.Duration(time.Minute),
		Pause:              connector.Duration(time.Second),
		MaxThreadsPerRound: 50,
		Backoff:            connector.DefaultBackoff,
	}
}

// Source reads one site.
type Source struct {
	site    Site
	cfg     Config
	client  *outbound.Client
	cursors connector.CursorStore
	status  *connector.Status
	sleep   func(context.Context, time.Duration) error
	// catalogModified is each board catalog's Last-Modified, for the next If-Modified-Since.
	catalogModified map[string]string
}

// New returns the source of one site of cfg.
func New(site Site, cfg Config, cursors connector.CursorStore, client *outbound.Client) (*Source, error) {
	if site.Name == "" || len(site.Boards) == 0 {
		return nil, fmt.Errorf("imageboard: a site needs a name and boards")
	}
	for _, u := range []*string{&site.APIURL, &site.MediaURL, &site.SiteURL} {
		parsed, err := url.Parse(*u)
		if err != nil || (parsed.Scheme != "http" && parsed.Scheme != "https") || parsed.Host == "" {
			return nil, fmt.Errorf("imageboard: site %s: %q is not an absolute http or https URL", site.Name, outbound.RedactURL(*u))
		}
		*u = strings.TrimRight(*u, "/")
	}
	for _, b := range site.Boards {
		if b == "" || strings.ContainsAny(b, "/?#") {
			return nil, fmt.Errorf("imageboard: site %s: %q is not a board name", site.Name, b)
		}
	}
	if site.Provider == "" {
		site.Provider = "imageboard"
	}
	if !provider.Known(site.Provider) {
		return nil, fmt.Errorf("imageboard: site %s: provider %q is not a known provider", site.Name, site.Provider)
	}
	cfg.MaxThreadsPerRound = max(cfg.MaxThreadsPerRound, 1)
	s := &Source{site: site, cfg: cfg, client: client, cursors: cursors, sleep: connector.Sleep, catalogModified: map[string]string{}}
	s.status = connector.NewStatus(s.Name())
	return s, nil
}

func (s *Source) Name() string { return "imageboard:" + s.site.Name }

func (s *Source) Stats() connector.Stats { return s.status.Stats() }

// threadMark is what the cursor keeps of a thread: the catalog's last_modified when it was
// read and the newest post number emitted.
type threadMark struct {
	Modified int64 `json:"m"`
	Last     int64 `json:"l"`
}

// cursor maps board, then thread number, to its mark. Threads gone from the catalog are
// dropped from it.
type cursor map[string]map[string]threadMark

// Run reads the boards until ctx ends.
func (s *Source) Run(ctx context.Context, emit connector.EmitFunc) error {
	cur := cursor{}
	poller := connector.Poller{Status: s.status, Backoff: s.cfg.Backoff, Interval: time.Duration(s.cfg.Interval), Sleep: s.sleep}
	return poller.RunWithCursor(ctx, s.cursors, s.Name(), &cur, func(ctx context.Context) error {
		for _, board := range s.site.Boards {
			if cur[board] == nil {
				cur[board] = map[string]threadMark{}
			}
			if err := s.board(ctx, emit, board, cur[board]); err != nil {
				return fmt.Errorf("/%s/: %w", board, err)
			}
		}
		return nil
	})
}

func (s *Source) pause(ctx context.Context) error {
	return s.sleep(ctx, time.Duration(s.cfg.Pause))
}

type catalogPage struct {
	Page    int `json:"page"`
	Threads []struct {
		No           int64 `json:"no"`
		LastModified int64 `json:"last_modified"`
	} `json:"threads"`
}

// board reads the catalog, then the threads that changed, least recently changed first.
func (s *Source) board(ctx context.Context, emit connector.EmitFunc, board string, marks map[string]threadMark) error {
	// The API asks for conditional requests: an unchanged catalog is a 304 and nothing to do.
	catalogURL := s.site.APIURL + "/" + board + "/catalog.json"
	header := http.Header{}
	if lm := s.catalogModified[board]; lm != "" {
		header.Set("If-Modified-Since", lm)
	}
	resp, err := connector.Get(ctx, s.client, catalogURL, header)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotModified {
		return nil
	}
	var pages []catalogPage
	if err := json.NewDecoder(resp.Body).Decode(&pages); err != nil {
		return fmt.Errorf("GET %s: %w: %v", outbound.RedactURL(catalogURL), connector.ErrMalformed, err)
	}

	type changed struct {
		no, modified int64
	}
	var todo []changed
	live := map[string]bool{}
	for _, pg := range pages {
		for _, th := range pg.Threads {
			key := strconv.FormatInt(th.No, 10)
			live[key] = true
			if th.No > 0 && th.LastModified > marks[key].Modified {
				todo = append(todo, changed{th.No, th.LastModified})
			}
		}
	}
	for key := range marks {
		if !live[key] {
			delete(marks, key) // pruned or archived: it will not change again
		}
	}
	slices.SortFunc(todo, func(a, b changed) int { return int(a.modified - b.modified) })
	for _, th := range todo[:min(len(todo), s.cfg.MaxThreadsPerRound)] {
		if err := s.pause(ctx); err != nil {
			return err
		}
		key := strconv.FormatInt(th.no, 10)
		mark := marks[key]
		err := s.thread(ctx, emit, board, th.no, &mark)
		if err != nil && !isGone(err) {
			marks[key] = mark
			return err
		}
		mark.Modified = th.modified
		marks[key] = mark
	}
	if len(todo) <= s.cfg.MaxThreadsPerRound {
		// Every change read: until the catalog changes again there is nothing to do. With
		// threads left over, the next round reads the catalog again.
		s.catalogModified[board] = resp.Header.Get("Last-Modified")
	}
	return nil
}

// isGone reports a thread deleted between the catalog and its reading.
func isGone(err error) bool {
	var h *connector.HTTPError
	return errors.As(err, &h) && h.StatusCode == http.StatusNotFound
}

// postData is a post of a thread.
type postData struct {
	No       int64  `json:"no"`
	Resto    int64  `json:"resto"`
	Time     int64  `json:"time"`
	Name     string `json:"name"`
	Trip     string `json:"trip"`
	ID       string `json:"id"`
	Sub      string `json:"sub"`
	Com      string `json:"com"`
	Tim      int64  `json:"tim"`
	Filename string `json:"filename"`
	Ext      string `json:"ext"`
	Country  string `json:"country_name"`
}

// thread emits the posts of a thread after mark.Last, moving it along.
func (s *Source) thread(ctx context.Context, emit connector.EmitFunc, board string, no int64, mark *threadMark) error {
	var reply struct {
		Posts []json.RawMessage `json:"posts"`
	}
	if err := connector.GetJSON(ctx, s.client, fmt.Sprintf("%s/%s/thread/%d.json", s.site.APIURL, board, no), nil, &reply); err != nil {
		return err
	}
	for _, raw := range reply.Posts {
		var pd postData
		if err := json.Unmarshal(raw, &pd); err != nil || pd.No == 0 || pd.Time == 0 {
			s.status.Skipped(fmt.Errorf("%w: /%s/ thread %d: a post without a number or a time", connector.ErrMalformed, board, no))
			continue
		}
		if pd.No <= mark.Last {
			continue
		}
		if err := connector.Send(ctx, s.status, emit, s.toPost(board, no, pd)); err != nil {
			return err
		}
		mark.Last = pd.No
	}
	return nil
}

var quoteLink = regexp.MustCompile(`class="quotelink"[^>]*href="#p(\d+)"|href="#p(\d+)"[^>]*class="quotelink"`)

// toPost converts a post. Ids are "board/no"; the thread is its opening post; a reply's parent
// is the first post it quotes in the thread, else the opening post.
func (s *Source) toPost(board string, thread int64, pd postData) post.Post {
	id := func(no int64) string { return board + "/" + strconv.FormatInt(no, 10) }
	author := strings.TrimSpace(html.UnescapeString(pd.Name) + " " + pd.Trip)
	p := post.Post{
		Provider:         s.site.Provider,
		NativeID:         id(pd.No),
		Type:             post.TypeThreadPost,
		AuthorName:       author,
		AuthorScreenName: author,
		AuthorID:         pd.ID,
		TitleText:        html.UnescapeString(pd.Sub),
		ContentText:      connector.PlainText(pd.Com),
		PostLink:         fmt.Sprintf("%s/%s/thread/%d#p%d", s.site.SiteURL, board, thread, pd.No),
		PublishedAt:      time.Unix(pd.Time, 0).UTC(),
		Board:            board,
		CommunityKind:    post.CommunityDiscussionBoards,
		ThreadID:         id(thread),
		PlaceName:        pd.Country,
	}
	if pd.Trip != "" {
		p.AuthorID = pd.Trip
	}
	if pd.No != thread {
		p.ParentID = id(thread)
		if m := quoteLink.FindStringSubmatch(pd.Com); m != nil {
			p.ParentID = board + "/" + m[1] + m[2]
		}
	}
	if pd.Tim != 0 && pd.Ext != "" {
		base := fmt.Sprintf("%s/%s/%d", s.site.MediaURL, board, pd.Tim)
		m := post.Media{Large: base + pd.Ext, Normal: base + "s.jpg"}
		switch strings.ToLower(pd.Ext) {
		case ".webm", ".mp4":
			p.Videos = []post.Media{m}
		default:
			p.Photos = []post.Media{m}
		}
	}
	return p
}
