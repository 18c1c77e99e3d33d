package alerts

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/sightline/sightline/internal/alerts/channel"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/geom"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/post"
)

// sendEvery is how often a node looks for deliveries to send that no new match brought: retries
// whose backoff ended, and leases a stopped node left.
const sendEvery = 5 * time.Second

// signalSettle is how long a node waits after the percolator tells it of new matches before it
// collects them: the posts of one ingest or one burst are stored in several batches a moment
// apart, and an immediate alert (a webhook) sends them as one delivery rather than one a batch.
const signalSettle = 250 * time.Millisecond

// DefaultScanEvery is how often a node looks at every search's alerts: a safety net for
// matches it was not told of (the node that stored them stopped before its alerts ran).
const DefaultScanEvery = time.Minute

// Run collects and sends until ctx ends. Every node runs it: runs are claimed per alert and
// deliveries per row, so nodes share the work and never do the same twice. The searches the
// percolator reports new matches of (Signal) are collected at once, or when their alert falls
// due; every ScanEvery all searches are.
func (s *Service) Run(ctx context.Context) error {
	scan := time.NewTicker(s.ScanEvery)
	defer scan.Stop()
	wake := time.NewTimer(time.Hour)
	defer wake.Stop()
	// Senders run beside collecting, each taking due deliveries until none is left, then
	// waiting to be woken by a delivery written or by sendEvery: a search's deliveries go
	// while the next searches are collected, and a slow receiver holds up neither collection
	// nor the other senders.
	wakeSenders := make(chan struct{}, senders)
	s.onWritten = func() {
		for range senders {
			select {
			case wakeSenders <- struct{}{}:
			default:
				return
			}
		}
	}
	var workers sync.WaitGroup
	for range senders {
		workers.Add(1)
		go func() {
			defer workers.Done()
			s.sendLoop(ctx, wakeSenders)
		}()
	}
	defer workers.Wait()
	// waiting are the searches with new matches whose alerts are not due yet, and when they are.
	waiting := map[int64]time.Time{}
	all := true
	for {
		if all {
			if err := s.collectAll(ctx, waiting); err != nil && ctx.Err() == nil {
				s.Logger.Warn("alerts: collect", "err", err)
			}
			all = false
		}
		s.collectTold(ctx, waiting)
		wake.Reset(untilFirst(waiting, s.now()))
		select {
		case <-ctx.Done():
			return nil
		case <-scan.C:
			all = true
		case <-s.Signal.ready:
			if sleep(ctx, signalSettle) != nil {
				return nil
			}
		case <-wake.C:
		}
	}
}

// collectTold collects the searches the signal told of and those in waiting that fell due,
// and leaves in waiting those with an alert not due yet.
func (s *Service) collectTold(ctx context.Context, waiting map[int64]time.Time) {
	now := s.now().UTC()
	ids := s.Signal.take()
	for id, at := range waiting {
		if !now.Before(at) {
			ids = append(ids, id)
			delete(waiting, id)
		}
	}
	for _, id := range ids {
		m, err := s.Store.Search(ctx, id)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			continue // deleted since its matches were stored: no alert to send
		}
		if next := s.collectSearch(ctx, m, now); !next.IsZero() {
			if at, ok := waiting[id]; !ok || next.Before(at) {
				waiting[id] = next
			}
		}
	}
}

// untilFirst is how long until the first search in waiting falls due (an hour when none does;
// a signal or a scan comes first).
func untilFirst(waiting map[int64]time.Time, now time.Time) time.Duration {
	wait := time.Hour
	for _, at := range waiting {
		wait = min(wait, max(at.Sub(now), 0))
	}
	return wait
}

// Collect writes a delivery for every alert that is due and has new matches.
func (s *Service) Collect(ctx context.Context) error { return s.collectAll(ctx, nil) }

// collectAll is Collect, noting in waiting (when not nil) the searches with an alert not due
// yet or an escalation held (EscalationCooldown), and when to collect them again.
func (s *Service) collectAll(ctx context.Context, waiting map[int64]time.Time) error {
	searches, err := s.Store.Searches(ctx, 0)
	if err != nil {
		return err
	}
	now := s.now().UTC()
	for _, m := range searches {
		next := s.collectSearch(ctx, m, now)
		if at, ok := waiting[m.ID]; waiting != nil && !next.IsZero() && (!ok || next.Before(at)) {
			waiting[m.ID] = next
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	return nil
}

// collectSearch runs the search's alerts that are due; it returns when the first of the others
// falls due, or the first escalation a run held ends its cooldown (zero when none).
func (s *Service) collectSearch(ctx context.Context, m monitor.Search, now time.Time) time.Time {
	var first time.Time
	if !m.Enabled {
		return first
	}
	for _, n := range monitor.StoredSettings(m.NotificationSettings) {
		if !n.On() {
			continue
		}
		next, err := s.collect(ctx, m, n, now)
		if err != nil {
			if ctx.Err() != nil {
				return first
			}
			s.Logger.Warn("alerts: collect a search's alert", "search", m.ID, "type", n.Type, "err", err)
		}
		if !next.IsZero() && (first.IsZero() || next.Before(first)) {
			first = next
		}
	}
	return first
}

// collect runs one alert when it is due: it claims the run, then writes one delivery a
// destination of the matches no delivery of it covers yet. When the alert is not due, it
// returns when it will be; when the run held a story's escalation, when its cooldown ends.
func (s *Service) collect(ctx context.Context, m monitor.Search, n monitor.NotificationSetting, now time.Time) (time.Time, error) {
	last, err := s.Store.LastRun(ctx, m.ID, n.Type)
	if err != nil {
		return time.Time{}, err
	}
	if next := nextRun(n, last); now.Before(next) {
		return next, nil
	}
	if n.Type == monitor.AlertAISummary {
		// A summary set up while the organization had AI features is not sent once they are off.
		org, err := s.Store.Organization(ctx, m.OrganizationID)
		if err != nil || !monitor.OffersAISummary(org) {
			return time.Time{}, err
		}
	}
	if claimed, err := s.Store.ClaimRun(ctx, m.ID, n.Type, last, now); err != nil || !claimed {
		return time.Time{}, err
	}
	return s.deliver(ctx, m, n, last, now)
}

// deliver writes the deliveries of an alert's run claimed at now, the one before at last, and
// returns when the first escalation it held ends its cooldown (zero: none held).
func (s *Service) deliver(ctx context.Context, m monitor.Search, n monitor.NotificationSetting, last, now time.Time) (time.Time, error) {
	var err error
	since := windowStart(n, last, now)
	if n.LastUpdatedAt != nil {
		// Matches found before the alert was set up are not news to send; its first run
		// sends what came since.
		setUp := time.Unix(*n.LastUpdatedAt, 0)
		if last.IsZero() && n.Type != monitor.AlertDigest && n.Type != monitor.AlertAISummary {
			since = setUp
		}
		since = later(since, setUp)
	}
	var zone []geom.Shape
	if n.Type == monitor.AlertProximity {
		if zone, err = s.proximityZone(ctx, m.OrganizationID, n.LocationAssetIDs); err != nil || len(zone) == 0 {
			return time.Time{}, err
		}
	}
	var r *run
	for _, d := range n.Destinations {
		if ch, ok := s.Channels.Named(d.Type); !ok || !ch.Describe().Available {
			continue // a channel this server cannot send through: nothing to write that could be sent
		}
		ids, err := s.Store.UncoveredMatches(ctx, m.ID, n.Type, d.Address, since, MaxCovered)
		if err != nil {
			return cooling(r), err
		}
		if zone != nil {
			if ids, err = s.near(ctx, m, ids, zone); err != nil {
				return cooling(r), err
			}
		}
		if len(ids) == 0 {
			continue
		}
		if r == nil {
			if r, err = s.prepareRun(ctx, m, n, now); err != nil {
				return time.Time{}, err
			}
		}
		if err := s.plan(ctx, r, d, ids); err != nil {
			return cooling(r), err
		}
	}
	return cooling(r), nil
}

// cooling is when the first escalation a run held may be sent (zero: none, or no run).
func cooling(r *run) time.Time {
	if r == nil {
		return time.Time{}
	}
	return r.cooling
}

// nextRun is when an alert whose last run was at last (zero: it never ran) is due: batch and
// proximity alerts every interval and webhooks every few seconds, at once when they never ran;
// digests and summaries at the first 00:00 UTC after their last run or their setup, whichever
// is later (weekly digests the first Monday), so never at setup. A setting stored without its
// setup time (none since lastUpdatedAt exists) that never ran is due at once.
func nextRun(n monitor.NotificationSetting, last time.Time) time.Time {
	switch n.Type {
	case monitor.AlertDigest, monitor.AlertAISummary:
		from := last
		if n.LastUpdatedAt != nil {
			from = later(from, time.Unix(*n.LastUpdatedAt, 0))
		}
		if from.IsZero() {
			return from
		}
		day := from.UTC().Truncate(24 * time.Hour).Add(24 * time.Hour)
		for n.Interval == 604800 && day.Weekday() != time.Monday {
			day = day.Add(24 * time.Hour)
		}
		return day
	case monitor.AlertWebhook:
		if last.IsZero() {
			return last
		}
		return last.Add(WebhookCoalesce)
	default:
		if storyGrouped(n) && !last.IsZero() {
			// A story's notice is news once: it goes at once, as a webhook does, and the
			// interval paces only alerts grouped by post (docs/monitor-api.md, "Alert grouping").
			return last.Add(WebhookCoalesce)
		}
		if last.IsZero() {
			return last
		}
		return last.Add(time.Duration(n.Interval) * time.Second)
	}
}

// windowStart is the oldest match creation a run looks at: digests and summaries cover their
// day or week; other alerts what came since their last run, with a margin for late commits.
// The first run of an alert starts one interval back.
func windowStart(n monitor.NotificationSetting, last, now time.Time) time.Time {
	switch n.Type {
	case monitor.AlertDigest, monitor.AlertAISummary:
		return now.Add(-time.Duration(n.Interval) * time.Second)
	case monitor.AlertWebhook:
		if last.IsZero() {
			return now.Add(-WebhookCoalesce)
		}
	default:
		if last.IsZero() && storyGrouped(n) {
			return now.Add(-WebhookCoalesce)
		}
		if last.IsZero() {
			return now.Add(-time.Duration(n.Interval) * time.Second)
		}
	}
	return last.Add(-lateCommit)
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// proximityZone is the circles of an alert's location configurations (those the organization
// still has).
func (s *Service) proximityZone(ctx context.Context, organizationID int64, fpids []string) ([]geom.Shape, error) {
	var zone []geom.Shape
	for _, id := range fpids {
		c, err := s.Store.LocationConfigurationByFPID(ctx, id)
		if err != nil || c.OrganizationID != organizationID {
			continue // deleted or not the organization's: nothing to watch there
		}
		meters, _ := c.Radius()
		zone = append(zone, geom.Circle(c.Center(), float64(meters)/1000))
	}
	return zone, nil
}

// near keeps the matches whose post's location or a mentioned place lies within the zone.
func (s *Service) near(ctx context.Context, m monitor.Search, ids []int64, zone []geom.Shape) ([]int64, error) {
	actor, err := s.owner(ctx, m)
	if err != nil {
		return nil, err
	}
	var kept []int64
	err = s.Matches.EachMatchByID(ctx, actor, ids, 500, func(entries []monitor.InboxEntry) error {
		for _, e := range entries {
			if within(e.Post, zone) {
				kept = append(kept, e.ID)
			}
		}
		return nil
	})
	return kept, err
}

func within(p post.Post, zone []geom.Shape) bool {
	var points []geom.Point
	if p.Location != nil {
		points = append(points, geom.Point{Lat: p.Location.Lat, Lon: p.Location.Lon})
	}
	for _, l := range p.MentionedLocations {
		points = append(points, geom.Point{Lat: l.Point.Lat, Lon: l.Point.Lon})
	}
	for _, z := range zone {
		for _, pt := range points {
			if z.Contains(pt) {
				return true
			}
		}
	}
	return false
}

// owner is the search's owner as an actor: alerts show what the owner's inbox shows.
func (s *Service) owner(ctx context.Context, m monitor.Search) (authz.Actor, error) {
	u, err := s.Store.User(ctx, m.OwnerID)
	if err != nil {
		return authz.Actor{}, err
	}
	if u.OrganizationID != m.OrganizationID {
		return authz.Actor{}, fmt.Errorf("alerts: the owner of search %d left its organization", m.ID)
	}
	role, err := s.Store.MembershipRole(ctx, m.OrganizationID, u.ID)
	if err != nil {
		return authz.Actor{}, err
	}
	return authz.Actor{UserID: u.ID, OrganizationID: u.OrganizationID, TenantID: u.TenantID, Role: role,
		TenantAdmin: u.IsTenantAdmin, Via: authz.ViaSession, ACL: u.ACL}, nil
}

// sendLoop is one sender of Run: it sends due deliveries one claimed row at a time until none
// is left, then waits for wake or sendEvery (retries whose backoff ended, leases a stopped
// node left).
func (s *Service) sendLoop(ctx context.Context, wake <-chan struct{}) {
	tick := time.NewTicker(sendEvery)
	defer tick.Stop()
	for {
		for ctx.Err() == nil {
			now := s.now().UTC()
			d, ok, err := s.Store.ClaimDelivery(ctx, now, now.Add(lease))
			if err != nil && ctx.Err() == nil {
				s.Logger.Warn("alerts: claim a delivery", "err", err)
			}
			if err != nil || !ok {
				break
			}
			s.attempt(ctx, d)
		}
		select {
		case <-ctx.Done():
			return
		case <-wake:
		case <-tick.C:
		}
	}
}

// SendDue sends every delivery that is due, senders at a time, one claimed row each.
func (s *Service) SendDue(ctx context.Context) error {
	// A plain group: one sender's failed claim must not cancel the others' sends.
	var g errgroup.Group
	for range senders {
		g.Go(func() error {
			for ctx.Err() == nil {
				now := s.now().UTC()
				d, ok, err := s.Store.ClaimDelivery(ctx, now, now.Add(lease))
				if err != nil || !ok {
					return err
				}
				s.attempt(ctx, d)
			}
			return ctx.Err()
		})
	}
	return g.Wait()
}

// attempt sends a claimed delivery and records the outcome: sent, or retried with backoff
// until a day has passed, then failed. The lease is renewed while the send runs; a sender
// that loses it (its renewals failed for a whole lease) stops, as another may have the row.
func (s *Service) attempt(ctx context.Context, d Delivery) {
	sendCtx, lost := context.WithCancel(ctx)
	renewed := make(chan time.Time, 1)
	go func() {
		defer close(renewed)
		renewed <- s.holdLease(sendCtx, lost, d)
	}()
	err := s.send(sendCtx, d)
	lost()
	d.LeaseUntil = <-renewed
	if d.LeaseUntil.IsZero() || (err != nil && ctx.Err() != nil) {
		// The row is no longer ours, or the node stops and cut the send short: the lease runs
		// out and a sender takes it over. A send that went through is recorded even when
		// stopping, or the next start would send it again.
		return
	}
	now := s.now().UTC()
	d.Attempts++
	switch {
	case err == nil:
		d.Status, d.SentAt, d.LastError, d.NextAttemptAt = StatusSent, now, "", time.Time{}
	case now.Sub(d.CreatedAt) >= RetryFor || errors.Is(err, errPermanent):
		d.Status, d.LastError, d.NextAttemptAt = StatusFailed, err.Error(), time.Time{}
	default:
		d.Status, d.LastError, d.NextAttemptAt = StatusRetrying, err.Error(), now.Add(backoff(d.Attempts))
	}
	if ok, err := s.Store.FinishDelivery(context.WithoutCancel(ctx), d); err != nil || !ok {
		s.Logger.Warn("alerts: record a delivery", "delivery", d.ID, "held", ok, "err", err)
	}
}

// holdLease renews d's lease every renewEvery until ctx ends, and returns the lease it holds
// then; zero, after calling lost, when a renewal found the lease gone or none succeeded
// before it ran out.
func (s *Service) holdLease(ctx context.Context, lost context.CancelFunc, d Delivery) time.Time {
	held := d.LeaseUntil
	t := time.NewTicker(renewEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return held
		case <-t.C:
		}
		now := s.now().UTC()
		next := now.Add(lease)
		// Not cancelled with ctx: a renewal that commits must be known, or the finish would
		// miss its own lease.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), renewEvery)
		ok, err := s.Store.RenewDelivery(rctx, d.ID, held, next)
		cancel()
		switch {
		case err == nil && ok:
			held = next
		case err == nil || !now.Before(held):
			lost()
			return time.Time{}
		default:
			s.Logger.Warn("alerts: renew a delivery's lease", "delivery", d.ID, "err", err)
		}
	}
}

// backoff is the wait after the n-th failed attempt: a minute, doubling, at most an hour.
func backoff(n int) time.Duration {
	return min(time.Minute<<min(n-1, 6), time.Hour)
}

// errPermanent marks failures that retrying cannot mend (the search is gone).
var errPermanent = channel.ErrPermanent

// sleep waits d, or returns ctx's error if ctx ends first.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
