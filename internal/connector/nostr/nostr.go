// Package nostr reads public notes (NIP-01 kind 1 events) from several Nostr relays over
// websockets: each relay is asked for the notes since the cursor, every event's id and
// signature are checked, and an event several relays send is emitted once.
package nostr

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/btcsuite/btcd/btcec/v2/schnorr"
	"github.com/coder/websocket"

	"github.com/sightline/sightline/internal/connector"
	"github.com/sightline/sightline/internal/outbound"
	"github.com/sightline/sightline/internal/post"
)

// Name is the source's name, the key of its cursor.
const Name = "nostr"

// Config configures the source.
type Config struct {
	Enabled bool `json:"enabled"`
	// Relays are ws:// or wss:// addresses.
	Relays []string `json:"relays"`
	// Backfill is how far back a source without a cursor asks for notes.
	Backfill connector.Duration `json:"backfill"`
	// Limit is the REQ's limit: the most stored notes a relay sends before the live ones.
	Limit   int               `json:"limit"`
	Backoff connector.Backoff `json:"backoff"`
}

// DefaultConfig reads three large public relays, off until switched on.
func DefaultConfig() Config {
	return Config{
		Relays:   []string{"wss://relay.damus.io", "wss://nos.lol", "wss://relay.primal.net"},
		Backfill: connector.Duration(10 * time.Minute),
		Limit:    500,
		Backoff:  connector.DefaultBackoff,
	}
}

const (
	// idleTimeout: this much silence from a relay means the connection is dead.
	idleTimeout = 5 * time.Minute
	// maxMessage bounds one relay message; notes are small.
	maxMessage = 512 << 10
	saveEvery  = time.Second
	// overlap is how far before the cursor a reconnection asks from: relays receive notes
	// late, and the ids seen recently drop the repeats.
	overlap = 5 * time.Minute
	// seenSize bounds the event ids remembered for deduplication.
	seenSize = 100_000
)

// Source reads the relays.
type Source struct {
	cfg         Config
	client      *outbound.Client
	cursors     connector.CursorStore
	status      *connector.Status
	sleep       func(context.Context, time.Duration) error
	idleTimeout time.Duration
	now         func() time.Time

	mu     sync.Mutex
	cursor int64 // created_at of the newest note emitted
	seen   map[string]bool
	order  []string
	saver  *connector.CursorSaver
}

// New returns a source dialing the relays with client.
func New(cfg Config, cursors connector.CursorStore, client *outbound.Client) (*Source, error) {
	if len(cfg.Relays) == 0 {
		return nil, errors.New("nostr: no relays are configured")
	}
	for _, r := range cfg.Relays {
		u, err := url.Parse(r)
		if err != nil || (u.Scheme != "wss" && u.Scheme != "ws") || u.Host == "" {
			return nil, fmt.Errorf("nostr: relay %q is not a ws:// or wss:// URL", outbound.RedactURL(r))
		}
	}
	cfg.Limit = max(cfg.Limit, 1)
	return &Source{cfg: cfg, client: client, cursors: cursors, status: connector.NewStatus(Name), idleTimeout: idleTimeout,
		now: time.Now, seen: map[string]bool{}}, nil
}

func (s *Source) Name() string { return Name }

func (s *Source) Stats() connector.Stats { return s.status.Stats() }

// Run reads every relay until ctx ends, each reconnecting with its own backoff.
func (s *Source) Run(ctx context.Context, emit connector.EmitFunc) error {
	saved, err := connector.LoadCursor(ctx, s.cursors, Name, &s.cursor)
	if err != nil {
		return err
	}
	s.saver = connector.NewCursorSaver(s.cursors, Name, s.status, saveEvery, saved)
	var wg sync.WaitGroup
	for _, relay := range s.cfg.Relays {
		wg.Go(func() {
			poller := connector.Poller{Status: s.status, Backoff: s.cfg.Backoff, Sleep: s.sleep}
			poller.Run(ctx, func(ctx context.Context) error {
				err := s.read(ctx, emit, relay)
				if err != nil {
					err = fmt.Errorf("%s: %w", outbound.RedactURL(relay), err)
				}
				return err
			})
		})
	}
	wg.Wait()
	s.saver.Flush(ctx, strconv.FormatInt(s.cursor, 10))
	return nil
}

// read is one connection to a relay: dial, subscribe, read until it fails.
func (s *Source) read(ctx context.Context, emit connector.EmitFunc, relay string) error {
	conn, err := connector.DialWebsocket(ctx, s.client, relay, maxMessage)
	if err != nil {
		return err
	}
	defer conn.CloseNow()

	s.mu.Lock()
	since := s.cursor - int64(overlap/time.Second)
	if s.cursor == 0 {
		since = s.now().Add(-time.Duration(s.cfg.Backfill)).Unix()
	}
	s.mu.Unlock()
	req, _ := json.Marshal([]any{"REQ", "sightline", map[string]any{"kinds": []int{1}, "since": since, "limit": s.cfg.Limit}})
	if err := conn.Write(ctx, websocket.MessageText, req); err != nil {
		return fmt.Errorf("subscribing: %w", err)
	}
	s.status.Succeeded()
	return connector.ReadMessages(ctx, conn, s.idleTimeout, func(data []byte) error { return s.handle(ctx, emit, data) })
}

// Event is a NIP-01 event.
type Event struct {
	ID        string     `json:"id"`
	PubKey    string     `json:"pubkey"`
	CreatedAt int64      `json:"created_at"`
	Kind      int        `json:"kind"`
	Tags      [][]string `json:"tags"`
	Content   string     `json:"content"`
	Sig       string     `json:"sig"`
}

// handle reads one relay message: EVENT is checked and emitted once, CLOSED ends the
// connection, EOSE and NOTICE are nothing to act on.
func (s *Source) handle(ctx context.Context, emit connector.EmitFunc, data []byte) error {
	var msg []json.RawMessage
	if err := json.Unmarshal(data, &msg); err != nil || len(msg) == 0 {
		s.status.Skipped(fmt.Errorf("%w: a relay message that is not a JSON array", connector.ErrMalformed))
		return nil
	}
	var typ string
	json.Unmarshal(msg[0], &typ)
	switch typ {
	case "EVENT":
		if len(msg) < 3 {
			s.status.Skipped(fmt.Errorf("%w: an EVENT without an event", connector.ErrMalformed))
			return nil
		}
		var ev Event
		if err := json.Unmarshal(msg[2], &ev); err != nil {
			s.status.Skipped(fmt.Errorf("%w: %v", connector.ErrMalformed, err))
			return nil
		}
		return s.event(ctx, emit, ev)
	case "CLOSED":
		var reason string
		if len(msg) > 2 {
			json.Unmarshal(msg[2], &reason)
		}
		return fmt.Errorf("the relay closed the subscription: %s", reason)
	}
	return nil
}

func (s *Source) event(ctx context.Context, emit connector.EmitFunc, ev Event) error {
	if ev.Kind != 1 {
		return nil
	}
	s.mu.Lock()
	dup := s.seen[ev.ID]
	s.mu.Unlock()
	if dup {
		return nil
	}
	if err := Verify(ev); err != nil {
		s.status.Skipped(fmt.Errorf("%w: event %.16s: %v", connector.ErrMalformed, ev.ID, err))
		return nil
	}
	// Relays serve several connections at once: claim the id before emitting.
	s.mu.Lock()
	if s.seen[ev.ID] {
		s.mu.Unlock()
		return nil
	}
	s.remember(ev.ID)
	s.mu.Unlock()
	if err := connector.Send(ctx, s.status, emit, toPost(ev)); err != nil {
		s.mu.Lock()
		delete(s.seen, ev.ID) // offered again after the reconnection
		s.mu.Unlock()
		return err
	}
	s.mu.Lock()
	if ev.CreatedAt > s.cursor && ev.CreatedAt <= s.now().Unix()+60 {
		s.cursor = ev.CreatedAt
	}
	// The saver is shared by the relays' connections: it is used under the lock.
	s.saver.Save(ctx, strconv.FormatInt(s.cursor, 10))
	s.mu.Unlock()
	return nil
}

func (s *Source) remember(id string) {
	s.seen[id] = true
	s.order = append(s.order, id)
	if len(s.order) > seenSize {
		for _, old := range s.order[:seenSize/2] {
			delete(s.seen, old)
		}
		s.order = append([]string(nil), s.order[seenSize/2:]...)
	}
}

// Verify checks an event as NIP-01 defines it: its id is the SHA-256 of its serialization,
// and sig is the BIP-340 Schnorr signature of the id by pubkey.
func Verify(ev Event) error {
	sum := sha256.Sum256(Serialize(ev))
	if hex.EncodeToString(sum[:]) != ev.ID {
		return errors.New("the id is not the hash of the event")
	}
	pub, err := hex.DecodeString(ev.PubKey)
	if err != nil {
		return fmt.Errorf("pubkey: %w", err)
	}
	key, err := schnorr.ParsePubKey(pub)
	if err != nil {
		return fmt.Errorf("pubkey: %w", err)
	}
	sigBytes, err := hex.DecodeString(ev.Sig)
	if err != nil {
		return fmt.Errorf("sig: %w", err)
	}
	sig, err := schnorr.ParseSignature(sigBytes)
	if err != nil {
		return fmt.Errorf("sig: %w", err)
	}
	if !sig.Verify(sum[:], key) {
		return errors.New("the signature does not verify")
	}
	return nil
}

// Serialize is the event's canonical form, [0,pubkey,created_at,kind,tags,content], with the
// escaping NIP-01 prescribes (and no other).
func Serialize(ev Event) []byte {
	var b strings.Builder
	b.WriteString(`[0,"`)
	b.WriteString(ev.PubKey)
	b.WriteString(`",`)
	b.WriteString(strconv.FormatInt(ev.CreatedAt, 10))
	b.WriteString(",")
	b.WriteString(strconv.Itoa(ev.Kind))
	b.WriteString(",[")
	for i, tag := range ev.Tags {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("[")
		for j, v := range tag {
			if j > 0 {
				b.WriteString(",")
			}
			writeString(&b, v)
		}
		b.WriteString("]")
	}
	b.WriteString("],")
	writeString(&b, ev.Content)
	b.WriteString("]")
	return []byte(b.String())
}

func writeString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\n':
			b.WriteString(`\n`)
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
}

// toPost converts a note: the event id is its native id, the root and reply "e" tags (NIP-10)
// its thread and parent, "t" tags its tags, the public key its author.
func toPost(ev Event) post.Post {
	p := post.Post{
		Provider:         Name,
		NativeID:         ev.ID,
		Type:             post.TypeSocialMediaPost,
		AuthorID:         ev.PubKey,
		AuthorScreenName: ev.PubKey[:min(len(ev.PubKey), 16)],
		ContentText:      ev.Content,
		PostLink:         "https://njump.me/" + ev.ID,
		PublishedAt:      time.Unix(ev.CreatedAt, 0).UTC(),
		ThreadID:         ev.ID,
	}
	var root, reply string
	var positional []string
	for _, tag := range ev.Tags {
		if len(tag) < 2 {
			continue
		}
		switch tag[0] {
		case "t":
			p.Tags = append(p.Tags, tag[1])
		case "r":
			if strings.HasPrefix(tag[1], "http") {
				p.Entities.ExternalLinks = append(p.Entities.ExternalLinks, tag[1])
			}
		case "e":
			marker := ""
			if len(tag) >= 4 {
				marker = tag[3]
			}
			switch marker {
			case "root":
				root = tag[1]
			case "reply":
				reply = tag[1]
			case "":
				positional = append(positional, tag[1])
			}
		}
	}
	// Deprecated positional e tags: the first is the root, the last the parent.
	if root == "" && len(positional) > 0 {
		root = positional[0]
		if reply == "" {
			reply = positional[len(positional)-1]
		}
	}
	if root != "" {
		p.ThreadID = root
		p.ParentID = root
		if reply != "" {
			p.ParentID = reply
		}
	}
	return p
}
