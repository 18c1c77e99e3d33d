package sourcing

import (
	"context"
	"crypto/rand"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/sightline/sightline/internal/connector"
	"github.com/sightline/sightline/internal/post"
)

// Manager runs the enabled sources this node holds. On every tick, and at once after a change
// on this node, it claims the enabled sources that are free or already its own (a lease in the
// sources table, as exports claim their work), starts those not running, restarts those edited
// since they started and stops those deleted, disabled or lost. A node that stops releases its
// sources; one that dies loses them when its lease runs out, and another node takes them over.
// Each source thus runs on one node. Every tick it also writes each running source's report.
type Manager struct {
	store    Store
	build    BuildFunc
	cursors  connector.CursorStore
	emit     EmitFunc
	operator *Operator
	log      *slog.Logger
	claim    string
	// Tick is how often the manager reconciles and reports; Lease how long a claim lasts.
	Tick  time.Duration
	Lease time.Duration
	// Deletions is where a row's connectors that hear of deleted posts (connector.Deleter)
	// report them, for posts owned by owner (ingest.Service.DeleteFrom); nil leaves them unheard.
	Deletions func(owner int64) connector.DeleteFunc

	wake    chan struct{}
	mu      sync.Mutex
	running map[int64]*running
	// offline is what the log last said of the node's reach (Offline), so it says it once.
	offline bool
}

type running struct {
	row      Source
	srcs     []connector.Source
	cancel   context.CancelFunc
	done     chan struct{}
	buildErr string
	// counts are the items emitted per Unix minute over the last hour.
	counts     map[int64]int64
	lastCount  int64
	lastItemAt time.Time
	// saidUnreachable: the log has had this source's address not answering, or the server's
	// being offline, which says it for every source; a success clears it.
	saidUnreachable bool
}

// EmitFunc is where a row's posts go: owned by owner (0 for the operator's shared sources)
// and carrying origin (ingest.Service.EmitFrom).
type EmitFunc func(owner int64, origin post.Origin) connector.EmitFunc

// NewManager runs sources with build, keeping cursors in cursors and emitting into emit, each
// row's posts owned as operator says.
func NewManager(store Store, build BuildFunc, cursors connector.CursorStore, emit EmitFunc, operator *Operator, log *slog.Logger) *Manager {
	return &Manager{store: store, build: build, cursors: cursors, emit: emit, operator: operator, log: log, claim: rand.Text(),
		Tick: 10 * time.Second, Lease: 45 * time.Second, wake: make(chan struct{}, 1), running: map[int64]*running{}}
}

// Changed makes the manager reconcile at once.
func (m *Manager) Changed() {
	select {
	case m.wake <- struct{}{}:
	default:
	}
}

// Run manages the sources until ctx ends, then stops them and releases their claims.
func (m *Manager) Run(ctx context.Context) error {
	t := time.NewTicker(m.Tick)
	defer t.Stop()
	defer m.stopAll()
	for {
		m.reconcile(ctx)
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		case <-m.wake:
		}
	}
}

func (m *Manager) reconcile(ctx context.Context) {
	now := time.Now()
	// The claim runs to its end even if the node stops meanwhile: a claim cancelled in flight can
	// still commit on PostgreSQL after the release that follows it, and hold the sources from
	// the other nodes for a lease.
	claimCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), claimTimeout)
	held, err := m.store.ClaimSources(claimCtx, m.claim, now, now.Add(m.Lease))
	cancel()
	if err != nil {
		m.log.Warn("sources: claiming", "err", err)
		return
	}
	if ctx.Err() != nil {
		return // stopping: Run releases what was claimed
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	want := map[int64]Source{}
	for _, r := range held {
		want[r.ID] = r
	}
	for id, run := range m.running {
		r, ok := want[id]
		if !ok || !r.UpdatedAt.Equal(run.row.UpdatedAt) {
			run.stop()
			delete(m.running, id)
		}
	}
	for id, r := range want {
		if _, ok := m.running[id]; ok {
			continue
		}
		owner, origin, err := m.operator.PostsOf(ctx, r)
		if err != nil { // tried again on the next tick
			m.log.Warn("sources: reading who owns a source's posts", "source", r.Name, "err", err)
			continue
		}
		m.running[id] = m.start(ctx, r, owner, m.emit(owner, origin))
	}
	rows := make([]Source, 0, len(m.running))
	for id, run := range m.running {
		row := run.row
		row.Report = run.report(now)
		rows = append(rows, row)
		if err := m.store.SaveSourceReport(ctx, id, m.claim, row.Report); err != nil && ctx.Err() == nil {
			m.log.Warn("sources: saving a report", "source", run.row.Name, "err", err)
		}
	}
	if offline := Offline(rows); offline != m.offline {
		m.offline = offline
		if offline {
			m.log.Warn(OfflineMessage)
		} else {
			m.log.Info("sources: public addresses answer again")
			for _, run := range m.running {
				run.saidUnreachable = false // those still not answering are said one by one now
			}
		}
	}
	m.sayUnreachable(rows)
}

// sayUnreachable logs once each source whose address stopped answering (the poller leaves that
// to the manager), unless the server is offline: then OfflineMessage has said it for all. A
// first failure waits while nothing tells yet whether the network works (the other sources
// have not all run): at a start offline, the notice comes a tick later, alone.
func (m *Manager) sayUnreachable(rows []Source) {
	works := Reaching(rows)
	for _, row := range rows {
		run, st := m.running[row.ID], row.Report.Stats
		switch {
		case st.Failures == 0 || !st.Unreachable:
			run.saidUnreachable = false
		case !run.saidUnreachable && (m.offline || works || st.Failures > 1):
			run.saidUnreachable = true
			level := slog.LevelWarn
			if m.offline {
				level = slog.LevelDebug
			}
			m.log.Log(context.Background(), level, "source round failed", "source", row.Name, "err", st.LastError)
		}
	}
}

func (m *Manager) start(ctx context.Context, r Source, owner int64, emit connector.EmitFunc) *running {
	run := &running{row: r, counts: map[int64]int64{}, done: make(chan struct{})}
	srcs, err := m.build(r, m.cursors, "source:"+strconv.FormatInt(r.ID, 10)+":")
	if err != nil {
		run.buildErr = connector.RedactText(err.Error())
		close(run.done)
		m.log.Warn("sources: cannot run", "source", r.Name, "err", run.buildErr)
		return run
	}
	if m.Deletions != nil {
		for _, src := range srcs {
			if d, ok := src.(connector.Deleter); ok {
				d.OnDelete(m.Deletions(owner))
			}
		}
	}
	run.srcs = supervise(srcs)
	srcs = run.srcs
	ctx, run.cancel = context.WithCancel(ctx)
	m.log.Info("sources: started", "source", r.Name, "type", r.Type)
	go func() {
		defer close(run.done)
		if err := Run(ctx, srcs, emit); err != nil && ctx.Err() == nil {
			m.log.Error("sources: stopped", "source", r.Name, "err", connector.RedactText(err.Error()))
		}
	}()
	return run
}

func (r *running) stop() {
	if r.cancel != nil {
		r.cancel()
	}
	<-r.done
}

func (r *running) report(now time.Time) Report {
	st := total(r.srcs)
	// A source restarted (edited, or claimed by another node) keeps its last success: it worked
	// before, which the health and the sources badge tell apart from a source that never did.
	if st.LastSuccess.IsZero() {
		st.LastSuccess = r.row.Report.Stats.LastSuccess
	}
	minute := now.Unix() / 60
	if delta := st.Count - r.lastCount; delta > 0 {
		r.counts[minute] += delta
		r.lastItemAt = now
	}
	r.lastCount = st.Count
	minutes := make([]int64, 60)
	for m, n := range r.counts {
		if i := 59 - int(minute-m); i >= 0 && i < 60 {
			minutes[i] = n
		} else {
			delete(r.counts, m)
		}
	}
	return Report{ReportedAt: now.UTC(), Stats: st, Minutes: minutes, LastItemAt: r.lastItemAt, BuildError: r.buildErr}
}

// claimTimeout bounds one claim of the sources.
const claimTimeout = 10 * time.Second

func (m *Manager) stopAll() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for id, run := range m.running {
		run.stop()
		delete(m.running, id)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := m.store.ReleaseSources(ctx, m.claim); err != nil {
		m.log.Warn("sources: releasing", "err", err)
	}
}
