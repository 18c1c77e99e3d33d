package store

import (
	"context"
	"sync"
	"time"

	"github.com/sightline/sightline/internal/post"
)

// Upkeep after bulk loads (PostgreSQL): fresh statistics and a visibility map.
//
// The planner chooses a search's plan from a partition's statistics. Autovacuum analyzes a
// partition once a tenth of it changed, but only on its next round, so a partition filled in a
// minute is searched for a while with the statistics of when it was small (at 200,000 posts that
// made the p99 1,062 ms instead of 189 ms). The store therefore analyzes a partition itself each
// time the posts it inserted there since the last analysis reach what the partition held then:
// at 5,000 posts, 10,000, 20,000 and so on, a few analyses for any load.
//
// A search finds the edges of its steps from the time index alone (search.go), an index-only
// scan, which reads the table for every row on a page the visibility map does not mark visible
// to all. Only VACUUM marks them, autovacuum may be off or behind (an insert-only partition waits
// for a fifth of it to be new), and the newest rows, the ones a search reads first, are the ones
// never vacuumed: at a million posts the 50,000 rows of a search's edges cost 50,000 table reads.
// So the store also vacuums a partition once vacuumEvery posts were inserted there since its
// last vacuum, and once inserts pause for settle. An insert-only partition's vacuum reads only
// the pages added since the last one (a million posts: 0.4 s), and it skips the indexes, which
// have nothing to remove (their cleanup scan of the full-text index would take longer than the
// table). VACUUM cannot run in a transaction; it takes a lock that lets inserts and reads go on.
//
// The work runs beside ingest, one statement at a time.
const (
	analyzeFirst = 5000
	// vacuumEvery keeps the rows a search's walk meets without a visibility map to half the walk.
	vacuumEvery = pgWalk / 2
	settle      = time.Second
)

// growth counts what this store inserted into each partition since its last analysis and since
// its last vacuum.
type growth struct {
	mu         sync.Mutex
	since      map[string]int64 // inserted since the last analysis
	held       map[string]int64 // inserted up to the last analysis
	unvacuumed map[string]int64 // inserted since the last vacuum
	last       time.Time        // when the last batch was counted
	settle     time.Duration
	quiet      *time.Timer // runs the upkeep once inserts pause
	running    bool
	idle       *sync.Cond // on mu: broadcast when a statement ends and none follows
	ctx        context.Context
	stop       context.CancelFunc
}

func newGrowth() *growth {
	ctx, stop := context.WithCancel(context.Background())
	g := &growth{since: map[string]int64{}, held: map[string]int64{}, unvacuumed: map[string]int64{},
		settle: settle, ctx: ctx, stop: stop}
	g.idle = sync.NewCond(&g.mu)
	return g
}

// noteInserted counts a stored batch and starts the upkeep a partition needs.
func (s *Store) noteInserted(posts []post.Post) {
	g := s.growth
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, p := range posts {
		name := partitionName(p.PublishedAt.UTC().Truncate(day))
		g.since[name]++
		g.unvacuumed[name]++
	}
	g.last = time.Now()
	if g.quiet == nil {
		g.quiet = time.AfterFunc(g.settle, s.upkeep)
	} else {
		g.quiet.Reset(g.settle)
	}
	s.startUpkeep()
}

// upkeep starts the upkeep that is due, if none is running.
func (s *Store) upkeep() {
	s.growth.mu.Lock()
	defer s.growth.mu.Unlock()
	s.startUpkeep()
}

// startUpkeep starts the next statement that is due, if none is running; each statement starts
// the next when it ends. g.mu is held.
func (s *Store) startUpkeep() {
	g := s.growth
	if g.running || g.ctx.Err() != nil {
		return
	}
	name, statement := g.next(time.Since(g.last) >= g.settle)
	if statement == "" {
		return
	}
	g.running = true
	go func() {
		ctx, cancel := context.WithTimeout(g.ctx, 10*time.Minute)
		// A failure (the partition dropped by retention meanwhile, the store closing) only
		// leaves the partition to autovacuum.
		if _, err := s.write.ExecContext(ctx, statement); err == nil {
			s.write.ExecContext(ctx, cleanPendingList, name)
		}
		cancel()
		g.mu.Lock()
		defer g.mu.Unlock()
		g.running = false
		s.startUpkeep()
		if !g.running {
			g.idle.Broadcast()
		}
	}()
}

// next is a partition and the statement it needs, "" when none does: an analysis (with a vacuum)
// when it grew by what it held at its last analysis, a vacuum when vacuumEvery posts were
// inserted since its last one, or since inserts settled, any. It counts the partition's posts as
// done. g.mu is held.
func (g *growth) next(settled bool) (name, statement string) {
	const vacuum = "VACUUM (INDEX_CLEANUP OFF, TRUNCATE FALSE, SKIP_LOCKED"
	for name, n := range g.since {
		if n < max(analyzeFirst, g.held[name]) {
			continue
		}
		g.held[name] += n
		delete(g.since, name)
		delete(g.unvacuumed, name)
		return name, vacuum + ", ANALYZE) " + name
	}
	for name, n := range g.unvacuumed {
		if n >= vacuumEvery || settled {
			delete(g.unvacuumed, name)
			return name, vacuum + ") " + name
		}
	}
	return "", ""
}

// cleanPendingList moves the posts a GIN index holds in its pending list (its fast inserts) into
// the index proper. Every search through the index reads the whole list, up to 4 MB; the
// vacuum above leaves it, since it skips the indexes.
const cleanPendingList = `SELECT gin_clean_pending_list(i.indexrelid::regclass) FROM pg_index i
	JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
	WHERE i.indrelid = $1::text::regclass AND a.amname = 'gin'`

// wait waits until no statement runs. g.mu is held.
func (g *growth) wait() {
	for g.running {
		g.idle.Wait()
	}
}

// close stops the upkeep: it cancels a running statement and waits for it. Once the context is
// cancelled no statement starts (startUpkeep checks it under g.mu).
func (g *growth) close() {
	g.stop()
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.quiet != nil {
		g.quiet.Stop()
	}
	g.wait()
}
