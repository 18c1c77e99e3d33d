// Package ingest takes posts in (from the ingest API, the CLI and the connectors), makes them
// ready for the pipeline (normalize, refuse what retention would drop, enrich) and puts them on
// the stream; and it runs the storage stage that takes them off the stream into the store.
package ingest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"github.com/sightline/sightline/internal/connector"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/stream"
)

// Retention is how long posts and everything derived from them are kept unless the operator
// chooses otherwise (--retention); MinRetention and MaxRetention bound that choice.
const (
	Retention    = 30 * 24 * time.Hour
	MinRetention = 7 * 24 * time.Hour
	MaxRetention = 400 * 24 * time.Hour
)

// Publisher puts posts on the stream. PublishPostsSynced returns once the posts are on disk
// (stream.Stream.PublishPostsSynced); a post the stream refused as full has an error that is
// stream.ErrFull.
type Publisher interface {
	PublishPosts(ctx context.Context, posts []post.Post) []error
	PublishPostsSynced(ctx context.Context, posts []post.Post) []error
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
	retention time.Duration
	// deleter records deletions (WithDeletions); nil refuses them.
	deleter PostDeleter
}

// NewService publishes through publisher after enricher. retention is how far back a post may
// be published and still be taken: what the store keeps (the server's --retention; Retention,
// 30 days, when 0).
func NewService(publisher Publisher, enricher Enricher, retention time.Duration) *Service {
	return &Service{publisher: publisher, enricher: enricher, now: time.Now, retention: cmp.Or(retention, Retention)}
}

// Retention is how far back a post may be published and still be taken.
func (s *Service) Retention() time.Duration { return s.retention }

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

// Bounds of one submission. A submission is read, prepared and published a chunk at a time, so
// its memory is bounded by a chunk and the listed rejections, whatever the size of the body.
const (
	// MaxBody is the most bytes one submission may hold; larger files go in several requests
	// (the CLI does).
	MaxBody = 32 << 20
	// MaxItems is the most posts one submission may hold.
	MaxItems = 100_000
	// MaxRejectionsListed is how many rejections a result lists; RejectedCount counts them all.
	MaxRejectionsListed = 1000
	// chunk is how many posts are published at once.
	chunk = 500
)

// Result is what became of a submission.
type Result struct {
	Accepted int `json:"accepted"`
	// Rejected lists the first MaxRejectionsListed rejections, in the order found: by line,
	// except that a post the stream refused comes after the other rejections of its chunk.
	Rejected []Rejection `json:"rejected"`
	// RejectedCount counts every rejection, listed or not.
	RejectedCount int `json:"rejectedCount"`
}

func (r *Result) reject(line int, message string) {
	r.RejectedCount++
	if len(r.Rejected) < MaxRejectionsListed {
		r.Rejected = append(r.Rejected, Rejection{Line: line, Message: message})
	}
}

// Origin is who pushes posts through the ingest API. Every post they push carries it.
type Origin struct {
	// Namespace keeps the origin's post ids apart from connectors' and other origins' (see
	// post.NewIngestID): "ingest:<token id>", or "ingest:user-<id>" for a signed-in user.
	Namespace string
	// Source is the provenance shown with the post: the token's name.
	Source string
	UserID int64
	// Tenant is the pusher's tenant: ingested posts are that tenant's own, seen by no other.
	Tenant int64
}

// OriginOf names the origin of posts pushed with an API token (tokenID not 0) or by a signed-in
// user of a tenant: each token is a source of its own, named after the token. A signed-in
// user's pushes are labelled without naming who they are.
func OriginOf(tokenID int64, tokenName string, userID, tenantID int64) Origin {
	if tokenID != 0 {
		return Origin{Namespace: fmt.Sprintf("ingest:%d", tokenID), Source: tokenName, UserID: userID, Tenant: tenantID}
	}
	return Origin{Namespace: fmt.Sprintf("ingest:user-%d", userID), Source: SessionSource, UserID: userID, Tenant: tenantID}
}

// SessionSource is the source of posts a signed-in user pushed without an API token.
const SessionSource = "signed-in upload"

// Submit reads posts from r (NDJSON or a JSON array) and prepares and publishes them a chunk at
// a time as they are read. An accepted post is on disk in the stream: each chunk is synced
// before it is counted. A bad item never stops the good ones. Reading stops at MaxBody bytes
// or MaxItems items, with a problem of kind TooLarge that carries the result so far: what was
// published until then stays accepted; and when the stream is full, with a problem of kind
// Unavailable that carries it likewise. Input that cannot be read further ends the submission
// with a rejection at the line where reading stopped; the submission is still answered.
func (s *Service) Submit(ctx context.Context, r io.Reader, o Origin) (Result, error) {
	body := &cappedReader{r: r, left: MaxBody}
	dec := NewDecoder(body)
	res := Result{Rejected: []Rejection{}}
	b := s.newBatcher(o, &res)
	lastLine := 0
	for n := 0; ; n++ {
		it, err := dec.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			b.flush(ctx)
			if b.full {
				return res, queueFull(res)
			}
			if errors.Is(err, errBodyTooLarge) {
				return res, tooLarge(res, fmt.Sprintf("The request body is larger than %d MiB.", MaxBody>>20))
			}
			res.reject(lastLine+1, "reading stopped here: "+err.Error())
			return res, nil
		}
		lastLine = it.Line
		if n == MaxItems {
			b.flush(ctx)
			if b.full {
				return res, queueFull(res)
			}
			return res, tooLarge(res, fmt.Sprintf("The request holds more than %d posts.", MaxItems))
		}
		if b.add(ctx, it); b.full {
			return res, queueFull(res)
		}
	}
	if b.flush(ctx); b.full {
		return res, queueFull(res)
	}
	return res, nil
}

// msgQueueFull is the rejection of a post the full stream refused.
const msgQueueFull = "not accepted: Sightline's queue of posts waiting to be stored is full; send it again later"

// queueFull ends a submission the stream stopped taking: nothing after the chunk it refused is
// read. The posts accepted before stay accepted.
func queueFull(res Result) error {
	p := problem.Unavailable(fmt.Sprintf("Sightline is not taking posts at the moment: its queue of posts waiting "+
		"to be stored is full. Posts up to there were processed: %d accepted, %d rejected; send the rest later.",
		res.Accepted, res.RejectedCount))
	p.Extra = map[string]any{"accepted": res.Accepted, "rejected": res.Rejected, "rejectedCount": res.RejectedCount}
	return p
}

func tooLarge(res Result, reason string) error {
	p := problem.TooLarge(fmt.Sprintf("%s Posts up to there were processed: %d accepted, %d rejected; "+
		"send the rest in another request.", reason, res.Accepted, res.RejectedCount))
	p.Extra = map[string]any{"accepted": res.Accepted, "rejected": res.Rejected, "rejectedCount": res.RejectedCount}
	return p
}

// Accept prepares and publishes items already in memory (the benchmarks' way in).
func (s *Service) Accept(ctx context.Context, items []Item) Result {
	res := Result{Rejected: []Rejection{}}
	b := s.newBatcher(Origin{}, &res)
	for _, it := range items {
		b.add(ctx, it)
	}
	b.flush(ctx)
	return res
}

// batcher prepares items and publishes them a chunk at a time.
type batcher struct {
	s      *Service
	origin Origin
	res    *Result
	ready  []post.Post
	lines  []int
	// full is set once the stream refused a post as full.
	full bool
}

func (s *Service) newBatcher(o Origin, res *Result) *batcher {
	return &batcher{s: s, origin: o, res: res, ready: make([]post.Post, 0, chunk), lines: make([]int, 0, chunk)}
}

func (b *batcher) add(ctx context.Context, it Item) {
	if it.Err != nil {
		b.res.reject(it.Line, it.Err.Error())
		return
	}
	p := it.Post
	if err := b.s.prepare(&p, b.origin); err != nil {
		b.res.reject(it.Line, err.Error())
		return
	}
	b.ready = append(b.ready, p)
	b.lines = append(b.lines, it.Line)
	if len(b.ready) == chunk {
		b.flush(ctx)
	}
}

func (b *batcher) flush(ctx context.Context) {
	if len(b.ready) == 0 {
		return
	}
	for i, err := range b.s.publisher.PublishPostsSynced(ctx, b.ready) {
		if errors.Is(err, stream.ErrFull) {
			b.full = true
			b.res.reject(b.lines[i], msgQueueFull)
			continue
		}
		if err != nil {
			b.res.reject(b.lines[i], "the post could not be queued, try again: "+err.Error())
			continue
		}
		b.res.Accepted++
	}
	clear(b.ready)
	b.ready, b.lines = b.ready[:0], b.lines[:0]
}

var errBodyTooLarge = errors.New("the body is too large")

// cappedReader reads at most left bytes and then fails with errBodyTooLarge if there is more.
type cappedReader struct {
	r    io.Reader
	left int64
}

func (c *cappedReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		var probe [1]byte
		if n, err := c.r.Read(probe[:]); n > 0 {
			return 0, errBodyTooLarge
		} else {
			return 0, err
		}
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}

// Emit prepares and publishes one post of the operator's shared sources (the node's own, such
// as the simulator); it is the connectors' way in.
func (s *Service) Emit(ctx context.Context, p post.Post) error {
	return s.EmitFrom(0, post.Origin{Kind: post.OriginShared})(ctx, p)
}

// EmitFrom is the way in of a source row's connectors: their posts belong to tenant (0 for
// the operator's shared sources) and carry origin.
func (s *Service) EmitFrom(tenant int64, origin post.Origin) connector.EmitFunc {
	return func(ctx context.Context, p post.Post) error {
		if err := s.prepare(&p, Origin{}); err != nil {
			return err
		}
		p.Tenant, p.Origin = tenant, &origin
		if tenant != 0 {
			p.ID = post.NewTenantID(tenant, p.Provider, p.NativeID)
		}
		return s.publisher.PublishPosts(ctx, []post.Post{p})[0]
	}
}

// prepare normalizes, stamps the origin (a connector's is empty), checks the retention window
// and enriches.
func (s *Service) prepare(p *post.Post, o Origin) error {
	now := s.now().UTC()
	if err := p.Normalize(now); err != nil {
		return err
	}
	p.Source, p.SourceUserID, p.Tenant, p.Origin, p.StoryID, p.DeletedAt = o.Source, o.UserID, o.Tenant, nil, "", nil
	if o.Namespace != "" {
		p.ID = post.NewIngestID(o.Namespace, p.Provider, p.NativeID)
		p.Origin = &post.Origin{Kind: post.OriginIngest, Name: o.Source}
	}
	if p.PublishedAt.Before(now.Add(-s.retention)) {
		// Marked as final so that a connector skips the post instead of retrying it forever.
		return connector.Rejected(fmt.Errorf("published_at %s is older than the %d-day retention window",
			p.PublishedAt.Format(time.RFC3339), int(s.retention.Hours()/24)))
	}
	return s.enrich(p)
}

// enrich runs the enricher on one post. A panic refuses that post for good (marked Rejected, so
// a connector counts it as dead-lettered and goes on, and a submission lists it as rejected)
// instead of ending the process or stopping the source on it forever.
func (s *Service) enrich(p *post.Post) (err error) {
	if s.enricher == nil {
		return nil
	}
	defer func() {
		if r := recover(); r != nil {
			slog.Error("enrichment panicked; the post is refused", "provider", p.Provider, "native_id", p.NativeID,
				"panic", r, "stack", string(debug.Stack()))
			err = connector.Rejected(errors.New("the post could not be enriched (an internal error); it was not stored"))
		}
	}()
	s.enricher.Enrich(p)
	return nil
}

// PostStore is where the storage stage puts posts.
type PostStore interface {
	InsertPosts(ctx context.Context, posts []post.Post) (int, error)
}

// Stage is a step after storage that must finish before a post is acknowledged (the
// percolator plugs in here).
type Stage func(ctx context.Context, posts []post.Post) error

// StoryAssigner gives each post of a batch its story before the batch is stored (story.Stage).
type StoryAssigner interface {
	Assign(posts []post.Post)
}

// StoryWindow is a StoryAssigner that takes back stored posts with their stories (story.Stage):
// at start, and on a cluster the posts other nodes stored.
type StoryWindow interface {
	StoryAssigner
	Seed(p *post.Post)
}

// StoryStore is where a story window is rebuilt from, and, when several nodes share it, what
// keeps their windows one (the store; docs/stories.md, "Where the state lives").
type StoryStore interface {
	// EachRecentPost calls fn with each post published since a time, oldest first.
	EachRecentPost(ctx context.Context, since time.Time, fn func(p *post.Post)) error
	// SharesStories reports whether other nodes may store posts in it (PostgreSQL).
	SharesStories() bool
	// StoryCursor is where the posts stored after now will be read from.
	StoryCursor(ctx context.Context) (int64, error)
	// InsertPostsInStoryOrder stores a batch under a lock every node takes: it folds in the
	// posts stored since after, assigns the batch's stories and stores the batch, and returns
	// the new cursor.
	InsertPostsInStoryOrder(ctx context.Context, posts []post.Post, after int64,
		fold func(p *post.Post), assign func(posts []post.Post)) (int64, int, error)
}

// Pipeline consumes the stream: it gives each post of a batch its story, stores the batch and
// then runs the later stages on it, acknowledging only when all of them succeeded. The later
// stages of a batch run while the next batch is given its stories and stored (stream.Consume's
// After): a post is percolated only once stored, and acknowledged only once percolated.
type Pipeline struct {
	stream  *stream.Stream
	store   PostStore
	stories StoryAssigner
	stages  []Stage
	log     *slog.Logger
	// mu keeps the storing of batches one at a time (a failed batch's halves are stored again
	// beside the next batch) and guards what follows.
	mu sync.Mutex
	// shared, when set, stores batches in the cluster's story order, folding into window the
	// posts other nodes stored after cursor.
	shared StoryStore
	window StoryWindow
	cursor int64
}

func NewPipeline(s *stream.Stream, ps PostStore, log *slog.Logger, stages ...Stage) *Pipeline {
	return &Pipeline{stream: s, store: ps, stages: stages, log: log}
}

// AssignStories makes the pipeline give each post its story before storing it.
func (p *Pipeline) AssignStories(a StoryAssigner) { p.stories = a }

// LoadStories rebuilds the window from the posts the store holds that were published since a
// time and makes the pipeline give each post its story with it. On a store several nodes share
// (SharesStories), each batch is then stored under the store's lock after the posts the other
// nodes stored since this node's last batch were folded into the window, so that every node
// clusters every post against all the posts stored before it; on one node's store (SQLite)
// batches are stored as before, with no lock and nothing to fold.
func (p *Pipeline) LoadStories(ctx context.Context, w StoryWindow, s StoryStore, since time.Time) error {
	var cursor int64
	if s.SharesStories() {
		// Read before the window is rebuilt: what is stored meanwhile is folded in afterwards.
		var err error
		if cursor, err = s.StoryCursor(ctx); err != nil {
			return fmt.Errorf("stories: %w", err)
		}
	}
	if err := s.EachRecentPost(ctx, since, w.Seed); err != nil {
		return fmt.Errorf("stories: rebuild the window: %w", err)
	}
	p.stories = w
	if s.SharesStories() {
		p.mu.Lock()
		p.shared, p.window, p.cursor = s, w, cursor
		p.mu.Unlock()
	}
	return nil
}

// StoreDurable is the storage stage's consumer name.
const StoreDurable = "store"

// Run consumes until ctx ends.
func (p *Pipeline) Run(ctx context.Context) error {
	err := p.stream.Consume(ctx, stream.ConsumeConfig{Durable: StoreDurable, Batch: 5000, After: p.runStages}, p.storeBatch)
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// runStages runs the stages after storage on a stored batch.
func (p *Pipeline) runStages(ctx context.Context, posts []post.Post) error {
	for _, stage := range p.stages {
		if err := stage(ctx, posts); err != nil {
			return err
		}
	}
	return nil
}

// storeBatch gives the batch its stories and stores it.
func (p *Pipeline) storeBatch(ctx context.Context, posts []post.Post) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shared == nil {
		if p.stories != nil {
			p.stories.Assign(posts)
		}
		if _, err := p.store.InsertPosts(ctx, posts); err != nil {
			return fmt.Errorf("store: %w", err)
		}
		return nil
	}
	// The cursor moves with each batch.
	cursor, _, err := p.shared.InsertPostsInStoryOrder(ctx, posts, p.cursor, p.window.Seed, p.window.Assign)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	p.cursor = cursor
	return nil
}

// Expiry deletes one kind of data older than a cutoff and says how many rows went.
type Expiry struct {
	What   string
	Delete func(ctx context.Context, cutoff time.Time) (int64, error)
}

// RunRetention deletes what is older than retention (posts and everything derived from them)
// every interval until ctx ends. Each deletion runs in small chunks so it never blocks ingest
// for long.
func RunRetention(ctx context.Context, expiries []Expiry, retention, interval time.Duration, log *slog.Logger) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		for _, e := range expiries {
			n, err := e.Delete(ctx, time.Now().Add(-retention))
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
