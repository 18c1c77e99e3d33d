package monitor

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/audit"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/geom"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/provider"
	"github.com/sightline/sightline/internal/query"
)

// SearchView is a saved search as one actor sees it.
type SearchView struct {
	Search
	Level            authz.Level
	Personal         Personal
	CanManageSharing bool
	Owner            Share
	// Shares lists direct shares and, marked FromGroup, those inherited from the group.
	Shares      []Share
	FilterLists []int64
	// Backfill is the search's latest backfill, nil when it had none.
	Backfill *Backfill
}

// Searches lists the saved searches the actor can see; groupID 0 means every group. Owner is
// left empty: the inbox and the percolator's callers ask often and need only the levels.
func (s *Service) Searches(ctx context.Context, actor authz.Actor, groupID int64) ([]SearchView, error) {
	v, err := s.load(ctx, actor)
	if err != nil {
		return nil, err
	}
	var out []SearchView
	for _, m := range v.searches {
		if groupID != 0 && m.GroupID != groupID {
			continue
		}
		level := v.searchLevel(m)
		if level == authz.LevelNone {
			continue
		}
		p := v.searchState[m.ID]
		out = append(out, SearchView{Search: m, Level: level, Personal: p,
			CanManageSharing: authz.CanManageSharing(level, p.ShareRole)})
	}
	return out, nil
}

// SearchesWithOwners is Searches with each search's owner filled in, for the lists people read
// (Locate's saved searches show the owner); each owner is read once.
func (s *Service) SearchesWithOwners(ctx context.Context, actor authz.Actor, groupID int64) ([]SearchView, error) {
	views, err := s.Searches(ctx, actor, groupID)
	if err != nil {
		return nil, err
	}
	owners := map[int64]Share{}
	for i, sv := range views {
		owner, ok := owners[sv.OwnerID]
		if !ok {
			u, err := s.store.User(ctx, sv.OwnerID)
			if err != nil {
				return nil, err
			}
			owner = Share{UserID: u.ID, Email: u.Email, Username: u.Username, Name: u.Name, Role: authz.RoleOwner}
			owners[sv.OwnerID] = owner
		}
		views[i].Owner = owner
	}
	return views, nil
}

// VisibleSearchIDs lists the ids of the searches the actor can see, with whether they may edit
// each (for matches).
func (s *Service) VisibleSearchIDs(ctx context.Context, actor authz.Actor) (map[int64]bool, error) {
	views, err := s.Searches(ctx, actor, 0)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]bool, len(views))
	for _, sv := range views {
		out[sv.ID] = sv.Level >= authz.LevelEdit
	}
	return out, nil
}

// Search is one saved search the actor can see, with its sharing list and filter lists.
func (s *Service) Search(ctx context.Context, actor authz.Actor, id int64) (SearchView, error) {
	v, err := s.load(ctx, actor)
	if err != nil {
		return SearchView{}, err
	}
	return s.searchView(ctx, v, id)
}

func (s *Service) searchView(ctx context.Context, v *view, id int64) (SearchView, error) {
	i := slices.IndexFunc(v.searches, func(m Search) bool { return m.ID == id })
	if i < 0 || v.searchLevel(v.searches[i]) == authz.LevelNone {
		return SearchView{}, problem.NotFound("%s", authz.MsgNotFoundSearch)
	}
	m := v.searches[i]
	level := v.searchLevel(m)
	p := v.searchState[m.ID]
	sv := SearchView{Search: m, Level: level, Personal: p, CanManageSharing: authz.CanManageSharing(level, p.ShareRole)}
	owner, err := s.store.User(ctx, m.OwnerID)
	if err != nil {
		return SearchView{}, err
	}
	sv.Owner = Share{UserID: owner.ID, Email: owner.Email, Username: owner.Username, Name: owner.Name, Role: authz.RoleOwner}
	direct, err := s.store.SearchShares(ctx, m.ID)
	if err != nil {
		return SearchView{}, err
	}
	inherited, err := s.store.GroupShares(ctx, m.GroupID)
	if err != nil {
		return SearchView{}, err
	}
	sv.Shares = direct
	for _, sh := range inherited {
		if sh.UserID != m.OwnerID && !slices.ContainsFunc(direct, func(d Share) bool { return d.UserID == sh.UserID }) {
			sh.FromGroup = true
			sv.Shares = append(sv.Shares, sh)
		}
	}
	SortShares(sv.Shares)
	lists, err := s.store.SearchFilterLists(ctx, m.OrganizationID)
	if err != nil {
		return SearchView{}, err
	}
	sv.FilterLists = lists[m.ID]
	if s.backfill != nil {
		b, ok, err := s.backfill.Backfill(ctx, m.ID)
		if err != nil {
			return SearchView{}, err
		}
		if ok {
			sv.Backfill = &b
		}
	}
	return sv, nil
}

// SearchInput is the spec's request payload form for creating and updating a saved search.
type SearchInput struct {
	GroupID       int64           `json:"group_id"`
	Name          string          `json:"name"`
	AuthorID      string          `json:"author_id"`
	AuthorQuery   string          `json:"author_query"`
	Address       string          `json:"address"`
	AddressBounds string          `json:"address_bounds"`
	Keywords      string          `json:"keywords"`
	Providers     []string        `json:"providers"`
	StartAt       *int64          `json:"start_at"` // unix seconds
	EndAt         *int64          `json:"end_at"`
	SearchFilters []int64         `json:"search_filters"`
	ImagesOnly    bool            `json:"images_only"`
	VideoOnly     bool            `json:"video_only"`
	BoardNames    []string        `json:"board_names"`
	Alerts        json.RawMessage `json:"alerts"`
	SharedUsers   *[]ShareInput   `json:"shared_users"`
	// BackfillDays fills the inbox, once saved, from the posts stored in the last days
	// (0 to MaxBackfillDays; 0 fills nothing).
	BackfillDays int `json:"backfillDays"`
}

// Saved-search messages (monitor-area.md section 5).
const (
	MsgNameRequired    = "The name field is required."
	MsgNameTooLong     = "The name may not be greater than 255 characters."
	MsgProvidersNeeded = "Choose at least one data source."
	MsgQueryNeeded     = "A search needs at least one location, author, keyword or board."
	MsgEndDateInvalid  = "The end date is invalid: it must not be in the past."
	MsgDatesReversed   = "The end date must be after the start date."
	MsgBoundsInvalid   = "The location bounds are not a valid WKT polygon."
	MsgAuthorOperators = "Author searches are not compatible with operators."
	MsgInvalidGiven    = "The given data was invalid."
	MsgSharingSearch   = "Only the owner, or someone it is shared with for editing, can change who sees this search."
)

// prepared is a validated input, ready to store.
type preparedSearch struct {
	search Search
	shares *[]Share
	lists  []int64
}

// CreateSearch validates and creates a saved search owned by the actor.
func (s *Service) CreateSearch(ctx context.Context, actor authz.Actor, in SearchInput) (SearchView, error) {
	if err := authz.CanUseAPI(actor); err != nil {
		return SearchView{}, err
	}
	v, err := s.load(ctx, actor)
	if err != nil {
		return SearchView{}, err
	}
	m := Search{OrganizationID: actor.OrganizationID, OwnerID: actor.UserID, Enabled: true}
	p, err := s.prepare(ctx, actor, v, m, in, nil, true)
	if err != nil {
		return SearchView{}, err
	}
	var shares []Share
	if p.shares != nil {
		shares = *p.shares
	}
	entries := func(id int64) []account.AuditEntry {
		return slices.Concat([]account.AuditEntry{audit.Created(actor, audit.ModelSearch, id, searchFields(p.search, p.lists))},
			auditShares(actor, "search", id, nil, p.shares),
			auditAlerts(actor, id, json.RawMessage("[]"), p.search.NotificationSettings))
	}
	if err := s.store.CreateSearch(ctx, &p.search, shares, p.lists, entries); err != nil {
		return SearchView{}, account.AssetLimitProblem(err)
	}
	s.searchChanged(ctx, p.search.ID)
	if err := s.startBackfill(ctx, actor, p.search, in.BackfillDays); err != nil {
		return SearchView{}, err
	}
	return s.Search(ctx, actor, p.search.ID)
}

// UpdateSearch validates and stores changes to a saved search the actor can edit.
func (s *Service) UpdateSearch(ctx context.Context, actor authz.Actor, id int64, in SearchInput) (SearchView, error) {
	v, err := s.load(ctx, actor)
	if err != nil {
		return SearchView{}, err
	}
	current, err := s.searchView(ctx, v, id)
	if err != nil {
		return SearchView{}, err
	}
	if err := authz.Require(current.Level, authz.LevelEdit, authz.MsgNotFoundSearch, authz.MsgReadOnly); err != nil {
		return SearchView{}, err
	}
	if in.SharedUsers != nil && !current.CanManageSharing {
		return SearchView{}, problem.Forbidden(MsgSharingSearch)
	}
	p, err := s.prepare(ctx, actor, v, current.Search, in, current.FilterLists, false)
	if err != nil {
		return SearchView{}, err
	}
	before, after := searchFields(current.Search, current.FilterLists), searchFields(p.search, p.lists)
	if current.GroupID != p.search.GroupID {
		before["group"], after["group"] = v.groups[current.GroupID].Name, v.groups[p.search.GroupID].Name
	}
	entries := slices.Concat(audit.Updated(actor, audit.ModelSearch, id, before, after),
		auditShares(actor, "search", id, current.Shares, p.shares),
		auditAlerts(actor, id, current.NotificationSettings, p.search.NotificationSettings))
	if err := s.store.UpdateSearch(ctx, p.search, p.shares, &p.lists, entries...); err != nil {
		return SearchView{}, err
	}
	s.searchChanged(ctx, id)
	if err := s.startBackfill(ctx, actor, p.search, in.BackfillDays); err != nil {
		return SearchView{}, err
	}
	return s.viewAfterChange(ctx, actor, id)
}

// viewAfterChange answers with the search as the actor now sees it, or what was stored when the
// change took their access away.
func (s *Service) viewAfterChange(ctx context.Context, actor authz.Actor, id int64) (SearchView, error) {
	sv, err := s.Search(ctx, actor, id)
	if problem.Is(err, problem.KindNotFound) {
		m, err := s.store.Search(ctx, id)
		return SearchView{Search: m}, err
	}
	return sv, err
}

// prepare applies the input to m and checks every rule of monitor-area.md section 5, reporting
// all failures at once.
// attached are the filter lists the search has already.
func (s *Service) prepare(ctx context.Context, actor authz.Actor, v *view, m Search, in SearchInput, attached []int64, creating bool) (preparedSearch, error) {
	fields := map[string][]string{}
	add := func(field, msg string) { fields[field] = append(fields[field], msg) }
	now := s.now()

	m.Name = strings.TrimSpace(in.Name)
	switch {
	case m.Name == "":
		add("name", MsgNameRequired)
	case len([]rune(m.Name)) > maxNameLength:
		add("name", MsgNameTooLong)
	}

	if in.GroupID == 0 {
		add("group_id", MsgSelectGroup)
	} else if g, ok := v.groups[in.GroupID]; !ok || v.groupLevel(g) == authz.LevelNone {
		add("group_id", MsgSelectGroup)
	} else if v.groupLevel(g) < authz.LevelEdit {
		add("group_id", authz.MsgReadOnlyGroup)
	} else {
		m.GroupID = g.ID
	}

	m.AuthorID, m.AuthorQuery = strings.TrimSpace(in.AuthorID), strings.TrimSpace(in.AuthorQuery)
	if strings.ContainsAny(m.AuthorQuery, `"()`) || slices.ContainsFunc(strings.Fields(m.AuthorQuery), func(w string) bool {
		return w == "AND" || w == "OR"
	}) {
		add("author_query", MsgAuthorOperators)
	}
	m.Address, m.AddressBounds = strings.TrimSpace(in.Address), strings.TrimSpace(in.AddressBounds)
	if m.AddressBounds != "" {
		if _, err := geom.ParseWKT(m.AddressBounds); err != nil {
			add("address_bounds", MsgBoundsInvalid)
		}
	}
	m.Keywords = strings.TrimSpace(in.Keywords)
	if m.Keywords != "" {
		q, issues := query.Parse(m.Keywords, query.ModeSavedSearch)
		for _, is := range issues {
			if is.Severity == query.SeverityError {
				add("keywords", is.Message)
			}
		}
		if q != nil {
			if words := tooBroad(q); len(words) > 0 {
				p := problem.Invalid("Search too broad\nThese keywords match most of the stream on their own: "+
					strings.Join(words, ", ")+".\nCombine them with more specific words, or remove them.\n"+
					"Edit the search to continue.", map[string][]string{"keywords": {"These keywords are too broad: " + strings.Join(words, ", ")}})
				p.Extra = map[string]any{"blacklistedKeywords": words}
				return preparedSearch{}, p
			}
		}
	}
	m.BoardNames = cleanList(in.BoardNames)
	if m.Keywords == "" && m.AuthorQuery == "" && m.AddressBounds == "" && len(m.BoardNames) == 0 {
		add("query", MsgQueryNeeded)
	}

	m.Providers = nil
	user, err := s.store.User(ctx, actor.UserID)
	if err != nil {
		return preparedSearch{}, err
	}
	available := provider.For(provider.Entitlements{Beacon: user.ACL.Beacon, Pro: user.ACL.Pro, Enterprise: user.ACL.Enterprise})
	for _, name := range cleanList(in.Providers) {
		name = strings.ToLower(name)
		if !slices.ContainsFunc(available, func(e provider.Entry) bool { return e.Name == name }) {
			add("providers", fmt.Sprintf("The data source %q is not available to you.", name))
			continue
		}
		m.Providers = append(m.Providers, name)
	}
	if len(m.Providers) == 0 && len(fields["providers"]) == 0 {
		add("providers", MsgProvidersNeeded)
	}

	m.StartAt, m.EndAt = time.Time{}, time.Time{}
	if in.StartAt != nil {
		m.StartAt = time.Unix(*in.StartAt, 0).UTC()
	}
	if in.EndAt != nil {
		m.EndAt = time.Unix(*in.EndAt, 0).UTC()
		if m.EndAt.Before(now) {
			add("end_at", MsgEndDateInvalid)
		}
	}
	if !m.StartAt.IsZero() && !m.EndAt.IsZero() && !m.EndAt.After(m.StartAt) {
		add("end_at", MsgDatesReversed)
	}
	m.ImagesOnly, m.VideoOnly = in.ImagesOnly, in.VideoOnly
	if in.BackfillDays < 0 || in.BackfillDays > MaxBackfillDays {
		add("backfillDays", MsgBackfillDays)
	}

	if len(in.Alerts) > 0 && string(in.Alerts) != "null" {
		alerts, msg, err := s.prepareAlerts(ctx, actor, in.Alerts, StoredSettings(m.NotificationSettings), now.Unix())
		if err != nil {
			return preparedSearch{}, err
		}
		if msg != "" {
			add("alerts", msg)
		}
		m.NotificationSettings = alerts
	} else if creating {
		m.NotificationSettings = json.RawMessage("[]")
	}

	var shares *[]Share
	if in.SharedUsers != nil {
		resolved, err := s.resolveShares(ctx, actor, *in.SharedUsers, fields, m.OwnerID)
		if err != nil {
			return preparedSearch{}, err
		}
		shares = &resolved
	}
	// Only owners may attach a filter list; lists already attached stay when someone else edits.
	lists := cleanIDs(in.SearchFilters)
	newLists := slices.DeleteFunc(slices.Clone(lists), func(id int64) bool { return slices.Contains(attached, id) })
	if len(newLists) > 0 && s.filters != nil {
		if err := s.filters.CheckAttach(ctx, actor, newLists); err != nil {
			p, ok := problem.As(err)
			if !ok {
				return preparedSearch{}, err
			}
			add("search_filters", p.Message)
		}
	}
	if len(fields) > 0 {
		return preparedSearch{}, problem.Invalid(MsgInvalidGiven, fields)
	}
	return preparedSearch{search: m, shares: shares, lists: lists}, nil
}

func cleanList(items []string) []string {
	var out []string
	for _, it := range items {
		it = strings.TrimSpace(it)
		if it != "" && !slices.Contains(out, it) {
			out = append(out, it)
		}
	}
	return out
}

func cleanIDs(ids []int64) []int64 {
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}

// DetachSearch removes the actor's own access to a search they do not own.
func (s *Service) DetachSearch(ctx context.Context, actor authz.Actor, id int64) error {
	sv, err := s.Search(ctx, actor, id)
	if err != nil {
		return err
	}
	if err := s.detach(ctx, "search", id, sv.Level, actor.UserID, audit.Entry(actor, audit.Change{Model: audit.ModelSearch,
		ModelID: id, Action: audit.ActionDetached, Previous: audit.Encode(audit.Fields{"name": sv.Name})})); err != nil {
		return err
	}
	s.searchChanged(ctx, id)
	return nil
}

// DeleteSearch deletes a saved search and its matches; it needs edit access.
func (s *Service) DeleteSearch(ctx context.Context, actor authz.Actor, id int64) error {
	sv, err := s.Search(ctx, actor, id)
	if err != nil {
		return err
	}
	if err := authz.Require(sv.Level, authz.LevelEdit, authz.MsgNotFoundSearch, authz.MsgSearchOwner); err != nil {
		return err
	}
	if err := s.store.DeleteSearch(ctx, id, audit.Deleted(actor, audit.ModelSearch, id, searchFields(sv.Search, sv.FilterLists))); err != nil {
		return err
	}
	s.searchChanged(ctx, id)
	return nil
}

// MoveSearches puts searches the actor can edit into a group they can edit.
func (s *Service) MoveSearches(ctx context.Context, actor authz.Actor, ids []int64, groupID int64) (int, error) {
	v, err := s.load(ctx, actor)
	if err != nil {
		return 0, err
	}
	g, ok := v.groups[groupID]
	if !ok || v.groupLevel(g) == authz.LevelNone {
		return 0, problem.InvalidField("groupId", MsgSelectGroup)
	}
	if v.groupLevel(g) < authz.LevelEdit || (g.IsSavedSearch && g.OwnerID != actor.UserID) {
		return 0, problem.InvalidField("groupId", authz.MsgReadOnlyGroup)
	}
	ids = cleanIDs(ids)
	if len(ids) == 0 {
		return 0, problem.InvalidField("monitorSearches", "Choose at least one search to move.")
	}
	from := make(map[int64]int64, len(ids))
	for _, id := range ids {
		sv, err := s.searchView(ctx, v, id)
		if err != nil {
			return 0, err
		}
		if err := authz.Require(sv.Level, authz.LevelEdit, authz.MsgNotFoundSearch, authz.MsgReadOnly); err != nil {
			return 0, err
		}
		from[id] = sv.GroupID
	}
	var entries []account.AuditEntry
	for _, id := range ids {
		if from[id] != groupID {
			entries = append(entries, audit.Entry(actor, audit.Change{Model: audit.ModelSearch, ModelID: id, Action: audit.ActionMoved,
				Previous: audit.Encode(audit.Fields{"group_id": from[id], "group": v.groups[from[id]].Name}),
				New:      audit.Encode(audit.Fields{"group_id": groupID, "group": g.Name})}))
		}
	}
	if err := s.store.MoveSearches(ctx, ids, groupID, entries...); err != nil {
		return 0, err
	}
	for _, id := range ids {
		s.searchChanged(ctx, id)
	}
	return len(ids), nil
}

// SetFavourite marks a search as one of the actor's favourites (personal; view access is enough).
func (s *Service) SetFavourite(ctx context.Context, actor authz.Actor, id int64, favourite bool) (SearchView, error) {
	if _, err := s.Search(ctx, actor, id); err != nil {
		return SearchView{}, err
	}
	if err := s.store.SetFavourite(ctx, "search", id, actor.UserID, favourite); err != nil {
		return SearchView{}, err
	}
	return s.Search(ctx, actor, id)
}

// SetHidden hides a search from the actor's Locate saved-search list (a hidden stream) or shows
// it again; personal, so view access is enough.
func (s *Service) SetHidden(ctx context.Context, actor authz.Actor, id int64, hidden bool) (SearchView, error) {
	if _, err := s.Search(ctx, actor, id); err != nil {
		return SearchView{}, err
	}
	if err := s.store.SetHidden(ctx, id, actor.UserID, hidden); err != nil {
		return SearchView{}, err
	}
	return s.Search(ctx, actor, id)
}

// SetEnabled pauses or resumes a search.
func (s *Service) SetEnabled(ctx context.Context, actor authz.Actor, id int64, enabled bool) (SearchView, error) {
	return s.change(ctx, actor, id, func(m *Search) error {
		if enabled && !m.Enabled {
			if err := s.checkDataLimit(ctx, m.OrganizationID); err != nil {
				return err
			}
		}
		m.Enabled = enabled
		return nil
	})
}

// SetStreamingOverride raises (or lowers back) the search's streaming limit for 24 hours.
func (s *Service) SetStreamingOverride(ctx context.Context, actor authz.Actor, id int64, increase bool) (SearchView, error) {
	return s.change(ctx, actor, id, func(m *Search) error {
		overrideStreaming(m, increase, s.now())
		return nil
	})
}

// SetGnipOverride raises (or lowers back) the search's firehose limit for 6 hours.
func (s *Service) SetGnipOverride(ctx context.Context, actor authz.Actor, id int64, increase bool) (SearchView, error) {
	return s.change(ctx, actor, id, func(m *Search) error {
		overrideGnip(m, increase, s.now())
		return nil
	})
}

// change applies fn to a search the actor can edit and stores it.
func (s *Service) change(ctx context.Context, actor authz.Actor, id int64, fn func(*Search) error) (SearchView, error) {
	sv, err := s.Search(ctx, actor, id)
	if err != nil {
		return SearchView{}, err
	}
	if err := authz.Require(sv.Level, authz.LevelEdit, authz.MsgNotFoundSearch, authz.MsgReadOnly); err != nil {
		return SearchView{}, err
	}
	m := sv.Search
	if err := fn(&m); err != nil {
		return SearchView{}, err
	}
	entries := slices.Concat(audit.Updated(actor, audit.ModelSearch, id, searchFields(sv.Search, sv.FilterLists), searchFields(m, sv.FilterLists)),
		auditAlerts(actor, id, sv.NotificationSettings, m.NotificationSettings))
	if err := s.store.UpdateSearch(ctx, m, nil, nil, entries...); err != nil {
		return SearchView{}, err
	}
	s.searchChanged(ctx, id)
	return s.Search(ctx, actor, id)
}

func (s *Service) searchChanged(ctx context.Context, id int64) {
	if s.changes != nil {
		s.changes.SearchChanged(ctx, id)
	}
}
