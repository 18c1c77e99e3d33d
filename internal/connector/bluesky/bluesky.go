// Package bluesky reads new Bluesky posts from a Jetstream service: a websocket that sends every
// app.bsky.feed.post commit as JSON, and replays from a cursor (a time in microseconds) after a
// reconnection.
package bluesky

import (
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

// Name is the source's name, the key of its cursor.
const Name = "bluesky"

// Config configures the source.
type Config struct {
	Enabled bool `json:"enabled"`
	// URL is the Jetstream subscribe endpoint.
	URL string `json:"url"`
	// ProfileURL is the AppView whose app.bsky.actor.getProfile names authors (handle, display
	// name, avatar); empty leaves authors as DIDs or the handles identity events announce.
	ProfileURL string `json:"profileURL"`
	// ProfileLookupEvery spaces the profile lookups; authors beyond that pace are named when a
	// later post of theirs is read.
	ProfileLookupEvery connector.Duration `json:"profileLookupEvery"`
	Backoff            connector.Backoff  `json:"backoff"`
}

// DefaultConfig reads Bluesky's public Jetstream, off until switched on.
func DefaultConfig() Config {
	return Config{
		URL:                "wss://jetstream2.us-east.bsky.network/subscribe",
		ProfileURL:         "https://public.api.bsky.app",
		ProfileLookupEvery: connector.Duration(250 * time.Millisecond),
		Backoff:            connector.DefaultBackoff,
	}
}

const (
	postCollection = "app.bsky.feed.post"
	// idleTimeout: the network posts several times a second, so this much silence means the
	// connection is dead.
	idleTimeout = time.Minute
	// maxMessage bounds one event; posts are a few kilobytes.
	maxMessage = 1 << 20
	// saveEvery bounds how often the cursor is saved.
	saveEvery = time.Second
	// profileCacheSize bounds the authors remembered.
	profileCacheSize = 100_000
	// profileTimeout bounds one profile lookup, which holds up the stream.
	profileTimeout = 5 * time.Second
	// profilesPerLookup is what app.bsky.actor.getProfiles takes at once; maxWaiting bounds
	// the authors waiting for a lookup.
	profilesPerLookup = 25
	maxWaiting        = 1_000
)

// Source is the Bluesky source.
type Source struct {
	cfg         Config
	client      *outbound.Client
	cursors     connector.CursorStore
	status      *connector.Status
	sleep       func(context.Context, time.Duration) error
	idleTimeout time.Duration
	// profiles maps DIDs to what is known of their authors, from identity events and profile
	// lookups, to show "@name.bsky.social" and a display name rather than a DID.
	profiles   map[string]profile
	lastLookup time.Time
	// waiting are authors whose lookup was not due, asked for with the next one.
	waiting []string
	// deleted is where delete commits of posts are reported; nil ignores them.
	deleted connector.DeleteFunc
}

// OnDelete makes the source report the posts their authors delete (connector.Deleter).
func (s *Source) OnDelete(fn connector.DeleteFunc) { s.deleted = fn }

// profile is what is known of an author.
type profile struct {
	Handle      string `json:"handle"`
	DisplayName string `json:"displayName"`
	Avatar      string `json:"avatar"`
	Followers   int64  `json:"followersCount"`
	// looked is set once a lookup was made (whatever its outcome): none is made again.
	looked bool
}

// New returns a source dialing with client and keeping its position in cursors.
func New(cfg Config, cursors connector.CursorStore, client *outbound.Client) (*Source, error) {
	u, err := url.Parse(cfg.URL)
	if err != nil || (u.Scheme != "wss" && u.Scheme != "ws") {
		return nil, fmt.Errorf("bluesky: %q is not a ws:// or wss:// URL", outbound.RedactURL(cfg.URL))
	}
	return &Source{
		cfg: cfg, client: client, cursors: cursors, status: connector.NewStatus(Name),
		idleTimeout: idleTimeout, profiles: map[string]profile{},
	}, nil
}

func (s *Source) Name() string { return Name }

func (s *Source) Stats() connector.Stats { return s.status.Stats() }

// Run reads the stream until ctx ends, reconnecting with backoff.
func (s *Source) Run(ctx context.Context, emit connector.EmitFunc) error {
	var cursor int64
	saved, err := connector.LoadCursor(ctx, s.cursors, Name, &cursor)
	if err != nil {
		return err
	}
	c := &connection{Source: s, emit: emit, cursor: cursor, saver: connector.NewCursorSaver(s.cursors, Name, s.status, saveEvery, saved)}
	poller := connector.Poller{Status: s.status, Backoff: s.cfg.Backoff, Sleep: s.sleep}
	return poller.Run(ctx, c.run)
}

// connection reads one websocket at a time, keeping the position across reconnections.
type connection struct {
	*Source
	emit   connector.EmitFunc
	cursor int64 // time_us of the last event handled
	saver  *connector.CursorSaver
}

// subscribeURL asks for posts only, from the cursor when there is one.
func (c *connection) subscribeURL() string {
	u, _ := url.Parse(c.cfg.URL)
	q := u.Query()
	q.Set("wantedCollections", postCollection)
	if c.cursor > 0 {
		// Jetstream replays from this time on, inclusive; events at or before the cursor are
		// dropped on arrival, so nothing is emitted twice.
		q.Set("cursor", strconv.FormatInt(c.cursor, 10))
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// run is one connection: dial, read until it fails, save the cursor.
func (c *connection) run(ctx context.Context) error {
	defer func() { c.saver.Flush(ctx, strconv.FormatInt(c.cursor, 10)) }()
	target := c.subscribeURL()
	conn, err := connector.DialWebsocket(ctx, c.client, target, maxMessage)
	if err != nil {
		return err
	}
	defer conn.CloseNow()
	c.status.Succeeded()
	return connector.ReadMessages(ctx, conn, c.idleTimeout, func(data []byte) error { return c.handle(ctx, data) })
}

// event is a Jetstream event; only what a post needs is decoded.
type event struct {
	DID    string `json:"did"`
	TimeUS int64  `json:"time_us"`
	Kind   string `json:"kind"`
	Commit *struct {
		Operation  string          `json:"operation"`
		Collection string          `json:"collection"`
		RKey       string          `json:"rkey"`
		Record     json.RawMessage `json:"record"`
	} `json:"commit"`
	Identity *struct {
		Handle string `json:"handle"`
	} `json:"identity"`
}

func (c *connection) handle(ctx context.Context, data []byte) error {
	var ev event
	if err := json.Unmarshal(data, &ev); err != nil {
		c.status.Skipped(fmt.Errorf("%w: %v", connector.ErrMalformed, err))
		return nil
	}
	if ev.TimeUS <= c.cursor {
		return nil // replayed after a reconnection: already handled
	}
	switch {
	case ev.Kind == "identity" && ev.Identity != nil && ev.Identity.Handle != "":
		pr := c.profiles[ev.DID]
		pr.Handle = ev.Identity.Handle
		c.remember(ev.DID, pr)
	case ev.Kind == "commit" && ev.Commit != nil && ev.Commit.Operation == "create" && ev.Commit.Collection == postCollection:
		p, err := c.toPost(ev, c.author(ctx, ev.DID))
		if err != nil {
			c.status.Skipped(fmt.Errorf("%w: event %d: %v", connector.ErrMalformed, ev.TimeUS, err))
			break
		}
		if err := connector.Send(ctx, c.status, c.emit, p); err != nil {
			return err
		}
	case ev.Kind == "commit" && ev.Commit != nil && ev.Commit.Operation == "delete" && ev.Commit.Collection == postCollection:
		if err := c.deletePost(ctx, ev); err != nil {
			return err
		}
	}
	c.cursor = ev.TimeUS
	c.saver.Save(ctx, strconv.FormatInt(c.cursor, 10))
	return nil
}

// deletePost reports a delete commit under the native id the post was emitted with. A report
// that fails is returned, so the cursor stays before the event and the reconnection replays it.
func (c *connection) deletePost(ctx context.Context, ev event) error {
	if c.deleted == nil {
		return nil
	}
	if ev.DID == "" || ev.Commit.RKey == "" {
		c.status.Skipped(fmt.Errorf("%w: event %d: a delete without a record key", connector.ErrMalformed, ev.TimeUS))
		return nil
	}
	uri := "at://" + ev.DID + "/" + postCollection + "/" + ev.Commit.RKey
	if err := c.deleted(ctx, "bluesky", uri, time.UnixMicro(ev.TimeUS).UTC()); err != nil {
		return fmt.Errorf("reporting the deletion of %s: %w", uri, err)
	}
	return nil
}

// record is an app.bsky.feed.post record.
type record struct {
	Text      string    `json:"text"`
	CreatedAt time.Time `json:"createdAt"`
	Langs     []string  `json:"langs"`
	Tags      []string  `json:"tags"`
	Reply     *struct {
		Root   ref `json:"root"`
		Parent ref `json:"parent"`
	} `json:"reply"`
	Facets []struct {
		Features []struct {
			Type string `json:"$type"`
			Tag  string `json:"tag"`
			URI  string `json:"uri"`
		} `json:"features"`
	} `json:"facets"`
	Embed *embed `json:"embed"`
}

type ref struct {
	URI string `json:"uri"`
}

// embed covers images, video, external links, and the media of a quote with media.
type embed struct {
	Type   string `json:"$type"`
	Images []struct {
		Image blob `json:"image"`
	} `json:"images"`
	Video    *blob `json:"video"`
	External *struct {
		URI string `json:"uri"`
	} `json:"external"`
	Media *embed `json:"media"`
}

type blob struct {
	Ref struct {
		Link string `json:"$link"`
	} `json:"ref"`
}

func (s *Source) remember(did string, pr profile) {
	if _, ok := s.profiles[did]; !ok && len(s.profiles) >= profileCacheSize {
		clear(s.profiles)
	}
	s.profiles[did] = pr
}

// author returns what is known of did. When a lookup is due, did's profile is asked for with
// those of up to 24 authors whose lookup was not due earlier (getProfiles takes 25), so that
// they are named at their next post.
func (s *Source) author(ctx context.Context, did string) profile {
	pr := s.profiles[did]
	if pr.looked || s.cfg.ProfileURL == "" {
		return pr
	}
	if time.Since(s.lastLookup) < time.Duration(s.cfg.ProfileLookupEvery) {
		if len(s.waiting) < maxWaiting && !slices.Contains(s.waiting, did) {
			s.waiting = append(s.waiting, did)
		}
		return pr
	}
	s.lastLookup = time.Now()
	actors := []string{did}
	for len(s.waiting) > 0 && len(actors) < profilesPerLookup {
		next := s.waiting[0]
		s.waiting = s.waiting[1:]
		if next != did && !s.profiles[next].looked {
			actors = append(actors, next)
		}
	}
	q := url.Values{"actors": actors}
	var reply struct {
		Profiles []struct {
			DID string `json:"did"`
			profile
		} `json:"profiles"`
	}
	lookupCtx, cancel := context.WithTimeout(ctx, profileTimeout)
	defer cancel()
	err := connector.GetJSON(lookupCtx, s.client, strings.TrimRight(s.cfg.ProfileURL, "/")+"/xrpc/app.bsky.actor.getProfiles?"+q.Encode(), nil, &reply)
	if ctx.Err() != nil {
		return pr
	}
	found := map[string]profile{}
	if err == nil {
		for _, got := range reply.Profiles {
			found[got.DID] = got.profile
		}
	}
	for _, a := range actors {
		known := s.profiles[a]
		if got, ok := found[a]; ok {
			if got.Handle == "handle.invalid" {
				got.Handle = known.Handle
			}
			known = got
		}
		known.looked = true // a failed lookup is not tried again: the author keeps what is known
		s.remember(a, known)
	}
	return s.profiles[did]
}

func (c *connection) toPost(ev event, author profile) (post.Post, error) {
	var rec record
	if err := json.Unmarshal(ev.Commit.Record, &rec); err != nil {
		return post.Post{}, err
	}
	uri := "at://" + ev.DID + "/" + postCollection + "/" + ev.Commit.RKey
	profile := "https://bsky.app/profile/" + ev.DID
	seen := time.UnixMicro(ev.TimeUS).UTC()
	published := rec.CreatedAt
	if published.IsZero() || published.After(seen) {
		// createdAt is set by the client and can be anything; the relay's time cannot be later.
		published = seen
	}
	p := post.Post{
		Provider:         "bluesky",
		NativeID:         uri,
		Type:             post.TypeSocialMediaPost,
		AuthorID:         ev.DID,
		AuthorScreenName: ev.DID,
		AuthorURL:        profile,
		ContentText:      rec.Text,
		PostLink:         profile + "/post/" + ev.Commit.RKey,
		PublishedAt:      published,
		ThreadID:         uri,
		Tags:             rec.Tags,
	}
	if author.Handle != "" {
		p.AuthorScreenName, p.AuthorName = author.Handle, author.Handle
		p.AuthorURL = "https://bsky.app/profile/" + author.Handle
	}
	if author.DisplayName != "" {
		p.AuthorName = author.DisplayName
	}
	p.AuthorThumbnail = author.Avatar
	// The stream carries posts as they are created, before anyone reacts: a post's likes,
	// reposts and replies are not known yet, its author's followers are (docs/connectors.md).
	p.AuthorFollowers = connector.Followers(author.Followers)
	if len(rec.Langs) > 0 {
		p.Language = rec.Langs[0]
	}
	if rec.Reply != nil {
		p.ThreadID, p.ParentID = rec.Reply.Root.URI, rec.Reply.Parent.URI
	}
	for _, f := range rec.Facets {
		for _, feat := range f.Features {
			switch feat.Type {
			case "app.bsky.richtext.facet#tag":
				p.Tags = append(p.Tags, feat.Tag)
			case "app.bsky.richtext.facet#link":
				p.Entities.ExternalLinks = append(p.Entities.ExternalLinks, feat.URI)
			}
		}
	}
	addEmbed(&p, ev.DID, rec.Embed)
	return p, nil
}

// addEmbed turns an embed's blobs into the CDN addresses the Bluesky app shows them from.
func addEmbed(p *post.Post, did string, e *embed) {
	if e == nil {
		return
	}
	for _, img := range e.Images {
		if cid := img.Image.Ref.Link; cid != "" {
			p.Photos = append(p.Photos, post.Media{
				Large:  "https://cdn.bsky.app/img/feed_fullsize/plain/" + did + "/" + cid + "@jpeg",
				Normal: "https://cdn.bsky.app/img/feed_thumbnail/plain/" + did + "/" + cid + "@jpeg",
			})
		}
	}
	if e.Video != nil && e.Video.Ref.Link != "" {
		base := "https://video.bsky.app/watch/" + url.PathEscape(did) + "/" + e.Video.Ref.Link
		p.Videos = append(p.Videos, post.Media{Large: base + "/playlist.m3u8", Normal: base + "/thumbnail.jpg"})
	}
	if e.External != nil && e.External.URI != "" {
		p.Entities.ExternalLinks = append(p.Entities.ExternalLinks, e.External.URI)
	}
	addEmbed(p, did, e.Media)
}
