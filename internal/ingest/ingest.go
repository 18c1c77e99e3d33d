// Package ingest takes posts in (from the ingest API, the CLI and the connectors), makes them
// ready for the pipeline (normalize, refuse what retention would drop, enrich) and puts them on
// the stream; and it runs the storage stage that takes them off the stream into the store.
package ingest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/sightline/sightline/internal/connector"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/stream"
)

// Retention is how long posts and everything derived from them are kept.
const Retention = 30 * 24 * time.Hour

// Publisher puts posts on the stream.
type Publisher interface {
	PublishPosts(ctx context.Context, posts []post.Post) []error
}

// Enricher fills a post's language, entities, mentioned locations and threat score.
type Enricher interface {
	Enrich(p *post.Post)
}

// Service prepares posts and publishes them.
type Service struct {
	publisher Publisher
	enricher  Enricher
	now       func() time.Time
}

func NewService(publisher Publisher, enricher Enricher) *Service {
	return &Service{publisher: publisher, enricher: enricher, now: time.Now}
}

// Item is one post as submitted, with the line (1-based) it came from.
type Item struct {
	Line int
	Post post.Post
	// Err is set when the line could not be read as a post at all.
	Err error
}

// Rejection says why the post on a line was not accepted.
type Rejection struct {
	Line    int    `json:"line"`
	Message string `json:"message"`
}

// Result is what became of a submission.
type Result struct {
	Accepted int         `json:"accepted"`
	Rejected []Rejection `json:"rejected"`
}

// Accept prepares and publishes the items. A bad item never stops the good ones; each
// rejection carries its line and the reason.
func (s *Service) Accept(ctx context.Context, items []Item) Result {
	res := Result{Rejected: []Rejection{}}
	ready := make([]post.Post, 0, len(items))
	lines := make([]int, 0, len(items))
	for _, it := range items {
		if it.Err != nil {
			res.Rejected = append(res.Rejected, Rejection{Line: it.Line, Message: it.Err.Error()})
			continue
		}
		p := it.Post
		if err := s.prepare(&p); err != nil {
			res.Rejected = append(res.Rejected, Rejection{Line: it.Line, Message: err.Error()})
			continue
		}
		ready = append(ready, p)
		lines = append(lines, it.Line)
	}
	for i, err := range s.publisher.PublishPosts(ctx, ready) {
		if err != nil {
			res.Rejected = append(res.Rejected, Rejection{Line: lines[i],
				Message: "the post could not be queued, try again: " + err.Error()})
			continue
		}
		res.Accepted++
	}
	return res
}

// Emit prepares and publishes one post; it is the connectors' way in.
func (s *Service) Emit(ctx context.Context, p post.Post) error {
	if err := s.prepare(&p); err != nil {
		return err
	}
	return s.publisher.PublishPosts(ctx, []post.Post{p})[0]
}

// prepare normalizes, checks the retention window and enriches.
func (s *Service) prepare(p *post.Post) error {
	now := s.now().UTC()
	if err := p.Normalize(now); err != nil {
		return err
	}
	if p.PublishedAt.Before(now.Add(-Retention)) {
		// Marked as final so that a connector skips the post instead of retrying it forever.
		return connector.Rejected(fmt.Errorf("published_at %s is older than the %d-day retention window",
			p.PublishedAt.Format(time.RFC3339), int(Retention.Hours()/24)))
	}
	if s.enricher != nil {
		s.enricher.Enrich(p)
	}
	return nil
}

// PostStore is where the storage stage puts posts.
type PostStore interface {
	InsertPosts(ctx context.Context, posts []post.Post) (int, error)
}

// Stage is a step after storage that must finish before a post is acknowledged (the
// percolator plugs in here).
type Stage func(ctx context.Context, posts []post.Post) error

// Pipeline consumes the stream: it stores each batch and then runs the later stages on it,
// acknowledging only when all of them succeeded.
type Pipeline struct {
	stream *stream.Stream
	store  PostStore
	stages []Stage
	log    *slog.Logger
}

func NewPipeline(s *stream.Stream, ps PostStore, log *slog.Logger, stages ...Stage) *Pipeline {
	return &Pipeline{stream: s, store: ps, stages: stages, log: log}
}

// StoreDurable is the storage stage's consumer name.
const StoreDurable = "store"

// Run consumes until ctx ends.
func (p *Pipeline) Run(ctx context.Context) error {
	err := p.stream.Consume(ctx, stream.ConsumeConfig{Durable: StoreDurable, Batch: 5000}, p.handle)
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

func (p *Pipeline) handle(ctx context.Context, posts []post.Post) error {
	if _, err := p.store.InsertPosts(ctx, posts); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	for _, stage := range p.stages {
		if err := stage(ctx, posts); err != nil {
			return err
		}
	}
	return nil
}

// Expiry deletes one kind of data older than a cutoff and says how many rows went.
type Expiry struct {
	What   string
	Delete func(ctx context.Context, cutoff time.Time) (int64, error)
}

// RunRetention deletes expired posts and everything derived from them every interval until ctx
// ends. Each deletion runs in small chunks so it never blocks ingest for long.
func RunRetention(ctx context.Context, expiries []Expiry, interval time.Duration, log *slog.Logger) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		for _, e := range expiries {
			n, err := e.Delete(ctx, time.Now().Add(-Retention))
			switch {
			case err != nil && ctx.Err() == nil:
				log.Warn("retention", "what", e.What, "err", err)
			case n > 0:
				log.Info("retention removed expired data", "what", e.What, "rows", n)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
