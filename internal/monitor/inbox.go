package monitor

import (
	"context"
	"slices"
	"time"

	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/provider"
)

// InboxStore is the persistence of matches.
type InboxStore interface {
	Inbox(ctx context.Context, q MatchQuery) ([]InboxItem, int64, error)
	InboxByIDs(ctx context.Context, userID int64, searchIDs, matchIDs []int64) ([]InboxItem, error)
	MatchIDs(ctx context.Context, q MatchQuery) (map[int64]int64, error)
	// InboxStories is Inbox grouped by the story of the matched posts (docs/stories.md).
	InboxStories(ctx context.Context, q MatchQuery) ([]StoryRow, int64, error)
	MatchSearches(ctx context.Context, matchIDs []int64) (map[int64]int64, error)
	SetMatchState(ctx context.Context, userID int64, matchIDs []int64, field string, value bool) (int64, error)
	// MatchCounts counts the matches of the given providers only, unless providers is empty.
	MatchCounts(ctx context.Context, userID int64, searchIDs []int64, providers []string) (map[int64]Counts, error)
	// ThreadPosts and Post read the stored posts a user of the tenant may see.
	ThreadPosts(ctx context.Context, threadID string, tenant int64, limit int) ([]post.Post, error)
	Post(ctx context.Context, id string, tenant int64) (post.Post, error)
	Dashboard(ctx context.Context, userID int64, searchIDs []int64, now time.Time) (Dashboard, error)
}

// Notifier delivers live events to a user's private channel.
type Notifier interface {
	PublishToUser(ctx context.Context, userID int64, event string, payload any) error
	// PublishToUserOnce is PublishToUser for an event that may be published again (after a
	// node died): a socket gets an event of the same key once.
	PublishToUserOnce(ctx context.Context, userID int64, event, key string, payload any) error
}

// InboxEntry is a match as its viewer sees it.
type InboxEntry struct {
	InboxItem
	CanEdit    bool
	SearchName string
	Why        *Explainer
}

// Payload is the entry as the API sends it.
func (e InboxEntry) Payload() MatchPayload {
	return e.InboxItem.Payload(e.CanEdit, e.SearchName, e.Why)
}

// visible returns the searches the actor can see (id → can edit), and the searches themselves.
func (s *Service) visible(ctx context.Context, actor authz.Actor) (map[int64]bool, map[int64]Search, error) {
	views, err := s.Searches(ctx, actor, 0)
	if err != nil {
		return nil, nil, err
	}
	edit, searches := map[int64]bool{}, map[int64]Search{}
	for _, sv := range views {
		edit[sv.ID] = sv.Level >= authz.LevelEdit
		searches[sv.ID] = sv.Search
	}
	return edit, searches, nil
}

// scope narrows requested search ids to those visible; none requested means all visible.
func scope(visible map[int64]bool, requested []int64) []int64 {
	var ids []int64
	for id := range visible {
		if len(requested) == 0 || slices.Contains(requested, id) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// keepToProviders narrows q to the providers the actor's subscriptions reach now (the actor's
// access is read afresh with every request): the ones asked for that they reach, or all they
// reach when none were asked for. A search saved while its owner held a subscription, or
// shared by someone who holds it, keeps its matches of those providers; they show again if the
// subscription comes back.
func keepToProviders(actor authz.Actor, q *MatchQuery) {
	visible, every := authz.VisibleProviders(actor)
	if every {
		return
	}
	if len(q.Providers) == 0 {
		q.Providers = visible
	} else {
		q.Providers = slices.DeleteFunc(slices.Clone(q.Providers), func(p string) bool { return !authz.CanSeeProvider(actor, p) })
	}
	if len(q.Providers) == 0 {
		q.SearchIDs = nil // nothing the actor may see
	}
}

// seeable leaves out the matches of providers the actor's subscriptions do not reach.
func seeable(actor authz.Actor, items []InboxItem) []InboxItem {
	return slices.DeleteFunc(items, func(it InboxItem) bool { return !authz.CanSeeProvider(actor, it.Provider) })
}

// actorQuery is q checked and narrowed to what the actor may read: the user's state, the
// searches they may view (all of them when q names none) and the providers their subscription
// reaches; with which searches they may edit, and the searches by id.
func (s *Service) actorQuery(ctx context.Context, actor authz.Actor, q MatchQuery) (MatchQuery, map[int64]bool, map[int64]Search, error) {
	if err := q.Validate(); err != nil {
		return q, nil, nil, err
	}
	edit, searches, err := s.visible(ctx, actor)
	if err != nil {
		return q, nil, nil, err
	}
	q.UserID, q.SearchIDs = actor.UserID, scope(edit, q.SearchIDs)
	keepToProviders(actor, &q)
	return q, edit, searches, nil
}

// Inbox is a page of the actor's matches.
func (s *Service) Inbox(ctx context.Context, actor authz.Actor, q MatchQuery) ([]InboxEntry, int64, error) {
	q, edit, searches, err := s.actorQuery(ctx, actor, q)
	if err != nil {
		return nil, 0, err
	}
	items, total, err := s.inbox.Inbox(ctx, q)
	if err != nil {
		return nil, 0, err
	}
	return entries(items, edit, searches), total, nil
}

func entries(items []InboxItem, edit map[int64]bool, searches map[int64]Search) []InboxEntry {
	out := make([]InboxEntry, 0, len(items))
	why := NewExplainer()
	for _, it := range items {
		why.searches[it.SearchID] = searches[it.SearchID]
		out = append(out, InboxEntry{InboxItem: it, CanEdit: edit[it.SearchID], SearchName: searches[it.SearchID].Name, Why: why})
	}
	return out
}

// StoryRow is one story of an inbox grouped by story, as the store finds it: how many of the
// selected matches its posts made, and the newest of them (the last made).
type StoryRow struct {
	StoryID    string
	MatchCount int64
	NewestID   int64
}

// StoryGroup is one story of an inbox grouped by story, with its newest match.
type StoryGroup struct {
	StoryID    string
	MatchCount int64
	Newest     InboxEntry
}

// InboxStories is a page of the actor's matches grouped by story, newest story first: one row
// a story, counting the matches q selects, with the newest of them.
func (s *Service) InboxStories(ctx context.Context, actor authz.Actor, q MatchQuery) ([]StoryGroup, int64, error) {
	q, edit, searches, err := s.actorQuery(ctx, actor, q)
	if err != nil {
		return nil, 0, err
	}
	if len(q.SearchIDs) == 0 {
		return []StoryGroup{}, 0, nil
	}
	rows, total, err := s.inbox.InboxStories(ctx, q)
	if err != nil {
		return nil, 0, err
	}
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.NewestID
	}
	items, err := s.inbox.InboxByIDs(ctx, actor.UserID, q.SearchIDs, ids)
	if err != nil {
		return nil, 0, err
	}
	byID := map[int64]InboxEntry{}
	for _, e := range entries(items, edit, searches) {
		byID[e.ID] = e
	}
	out := make([]StoryGroup, 0, len(rows))
	for _, r := range rows {
		if e, ok := byID[r.NewestID]; ok {
			out = append(out, StoryGroup{StoryID: r.StoryID, MatchCount: r.MatchCount, Newest: e})
		}
	}
	return out, total, nil
}

// InboxByIDs returns the given matches the actor can see.
func (s *Service) InboxByIDs(ctx context.Context, actor authz.Actor, matchIDs []int64) ([]InboxEntry, error) {
	edit, searches, err := s.visible(ctx, actor)
	if err != nil {
		return nil, err
	}
	items, err := s.inbox.InboxByIDs(ctx, actor.UserID, scope(edit, nil), matchIDs)
	if err != nil {
		return nil, err
	}
	return entries(seeable(actor, items), edit, searches), nil
}

// EachMatch calls fn with every match of the actor's that q selects, a page of at most
// pageSize at a time in q's order, never counting them nor holding more than a page (exports).
// Offset and Limit of q are ignored.
func (s *Service) EachMatch(ctx context.Context, actor authz.Actor, q MatchQuery, pageSize int, fn func([]InboxEntry) error) error {
	q, edit, searches, err := s.actorQuery(ctx, actor, q)
	if err != nil {
		return err
	}
	q.SkipTotal, q.Offset, q.Limit, q.After = true, 0, pageSize, nil
	for {
		items, _, err := s.inbox.Inbox(ctx, q)
		if err != nil || len(items) == 0 {
			return err
		}
		if err := fn(entries(items, edit, searches)); err != nil {
			return err
		}
		if len(items) < pageSize {
			return nil
		}
		last := items[len(items)-1]
		q.After = &MatchCursor{At: last.PublishedAt, ID: last.ID}
		if q.Sort == post.SortDiscoveredDesc || q.Sort == post.SortDiscoveredAsc {
			q.After.At = last.DiscoveredAt
		}
	}
}

// EachMatchByID is EachMatch over chosen matches, in id order; those the actor cannot see are
// left out.
func (s *Service) EachMatchByID(ctx context.Context, actor authz.Actor, matchIDs []int64, pageSize int, fn func([]InboxEntry) error) error {
	edit, searches, err := s.visible(ctx, actor)
	if err != nil {
		return err
	}
	visible := scope(edit, nil)
	for chunk := range slices.Chunk(cleanIDs(matchIDs), pageSize) {
		items, err := s.inbox.InboxByIDs(ctx, actor.UserID, visible, chunk)
		if err != nil {
			return err
		}
		if items = seeable(actor, items); len(items) > 0 {
			if err := fn(entries(items, edit, searches)); err != nil {
				return err
			}
		}
	}
	return nil
}

// CountVisible is how many of the chosen matches the actor can see.
func (s *Service) CountVisible(ctx context.Context, actor authz.Actor, matchIDs []int64) (int, error) {
	edit, _, err := s.visible(ctx, actor)
	if err != nil {
		return 0, err
	}
	if _, every := authz.VisibleProviders(actor); !every {
		// Which provider a match is of is read with the match itself.
		n := 0
		for chunk := range slices.Chunk(cleanIDs(matchIDs), countChunk) {
			items, err := s.inbox.InboxByIDs(ctx, actor.UserID, scope(edit, nil), chunk)
			if err != nil {
				return 0, err
			}
			n += len(seeable(actor, items))
		}
		return n, nil
	}
	searchOf, err := s.inbox.MatchSearches(ctx, cleanIDs(matchIDs))
	if err != nil {
		return 0, err
	}
	n := 0
	for _, search := range searchOf {
		if _, ok := edit[search]; ok {
			n++
		}
	}
	return n, nil
}

// countChunk is how many matches CountVisible reads at once when it must read them.
const countChunk = 500

// Update is the result of a bulk change: how many matches were changed of how many asked for.
type Update struct {
	UpdatedCount  int64 `json:"updatedCount"`
	ExpectedCount int64 `json:"expectedCount"`
}

// SetState sets a state field of chosen matches. Reading is personal and needs view access;
// flagging and deleting need edit access to the match's search (canEdit).
func (s *Service) SetState(ctx context.Context, actor authz.Actor, matchIDs []int64, field string, value bool) (Update, error) {
	matchIDs = cleanIDs(matchIDs)
	if len(matchIDs) == 0 {
		return Update{}, problem.InvalidField("matchResultDocuments", "Choose at least one match.")
	}
	searchOf, err := s.inbox.MatchSearches(ctx, matchIDs)
	if err != nil {
		return Update{}, err
	}
	return s.apply(ctx, actor, searchOf, int64(len(matchIDs)), field, value)
}

// SetStateAll sets a state field of every match the query selects.
func (s *Service) SetStateAll(ctx context.Context, actor authz.Actor, q MatchQuery, field string, value bool) (Update, error) {
	q, _, _, err := s.actorQuery(ctx, actor, q)
	if err != nil {
		return Update{}, err
	}
	// Restoring deleted matches must find them; everything else acts on what the inbox shows.
	q.IncludeDeleted = field == FieldDeleted && !value
	searchOf, err := s.inbox.MatchIDs(ctx, q)
	if err != nil {
		return Update{}, err
	}
	return s.apply(ctx, actor, searchOf, int64(len(searchOf)), field, value)
}

func (s *Service) apply(ctx context.Context, actor authz.Actor, searchOf map[int64]int64, expected int64, field string, value bool) (Update, error) {
	edit, _, err := s.visible(ctx, actor)
	if err != nil {
		return Update{}, err
	}
	var allowed []int64
	for id, search := range searchOf {
		canEdit, visible := edit[search]
		if visible && (canEdit || field == FieldRead) {
			allowed = append(allowed, id)
		}
	}
	slices.Sort(allowed)
	if _, err := s.inbox.SetMatchState(ctx, actor.UserID, allowed, field, value); err != nil {
		return Update{}, err
	}
	update := Update{UpdatedCount: int64(len(allowed)), ExpectedCount: expected}
	s.countsChanged(ctx, actor, update.UpdatedCount)
	return update, nil
}

// countsChanged tells the actor's open apps their new counts.
func (s *Service) countsChanged(ctx context.Context, actor authz.Actor, updated int64) {
	if s.notifier == nil {
		return
	}
	counts, err := s.Counts(ctx, actor, nil)
	if err != nil {
		return
	}
	s.notifier.PublishToUser(ctx, actor.UserID, EventMatchesUpdated, MatchesUpdated{UpdatedCount: updated, Counts: counts})
}

// CountsBySearch is the actor's counts for each visible search of searchIDs (all when empty).
func (s *Service) CountsBySearch(ctx context.Context, actor authz.Actor, searchIDs []int64) (map[int64]Counts, error) {
	edit, _, err := s.visible(ctx, actor)
	if err != nil {
		return nil, err
	}
	ids := scope(edit, searchIDs)
	q := MatchQuery{SearchIDs: ids}
	keepToProviders(actor, &q)
	counts, err := s.inbox.MatchCounts(ctx, actor.UserID, q.SearchIDs, q.Providers)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		if _, ok := counts[id]; !ok {
			counts[id] = Counts{}
		}
	}
	return counts, nil
}

// Counts is the actor's totals over the visible searches of searchIDs (all when empty).
func (s *Service) Counts(ctx context.Context, actor authz.Actor, searchIDs []int64) (Counts, error) {
	by, err := s.CountsBySearch(ctx, actor, searchIDs)
	if err != nil {
		return Counts{}, err
	}
	var total Counts
	for _, c := range by {
		total.TotalCount += c.TotalCount
		total.UnreadCount += c.UnreadCount
		total.DeletedCount += c.DeletedCount
		total.FlaggedCount += c.FlaggedCount
	}
	return total, nil
}

// maxThread bounds a thread view.
const maxThread = 200

// ThreadContext returns a stored post and the posts of its thread, each only if the actor's
// subscriptions reach its provider: a thread id is only text a source or an ingest sent, so
// posts of other providers may share it.
func (s *Service) ThreadContext(ctx context.Context, actor authz.Actor, postID string) (post.Post, []post.Post, error) {
	p, err := s.inbox.Post(ctx, postID, actor.TenantID)
	if err != nil {
		return post.Post{}, nil, problem.NotFound("Unable to load thread for this post.")
	}
	user, err := s.store.User(ctx, actor.UserID)
	if err != nil {
		return post.Post{}, nil, err
	}
	entitled := provider.Entitlements{Beacon: user.ACL.Beacon, Pro: user.ACL.Pro, Enterprise: user.ACL.Enterprise}
	if !entitled.Reaches(p.Provider) {
		return post.Post{}, nil, problem.NotFound("Unable to load thread for this post.")
	}
	if p.ThreadID == "" {
		return p, []post.Post{p}, nil
	}
	thread, err := s.inbox.ThreadPosts(ctx, p.ThreadID, actor.TenantID, maxThread)
	if err != nil {
		return post.Post{}, nil, err
	}
	return p, slices.DeleteFunc(thread, func(tp post.Post) bool { return !entitled.Reaches(tp.Provider) }), nil
}
