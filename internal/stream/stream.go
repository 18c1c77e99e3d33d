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

// PublishPosts puts posts on the stream, returning one error per post (nil when JetStream
// stored it). The post id is the message id, so a republish within the dedup window is dropped.
func (s *Stream) PublishPosts(ctx context.Context, posts []post.Post) []error {
	errs := make([]error, len(posts))
	futures := make([]jetstream.PubAckFuture, len(posts))
	for i, p := range posts {
		data, err := json.Marshal(p)
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
		s.handleBatch(ctx, c.Durable, batch, handle)
	}
}

func (s *Stream) handleBatch(ctx context.Context, stage string, msgs []jetstream.Msg, handle Handler) {
	posts := make([]post.Post, 0, len(msgs))
	kept := make([]jetstream.Msg, 0, len(msgs))
	for _, m := range msgs {
		var p post.Post
		if err := json.Unmarshal(m.Data(), &p); err != nil || p.ID == "" {
			s.log.Error("dropping an unreadable message", "stage", stage, "subject", m.Subject(), "err", err)
			m.Term()
			continue
		}
		posts = append(posts, p)
		kept = append(kept, m)
	}
	if len(posts) == 0 {
		return
	}
	busy := time.NewTicker(ackWait / 3)
	finished := make(chan struct{})
	go func() {
		for {
			select {
			case <-finished:
				return
			case <-busy.C:
				for _, m := range kept {
					m.InProgress()
				}
			}
		}
	}()
	err := handle(ctx, posts)
	busy.Stop()
	close(finished)
	if err != nil {
		if ctx.Err() == nil {
			s.log.Error("stage failed; the batch will be redelivered", "stage", stage, "posts", len(posts), "err", err)
		}
		for _, m := range kept {
			m.NakWithDelay(2 * time.Second)
		}
		return
	}
	for _, m := range kept {
		m.Ack()
	}
}

// Pending reports how many posts a stage has not yet acknowledged (its lag).
func (s *Stream) Pending(ctx context.Context, durable string) (uint64, error) {
	cons, err := s.js.Consumer(ctx, PostsStream, durable)
	if err != nil {
		return 0, err
	}
	info, err := cons.Info(ctx)
	if err != nil {
		return 0, err
	}
	return info.NumPending + uint64(info.NumAckPending), nil
}
