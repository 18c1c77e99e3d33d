// Package filters owns search filter lists (keyword inclusion and exclusion, author exclusion and
// object-detection lists that saved searches attach), the prebuilt lists and object vocabulary
// shipped in the binary, and location configurations, the organization's saved places
// (monitor-area.md sections 3, 5 and 6). Permission decisions are made by internal/authz.
package filters

import (
	"context"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/audit"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/percolate"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/query"
)

// Type is what a filter list holds.
type Type string

const (
	Keyword         Type = "keyword"
	Author          Type = "author"
	ObjectDetection Type = "object_detection"
)

// ParseType accepts the three list types.
func ParseType(s string) (Type, bool) {
	switch t := Type(s); t {
	case Keyword, Author, ObjectDetection:
		return t, true
	}
	return "", false
}

// Kind is the percolator's kind of a list of this type: keyword lists include or exclude, author
// lists always exclude, object lists always include.
func (t Type) Kind(inclusion bool) percolate.FilterKind {
	switch {
	case t == Author:
		return percolate.AuthorExclusion
	case t == ObjectDetection:
		return percolate.ObjectDetection
	case inclusion:
		return percolate.KeywordInclusion
	}
	return percolate.KeywordExclusion
}

// List is a search filter list.
type List struct {
	ID             int64
	OrganizationID int64
	OwnerID        int64
	Owner          Person
	Name           string
	Type           Type
	// Inclusion says a keyword list requires one of its keywords rather than excluding them;
	// author lists are always false, object lists always true.
	Inclusion bool
	Entries   []Entry
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Person is the owner of a list or a location configuration as replies show it.
type Person struct {
	ID       int64
	Email    string
	Username string
}

// Entry is one keyword, author or object of a list.
type Entry struct {
	ID    int64
	Value string // as the user typed it
	// Key is the value as the matcher compares it (folded; authors without '@'): a list holds
	// one entry per key.
	Key string
}

// Values are the entries' values in order.
func (l List) Values() []string {
	out := make([]string, len(l.Entries))
	for i, e := range l.Entries {
		out[i] = e.Value
	}
	return out
}

// NameKey is a name as uniqueness and the name filter compare it: case and accents folded.
func NameKey(name string) string { return query.Fold(name) }

// Attachment is a saved search using a list, with what decides whether the asking user can
// see that search.
type Attachment struct {
	ListID     int64
	SearchID   int64
	SearchName string
	Search     authz.SearchFacts
}

// Store keeps filter lists.
type Store interface {
	// The mutators write the audit entries in the change's transaction (an entry without a
	// ModelID names the list created).
	CreateFilterList(ctx context.Context, l *List, audit ...account.AuditEntry) error
	FilterList(ctx context.Context, id int64) (List, error)
	FilterLists(ctx context.Context, organizationID int64) ([]List, error)
	UpdateFilterList(ctx context.Context, l List, audit ...account.AuditEntry) error
	// DeleteFilterList deletes the list and returns the searches that used it.
	DeleteFilterList(ctx context.Context, id int64, audit ...account.AuditEntry) ([]int64, error)
	// AddFilterListEntries adds the entries whose key the list lacks, returning how many.
	AddFilterListEntries(ctx context.Context, listID int64, entries []Entry, audit ...account.AuditEntry) (int, error)
	RemoveFilterListEntries(ctx context.Context, listID int64, entryIDs []int64, audit ...account.AuditEntry) (int, error)
	// FilterListAttachments lists the searches using the organization's lists (or only list
	// listID when it is not 0), with userID's access facts.
	FilterListAttachments(ctx context.Context, userID, organizationID, listID int64) ([]Attachment, error)
	FilterListSearchIDs(ctx context.Context, listID int64) ([]int64, error)
	// FilterListsOfSearches returns the lists attached to each of the searches.
	FilterListsOfSearches(ctx context.Context, searchIDs []int64) (map[int64][]List, error)
	TrackObjectDetection(ctx context.Context, organizationID int64, keyword string) (int64, error)
	ObjectDetectionUsage(ctx context.Context, organizationID int64) (map[string]int64, error)
}

// Service applies the filter-list rules.
type Service struct {
	store    Store
	onChange func(ctx context.Context, searchIDs []int64)
}

// NewService applies the rules to the lists of s. onChange, when not nil, is called after a
// change that alters how saved searches using lists match (entries added or removed, inclusion
// switched, a list deleted), with those searches' ids, so the percolator recompiles them. It
// runs within the request, with its context.
func NewService(s Store, onChange func(ctx context.Context, searchIDs []int64)) *Service {
	return &Service{store: s, onChange: onChange}
}

// View is a list as one user sees it.
type View struct {
	List
	Level authz.Level
	// Searches are the saved searches using the list that the user can see.
	Searches []SearchRef
}

// SearchRef names a saved search.
type SearchRef struct {
	ID   int64
	Name string
}

// Limits of a list.
const (
	MaxNameLength  = 255
	MinEntryLength = 3 // monitor-area.md section 9: keyword minimum in filters
	MaxEntryLength = 255
	MaxEntries     = 10000
)

// Messages of refused requests.
const (
	MsgInvalid         = "The given data was invalid."
	MsgNameRequired    = "The name field is required."
	MsgNameTooLong     = "The name may not be greater than 255 characters."
	MsgDuplicateName   = "A filter list with this name already exists in your organization."
	MsgTypeRequired    = "The type field is required."
	MsgTypeInvalid     = "The type must be keyword, author or object_detection."
	MsgTypeFixed       = "The type of a filter list cannot be changed."
	MsgInclusionNeeded = "The inclusion field is required for keyword lists."
	MsgInclusionFixed  = "Only keyword lists can switch between inclusion and exclusion."
	MsgEntriesRequired = "At least one keyword of 3 or more characters is required."
	MsgNothingNew      = "There are no new keywords to add."
	MsgTooManyEntries  = "A filter list can hold at most 10000 keywords."
	MsgIDsRequired     = "Choose the keywords to remove."
	MsgKeepOneEntry    = "A filter list needs at least one keyword; delete the list instead."
)

// Draft is a list to create.
type Draft struct {
	Name      string
	Type      string
	Inclusion *bool
	Entries   []string
}

// Patch changes a list; nil fields stay as they are.
type Patch struct {
	Name      *string
	Type      *string
	Inclusion *bool
}

// fieldErrors collects per-field messages for one 422 reply.
type fieldErrors map[string][]string

func (f fieldErrors) add(field, message string) { f[field] = append(f[field], message) }

// err is the 422 problem, nil when there is no error. A single error is also the reply's
// message, which the client shows as it is.
func (f fieldErrors) err() error {
	message := MsgInvalid
	switch len(f) {
	case 0:
		return nil
	case 1:
		for _, messages := range f {
			if len(messages) == 1 {
				message = messages[0]
			}
		}
	}
	return problem.Invalid(message, f)
}

// EntriesField names a type's entries in requests and replies.
func (t Type) EntriesField() string {
	switch t {
	case Author:
		return "authors"
	case ObjectDetection:
		return "objects"
	}
	return "keywords"
}

func checkName(errs fieldErrors, name string) string {
	name = collapseSpace(name)
	switch {
	case name == "":
		errs.add("name", MsgNameRequired)
	case utf8.RuneCountInString(name) > MaxNameLength:
		errs.add("name", MsgNameTooLong)
	}
	return name
}

// Create makes a list owned by the actor. Entries that are duplicates, too short or too long are
// dropped and reported in Stripped; unsupported objects are refused.
func (s *Service) Create(ctx context.Context, a authz.Actor, d Draft) (View, Stripped, error) {
	if err := authz.CanUseAPI(a); err != nil {
		return View{}, Stripped{}, err
	}
	errs := fieldErrors{}
	l := List{OrganizationID: a.OrganizationID, OwnerID: a.UserID, Name: checkName(errs, d.Name)}
	t, valid := ParseType(d.Type)
	switch {
	case d.Type == "":
		errs.add("type", MsgTypeRequired)
	case !valid:
		errs.add("type", MsgTypeInvalid)
	}
	var stripped Stripped
	if valid {
		l.Type = t
		switch {
		case t == Author:
			l.Inclusion = false
		case t == ObjectDetection:
			l.Inclusion = true
		case d.Inclusion == nil:
			errs.add("inclusion", MsgInclusionNeeded)
		default:
			l.Inclusion = *d.Inclusion
		}
		l.Entries, stripped = checkEntries(errs, t.EntriesField(), t, d.Entries, nil, MsgEntriesRequired)
	}
	if err := errs.err(); err != nil {
		return View{}, stripped, err
	}
	if err := s.store.CreateFilterList(ctx, &l, audit.Created(a, audit.ModelFilterList, 0, listFields(l))); err != nil {
		return View{}, stripped, account.AssetLimitProblem(err)
	}
	v, err := s.One(ctx, a, l.ID)
	return v, stripped, err
}

// checkEntries cleans values against the existing entries, adding an error on field when some
// object is unsupported, none is left (noneLeft says why) or the list would grow past MaxEntries.
func checkEntries(errs fieldErrors, field string, t Type, values []string, existing []Entry, noneLeft string) ([]Entry, Stripped) {
	kept, stripped, unsupported := clean(t, values, existing)
	switch {
	case len(unsupported) > 0:
		errs.add(field, unsupportedMessage(unsupported))
	case len(kept) == 0:
		errs.add(field, joinSentences(noneLeft, stripped.Message()))
	case len(existing)+len(kept) > MaxEntries:
		errs.add(field, MsgTooManyEntries)
	}
	return kept, stripped
}

// load fetches a list the actor can at least view; others' lists do not exist for them.
func (s *Service) load(ctx context.Context, a authz.Actor, id int64) (List, authz.Level, error) {
	l, err := s.store.FilterList(ctx, id)
	if err != nil {
		return List{}, authz.LevelNone, err
	}
	level := authz.FilterListLevel(a, authz.OwnedFacts{OrganizationID: l.OrganizationID, OwnerID: l.OwnerID})
	if level == authz.LevelNone {
		return List{}, level, problem.NotFound(authz.MsgNotFoundFilterList)
	}
	return l, level, nil
}

// One returns a list the actor can see.
func (s *Service) One(ctx context.Context, a authz.Actor, id int64) (View, error) {
	l, level, err := s.load(ctx, a, id)
	if err != nil {
		return View{}, err
	}
	attached, err := s.store.FilterListAttachments(ctx, a.UserID, a.OrganizationID, id)
	if err != nil {
		return View{}, err
	}
	return View{List: l, Level: level, Searches: visibleSearches(a, attached)[id]}, nil
}

// Lists returns the organization's lists of a type ("" or "all" for every type), by name.
func (s *Service) Lists(ctx context.Context, a authz.Actor, typ string) ([]View, error) {
	if err := authz.CanUseAPI(a); err != nil {
		return nil, err
	}
	want, valid := ParseType(typ)
	if !valid && typ != "" && typ != "all" {
		return nil, problem.InvalidField("type", "The type must be keyword, author, object_detection or all.")
	}
	lists, err := s.store.FilterLists(ctx, a.OrganizationID)
	if err != nil {
		return nil, err
	}
	attached, err := s.store.FilterListAttachments(ctx, a.UserID, a.OrganizationID, 0)
	if err != nil {
		return nil, err
	}
	searches := visibleSearches(a, attached)
	out := []View{}
	for _, l := range lists {
		if valid && l.Type != want {
			continue
		}
		level := authz.FilterListLevel(a, authz.OwnedFacts{OrganizationID: l.OrganizationID, OwnerID: l.OwnerID})
		out = append(out, View{List: l, Level: level, Searches: searches[l.ID]})
	}
	return out, nil
}

// visibleSearches groups by list the attached searches the actor can at least view.
func visibleSearches(a authz.Actor, attached []Attachment) map[int64][]SearchRef {
	out := map[int64][]SearchRef{}
	for _, at := range attached {
		if authz.SearchLevel(a, at.Search) >= authz.LevelView {
			out[at.ListID] = append(out[at.ListID], SearchRef{ID: at.SearchID, Name: at.SearchName})
		}
	}
	return out
}

// Update renames a list or switches a keyword list between inclusion and exclusion. Editors may
// rename; only the owner may switch, since that reverses every search using the list.
func (s *Service) Update(ctx context.Context, a authz.Actor, id int64, p Patch) (View, error) {
	l, level, err := s.load(ctx, a, id)
	if err != nil {
		return View{}, err
	}
	if level < authz.LevelEdit {
		return View{}, problem.Forbidden(authz.MsgFilterSharing)
	}
	before := l
	errs := fieldErrors{}
	if p.Name != nil {
		l.Name = checkName(errs, *p.Name)
	}
	if p.Type != nil && Type(*p.Type) != l.Type {
		errs.add("type", MsgTypeFixed)
	}
	switched := p.Inclusion != nil && *p.Inclusion != l.Inclusion
	if switched && l.Type != Keyword {
		errs.add("inclusion", MsgInclusionFixed)
	}
	if err := errs.err(); err != nil {
		return View{}, err
	}
	if switched && level < authz.LevelOwn {
		return View{}, problem.Forbidden(authz.MsgFilterSharing)
	}
	if switched {
		l.Inclusion = *p.Inclusion
	}
	if err := s.store.UpdateFilterList(ctx, l, audit.Updated(a, audit.ModelFilterList, id,
		audit.Fields{"name": before.Name, "inclusion": before.Inclusion}, audit.Fields{"name": l.Name, "inclusion": l.Inclusion})...); err != nil {
		return View{}, err
	}
	if switched {
		if err := s.notify(ctx, id); err != nil {
			return View{}, err
		}
	}
	return s.One(ctx, a, id)
}

// Delete removes a list, detaching it from the searches using it. Only its owner may.
func (s *Service) Delete(ctx context.Context, a authz.Actor, id int64) error {
	l, level, err := s.load(ctx, a, id)
	if err != nil {
		return err
	}
	if level < authz.LevelOwn {
		return problem.Forbidden(authz.MsgFilterDeleteOwner)
	}
	searches, err := s.store.DeleteFilterList(ctx, id, audit.Deleted(a, audit.ModelFilterList, id, listFields(l)))
	if err != nil {
		return err
	}
	s.changed(ctx, searches)
	return nil
}

// AddEntries adds keywords, authors or objects (t must be the list's type).
func (s *Service) AddEntries(ctx context.Context, a authz.Actor, id int64, t Type, values []string) (View, Stripped, error) {
	return s.addEntries(ctx, a, id, t, values, t.EntriesField(), MsgNothingNew)
}

// addEntries adds values to a list, reporting problems with them on field; noneLeft says why
// when nothing is left to add.
func (s *Service) addEntries(ctx context.Context, a authz.Actor, id int64, t Type, values []string, field, noneLeft string) (View, Stripped, error) {
	l, err := s.editable(ctx, a, id, t)
	if err != nil {
		return View{}, Stripped{}, err
	}
	errs := fieldErrors{}
	kept, stripped := checkEntries(errs, field, l.Type, values, l.Entries, noneLeft)
	if err := errs.err(); err != nil {
		return View{}, stripped, err
	}
	if _, err := s.store.AddFilterListEntries(ctx, id, kept, auditEntries(a, l, nil, kept)...); err != nil {
		return View{}, stripped, account.AssetLimitProblem(err)
	}
	if err := s.notify(ctx, id); err != nil {
		return View{}, stripped, err
	}
	v, err := s.One(ctx, a, id)
	return v, stripped, err
}

// RemoveEntries removes entries by id; a list keeps at least one entry, so searches using it
// still compile.
func (s *Service) RemoveEntries(ctx context.Context, a authz.Actor, id int64, t Type, entryIDs []int64) (View, error) {
	l, err := s.editable(ctx, a, id, t)
	if err != nil {
		return View{}, err
	}
	if len(entryIDs) == 0 {
		return View{}, problem.InvalidField("ids", MsgIDsRequired)
	}
	remaining := 0
	for _, e := range l.Entries {
		if !slices.Contains(entryIDs, e.ID) {
			remaining++
		}
	}
	if remaining == 0 {
		return View{}, problem.InvalidField("ids", MsgKeepOneEntry)
	}
	var gone []Entry
	for _, e := range l.Entries {
		if slices.Contains(entryIDs, e.ID) {
			gone = append(gone, e)
		}
	}
	removed, err := s.store.RemoveFilterListEntries(ctx, id, entryIDs, auditEntries(a, l, gone, nil)...)
	if err != nil {
		return View{}, err
	}
	if removed > 0 {
		if err := s.notify(ctx, id); err != nil {
			return View{}, err
		}
	}
	return s.One(ctx, a, id)
}

// editable loads a list of type t that the actor may change.
func (s *Service) editable(ctx context.Context, a authz.Actor, id int64, t Type) (List, error) {
	l, level, err := s.load(ctx, a, id)
	if err != nil {
		return List{}, err
	}
	if level < authz.LevelEdit {
		return List{}, problem.Forbidden(authz.MsgFilterSharing)
	}
	if t != l.Type {
		return List{}, problem.InvalidField("type", "This filter list holds "+l.Type.EntriesField()+", not "+t.EntriesField()+".")
	}
	return l, nil
}

// CheckAttach allows attaching lists to a saved search only when the actor owns every one of
// them. Callers check the lists being newly attached, so editors of a shared search can keep
// the lists its owner chose.
func (s *Service) CheckAttach(ctx context.Context, a authz.Actor, listIDs []int64) error {
	for _, id := range listIDs {
		_, level, err := s.load(ctx, a, id)
		if err != nil {
			return err
		}
		if level < authz.LevelOwn {
			return problem.Forbidden(authz.MsgFilterAttachOwner)
		}
	}
	return nil
}

// ListsForSearches returns, for the percolator, the filter lists attached to each search.
func (s *Service) ListsForSearches(ctx context.Context, searchIDs []int64) (map[int64][]percolate.FilterList, error) {
	return MatchingLists{s.store}.ListsForSearches(ctx, searchIDs)
}

// MatchingLists reads the lists of saved searches for the percolator; it changes nothing, so
// the percolator needs no Service, whose changes it hears of.
type MatchingLists struct{ Store Store }

// ListsForSearches returns, for each search of searchIDs that uses filter lists, its lists in
// the matcher's form.
func (m MatchingLists) ListsForSearches(ctx context.Context, searchIDs []int64) (map[int64][]percolate.FilterList, error) {
	bySearch, err := m.Store.FilterListsOfSearches(ctx, searchIDs)
	if err != nil {
		return nil, err
	}
	out := make(map[int64][]percolate.FilterList, len(bySearch))
	for id, lists := range bySearch {
		for _, l := range lists {
			out[id] = append(out[id], percolate.FilterList{Kind: l.Type.Kind(l.Inclusion), Entries: l.Values()})
		}
	}
	return out, nil
}

// ForMatching returns lists the actor can see in the matcher's form, for a draft search whose
// lists were already checked (CheckAttach); another organization's lists do not exist here.
func (s *Service) ForMatching(ctx context.Context, a authz.Actor, listIDs []int64) ([]percolate.FilterList, error) {
	out := make([]percolate.FilterList, 0, len(listIDs))
	for _, id := range listIDs {
		l, _, err := s.load(ctx, a, id)
		if err != nil {
			return nil, err
		}
		out = append(out, percolate.FilterList{Kind: l.Type.Kind(l.Inclusion), Entries: l.Values()})
	}
	return out, nil
}

// notify reports the searches using a list to onChange.
func (s *Service) notify(ctx context.Context, listID int64) error {
	if s.onChange == nil {
		return nil
	}
	ids, err := s.store.FilterListSearchIDs(ctx, listID)
	if err != nil {
		return err
	}
	s.changed(ctx, ids)
	return nil
}

func (s *Service) changed(ctx context.Context, searchIDs []int64) {
	if s.onChange != nil && len(searchIDs) > 0 {
		s.onChange(ctx, searchIDs)
	}
}

// listFields is what a list's audit rows show of it.
func listFields(l List) audit.Fields {
	return audit.Fields{"name": l.Name, "type": string(l.Type), "inclusion": l.Inclusion, l.Type.EntriesField(): l.Values()}
}

// auditEntries is the entry of entries added to or removed from a list: only those, not the
// whole list, which may hold thousands; none when there are none.
func auditEntries(a authz.Actor, l List, removed, added []Entry) []account.AuditEntry {
	values := func(entries []Entry) []string {
		out := make([]string, len(entries))
		for i, e := range entries {
			out[i] = e.Value
		}
		return out
	}
	field := l.Type.EntriesField()
	c := audit.Change{Model: audit.ModelFilterList, ModelID: l.ID, Action: audit.ActionUpdated}
	if len(removed) > 0 {
		c.Previous = audit.Encode(audit.Fields{"name": l.Name, field: values(removed)})
	}
	if len(added) > 0 {
		c.New = audit.Encode(audit.Fields{"name": l.Name, field: values(added)})
	}
	if c.Previous == "" && c.New == "" {
		return nil
	}
	return []account.AuditEntry{audit.Entry(a, c)}
}
