package monitor

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/alerts/channel"
	"github.com/sightline/sightline/internal/audit"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/filters"
	"github.com/sightline/sightline/internal/percolate"
	"github.com/sightline/sightline/internal/problem"
)

// Store is the persistence the Monitor needs.
type Store interface {
	Organization(ctx context.Context, id int64) (account.Organization, error)
	Tenant(ctx context.Context, id int64) (account.Tenant, error)
	User(ctx context.Context, id int64) (account.User, error)

	Group(ctx context.Context, id int64) (Group, error)
	Groups(ctx context.Context, organizationID int64) ([]Group, error)
	UncategorizedGroup(ctx context.Context, organizationID, userID int64) (Group, error)
	// The mutators write the audit entries of searches, groups, sharing and alerts in the
	// change's transaction; a create's entries are made from the id of the row it creates.
	CreateGroup(ctx context.Context, g *Group, shares []Share, audit ...func(id int64) []account.AuditEntry) error
	UpdateGroup(ctx context.Context, g Group, shares *[]Share, audit ...account.AuditEntry) error
	DeleteGroup(ctx context.Context, g Group, audit ...account.AuditEntry) error
	GroupShares(ctx context.Context, groupID int64) ([]Share, error)

	Search(ctx context.Context, id int64) (Search, error)
	Searches(ctx context.Context, organizationID int64) ([]Search, error)
	CreateSearch(ctx context.Context, m *Search, shares []Share, filterLists []int64, audit ...func(id int64) []account.AuditEntry) error
	UpdateSearch(ctx context.Context, m Search, shares *[]Share, filterLists *[]int64, audit ...account.AuditEntry) error
	DeleteSearch(ctx context.Context, id int64, audit ...account.AuditEntry) error
	MoveSearches(ctx context.Context, ids []int64, groupID int64, audit ...account.AuditEntry) error
	SearchShares(ctx context.Context, searchID int64) ([]Share, error)
	SearchFilterLists(ctx context.Context, organizationID int64) (map[int64][]int64, error)
	CountMatchesSince(ctx context.Context, organizationID int64, since time.Time) (int64, error)

	PersonalState(ctx context.Context, kind string, organizationID, userID int64) (map[int64]Personal, error)
	// SetFavourite marks an item as a user's favourite, a personal mark that is not audited.
	SetFavourite(ctx context.Context, kind string, itemID, userID int64, on bool) error
	// SetHidden hides a search from a user's Locate saved-search list, a personal mark like a
	// favourite, not audited.
	SetHidden(ctx context.Context, searchID, userID int64, on bool) error
	// Detach drops a user's own share of an item and remembers that they left it.
	Detach(ctx context.Context, kind string, itemID, userID int64, audit ...account.AuditEntry) error
	UsersByLogin(ctx context.Context, organizationID int64, login string) (Share, error)
	// LocationConfigurationByFPID finds the location configuration a proximity alert names.
	LocationConfigurationByFPID(ctx context.Context, fpid string) (filters.LocationConfiguration, error)
}

// Changes is told when a saved search changed, so the percolator follows within a second.
type Changes interface {
	SearchChanged(ctx context.Context, searchID int64)
}

// FilterLists checks that the actor may attach filter lists to a search, and gives the lists of a
// draft search to the matcher.
type FilterLists interface {
	CheckAttach(ctx context.Context, actor authz.Actor, listIDs []int64) error
	ForMatching(ctx context.Context, actor authz.Actor, listIDs []int64) ([]percolate.FilterList, error)
}

// Service carries out the Monitor's rules.
type Service struct {
	store    Store
	inbox    InboxStore
	changes  Changes
	filters  FilterLists
	notifier Notifier
	layouts  LayoutStore
	channels channel.Table
	backfill Backfiller
	now      func() time.Time
}

// Deps are what the Service works with; Changes, FilterLists and Notifier may be nil, and
// Layouts too where the dashboard layout is not used.
type Deps struct {
	Store       Store
	Inbox       InboxStore
	Changes     Changes
	FilterLists FilterLists
	Notifier    Notifier
	Layouts     LayoutStore
	// Channels are the alert channels destinations are checked against (alerts.Channels).
	Channels channel.Table
	// Backfill fills a search's inbox from stored posts when it is saved; may be nil, and then
	// a search asked to be backfilled is saved without.
	Backfill Backfiller
}

func NewService(d Deps) *Service {
	return &Service{store: d.Store, inbox: d.Inbox, changes: d.Changes, filters: d.FilterLists, notifier: d.Notifier,
		layouts: d.Layouts, channels: d.Channels, backfill: d.Backfill, now: time.Now}
}

// GroupView is a group as one actor sees it.
type GroupView struct {
	Group
	Level            authz.Level
	Personal         Personal
	CanManageSharing bool
	Owner            Share
	Shares           []Share // direct shares, sorted
	SearchCount      int
}

// view is everything about an organization's groups and searches one actor may see.
type view struct {
	actor         authz.Actor
	groups        map[int64]Group
	groupState    map[int64]Personal
	searchState   map[int64]Personal
	searches      []Search
	groupOrder    []int64
	searchesByGrp map[int64]int
}

func (s *Service) load(ctx context.Context, actor authz.Actor) (*view, error) {
	if _, err := s.store.UncategorizedGroup(ctx, actor.OrganizationID, actor.UserID); err != nil {
		return nil, err
	}
	groups, err := s.store.Groups(ctx, actor.OrganizationID)
	if err != nil {
		return nil, err
	}
	v := &view{actor: actor, groups: map[int64]Group{}, searchesByGrp: map[int64]int{}}
	for _, g := range groups {
		v.groups[g.ID] = g
		v.groupOrder = append(v.groupOrder, g.ID)
	}
	if v.groupState, err = s.store.PersonalState(ctx, "group", actor.OrganizationID, actor.UserID); err != nil {
		return nil, err
	}
	if v.searchState, err = s.store.PersonalState(ctx, "search", actor.OrganizationID, actor.UserID); err != nil {
		return nil, err
	}
	if v.searches, err = s.store.Searches(ctx, actor.OrganizationID); err != nil {
		return nil, err
	}
	for _, m := range v.searches {
		if v.searchLevel(m) > authz.LevelNone {
			v.searchesByGrp[m.GroupID]++
		}
	}
	return v, nil
}

func (v *view) groupFacts(g Group) authz.GroupFacts {
	p := v.groupState[g.ID]
	return authz.GroupFacts{OrganizationID: g.OrganizationID, OwnerID: g.OwnerID, Privacy: g.Privacy,
		IsSavedSearch: g.IsSavedSearch, ShareRole: p.ShareRole, Detached: p.Detached}
}

func (v *view) groupLevel(g Group) authz.Level { return authz.GroupLevel(v.actor, v.groupFacts(g)) }

func (v *view) searchFacts(m Search) authz.SearchFacts {
	p := v.searchState[m.ID]
	return authz.SearchFacts{OrganizationID: m.OrganizationID, OwnerID: m.OwnerID, Group: v.groupFacts(v.groups[m.GroupID]),
		ShareRole: p.ShareRole, Detached: p.Detached}
}

func (v *view) searchLevel(m Search) authz.Level { return authz.SearchLevel(v.actor, v.searchFacts(m)) }

// Groups lists the groups the actor can see: their own Uncategorized first, then by name.
func (s *Service) Groups(ctx context.Context, actor authz.Actor) ([]GroupView, error) {
	v, err := s.load(ctx, actor)
	if err != nil {
		return nil, err
	}
	var out []GroupView
	for _, id := range v.groupOrder {
		g := v.groups[id]
		if g.IsSavedSearch && g.OwnerID != actor.UserID {
			continue
		}
		if v.groupLevel(g) == authz.LevelNone {
			continue
		}
		gv, err := s.groupView(ctx, v, g)
		if err != nil {
			return nil, err
		}
		out = append(out, gv)
	}
	return out, nil
}

// Group is one group the actor can see.
func (s *Service) Group(ctx context.Context, actor authz.Actor, id int64) (GroupView, error) {
	v, err := s.load(ctx, actor)
	if err != nil {
		return GroupView{}, err
	}
	g, ok := v.groups[id]
	if !ok || v.groupLevel(g) == authz.LevelNone {
		return GroupView{}, problem.NotFound("%s", authz.MsgNotFoundGroup)
	}
	return s.groupView(ctx, v, g)
}

func (s *Service) groupView(ctx context.Context, v *view, g Group) (GroupView, error) {
	level := v.groupLevel(g)
	p := v.groupState[g.ID]
	gv := GroupView{Group: g, Level: level, Personal: p, SearchCount: v.searchesByGrp[g.ID],
		CanManageSharing: !g.IsSavedSearch && authz.CanManageSharing(level, p.ShareRole)}
	owner, err := s.store.User(ctx, g.OwnerID)
	if err != nil {
		return GroupView{}, err
	}
	gv.Owner = Share{UserID: owner.ID, Email: owner.Email, Username: owner.Username, Name: owner.Name, Role: authz.RoleOwner}
	if gv.Shares, err = s.store.GroupShares(ctx, g.ID); err != nil {
		return GroupView{}, err
	}
	SortShares(gv.Shares)
	return gv, nil
}

// ShareInput names a person to share with, by e-mail or username, and their role.
type ShareInput struct {
	Username string `json:"username"`
	Role     string `json:"role"`
}

// GroupInput creates or changes a group; nil fields stay as they are.
type GroupInput struct {
	Name        *string
	Privacy     *string
	IsFavourite *bool
	SharedUsers *[]ShareInput
}

const maxNameLength = 255

// Group messages (monitor-area.md section 5).
const (
	MsgGroupNameRequired = "Group Name is required"
	MsgGroupNameTooLong  = "Group Name may not be greater than 255 characters"
	MsgSelectGroup       = "You must select a group"
)

func validPrivacy(p string) bool {
	return p == authz.PrivacyShared || p == authz.PrivacyReadonly || p == authz.PrivacyPrivate
}

// CreateGroup makes a group owned by the actor.
func (s *Service) CreateGroup(ctx context.Context, actor authz.Actor, in GroupInput) (GroupView, error) {
	if err := authz.CanUseAPI(actor); err != nil {
		return GroupView{}, err
	}
	g := Group{OrganizationID: actor.OrganizationID, OwnerID: actor.UserID, Privacy: authz.PrivacyPrivate}
	if in.Name != nil {
		g.Name = strings.TrimSpace(*in.Name)
	}
	if in.Privacy != nil {
		g.Privacy = *in.Privacy
	}
	fields := map[string][]string{}
	validateGroup(g, fields)
	var shares []Share
	if in.SharedUsers != nil {
		var err error
		if shares, err = s.resolveShares(ctx, actor, *in.SharedUsers, fields); err != nil {
			return GroupView{}, err
		}
	}
	if len(fields) > 0 {
		return GroupView{}, problem.Invalid("The given data was invalid.", fields)
	}
	entries := func(id int64) []account.AuditEntry {
		return append([]account.AuditEntry{audit.Created(actor, audit.ModelGroup, id, groupFields(g))},
			auditShares(actor, "group", id, nil, &shares)...)
	}
	if err := s.store.CreateGroup(ctx, &g, shares, entries); err != nil {
		return GroupView{}, account.AssetLimitProblem(err)
	}
	if in.IsFavourite != nil && *in.IsFavourite {
		if err := s.store.SetFavourite(ctx, "group", g.ID, actor.UserID, true); err != nil {
			return GroupView{}, err
		}
	}
	return s.Group(ctx, actor, g.ID)
}

func validateGroup(g Group, fields map[string][]string) {
	switch {
	case g.Name == "":
		fields["name"] = []string{MsgGroupNameRequired}
	case len([]rune(g.Name)) > maxNameLength:
		fields["name"] = []string{MsgGroupNameTooLong}
	}
	if !validPrivacy(g.Privacy) {
		fields["privacy"] = []string{"Privacy must be shared, readonly or private."}
	}
}

// UpdateGroup changes a group. Renaming needs edit access; privacy and sharing need the right to
// manage sharing; a favourite is personal and needs only view access.
func (s *Service) UpdateGroup(ctx context.Context, actor authz.Actor, id int64, in GroupInput) (GroupView, error) {
	gv, err := s.Group(ctx, actor, id)
	if err != nil {
		return GroupView{}, err
	}
	g := gv.Group
	if in.IsFavourite != nil {
		if err := s.store.SetFavourite(ctx, "group", g.ID, actor.UserID, *in.IsFavourite); err != nil {
			return GroupView{}, err
		}
	}
	changesGroup := (in.Name != nil && strings.TrimSpace(*in.Name) != g.Name) || (in.Privacy != nil && *in.Privacy != g.Privacy) ||
		in.SharedUsers != nil
	if !changesGroup {
		return s.Group(ctx, actor, id)
	}
	if g.IsSavedSearch {
		return GroupView{}, problem.Forbidden(authz.MsgUncategorized)
	}
	if err := authz.Require(gv.Level, authz.LevelEdit, authz.MsgNotFoundGroup, authz.MsgReadOnly); err != nil {
		return GroupView{}, err
	}
	if ((in.Privacy != nil && *in.Privacy != g.Privacy) || in.SharedUsers != nil) && !gv.CanManageSharing {
		return GroupView{}, problem.Forbidden("Only the owner, or someone it is shared with for editing, can change who sees this group.")
	}
	if in.Name != nil {
		g.Name = strings.TrimSpace(*in.Name)
	}
	if in.Privacy != nil {
		g.Privacy = *in.Privacy
	}
	fields := map[string][]string{}
	validateGroup(g, fields)
	var shares *[]Share
	if in.SharedUsers != nil {
		resolved, err := s.resolveShares(ctx, actor, *in.SharedUsers, fields, g.OwnerID)
		if err != nil {
			return GroupView{}, err
		}
		shares = &resolved
	}
	if len(fields) > 0 {
		return GroupView{}, problem.Invalid("The given data was invalid.", fields)
	}
	entries := append(audit.Updated(actor, audit.ModelGroup, g.ID, groupFields(gv.Group), groupFields(g)),
		auditShares(actor, "group", g.ID, gv.Shares, shares)...)
	if err := s.store.UpdateGroup(ctx, g, shares, entries...); err != nil {
		return GroupView{}, err
	}
	s.groupChanged(ctx, g)
	// The actor may have removed their own access: answer with what they still see.
	after, err := s.Group(ctx, actor, id)
	if problem.Is(err, problem.KindNotFound) {
		return GroupView{Group: g}, nil
	}
	return after, err
}

// DetachGroup removes the actor's own access to a group they do not own.
func (s *Service) DetachGroup(ctx context.Context, actor authz.Actor, id int64) error {
	gv, err := s.Group(ctx, actor, id)
	if err != nil {
		return err
	}
	if err := s.detach(ctx, "group", id, gv.Level, actor.UserID, audit.Entry(actor, audit.Change{Model: audit.ModelGroup,
		ModelID: id, Action: audit.ActionDetached, Previous: audit.Snapshot(groupFields(gv.Group))})); err != nil {
		return err
	}
	s.groupChanged(ctx, gv.Group)
	return nil
}

// detach drops the user's own share of an item and remembers that they left it, so access
// through the organization or a group does not bring it back.
func (s *Service) detach(ctx context.Context, kind string, id int64, level authz.Level, userID int64, entry account.AuditEntry) error {
	if err := authz.CanDetach(level); err != nil {
		return err
	}
	return s.store.Detach(ctx, kind, id, userID, entry)
}

// DeleteGroup deletes a group the actor owns; its searches move to their owners' Uncategorized.
func (s *Service) DeleteGroup(ctx context.Context, actor authz.Actor, id int64) error {
	gv, err := s.Group(ctx, actor, id)
	if err != nil {
		return err
	}
	if gv.IsSavedSearch {
		return problem.Forbidden(authz.MsgUncategorized)
	}
	if err := authz.Require(gv.Level, authz.LevelOwn, authz.MsgNotFoundGroup, authz.MsgGroupOwner); err != nil {
		return err
	}
	// Its searches move to other groups, so their audiences change: note them before they go.
	moved := s.searchesIn(ctx, gv.Group)
	if err := s.store.DeleteGroup(ctx, gv.Group, audit.Deleted(actor, audit.ModelGroup, id, groupFields(gv.Group))); err != nil {
		return err
	}
	s.notify(ctx, moved)
	return nil
}

// groupChanged tells the percolator about every search of a group, whose audience changed.
func (s *Service) groupChanged(ctx context.Context, g Group) {
	s.notify(ctx, s.searchesIn(ctx, g))
}

// searchesIn lists the ids of a group's searches.
func (s *Service) searchesIn(ctx context.Context, g Group) []int64 {
	searches, err := s.store.Searches(ctx, g.OrganizationID)
	if err != nil {
		return nil
	}
	var ids []int64
	for _, m := range searches {
		if m.GroupID == g.ID {
			ids = append(ids, m.ID)
		}
	}
	return ids
}

func (s *Service) notify(ctx context.Context, searchIDs []int64) {
	for _, id := range searchIDs {
		s.searchChanged(ctx, id)
	}
}

// resolveShares turns share inputs into members of the actor's organization. The owner (the
// actor when creating, or ownerID) is left out: an owner's access is not a share.
func (s *Service) resolveShares(ctx context.Context, actor authz.Actor, in []ShareInput, fields map[string][]string, ownerID ...int64) ([]Share, error) {
	owner := actor.UserID
	if len(ownerID) > 0 {
		owner = ownerID[0]
	}
	var out []Share
	for _, si := range in {
		role := si.Role
		if role == "" {
			role = authz.RoleReadOnly // invitees default to read only
		}
		if role != authz.RoleFullAccess && role != authz.RoleReadOnly {
			fields["sharedUsers"] = append(fields["sharedUsers"], "The role must be full_access or read_only.")
			continue
		}
		sh, err := s.store.UsersByLogin(ctx, actor.OrganizationID, si.Username)
		if problem.Is(err, problem.KindNotFound) {
			fields["sharedUsers"] = append(fields["sharedUsers"], err.Error())
			continue
		}
		if err != nil {
			return nil, err
		}
		if sh.UserID == owner || slices.ContainsFunc(out, func(o Share) bool { return o.UserID == sh.UserID }) {
			continue
		}
		sh.Role = role
		out = append(out, sh)
	}
	return out, nil
}

// SortShares orders a sharing list: direct before group-inherited, full access before read
// only, then by name (e-mail when there is none).
func SortShares(shares []Share) {
	rank := func(sh Share) int {
		r := 0
		if sh.FromGroup {
			r += 2
		}
		if sh.Role != authz.RoleFullAccess {
			r++
		}
		return r
	}
	label := func(sh Share) string {
		if sh.Name != "" {
			return strings.ToLower(sh.Name)
		}
		return sh.Email
	}
	slices.SortStableFunc(shares, func(a, b Share) int {
		if ra, rb := rank(a), rank(b); ra != rb {
			return ra - rb
		}
		return strings.Compare(label(a), label(b))
	})
}
