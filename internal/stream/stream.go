// Package stream is Sightline's message backbone: NATS JetStream, embedded in the process by
// default (data under the data dir) or an external cluster. Posts travel on the POSTS stream;
// stages consume them in batches and acknowledge only after they have done their work, so a
// crash loses nothing and a redelivery is harmless.
package stream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/sightline/sightline/internal/post"
)

const (
	// PostsStream holds incoming posts on subjects posts.<provider>.
	PostsStream = "POSTS"
	// dedupWindow is how long JetStream remembers a post id to drop a republished duplicate;
	// the store's idempotent insert covers anything older.
	dedupWindow = 10 * time.Minute
	// postsMaxAge bounds the stream: every stage has long consumed a post by then.
	postsMaxAge = 72 * time.Hour

	// DeadLetterStream keeps the posts a stage gave up on, on subjects
	// deadletter.<stage>.<provider>, with headers saying which stage, why and after how many
	// deliveries, so that they can be inspected and replayed.
	DeadLetterStream = "POSTS_DEADLETTER"
	deadLetterPrefix = "deadletter."
	// deadLetterMaxAge is the posts' retention: a dead letter is no older than its post may be.
	deadLetterMaxAge = 30 * 24 * time.Hour
	// MaxDeliver is how many deliveries of a post a stage tries before it dead-letters the post.
	MaxDeliver = 5
)

// Config says where the backbone is.
type Config struct {
	// URL is "embedded" (or empty) for the in-process server, or a nats:// URL.
	URL string
	// DataDir holds the embedded server's JetStream files.
	DataDir string
	// Replicas is the POSTS stream's replica count on an external cluster.
	Replicas int
}

// Stream is a connection to the backbone, with the embedded server when there is one.
type Stream struct {
	embedded *server.Server
	url      string
	nc       *nats.Conn
	js       jetstream.JetStream
	log      *slog.Logger
	mu       sync.Mutex
	extra    []*nats.Conn // opened by Connect, closed before the embedded server stops
}

// Open starts the embedded server (or connects to the cluster) and makes sure the POSTS stream
// exists.
func Open(ctx context.Context, c Config, log *slog.Logger) (*Stream, error) {
	s := &Stream{log: log, url: c.URL}
	var err error
	if c.URL == "" || c.URL == "embedded" {
		s.embedded, err = server.NewServer(&server.Options{
			ServerName:             "sightline-embedded",
			DontListen:             true, // reachable in-process only
			JetStream:              true,
			StoreDir:               filepath.Join(c.DataDir, "nats"),
			NoSigs:                 true,
			NoLog:                  true,
			DisableJetStreamBanner: true,
		})
		if err != nil {
			return nil, fmt.Errorf("stream: embedded NATS: %w", err)
		}
		s.embedded.Start()
		if !s.embedded.ReadyForConnections(30 * time.Second) {
			s.embedded.Shutdown()
			return nil, errors.New("stream: embedded NATS did not start within 30s")
		}
	}
	s.nc, err = s.dial("sightline")
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("stream: connect: %w", err)
	}
	if s.js, err = jetstream.New(s.nc); err != nil {
		s.Close()
		return nil, err
	}
	replicas := max(c.Replicas, 1)
	if s.embedded != nil {
		replicas = 1
	}
	_, err = s.js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name:       PostsStream,
		Subjects:   []string{"posts.>"},
		Storage:    jetstream.FileStorage,
		Retention:  jetstream.LimitsPolicy,
		MaxAge:     postsMaxAge,
		Duplicates: dedupWindow,
		Replicas:   replicas,
	})
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("stream: create %s: %w", PostsStream, err)
	}
	_, err = s.js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name:       DeadLetterStream,
		Subjects:   []string{deadLetterPrefix + ">"},
		Storage:    jetstream.FileStorage,
		Retention:  jetstream.LimitsPolicy,
		MaxAge:     deadLetterMaxAge,
		Duplicates: dedupWindow,
		Replicas:   replicas,
	})
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("stream: create %s: %w", DeadLetterStream, err)
	}
	return s, nil
}

// Conn is the NATS connection, for other uses of the backbone (work queues, notices).
func (s *Stream) Conn() *nats.Conn { return s.nc }

// Connect opens another connection to the backbone, for a user that needs its own options
// (the live hub's NoEcho); Close closes it.
func (s *Stream) Connect(name string, opts ...nats.Option) (*nats.Conn, error) {
	nc, err := s.dial(name, opts...)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.extra = append(s.extra, nc)
	s.mu.Unlock()
	return nc, nil
}

func (s *Stream) dial(name string, opts ...nats.Option) (*nats.Conn, error) {
	if s.embedded != nil {
		return nats.Connect("", append([]nats.Option{nats.InProcessServer(s.embedded), nats.Name(name)}, opts...)...)
	}
	return nats.Connect(s.url, append([]nats.Option{nats.Name(name), nats.MaxReconnects(-1)}, opts...)...)
}

// JetStream is the JetStream context.
func (s *Stream) JetStream() jetstream.JetStream { return s.js }

// Close drains the connection and stops the embedded server.
func (s *Stream) Close() {
	s.mu.Lock()
	for _, nc := range s.extra {
		nc.Close()
	}
	s.mu.Unlock()
	if s.nc != nil {
		s.nc.Drain()
		// Drain is asynchronous; wait for it so the embedded server stops after the client.
		for i := 0; i < 100 && !s.nc.IsClosed(); i++ {
			time.Sleep(10 * time.Millisecond)
		}
	}
	if s.embedded != nil {
		s.embedded.Shutdown()
		s.embedded.WaitForShutdown()
	}
}

// wirePost is a post as the stream carries it: with the pusher of an ingested post and the
// tenant that owns a private post, which the post's own JSON leaves out.
type wirePost struct {
	post.Post
	SourceUserID int64 `json:"source_user_id,omitempty"`
	Tenant       int64 `json:"tenant,omitempty"`
}

// PublishPosts puts posts on the stream, returning one error per post (nil when JetStream
// stored it). The post id is the message id, so a republish within the dedup window is dropped.
func (s *Stream) PublishPosts(ctx context.Context, posts []post.Post) []error {
	errs := make([]error, len(posts))
	futures := make([]jetstream.PubAckFuture, len(posts))
	for i, p := range posts {
		data, err := json.Marshal(wirePost{Post: p, SourceUserID: p.SourceUserID, Tenant: p.Tenant})
		if err != nil {
			errs[i] = err
			continue
		}
		futures[i], errs[i] = s.js.PublishAsync(subjectFor(p.Provider), data, jetstream.WithMsgID(p.ID))
	}
	for i, f := range futures {
		if f == nil {
			continue
		}
		select {
		case <-f.Ok():
		case err := <-f.Err():
			errs[i] = err
		case <-ctx.Done():
			errs[i] = ctx.Err()
		}
	}
	return errs
}

func subjectFor(provider string) string {
	// Subject tokens cannot hold dots or spaces; provider keys are plain words already.
	return "posts." + strings.NewReplacer(".", "_", " ", "_", "*", "_", ">", "_").Replace(provider)
}

// Handler does a stage's work on a batch of posts. Returning an error redelivers the batch
// later; it must therefore be idempotent.
type Handler func(ctx context.Context, posts []post.Post) error

// ackWait is how long a delivered, unacknowledged post waits before it is delivered again: after
// a crash, the posts the dead process held come back this soon. A stage that works longer on a
// batch tells JetStream it is still busy.
const ackWait = 10 * time.Second

// ConsumeConfig tunes a stage.
type ConsumeConfig struct {
	// Durable names the stage's consumer; its position survives restarts.
	Durable string
	// Batch is the most posts handed to the handler at once.
	Batch int
	// Linger is how long to wait for a batch to fill once its first post arrived: the latency
	// a post may pay for throughput.
	Linger time.Duration
	// MaxDeliver is how many deliveries of a post the stage tries before it moves the post to
	// the dead-letter stream (MaxDeliver when 0).
	MaxDeliver int
	// RetryDelay is how long a failed post waits before its second delivery (2s when 0); the
	// wait doubles with each delivery, up to a minute.
	RetryDelay time.Duration
}

// Consume runs a stage until ctx ends: it hands batches of posts to handle and acknowledges
// them only after handle succeeded.
func (s *Stream) Consume(ctx context.Context, c ConsumeConfig, handle Handler) error {
	if c.Batch <= 0 {
		c.Batch = 500
	}
	if c.Linger <= 0 {
		c.Linger = 5 * time.Millisecond
	}
	if c.MaxDeliver <= 0 {
		c.MaxDeliver = MaxDeliver
	}
	if c.RetryDelay <= 0 {
		c.RetryDelay = 2 * time.Second
	}
	// The consumer itself redelivers without limit: the stage counts deliveries and moves a post
	// to the dead-letter stream itself, and only once the dead letter is stored does it
	// terminate the post. A consumer-side MaxDeliver would stop redelivering a post that the
	// dead-letter stream could not take at that moment, and the post would be lost.
	cons, err := s.js.CreateOrUpdateConsumer(ctx, PostsStream, jetstream.ConsumerConfig{
		Durable:       c.Durable,
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       ackWait,
		MaxAckPending: 4 * c.Batch,
		DeliverPolicy: jetstream.DeliverAllPolicy,
	})
	if err != nil {
		return fmt.Errorf("stream: consumer %s: %w", c.Durable, err)
	}
	it, err := cons.Messages(jetstream.PullMaxMessages(2 * c.Batch))
	if err != nil {
		return err
	}
	st := &stage{s: s, c: c, handle: handle}
	msgs := make(chan jetstream.Msg, c.Batch)
	go func() {
		defer close(msgs)
		for {
			m, err := it.Next()
			if err != nil {
				return // stopped, or the connection closed
			}
			msgs <- m
		}
	}()
	go func() { <-ctx.Done(); it.Stop() }()

	for {
		first, ok := <-msgs
		if !ok {
			return ctx.Err()
		}
		batch := []jetstream.Msg{first}
		linger := time.NewTimer(c.Linger)
	fill:
		for len(batch) < c.Batch {
			select {
			case m, ok := <-msgs:
				if !ok {
					break fill
				}
				batch = append(batch, m)
			case <-linger.C:
				break fill
			}
		}
		linger.Stop()
		st.handleBatch(ctx, batch)
	}
}

// stage is one running consumer.
type stage struct {
	s      *Stream
	c      ConsumeConfig
	handle Handler
	// lastWorked is when the handler last succeeded on some posts. A post is dead-lettered only
	// if the stage worked recently, so that an outage of what the stage writes to (every post
	// failing) never empties the stream into the dead letters.
	lastWorked time.Time
	// settled holds the batch's messages already acknowledged or given back, which the busy
	// signal must no longer touch (it would push a given-back post's redelivery further out).
	mu      sync.Mutex
	settled map[jetstream.Msg]bool
}

// workingWindow is how recent a success must be for the stage to count as working.
const workingWindow = 5 * time.Minute

func (st *stage) handleBatch(ctx context.Context, msgs []jetstream.Msg) {
	posts := make([]post.Post, 0, len(msgs))
	kept := make([]jetstream.Msg, 0, len(msgs))
	for _, m := range msgs {
		var w wirePost
		err := json.Unmarshal(m.Data(), &w)
		p := w.Post
		p.SourceUserID, p.Tenant = w.SourceUserID, w.Tenant
		if err != nil || p.ID == "" {
			st.s.log.Error("dropping an unreadable message", "stage", st.c.Durable, "subject", m.Subject(), "err", err)
			m.Term()
			continue
		}
		posts = append(posts, p)
		kept = append(kept, m)
	}
	if len(posts) == 0 {
		return
	}
	st.mu.Lock()
	st.settled = make(map[jetstream.Msg]bool, len(kept))
	st.mu.Unlock()
	busy := time.NewTicker(ackWait / 3)
	finished := make(chan struct{})
	go func() {
		for {
			select {
			case <-finished:
				return
			case <-busy.C:
				st.mu.Lock()
				for _, m := range kept {
					if !st.settled[m] {
						m.InProgress()
					}
				}
				st.mu.Unlock()
			}
		}
	}()
	err := st.handle(ctx, posts)
	if err == nil {
		st.lastWorked = time.Now()
		st.settle(kept, nil)
	} else if ctx.Err() == nil && redelivered(kept) {
		// The batch failed before: find the posts that fail by themselves, so that they hold up
		// no one else.
		st.s.log.Error("stage failed again; retrying its posts apart", "stage", st.c.Durable, "posts", len(posts), "err", err)
		st.divide(ctx, posts, kept, err)
	} else {
		if ctx.Err() == nil {
			st.s.log.Error("stage failed; the batch will be redelivered", "stage", st.c.Durable, "posts", len(posts), "err", err)
		}
		st.settle(kept, err)
	}
	busy.Stop()
	close(finished)
}

// divide retries the halves of a failed batch apart, down to single posts, acknowledging the
// parts that succeed.
func (st *stage) divide(ctx context.Context, posts []post.Post, msgs []jetstream.Msg, err error) {
	if len(posts) == 1 {
		st.fail(ctx, posts[0], msgs[0], err)
		return
	}
	mid := len(posts) / 2
	st.retry(ctx, posts[:mid], msgs[:mid])
	st.retry(ctx, posts[mid:], msgs[mid:])
}

func (st *stage) retry(ctx context.Context, posts []post.Post, msgs []jetstream.Msg) {
	if ctx.Err() != nil {
		st.settle(msgs, ctx.Err())
		return
	}
	if err := st.handle(ctx, posts); err != nil {
		st.divide(ctx, posts, msgs, err)
		return
	}
	st.lastWorked = time.Now()
	st.settle(msgs, nil)
}

// fail deals with a post that failed by itself: after MaxDeliver deliveries, while the stage
// works for other posts, it goes to the dead-letter stream; otherwise it comes back later.
func (st *stage) fail(ctx context.Context, p post.Post, m jetstream.Msg, cause error) {
	n := deliveries(m)
	if n >= st.c.MaxDeliver && time.Since(st.lastWorked) < workingWindow {
		err := st.s.deadLetter(ctx, st.c.Durable, p.ID, m, cause, n)
		if err == nil {
			st.s.log.Error("post moved to the dead-letter stream", "stage", st.c.Durable, "post", p.ID,
				"deliveries", n, "err", cause)
			st.mu.Lock()
			st.settled[m] = true
			m.Term()
			st.mu.Unlock()
			return
		}
		st.s.log.Error("dead-lettering a post failed; it will be redelivered", "stage", st.c.Durable, "post", p.ID, "err", err)
	}
	st.settle([]jetstream.Msg{m}, cause)
}

// settle acknowledges msgs, or after a failure asks for their redelivery after a delay that
// grows with their deliveries.
func (st *stage) settle(msgs []jetstream.Msg, failure error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, m := range msgs {
		st.settled[m] = true
		if failure == nil {
			m.Ack()
			continue
		}
		m.NakWithDelay(min(st.c.RetryDelay<<min(deliveries(m)-1, 6), time.Minute))
	}
}

func deliveries(m jetstream.Msg) int {
	meta, err := m.Metadata()
	if err != nil {
		return 1
	}
	return int(meta.NumDelivered)
}

func redelivered(msgs []jetstream.Msg) bool {
	for _, m := range msgs {
		if deliveries(m) > 1 {
			return true
		}
	}
	return false
}

// deadLetter stores a copy of the message on deadletter.<stage>.<provider>. The message id
// makes a repeat (after a crash between storing and terminating) a duplicate that is dropped.
func (s *Stream) deadLetter(ctx context.Context, stage, postID string, m jetstream.Msg, cause error, deliveries int) error {
	provider := strings.TrimPrefix(m.Subject(), "posts.")
	dl := nats.NewMsg(deadLetterPrefix + stage + "." + provider)
	dl.Data = m.Data()
	reason := cause.Error()
	if len(reason) > 1000 {
		reason = reason[:1000]
	}
	dl.Header.Set("Sightline-Stage", stage)
	dl.Header.Set("Sightline-Error", reason)
	dl.Header.Set("Sightline-Deliveries", strconv.Itoa(deliveries))
	dl.Header.Set("Sightline-Subject", m.Subject())
	_, err := s.js.PublishMsg(ctx, dl, jetstream.WithMsgID(stage+":"+postID))
	return err
}

// ConsumerLag is one stage's position on the POSTS stream.
type ConsumerLag struct {
	Name string `json:"name"`
	// Pending posts have not been delivered to the stage yet; AckPending were delivered but not
	// yet acknowledged; Redelivered were delivered more than once and are not acknowledged.
	Pending     uint64 `json:"pending"`
	AckPending  int    `json:"ackPending"`
	Redelivered int    `json:"redelivered"`
}

// Lag is how many posts the stage has not yet acknowledged.
func (c ConsumerLag) Lag() uint64 { return c.Pending + uint64(c.AckPending) }

// Health is the state of the stages: each one's lag, and how many posts were dead-lettered
// (within the dead letters' retention).
type Health struct {
	Consumers    []ConsumerLag
	DeadLettered uint64
}

// Health reports every stage's lag and the dead-letter count.
func (s *Stream) Health(ctx context.Context) (Health, error) {
	posts, err := s.js.Stream(ctx, PostsStream)
	if err != nil {
		return Health{}, err
	}
	h := Health{Consumers: []ConsumerLag{}}
	list := posts.ListConsumers(ctx)
	for info := range list.Info() {
		h.Consumers = append(h.Consumers, ConsumerLag{Name: info.Name, Pending: info.NumPending,
			AckPending: info.NumAckPending, Redelivered: info.NumRedelivered})
	}
	if err := list.Err(); err != nil {
		return Health{}, err
	}
	dl, err := s.js.Stream(ctx, DeadLetterStream)
	if err != nil {
		return Health{}, err
	}
	info, err := dl.Info(ctx)
	if err != nil {
		return Health{}, err
	}
	h.DeadLettered = info.State.Msgs
	return h, nil
}

// Pending reports how many posts a stage has not yet acknowledged (its lag).
func (s *Stream) Pending(ctx context.Context, durable string) (uint64, error) {
	return Lag(ctx, s.js, durable)
}

// Lag is how many posts of the stream a stage (its durable consumer) has not yet
// acknowledged, asked of any JetStream connection (a benchmark's, say).
func Lag(ctx context.Context, js jetstream.JetStream, durable string) (uint64, error) {
	cons, err := js.Consumer(ctx, PostsStream, durable)
	if err != nil {
		return 0, err
	}
	info, err := cons.Info(ctx)
	if err != nil {
		return 0, err
	}
	return info.NumPending + uint64(info.NumAckPending), nil
}
