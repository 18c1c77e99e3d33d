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
	"os"
	"path/filepath"
	"runtime/debug"
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
	// DefaultMaxBytes caps the POSTS stream unless the operator chooses (--nats-max-bytes); the
	// embedded server takes at most half of what JetStream may store on its disk.
	DefaultMaxBytes = 8 << 30
	// syncInterval is how often the embedded server writes everything it holds to disk (NATS's
	// own default is two minutes); what the ingest API accepts is synced before it answers.
	syncInterval = 10 * time.Second

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
	// MaxBytes caps the POSTS stream (DefaultMaxBytes when 0). A full stream refuses new posts
	// with ErrFull: it never drops old ones to make room.
	MaxBytes int64
	// Consumers are the durable consumers (stages) every post must reach. The stream keeps a
	// post until all of them have acknowledged it, so they are made with the stream, before
	// anything is published: a post published while no consumer exists would not be kept.
	Consumers []string
}

// ErrFull is the error of a post the POSTS stream refused because it holds MaxBytes of posts
// its stages have not all taken yet.
var ErrFull = errors.New("the stream of posts waiting to be stored is full")

// Stream is a connection to the backbone, with the embedded server when there is one.
type Stream struct {
	embedded *server.Server
	// blocks is the directory of the embedded POSTS stream's message files ("" on a cluster).
	blocks string
	url    string
	nc     *nats.Conn
	js     jetstream.JetStream
	log    *slog.Logger
	mu     sync.Mutex
	extra  []*nats.Conn // opened by Connect, closed before the embedded server stops
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
			SyncInterval:           syncInterval,
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
	maxBytes := c.MaxBytes
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
		if s.embedded != nil && s.embedded.JetStreamConfig().MaxStore > 1 {
			maxBytes = min(maxBytes, s.embedded.JetStreamConfig().MaxStore/2)
		}
	}
	if s.embedded != nil {
		replicas = 1
		s.blocks = filepath.Join(s.embedded.JetStreamConfig().StoreDir, server.DEFAULT_GLOBAL_ACCOUNT, "streams", PostsStream, "msgs")
	}
	if info, err := s.js.Stream(ctx, PostsStream); err == nil && info.CachedInfo().State.Bytes > uint64(maxBytes) {
		// Lowering the cap under what the stream holds would make JetStream drop the oldest posts.
		log.Warn("the stream holds more than its cap; the cap stays at what it holds until its stages catch up",
			"stream", PostsStream, "bytes", info.CachedInfo().State.Bytes, "cap", maxBytes)
		maxBytes = int64(info.CachedInfo().State.Bytes)
	}
	// Interest retention keeps a post until every stage has taken it, however long that is:
	// posts never expire unconsumed. The cap bounds the disk instead, refusing new posts when
	// it is reached rather than discarding old ones.
	_, err = s.js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name:       PostsStream,
		Subjects:   []string{"posts.>"},
		Storage:    jetstream.FileStorage,
		Retention:  jetstream.InterestPolicy,
		MaxBytes:   maxBytes,
		Discard:    jetstream.DiscardNew,
		Duplicates: dedupWindow,
		Replicas:   replicas,
	})
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("stream: create %s: %w", PostsStream, err)
	}
	for _, name := range c.Consumers {
		if err := s.ensureConsumer(ctx, name); err != nil {
			s.Close()
			return nil, err
		}
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
// stored it; ErrFull when the stream is full). The post id is the message id, so a republish
// within the dedup window is dropped. A stored post is in the operating system's hands: it
// survives the process's crash, and the embedded server writes it to disk within syncInterval.
func (s *Stream) PublishPosts(ctx context.Context, posts []post.Post) []error {
	return s.publish(ctx, posts)
}

// PublishPostsSynced is PublishPosts that also waits until the posts are on disk, for what is
// acknowledged to someone who will not send it again (the ingest API). On the embedded server
// the stream's files written since the publish began are synced; on a cluster JetStream has
// stored the posts on a majority of the stream's replicas when it acknowledges them.
func (s *Stream) PublishPostsSynced(ctx context.Context, posts []post.Post) []error {
	if s.blocks == "" {
		return s.publish(ctx, posts)
	}
	first, err := s.lastBlock()
	if err != nil {
		return fill(len(posts), err)
	}
	errs := s.publish(ctx, posts)
	if err := s.syncBlocks(first); err != nil {
		for i := range errs {
			if errs[i] == nil {
				errs[i] = err
			}
		}
	}
	return errs
}

func fill(n int, err error) []error {
	errs := make([]error, n)
	for i := range errs {
		errs[i] = err
	}
	return errs
}

// lastBlock is the index of the newest message file of the embedded POSTS stream (0 if none):
// posts published from now on go into it or into newer ones.
func (s *Stream) lastBlock() (uint64, error) {
	entries, err := os.ReadDir(s.blocks)
	if err != nil {
		return 0, fmt.Errorf("stream: the embedded stream's files: %w", err)
	}
	var last uint64
	for _, e := range entries {
		if index, ok := blockIndex(e.Name()); ok {
			last = max(last, index)
		}
	}
	return last, nil
}

func blockIndex(name string) (uint64, bool) {
	digits, ok := strings.CutSuffix(name, ".blk")
	if !ok {
		return 0, false
	}
	index, err := strconv.ParseUint(digits, 10, 64)
	return index, err == nil
}

// syncBlocks flushes to disk the message files of the embedded POSTS stream from index first
// on, and the directory that names them (a new file's name is only durable once it is).
// JetStream has written an acknowledged post to its file already; this makes the write survive
// a power cut as well as a crash.
func (s *Stream) syncBlocks(first uint64) error {
	entries, err := os.ReadDir(s.blocks)
	if err != nil {
		return fmt.Errorf("stream: sync: %w", err)
	}
	for _, e := range entries {
		if index, ok := blockIndex(e.Name()); ok && index >= first {
			if err := syncFile(filepath.Join(s.blocks, e.Name())); err != nil && !errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("stream: sync: %w", err)
			}
		}
	}
	if err := syncFile(s.blocks); err != nil {
		return fmt.Errorf("stream: sync: %w", err)
	}
	return nil
}

func syncFile(name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

func (s *Stream) publish(ctx context.Context, posts []post.Post) []error {
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
			errs[i] = publishError(err)
		case <-ctx.Done():
			errs[i] = ctx.Err()
		}
	}
	return errs
}

// publishError names a full stream's refusal ErrFull.
func publishError(err error) error {
	var api *jetstream.APIError
	if errors.As(err, &api) && api.Description == server.ErrMaxBytes.Error() {
		return fmt.Errorf("%w: %w", ErrFull, err)
	}
	return err
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
	// After, when set, is the stage's second step: it runs on a batch once the handler
	// succeeded on it, while the handler goes on with the next batch. A batch is acknowledged
	// only once both succeeded; a failure of either redelivers it (both run again). Each step
	// takes one batch at a time, in the order the batches were taken off the stream.
	After Handler
}

// Consume runs a stage until ctx ends: it hands batches of posts to handle (and then to
// c.After) and acknowledges them only after handle (and c.After) succeeded.
//
// Three batches are worked on at once, each by one goroutine: the next batch is taken off the
// stream and decoded while handle runs on the one before, and c.After (then the
// acknowledgement, or the redelivery) on the one before that. Consume returns once every batch
// it took is settled.
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
	// dead-letter stream could not take at that moment, and the post would be lost. The posts a
	// stage may hold unacknowledged cover the three batches in its steps, the one being filled
	// and the pull's buffer.
	cons, err := s.js.CreateOrUpdateConsumer(ctx, PostsStream, consumerConfig(c.Durable, 6*c.Batch))
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

	first, second := make(chan *batch), make(chan *batch)
	var steps sync.WaitGroup
	steps.Add(2)
	go func() {
		defer steps.Done()
		defer close(second)
		for b := range first {
			b.err = st.call(ctx, st.handle, b.posts)
			second <- b
		}
	}()
	go func() {
		defer steps.Done()
		for b := range second {
			st.finish(ctx, b)
		}
	}()
	defer func() { close(first); steps.Wait() }()

	for {
		m, ok := <-msgs
		if !ok {
			return ctx.Err()
		}
		taken := []jetstream.Msg{m}
		linger := time.NewTimer(c.Linger)
	fill:
		for len(taken) < c.Batch {
			select {
			case m, ok := <-msgs:
				if !ok {
					break fill
				}
				taken = append(taken, m)
			case <-linger.C:
				break fill
			}
		}
		linger.Stop()
		if b := st.take(taken); b != nil {
			first <- b
		}
	}
}

func consumerConfig(durable string, maxAckPending int) jetstream.ConsumerConfig {
	return jetstream.ConsumerConfig{
		Durable:       durable,
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       ackWait,
		MaxAckPending: maxAckPending,
		DeliverPolicy: jetstream.DeliverAllPolicy,
	}
}

// ensureConsumer makes a stage's durable consumer if it does not exist yet; Consume sets its
// batch-dependent settings when the stage starts.
func (s *Stream) ensureConsumer(ctx context.Context, durable string) error {
	_, err := s.js.Consumer(ctx, PostsStream, durable)
	if errors.Is(err, jetstream.ErrConsumerNotFound) {
		_, err = s.js.CreateConsumer(ctx, PostsStream, consumerConfig(durable, 0))
	}
	if err != nil {
		return fmt.Errorf("stream: consumer %s: %w", durable, err)
	}
	return nil
}

// stage is one running consumer.
type stage struct {
	s      *Stream
	c      ConsumeConfig
	handle Handler
	// lastWorked is when the steps last succeeded on some posts. A post is dead-lettered only
	// if the stage worked recently, so that an outage of what the stage writes to (every post
	// failing) never empties the stream into the dead letters. Only the last step's goroutine
	// reads and writes it.
	lastWorked time.Time
	// mu guards each batch's settled.
	mu sync.Mutex
}

// batch is one batch of posts in the stage's steps.
type batch struct {
	posts []post.Post
	msgs  []jetstream.Msg
	// settled holds the messages already acknowledged or given back, which the busy signal
	// must no longer touch (it would push a given-back post's redelivery further out).
	settled map[jetstream.Msg]bool
	// err is the handler's, once it ran.
	err error
	// done stops the busy signal.
	done chan struct{}
}

// workingWindow is how recent a success must be for the stage to count as working.
const workingWindow = 5 * time.Minute

// take decodes a batch's messages and starts telling JetStream the stage is busy with them,
// until the batch is finished; nil when none could be read.
func (st *stage) take(msgs []jetstream.Msg) *batch {
	b := &batch{posts: make([]post.Post, 0, len(msgs)), msgs: make([]jetstream.Msg, 0, len(msgs))}
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
		b.posts = append(b.posts, p)
		b.msgs = append(b.msgs, m)
	}
	if len(b.posts) == 0 {
		return nil
	}
	b.settled = make(map[jetstream.Msg]bool, len(b.msgs))
	b.done = make(chan struct{})
	go func() {
		// A batch may wait behind the one before it in each step: it is busy from the start.
		busy := time.NewTicker(ackWait / 3)
		defer busy.Stop()
		for {
			select {
			case <-b.done:
				return
			case <-busy.C:
				st.mu.Lock()
				for _, m := range b.msgs {
					if !b.settled[m] {
						m.InProgress()
					}
				}
				st.mu.Unlock()
			}
		}
	}()
	return b
}

// finish runs the second step on a batch the handler succeeded on, and acknowledges it, or
// has it redelivered.
func (st *stage) finish(ctx context.Context, b *batch) {
	defer close(b.done)
	err := b.err
	if err == nil && st.c.After != nil {
		err = st.call(ctx, st.c.After, b.posts)
	}
	if err == nil {
		st.lastWorked = time.Now()
		st.settle(b, b.msgs, nil)
	} else if ctx.Err() == nil && redelivered(b.msgs) {
		// The batch failed before: find the posts that fail by themselves, so that they hold up
		// no one else.
		st.s.log.Error("stage failed again; retrying its posts apart", "stage", st.c.Durable, "posts", len(b.posts), "err", err)
		st.divide(ctx, b, b.posts, b.msgs, err)
	} else {
		if ctx.Err() == nil {
			st.s.log.Error("stage failed; the batch will be redelivered", "stage", st.c.Durable, "posts", len(b.posts), "err", err)
		}
		st.settle(b, b.msgs, err)
	}
}

// call runs one step on posts, turning a panic into the batch's failure: the batch is then
// divided like any failing one, so the post that panics is retried alone and dead-lettered after
// MaxDeliver deliveries while the others go on, instead of ending the process.
func (st *stage) call(ctx context.Context, step Handler, posts []post.Post) (err error) {
	defer func() {
		if r := recover(); r != nil {
			st.s.log.Error("stage panicked", "stage", st.c.Durable, "posts", len(posts), "panic", r, "stack", string(debug.Stack()))
			err = fmt.Errorf("the stage panicked: %v", r)
		}
	}()
	return step(ctx, posts)
}

// both runs the handler and then the second step on posts.
func (st *stage) both(ctx context.Context, posts []post.Post) error {
	if err := st.call(ctx, st.handle, posts); err != nil || st.c.After == nil {
		return err
	}
	return st.call(ctx, st.c.After, posts)
}

// divide retries the halves of a failed batch apart, down to single posts, acknowledging the
// parts that succeed. It runs in the last step's goroutine: the handler may meanwhile run on
// the next batch.
func (st *stage) divide(ctx context.Context, b *batch, posts []post.Post, msgs []jetstream.Msg, err error) {
	if len(posts) == 1 {
		st.fail(ctx, b, posts[0], msgs[0], err)
		return
	}
	mid := len(posts) / 2
	st.retry(ctx, b, posts[:mid], msgs[:mid])
	st.retry(ctx, b, posts[mid:], msgs[mid:])
}

func (st *stage) retry(ctx context.Context, b *batch, posts []post.Post, msgs []jetstream.Msg) {
	if ctx.Err() != nil {
		st.settle(b, msgs, ctx.Err())
		return
	}
	if err := st.both(ctx, posts); err != nil {
		st.divide(ctx, b, posts, msgs, err)
		return
	}
	st.lastWorked = time.Now()
	st.settle(b, msgs, nil)
}

// fail deals with a post that failed by itself: after MaxDeliver deliveries, while the stage
// works for other posts, it goes to the dead-letter stream; otherwise it comes back later.
func (st *stage) fail(ctx context.Context, b *batch, p post.Post, m jetstream.Msg, cause error) {
	n := deliveries(m)
	if n >= st.c.MaxDeliver && time.Since(st.lastWorked) < workingWindow {
		err := st.s.deadLetter(ctx, st.c.Durable, p.ID, m, cause, n)
		if err == nil {
			st.s.log.Error("post moved to the dead-letter stream", "stage", st.c.Durable, "post", p.ID,
				"deliveries", n, "err", cause)
			st.mu.Lock()
			b.settled[m] = true
			m.Term()
			st.mu.Unlock()
			return
		}
		st.s.log.Error("dead-lettering a post failed; it will be redelivered", "stage", st.c.Durable, "post", p.ID, "err", err)
	}
	st.settle(b, []jetstream.Msg{m}, cause)
}

// settle acknowledges msgs of batch b, or after a failure asks for their redelivery after a
// delay that grows with their deliveries.
func (st *stage) settle(b *batch, msgs []jetstream.Msg, failure error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, m := range msgs {
		b.settled[m] = true
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
	// Bytes is what the POSTS stream holds (the posts not yet taken by every stage), of at
	// most MaxBytes.
	Bytes, MaxBytes uint64
}

// Health reports every stage's lag and the dead-letter count.
func (s *Stream) Health(ctx context.Context) (Health, error) {
	posts, err := s.js.Stream(ctx, PostsStream)
	if err != nil {
		return Health{}, err
	}
	h := Health{Consumers: []ConsumerLag{}, Bytes: posts.CachedInfo().State.Bytes,
		MaxBytes: uint64(max(posts.CachedInfo().Config.MaxBytes, 0))}
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
