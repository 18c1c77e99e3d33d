package backtest

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/percolate"
	"github.com/sightline/sightline/internal/post"
)

// BackfillStore is what backfills read and record (store.Store).
type BackfillStore interface {
	Store
	Search(ctx context.Context, id int64) (monitor.Search, error)
	Organization(ctx context.Context, id int64) (account.Organization, error)
	Backfill(ctx context.Context, searchID int64) (monitor.Backfill, bool, error)
	SaveBackfill(ctx context.Context, b monitor.Backfill) error
	RunningBackfills(ctx context.Context) ([]monitor.Backfill, error)
}

// Writer stores the matches a backfill found through the percolator's write path
// (monitor.Percolator.Backfill), returning how many are new.
type Writer interface {
	Backfill(ctx context.Context, m monitor.Search, posts []post.Post) (int, error)
}

// BackfillDeps are what Backfills work with; Notifier may be nil.
type BackfillDeps struct {
	Store    BackfillStore
	Lists    monitor.FilterListSource
	Writer   Writer
	Notifier monitor.Notifier
	Logger   *slog.Logger
}

// Backfills fill saved searches' inboxes from the stored posts of their last days, in the
// background: the posts the preview counts (the same candidates and matcher), written as the
// percolator writes matches. A search has one backfill at a time: a new one stops the one
// before. Running one again adds nothing, as matches are unique per search and post.
type Backfills struct {
	d BackfillDeps
	// ctx is the node's: backfills outlive the request that starts them; Run ends it.
	ctx  context.Context
	stop context.CancelFunc
	now  func() time.Time

	mu      sync.Mutex
	running map[int64]*job
	wg      sync.WaitGroup
}

// job is a running backfill.
type job struct{ stop context.CancelFunc }

// NewBackfills makes the node's backfills; they run from Start until Run's context ends.
func NewBackfills(d BackfillDeps) *Backfills {
	ctx, stop := context.WithCancel(context.Background())
	return &Backfills{d: d, ctx: ctx, stop: stop, now: time.Now, running: map[int64]*job{}}
}

// Run resumes the backfills the node was running when it last stopped and, when ctx ends,
// stops every backfill and waits for them.
func (b *Backfills) Run(ctx context.Context) error {
	err := b.resume(ctx)
	<-ctx.Done()
	b.stop()
	b.wg.Wait()
	return err
}

// Start records the backfill of the last days of search m as running and runs it, telling
// userID of its progress.
func (b *Backfills) Start(ctx context.Context, userID int64, m monitor.Search, days int) (monitor.Backfill, error) {
	now := b.now().UTC()
	bf := monitor.Backfill{SearchID: m.ID, Days: days, Status: monitor.BackfillRunning, StartedAt: now, UpdatedAt: now}
	if err := b.d.Store.SaveBackfill(ctx, bf); err != nil {
		return monitor.Backfill{}, err
	}
	b.run(userID, m, bf)
	return bf, nil
}

// Backfill is the search's latest backfill.
func (b *Backfills) Backfill(ctx context.Context, searchID int64) (monitor.Backfill, bool, error) {
	return b.d.Store.Backfill(ctx, searchID)
}

// resume runs again the backfills a node was running when it stopped, telling the searches'
// owners of their progress: what they stored before is not stored twice.
func (b *Backfills) resume(ctx context.Context) error {
	running, err := b.d.Store.RunningBackfills(ctx)
	if err != nil {
		return err
	}
	for _, bf := range running {
		m, err := b.d.Store.Search(ctx, bf.SearchID)
		if err != nil {
			continue // deleted meanwhile: its backfill went with it
		}
		b.run(m.OwnerID, m, bf)
	}
	return nil
}

// Wait waits for the running backfills to end.
func (b *Backfills) Wait() { b.wg.Wait() }

func (b *Backfills) run(userID int64, m monitor.Search, bf monitor.Backfill) {
	ctx, cancel := context.WithCancel(b.ctx)
	j := &job{stop: cancel}
	b.mu.Lock()
	if before := b.running[m.ID]; before != nil {
		before.stop()
	}
	b.running[m.ID] = j
	b.mu.Unlock()
	b.wg.Go(func() {
		defer func() {
			b.mu.Lock()
			if b.running[m.ID] == j {
				delete(b.running, m.ID)
			}
			b.mu.Unlock()
			cancel()
		}()
		err := b.fill(ctx, userID, m, &bf)
		if ctx.Err() != nil {
			return // stopped by a newer backfill, or the node stops: Resume takes it up
		}
		bf.Status = monitor.BackfillDone
		if err != nil {
			b.d.Logger.Error("backfill a saved search", "search", m.ID, "err", err)
			bf.Status = monitor.BackfillFailed
		}
		b.record(context.WithoutCancel(ctx), userID, &bf)
	})
}

// fill scans the window's candidates newest first and writes the matches of each batch.
func (b *Backfills) fill(ctx context.Context, userID int64, m monitor.Search, bf *monitor.Backfill) error {
	lists := map[int64][]percolate.FilterList{}
	if b.d.Lists != nil {
		var err error
		if lists, err = b.d.Lists.ListsForSearches(ctx, []int64{m.ID}); err != nil {
			return err
		}
	}
	matcher, err := monitor.DraftMatcher(m, lists[m.ID])
	if err != nil {
		return err
	}
	org, err := b.d.Store.Organization(ctx, m.OrganizationID)
	if err != nil {
		return err
	}
	q := candidates(m, org.TenantID, bf.StartedAt, bf.Days)
	bf.Scanned, bf.Added = 0, 0
	for {
		q.Limit = batch
		found, err := b.d.Store.CandidatePosts(ctx, q)
		if err != nil {
			return err
		}
		var matched []post.Post
		for _, c := range found {
			if matcher.Match(percolate.DocOf(c.Post), q.To) {
				matched = append(matched, c.Post)
			}
		}
		if len(matched) > 0 {
			added, err := b.d.Writer.Backfill(ctx, m, matched)
			bf.Added += int64(added)
			if err != nil {
				return err
			}
		}
		bf.Scanned += int64(len(found))
		if len(found) < q.Limit {
			return nil
		}
		b.record(ctx, userID, bf)
		q.After = &found[len(found)-1].Cursor
	}
}

// record stores the progress and tells the user of it.
func (b *Backfills) record(ctx context.Context, userID int64, bf *monitor.Backfill) {
	bf.UpdatedAt = b.now().UTC()
	if err := b.d.Store.SaveBackfill(ctx, *bf); err != nil {
		b.d.Logger.Warn("record a backfill's progress", "search", bf.SearchID, "err", err)
	}
	if b.d.Notifier != nil {
		b.d.Notifier.PublishToUser(ctx, userID, monitor.EventBackfillUpdated, bf.Reply())
	}
}
