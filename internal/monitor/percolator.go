package monitor

import (
	"context"
	"log/slog"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/percolate"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/story"
)

// PercolatorStore is what the percolator reads and writes.
type PercolatorStore interface {
	Search(ctx context.Context, id int64) (Search, error)
	Searches(ctx context.Context, organizationID int64) ([]Search, error)
	SearchFilterLists(ctx context.Context, organizationID int64) (map[int64][]int64, error)
	InsertMatches(ctx context.Context, matches []Match) ([]Match, error)
	StoredMatches(ctx context.Context, matches []Match, since time.Time) ([]Match, error)
	SearchAudience(ctx context.Context, searchID int64) (Audience, error)
	SetSearchLimitFlags(ctx context.Context, searchID int64, streamingLower, streamingUpper, gnipLower, gnipUpper bool) error
	Organization(ctx context.Context, id int64) (account.Organization, error)
	CountMatchesSince(ctx context.Context, organizationID int64, since time.Time) (int64, error)
	// User is read for each viewer a batch's new matches go to: their subscriptions now.
	User(ctx context.Context, id int64) (account.User, error)
}

// FilterListSource gives the filter lists of saved searches, ready for the percolator.
type FilterListSource interface {
	ListsForSearches(ctx context.Context, searchIDs []int64) (map[int64][]percolate.FilterList, error)
}

// MatchListener hears which searches have new matches once they are stored (the alert
// service's signal, which then sends their alerts without waiting for a scan).
type MatchListener interface {
	MatchesStored(searchIDs []int64)
}

// changeSubject carries saved-search changes between the nodes of a cluster.
const changeSubject = "monitor.search.changed"

// Percolator keeps every saved search in a percolate.Index, matches each stored batch of
// posts against it, stores the matches and tells their viewers.
// countsEvery is how often, at most, a user gets a counts event for new matches; a flush that
// took d waits countsBackoff×d before the next.
const (
	countsEvery   = 250 * time.Millisecond
	countsBackoff = 10
)

type Percolator struct {
	store    PercolatorStore
	lists    FilterListSource
	counts   Counter
	notifier Notifier
	stored   MatchListener
	stories  StorySummaries
	nc       *nats.Conn
	log      *slog.Logger
	index    *percolate.Index
	now      func() time.Time
	limits   *Limits

	mu        sync.Mutex
	searches  map[int64]Search
	audiences map[int64]Audience
	pending   map[int64]*pendingCounts // user → matches since the last counts event
	// tenants are the organizations' tenants, read when a private post first matches one of
	// their searches; an organization never changes tenant.
	tenants map[int64]int64
	// observe, when set, hears each batch's stage times (benchmarks).
	observe func(posts []post.Post, t StageTimes)
}

// StageTimes are the wall times of one batch's way through Stage: what `bench live` splits the
// ingest-to-socket latency by.
type StageTimes struct {
	// Start is when the stage got the stored batch; Matched when the index had matched it;
	// Written when its matches were stored; Announced when their events were published.
	Start, Matched, Written, Announced time.Time
}

// Observe has fn called after each batch Stage handled with its posts and its stage times; fn
// runs inside the stage, so it must be quick; nil stops observing.
func (p *Percolator) Observe(fn func(posts []post.Post, t StageTimes)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.observe = fn
}

type pendingCounts struct {
	organizationID int64
	added          int64
	stories        map[string]bool // the stories of the new matches' posts
}

// StorySummaries gives stories as a user sees them (story.Service), which the percolator
// announces when the user's matches join them.
type StorySummaries interface {
	Summaries(ctx context.Context, actor authz.Actor, ids []string) (map[string]story.Summary, error)
}

// Counter gives a user's inbox totals, which the percolator announces with new matches.
type Counter interface {
	Counts(ctx context.Context, actor authz.Actor, searchIDs []int64) (Counts, error)
}

// PercolatorDeps are what the Percolator works with. Lists and Conn may be nil (no filter
// lists; a single node); without Notifier and Counts nobody is told of new matches. Counts
// is a Service that needs no Changes (it reads the inbox): the Service that changes searches
// is told of them by this percolator, so it comes after.
type PercolatorDeps struct {
	Store    PercolatorStore
	Lists    FilterListSource
	Conn     *nats.Conn
	Notifier Notifier
	Counts   Counter
	// Stored is told of the matches each batch stored (the node's alert service); may be nil.
	Stored MatchListener
	// Stories, when set, has story.updated announced for the stories new matches are in.
	Stories StorySummaries
	Logger  *slog.Logger
}

// NewPercolator makes a percolator.
func NewPercolator(d PercolatorDeps) *Percolator {
	p := &Percolator{store: d.Store, lists: d.Lists, nc: d.Conn, log: d.Logger, notifier: d.Notifier, counts: d.Counts, stored: d.Stored, stories: d.Stories,
		index: percolate.New(), now: time.Now, searches: map[int64]Search{}, audiences: map[int64]Audience{},
		pending: map[int64]*pendingCounts{}, tenants: map[int64]int64{}}
	p.limits = NewLimits(p.monthlyUsage)
	return p
}

// monthlyUsage reads an organization's monthly data limit and what it used since month.
func (p *Percolator) monthlyUsage(ctx context.Context, organizationID int64, month time.Time) (int64, int64, error) {
	org, err := p.store.Organization(ctx, organizationID)
	if err != nil {
		return 0, 0, err
	}
	used, err := p.store.CountMatchesSince(ctx, organizationID, month)
	return used, org.MonthlyDataLimit, err
}

// Load (re)builds the index from every stored saved search.
func (p *Percolator) Load(ctx context.Context) error {
	searches, err := p.store.Searches(ctx, 0)
	if err != nil {
		return err
	}
	ids := make([]int64, len(searches))
	for i, m := range searches {
		ids[i] = m.ID
	}
	lists, err := p.filterLists(ctx, ids)
	if err != nil {
		return err
	}
	var compiled []*percolate.Compiled
	keep := map[int64]Search{}
	for _, m := range searches {
		c, err := p.compile(m, lists[m.ID])
		if err != nil {
			p.log.Warn("saved search left out of the percolator", "search", m.ID, "err", err)
			continue
		}
		compiled = append(compiled, c)
		keep[m.ID] = m
	}
	p.mu.Lock()
	var gone []int64
	for id := range p.searches {
		if _, ok := keep[id]; !ok {
			gone = append(gone, id)
		}
	}
	p.searches = keep
	p.audiences = map[int64]Audience{}
	p.mu.Unlock()
	p.index.Remove(gone...)
	p.index.PutCompiled(compiled...)
	return nil
}

func (p *Percolator) filterLists(ctx context.Context, ids []int64) (map[int64][]percolate.FilterList, error) {
	if p.lists == nil || len(ids) == 0 {
		return map[int64][]percolate.FilterList{}, nil
	}
	return p.lists.ListsForSearches(ctx, ids)
}

// compile turns a stored search into the percolator's form, applying its limits: a search over
// its streaming limit collects nothing, one over its firehose limit leaves out the firehose.
func (p *Percolator) compile(m Search, lists []percolate.FilterList) (*percolate.Compiled, error) {
	now := p.now()
	providers := m.Providers
	if gnipBlocked(m, now) {
		providers = slices.DeleteFunc(slices.Clone(providers), func(n string) bool { return n == gnipProvider })
	}
	s, err := savedSearch(m, lists)
	if err != nil {
		return nil, err
	}
	s.Providers, s.Enabled = providers, m.Enabled && !streamingBlocked(m, now)
	if len(providers) == 0 { // only the blocked firehose was chosen
		s.Providers, s.Enabled = m.Providers, false
	}
	return percolate.Compile(s)
}

// SearchChanged reloads one search here and tells the other nodes to do the same.
func (p *Percolator) SearchChanged(ctx context.Context, id int64) {
	p.reload(ctx, id)
	if p.nc != nil {
		p.nc.Publish(changeSubject, []byte(strconv.FormatInt(id, 10)))
	}
}

func (p *Percolator) reload(ctx context.Context, id int64) {
	p.mu.Lock()
	delete(p.audiences, id)
	p.mu.Unlock()
	m, err := p.store.Search(ctx, id)
	if err != nil {
		p.mu.Lock()
		delete(p.searches, id)
		p.mu.Unlock()
		p.index.Remove(id)
		return
	}
	lists, err := p.filterLists(ctx, []int64{id})
	if err != nil {
		p.log.Error("load filter lists", "search", id, "err", err)
		return
	}
	c, err := p.compile(m, lists[id])
	if err != nil {
		p.log.Warn("saved search left out of the percolator", "search", id, "err", err)
		p.index.Remove(id)
		return
	}
	p.mu.Lock()
	p.searches[id] = m
	p.mu.Unlock()
	p.index.PutCompiled(c)
}

// Run follows other nodes' changes, refreshes the whole index every few minutes (which also
// catches membership changes in audiences), and sends coalesced count updates, until ctx ends.
func (p *Percolator) Run(ctx context.Context) error {
	if p.nc != nil {
		sub, err := p.nc.Subscribe(changeSubject, func(msg *nats.Msg) {
			if id, err := strconv.ParseInt(string(msg.Data), 10, 64); err == nil {
				p.reload(context.Background(), id)
			}
		})
		if err != nil {
			return err
		}
		defer sub.Unsubscribe()
	}
	refresh := time.NewTicker(5 * time.Minute)
	defer refresh.Stop()
	flush := time.NewTimer(countsEvery)
	defer flush.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-refresh.C:
			if err := p.Load(ctx); err != nil && ctx.Err() == nil {
				p.log.Error("refresh the percolator", "err", err)
			}
		case <-flush.C:
			start := time.Now()
			p.flushCounts(ctx)
			// Counting reads every visible match: when it is slow, count less often, so that it
			// stays a small share of the work and the new matches themselves go out first.
			flush.Reset(max(countsEvery, countsBackoff*time.Since(start)))
		}
	}
}

// Stage matches a stored batch of posts; it runs in the ingest pipeline before the batch is
// acknowledged, so a crash re-runs it and the unique (search, post) key keeps it idempotent.
// The limits count only the matches the store reports as new, so a re-run counts nothing twice.
func (p *Percolator) Stage(ctx context.Context, posts []post.Post) error {
	p.mu.Lock()
	observe := p.observe
	p.mu.Unlock()
	var times StageTimes
	if observe != nil {
		times.Start = time.Now()
		defer func() { observe(posts, times) }()
	}
	docs := make([]percolate.Doc, len(posts))
	for i, pp := range posts {
		docs[i] = *percolate.DocOf(pp)
	}
	now := p.now()
	results := p.index.MatchBatch(docs, now)
	var matches []Match
	searches := map[int64]Search{}
	p.mu.Lock()
	for i, ids := range results {
		for _, id := range ids {
			m, ok := p.searches[id]
			if !ok {
				continue
			}
			searches[id] = m
			matches = append(matches, matchOf(m, posts[i]))
		}
	}
	p.mu.Unlock()
	if observe != nil {
		times.Matched = time.Now()
	}
	granted, created, err := p.write(ctx, matches, searches, posts, now)
	if observe != nil {
		times.Written = time.Now()
	}
	if err != nil || len(granted) == 0 {
		return err
	}
	// A batch run again announces (and alerts of) what it stored before too: the node that
	// stored it may have stopped before either.
	fresh := append(created, p.unannounced(ctx, granted, created, now)...)
	p.announce(ctx, fresh, posts, true)
	if observe != nil {
		times.Announced = time.Now()
	}
	if p.stored != nil && len(fresh) > 0 {
		ids := make([]int64, 0, len(searches))
		for _, m := range fresh {
			if !slices.Contains(ids, m.SearchID) {
				ids = append(ids, m.SearchID)
			}
		}
		p.stored.MatchesStored(ids)
	}
	return nil
}

// Backfill stores, as matches of search m, the stored posts a backfill found it matches
// (backtest.Backfills decides which, with the preview's matcher). They go through the same
// visibility, limits and write as Stage's, marked as backfilled so that no alert sends them,
// and their viewers get new counts but no match events: they are old posts. It returns how
// many matches are new; a post already matched adds nothing.
func (p *Percolator) Backfill(ctx context.Context, m Search, posts []post.Post) (int, error) {
	matches := make([]Match, len(posts))
	for i, pp := range posts {
		matches[i] = matchOf(m, pp)
		matches[i].Backfilled = true
	}
	_, created, err := p.write(ctx, matches, map[int64]Search{m.ID: m}, posts, p.now())
	p.announce(ctx, created, posts, false)
	return len(created), err
}

// matchOf is post pp as a match of search m.
func matchOf(m Search, pp post.Post) Match {
	return Match{SearchID: m.ID, OrganizationID: m.OrganizationID, PostID: pp.ID,
		PublishedAt: pp.PublishedAt, DiscoveredAt: pp.DiscoveredAt, HasImages: len(pp.Photos) > 0,
		HasVideos: len(pp.Videos) > 0, HasLocation: pp.Location != nil || len(pp.MentionedLocations) > 0,
		Provider: pp.Provider, ThreatScore: pp.Threat.Score, Places: pp.MentionedLocations}
}

// write keeps the matches their organizations may see and their limits allow, stores them and
// records the limits they reached. granted are the matches kept, created those the store did
// not have.
func (p *Percolator) write(ctx context.Context, matches []Match, searches map[int64]Search, posts []post.Post, now time.Time) (granted, created []Match, err error) {
	matches, err = p.visible(ctx, matches, posts)
	if err != nil || len(matches) == 0 {
		return nil, nil, err
	}
	grant := p.limits.Admit(ctx, matches, searches, now)
	if len(grant.Matches) > 0 {
		created, err = p.store.InsertMatches(ctx, grant.Matches)
	}
	p.recordLimits(ctx, grant.Settle(created))
	return grant.Matches, created, err
}

// visible keeps the matches whose post the search's organization may see: a tenant's private
// post matches only the saved searches of that tenant (post.VisibleTo), so it never reaches
// another tenant's inbox, dashboard, alerts, webhooks or live channel.
func (p *Percolator) visible(ctx context.Context, matches []Match, posts []post.Post) ([]Match, error) {
	owners := map[string]int64{}
	for _, pp := range posts {
		if pp.Tenant != 0 {
			owners[pp.ID] = pp.Tenant
		}
	}
	if len(owners) == 0 {
		return matches, nil
	}
	kept := matches[:0]
	for _, m := range matches {
		if owner, private := owners[m.PostID]; private {
			tenant, err := p.tenantOf(ctx, m.OrganizationID)
			if err != nil && !problem.Is(err, problem.KindNotFound) { // a removed organization sees nothing
				return nil, err
			}
			if err != nil || !post.VisibleTo(owner, tenant) {
				continue
			}
		}
		kept = append(kept, m)
	}
	return kept, nil
}

func (p *Percolator) tenantOf(ctx context.Context, organizationID int64) (int64, error) {
	p.mu.Lock()
	tenant, ok := p.tenants[organizationID]
	p.mu.Unlock()
	if ok {
		return tenant, nil
	}
	o, err := p.store.Organization(ctx, organizationID)
	if err != nil {
		return 0, err
	}
	p.mu.Lock()
	p.tenants[organizationID] = o.TenantID
	p.mu.Unlock()
	return o.TenantID, nil
}

// reannounceWithin is how recent a stored match of a batch must be to be announced again: the
// stream drops a post published again within its ten-minute dedup window, so within it a stored
// match can only come from a batch that is run again, and after a node died between storing
// the matches and announcing them, announcing is what is left to do.
const reannounceWithin = 10 * time.Minute

// unannounced are the granted matches that were stored already, recently: a batch run again.
// Their events may never have left the node that stored them, so they go out again; the live
// hubs drop what a socket already got (live.Hub.PublishToUserOnce).
func (p *Percolator) unannounced(ctx context.Context, granted, created []Match, now time.Time) []Match {
	if len(created) == len(granted) {
		return nil
	}
	isNew := make(map[matchKey]bool, len(created))
	for _, m := range created {
		isNew[matchKey{m.SearchID, m.PostID}] = true
	}
	var stored []Match
	for _, m := range granted {
		if !isNew[matchKey{m.SearchID, m.PostID}] {
			stored = append(stored, m)
		}
	}
	again, err := p.store.StoredMatches(ctx, stored, now.Add(-reannounceWithin))
	if err != nil {
		p.log.Warn("read the stored matches of a batch run again; their events are not sent again", "err", err)
		return nil
	}
	return again
}

type matchKey struct {
	search int64
	post   string
}

// recordLimits stores the flags of searches that reached a limit and recompiles them, so they
// stop collecting (or leave the firehose out).
func (p *Percolator) recordLimits(ctx context.Context, changed []Search) {
	for _, m := range changed {
		if err := p.store.SetSearchLimitFlags(ctx, m.ID, m.StreamingLowerLimitExceeded, m.StreamingUpperLimitExceeded,
			m.GnipLowerLimitExceeded, m.GnipUpperLimitExceeded); err != nil {
			p.log.Error("record a search's limit", "search", m.ID, "err", err)
			continue
		}
		p.log.Info("saved search reached a limit", "search", m.ID, "streaming_lower", m.StreamingLowerLimitExceeded,
			"streaming_upper", m.StreamingUpperLimitExceeded, "firehose_lower", m.GnipLowerLimitExceeded,
			"firehose_upper", m.GnipUpperLimitExceeded)
		p.SearchChanged(ctx, m.ID)
	}
}

// audience is the cached audience of a search.
func (p *Percolator) audience(ctx context.Context, searchID int64) (Audience, map[int64]bool, error) {
	p.mu.Lock()
	a, ok := p.audiences[searchID]
	p.mu.Unlock()
	if !ok {
		var err error
		if a, err = p.store.SearchAudience(ctx, searchID); err != nil {
			return Audience{}, nil, err
		}
		p.mu.Lock()
		p.audiences[searchID] = a
		p.mu.Unlock()
	}
	return a, a.Viewers(), nil
}

// viewerActors reads, once a batch, the viewers' subscriptions as they are now: a match goes to
// no one whose subscriptions no longer reach its provider, however recently they did.
type viewerActors struct {
	p      *Percolator
	actors map[int64]*authz.Actor // nil: the user could not be read
}

func (v *viewerActors) canSee(ctx context.Context, userID int64, providerName string) bool {
	a, ok := v.actors[userID]
	if !ok {
		if user, err := v.p.store.User(ctx, userID); err != nil {
			v.p.log.Warn("read a viewer of new matches; they are not told of them", "user", userID, "err", err)
		} else {
			a = &authz.Actor{UserID: user.ID, OrganizationID: user.OrganizationID, ACL: user.ACL}
		}
		v.actors[userID] = a
	}
	return a != nil && authz.CanSeeProvider(*a, providerName)
}

// announce sends each new match of a batch to its viewers who stream their inbox (when stream),
// at most StreamedPerBatch a viewer, and queues count updates for every viewer; in both, only
// to viewers whose subscriptions reach the match's provider at that moment.
func (p *Percolator) announce(ctx context.Context, created []Match, posts []post.Post, stream bool) {
	byID := make(map[string]post.Post, len(posts))
	for _, pp := range posts {
		byID[pp.ID] = pp
	}
	streamed := map[int64][]MatchCreated{}
	why := NewExplainer()
	access := viewerActors{p: p, actors: map[int64]*authz.Actor{}}
	for _, m := range created {
		a, all, err := p.audience(ctx, m.SearchID)
		if err != nil {
			p.log.Warn("audience of a saved search", "search", m.SearchID, "err", err)
			continue
		}
		viewers := make(map[int64]bool, len(all))
		for userID, canEdit := range all {
			if access.canSee(ctx, userID, m.Provider) {
				viewers[userID] = canEdit
			}
		}
		p.mu.Lock()
		storyID := byID[m.PostID].StoryID
		if storyID == "" {
			storyID = m.PostID // stored before stories: a story of its own
		}
		for userID := range viewers {
			pc := p.pending[userID]
			if pc == nil {
				pc = &pendingCounts{organizationID: m.OrganizationID, stories: map[string]bool{}}
				p.pending[userID] = pc
			}
			pc.added++
			pc.stories[storyID] = true
		}
		p.mu.Unlock()
		if p.notifier == nil || !stream {
			continue
		}
		for userID, canEdit := range viewers {
			if !a.Streaming[userID] {
				continue
			}
			events := streamed[userID]
			if len(events) == StreamedPerBatch {
				events[len(events)-1].More++
				continue
			}
			item := InboxItem{Match: m, Post: byID[m.PostID]}
			why.searches[m.SearchID] = a.Search
			streamed[userID] = append(events, MatchCreated{Match: item.Payload(canEdit, a.Search.Name, why)})
		}
	}
	for userID, events := range streamed {
		for _, ev := range events {
			p.notifier.PublishToUserOnce(ctx, userID, EventMatchCreated, "match:"+strconv.FormatInt(ev.Match.MatchMeta.MatchID, 10), ev)
		}
	}
}

// flushCounts sends each user with new matches one monitor.matches.updated event.
func (p *Percolator) flushCounts(ctx context.Context) {
	p.mu.Lock()
	pending := p.pending
	p.pending = map[int64]*pendingCounts{}
	p.mu.Unlock()
	if p.notifier == nil || p.counts == nil {
		return
	}
	for userID, pc := range pending {
		// The counts are of what the user may see now: their subscriptions as they are.
		user, err := p.store.User(ctx, userID)
		if err != nil {
			continue
		}
		actor := authz.Actor{UserID: userID, OrganizationID: pc.organizationID, ACL: user.ACL}
		counts, err := p.counts.Counts(ctx, actor, nil)
		if err != nil {
			continue
		}
		p.notifier.PublishToUser(ctx, userID, EventMatchesUpdated, MatchesUpdated{UpdatedCount: pc.added, Counts: counts})
		p.announceStories(ctx, actor, pc.stories)
	}
}

// announceStories sends the user story.updated for each story their new matches are in, with
// the story as they see it: counted over the posts of their tenant and of the shared sources
// their subscriptions reach, never another tenant's.
func (p *Percolator) announceStories(ctx context.Context, actor authz.Actor, stories map[string]bool) {
	if p.stories == nil || len(stories) == 0 {
		return
	}
	tenant, err := p.tenantOf(ctx, actor.OrganizationID)
	if err != nil {
		p.log.Warn("read the tenant of a user with new matches; their stories are not announced", "user", actor.UserID, "err", err)
		return
	}
	actor.TenantID = tenant
	ids := make([]string, 0, len(stories))
	for id := range stories {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for len(ids) > 0 {
		page := ids[:min(len(ids), story.MaxSummaries)]
		ids = ids[len(page):]
		sums, err := p.stories.Summaries(ctx, actor, page)
		if err != nil {
			p.log.Warn("summarize the stories of new matches", "user", actor.UserID, "err", err)
			return
		}
		for _, id := range page {
			if sum, ok := sums[id]; ok {
				p.notifier.PublishToUser(ctx, actor.UserID, story.EventUpdated, sum.Updated())
			}
		}
	}
}

// Stats reports how many searches the percolator holds and how many are active.
func (p *Percolator) Stats() (held, active int) { return p.index.Len(), p.index.Active() }
