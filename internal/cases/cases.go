// Package cases is case work (issue 32, docs/cases-api.md): an organization's investigations,
// each with a status, assignees, tags and a description; items (posts, stories, matches and
// evidence) each with a note; a timeline of every change; comments that mention colleagues; and
// an export as one ZIP with a readable report and a manifest of hashes. Cases are shared as
// saved searches are, and every decision goes through internal/authz.
package cases

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/audit"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/live"
	"github.com/sightline/sightline/internal/mail"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/story"
)

// Statuses of a case.
const (
	StatusOpen       = "open"
	StatusInProgress = "in_progress"
	StatusClosed     = "closed"
)

// Statuses lists them in the order a case goes through them.
var Statuses = []string{StatusOpen, StatusInProgress, StatusClosed}

// Kinds of item.
const (
	KindPost     = "post"
	KindStory    = "story"
	KindMatch    = "match"
	KindEvidence = "evidence"
)

// Kinds lists them.
var Kinds = []string{KindPost, KindStory, KindMatch, KindEvidence}

// Limits on what people type.
const (
	MaxName        = 255
	MaxText        = 10_000 // a description, a note or a comment, in characters
	MaxTags        = 20
	MaxTag         = 50
	MaxItems       = 500
	DefaultPrivacy = authz.PrivacyPrivate // a new case is its creator's until shared
)

// Validation messages (docs/cases-api.md).
const (
	MsgNameRequired     = "The name field is required."
	MsgNameTooLong      = "The name may not be greater than 255 characters."
	MsgTextTooLong      = "The text may not be greater than 10000 characters."
	MsgStatus           = "The status must be open, in_progress or closed."
	MsgPrivacy          = "The privacy must be shared, readonly or private."
	MsgRole             = "The role must be full_access or read_only."
	MsgNotMember        = "Choose members of your organization."
	MsgTooManyTags      = "A case may have at most 20 tags."
	MsgTagTooLong       = "A tag may not be greater than 50 characters."
	MsgOneRef           = "Give exactly one of postId, storyId, matchId or evidenceId."
	MsgDuplicateItem    = "This is already in the case."
	MsgTooManyItems     = "A case may hold at most 500 items."
	MsgItemNotFound     = "The item was not found."
	MsgStoryNotFound    = "The story was not found."
	MsgMatchNotFound    = "The match was not found."
	MsgEvidenceNotFound = "The evidence was not found."
	MsgNoEvidence       = "Evidence capture is not available on this server."
	MsgCommentEmpty     = "The comment may not be empty."
	MsgMentionNoAccess  = "%s cannot see this case; share it with them first."
	MsgAssignee         = "Choose a filter of a member's id, or me."
)

// Case is one investigation of an organization.
type Case struct {
	ID             int64
	OrganizationID int64
	OwnerID        int64
	Name           string
	Description    string
	Status         string
	Privacy        string
	Assignees      []int64
	Tags           []string
	CreatedAt      time.Time
	UpdatedAt      time.Time
	// ItemCount is how many items it holds, filled by listings.
	ItemCount int
}

// Share is a member a case is shared with, and what they may do.
type Share struct {
	UserID int64
	Role   string
}

// Item is a post, story, match or evidence record in a case. Post is the post it shows as it
// was when added (a story's earliest post the adder could see); evidence has none.
type Item struct {
	ID        int64
	CaseID    int64
	Kind      string
	Ref       string
	Title     string
	Post      *post.Post
	Note      string
	AddedBy   int64
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Event is one line of a case's timeline: who changed what, when.
type Event struct {
	ID        int64
	CaseID    int64
	UserID    int64
	ActorName string
	Action    string
	Summary   string
	CreatedAt time.Time
}

// Timeline actions.
const (
	ActionCreated        = "created"
	ActionUpdated        = "updated"
	ActionItemAdded      = "item_added"
	ActionItemUpdated    = "item_updated"
	ActionItemRemoved    = "item_removed"
	ActionCommented      = "commented"
	ActionSharingChanged = "sharing_changed"
)

// Comment is a remark on a case; Mentions are the members it names with @.
type Comment struct {
	ID         int64
	CaseID     int64
	UserID     int64
	AuthorName string
	Body       string
	Mentions   []int64
	CreatedAt  time.Time
}

// Store is the persistence cases need. The mutators write the timeline's event and the audit
// entries in the change's transaction; a create's entries get the id of the row it creates.
type Store interface {
	Members(ctx context.Context, organizationID int64) ([]account.Member, error)
	Post(ctx context.Context, id string, tenant int64) (post.Post, error)
	// CaseMatch is a match's saved search and post, NotFound when there is none.
	CaseMatch(ctx context.Context, matchID int64) (searchID int64, postID string, err error)

	Cases(ctx context.Context, organizationID int64) ([]Case, error)
	Case(ctx context.Context, id int64) (Case, error)
	CaseShares(ctx context.Context, caseID int64) ([]Share, error)
	// CaseShareRoles is the user's direct share role on each case of the organization shared with them.
	CaseShareRoles(ctx context.Context, organizationID, userID int64) (map[int64]string, error)
	CreateCase(ctx context.Context, c *Case, e Event, audit account.AuditEntry) error
	UpdateCase(ctx context.Context, c Case, shares *[]Share, events []Event, audit ...account.AuditEntry) error
	DeleteCase(ctx context.Context, id int64, audit ...account.AuditEntry) error

	CaseItems(ctx context.Context, caseID int64) ([]Item, error)
	AddCaseItem(ctx context.Context, it *Item, e Event, audit account.AuditEntry) error
	UpdateCaseItem(ctx context.Context, it Item, e Event, audit ...account.AuditEntry) error
	DeleteCaseItem(ctx context.Context, it Item, e Event, audit ...account.AuditEntry) error

	CaseEvents(ctx context.Context, caseID int64) ([]Event, error)
	CaseComments(ctx context.Context, caseID int64) ([]Comment, error)
	AddCaseComment(ctx context.Context, c *Comment, e Event, audit account.AuditEntry) error
}

// Stories reads a story as the actor sees it (story.Service).
type Stories interface {
	Get(ctx context.Context, actor authz.Actor, id string, offset, limit int) (story.View, error)
}

// Searches says which saved searches the actor can see (monitor.Service): a match is visible
// to whoever sees its search.
type Searches interface {
	VisibleSearchIDs(ctx context.Context, actor authz.Actor) (map[int64]bool, error)
}

// Deps are what the service works with. Stories, Searches, Evidence, Live, Mail and PDF may be
// nil: items of that kind are refused, nobody is told live or by e-mail, the export has no PDF.
type Deps struct {
	Store     Store
	Stories   Stories
	Searches  Searches
	Evidence  Evidence
	Live      live.Publisher
	Mail      mail.Sender
	MailLimit *mail.Limiter
	// PublicURL makes the links in e-mails.
	PublicURL string
	// PDF prints the report's HTML as a PDF (NewChromiumPDF); nil leaves it out of exports.
	PDF    PDFRenderer
	Logger *slog.Logger
}

// Service carries out the rules of case work.
type Service struct {
	Deps
	now func() time.Time
}

// NewService returns the service over its dependencies.
func NewService(d Deps) *Service {
	if d.MailLimit == nil {
		d.MailLimit = mail.NewLimiter(mail.Limits{})
	}
	if d.Logger == nil {
		d.Logger = slog.Default()
	}
	return &Service{Deps: d, now: time.Now}
}

// Access is a case with what the actor may do with it.
type Access struct {
	Case
	Level            authz.Level
	ShareRole        string
	CanManageSharing bool
}

func facts(c Case, actor authz.Actor, shareRole string) authz.CaseFacts {
	return authz.CaseFacts{OrganizationID: c.OrganizationID, OwnerID: c.OwnerID, Privacy: c.Privacy,
		ShareRole: shareRole, Assigned: slices.Contains(c.Assignees, actor.UserID)}
}

// access loads a case and the actor's access to it, requiring at least want; another
// organization's case, or one the actor may not see, is not found.
func (s *Service) access(ctx context.Context, actor authz.Actor, id int64, want authz.Level) (Access, error) {
	if err := authz.CanUseAPI(actor); err != nil {
		return Access{}, err
	}
	c, err := s.Store.Case(ctx, id)
	if problem.Is(err, problem.KindNotFound) {
		return Access{}, problem.NotFound("%s", authz.MsgNotFoundCase)
	}
	if err != nil {
		return Access{}, err
	}
	role := ""
	if c.OrganizationID == actor.OrganizationID {
		shares, err := s.Store.CaseShares(ctx, id)
		if err != nil {
			return Access{}, err
		}
		role = roleOf(shares, actor.UserID)
	}
	level := authz.CaseLevel(actor, facts(c, actor, role))
	if err := authz.Require(level, want, authz.MsgNotFoundCase, authz.MsgCaseReadOnly); err != nil {
		return Access{}, err
	}
	return Access{Case: c, Level: level, ShareRole: role, CanManageSharing: authz.CanManageSharing(level, role)}, nil
}

func roleOf(shares []Share, userID int64) string {
	for _, sh := range shares {
		if sh.UserID == userID {
			return sh.Role
		}
	}
	return ""
}

// Filter narrows a list of cases; zero fields do not narrow.
type Filter struct {
	Status   string
	Assignee int64
	Tag      string
	Query    string // words in the name or the description
}

// List returns the cases of the actor's organization they can see, most recently changed first.
func (s *Service) List(ctx context.Context, actor authz.Actor, f Filter) ([]Access, error) {
	if err := authz.CanUseAPI(actor); err != nil {
		return nil, err
	}
	if f.Status != "" && !slices.Contains(Statuses, f.Status) {
		return nil, problem.InvalidField("status", MsgStatus)
	}
	all, err := s.Store.Cases(ctx, actor.OrganizationID)
	if err != nil {
		return nil, err
	}
	roles, err := s.Store.CaseShareRoles(ctx, actor.OrganizationID, actor.UserID)
	if err != nil {
		return nil, err
	}
	words := strings.Fields(strings.ToLower(f.Query))
	out := []Access{}
	for _, c := range all {
		level := authz.CaseLevel(actor, facts(c, actor, roles[c.ID]))
		if level == authz.LevelNone ||
			(f.Status != "" && c.Status != f.Status) ||
			(f.Assignee != 0 && !slices.Contains(c.Assignees, f.Assignee)) ||
			(f.Tag != "" && !slices.ContainsFunc(c.Tags, func(t string) bool { return strings.EqualFold(t, f.Tag) })) ||
			!containsAll(strings.ToLower(c.Name+" "+c.Description), words) {
			continue
		}
		out = append(out, Access{Case: c, Level: level, ShareRole: roles[c.ID],
			CanManageSharing: authz.CanManageSharing(level, roles[c.ID])})
	}
	return out, nil
}

func containsAll(text string, words []string) bool {
	for _, w := range words {
		if !strings.Contains(text, w) {
			return false
		}
	}
	return true
}

// Create makes a case owned by the actor, open and private to them.
func (s *Service) Create(ctx context.Context, actor authz.Actor, name, description string) (int64, error) {
	if err := authz.CanUseAPI(actor); err != nil {
		return 0, err
	}
	fields := map[string][]string{}
	name = strings.TrimSpace(name)
	checkName(fields, name)
	checkText(fields, "description", description)
	if len(fields) > 0 {
		return 0, invalid(fields)
	}
	now := s.now().UTC()
	c := Case{OrganizationID: actor.OrganizationID, OwnerID: actor.UserID, Name: name, Description: description,
		Status: StatusOpen, Privacy: DefaultPrivacy, Assignees: []int64{}, Tags: []string{}, CreatedAt: now, UpdatedAt: now}
	e := Event{UserID: actor.UserID, Action: ActionCreated, Summary: fmt.Sprintf("created the case %q", name), CreatedAt: now}
	if err := s.Store.CreateCase(ctx, &c, e, audit.Created(actor, audit.ModelCase, 0, caseFields(c, nil))); err != nil {
		return 0, err
	}
	return c.ID, nil
}

// Get returns a case the actor can see.
func (s *Service) Get(ctx context.Context, actor authz.Actor, id int64) (Access, error) {
	return s.access(ctx, actor, id, authz.LevelView)
}

// Change is a partial update of a case; nil fields stay as they are.
type Change struct {
	Name        *string
	Description *string
	Status      *string
	Privacy     *string
	Assignees   *[]int64
	Tags        *[]string
	SharedUsers *[]Share
}

// Update changes a case: editors change its fields, and whoever may manage its sharing changes
// who sees it. Each changed field is a line of the timeline.
func (s *Service) Update(ctx context.Context, actor authz.Actor, id int64, ch Change) error {
	a, err := s.access(ctx, actor, id, authz.LevelEdit)
	if err != nil {
		return err
	}
	if (ch.Privacy != nil || ch.SharedUsers != nil) && !a.CanManageSharing {
		return problem.Forbidden(authz.MsgCaseSharing)
	}
	members, err := s.members(ctx, actor.OrganizationID)
	if err != nil {
		return err
	}
	before, after := a.Case, a.Case
	fields := map[string][]string{}
	var summaries []string
	if ch.Name != nil {
		after.Name = strings.TrimSpace(*ch.Name)
		checkName(fields, after.Name)
		if after.Name != before.Name {
			summaries = append(summaries, fmt.Sprintf("renamed the case to %q", after.Name))
		}
	}
	if ch.Description != nil {
		after.Description = *ch.Description
		checkText(fields, "description", after.Description)
		if after.Description != before.Description {
			summaries = append(summaries, "changed the description")
		}
	}
	if ch.Status != nil {
		after.Status = *ch.Status
		if !slices.Contains(Statuses, after.Status) {
			fields["status"] = append(fields["status"], MsgStatus)
		} else if after.Status != before.Status {
			summaries = append(summaries, "set the status to "+strings.ReplaceAll(after.Status, "_", " "))
		}
	}
	if ch.Privacy != nil {
		after.Privacy = *ch.Privacy
		if !slices.Contains([]string{authz.PrivacyShared, authz.PrivacyReadonly, authz.PrivacyPrivate}, after.Privacy) {
			fields["privacy"] = append(fields["privacy"], MsgPrivacy)
		} else if after.Privacy != before.Privacy {
			summaries = append(summaries, "made the case "+privacyWords[after.Privacy])
		}
	}
	if ch.Assignees != nil {
		after.Assignees = uniqueIDs(*ch.Assignees)
		if !allMembers(members, after.Assignees) {
			fields["assignees"] = append(fields["assignees"], MsgNotMember)
		} else if added, removed := diffIDs(before.Assignees, after.Assignees); len(added)+len(removed) > 0 {
			summaries = append(summaries, peopleChange("assigned", added, "unassigned", removed, members))
		}
	}
	if ch.Tags != nil {
		after.Tags = cleanTags(fields, *ch.Tags)
		if !slices.Equal(before.Tags, after.Tags) {
			summaries = append(summaries, "set the tags to "+tagWords(after.Tags))
		}
	}
	var shares *[]Share
	var sharesBefore []Share
	if ch.SharedUsers != nil {
		if sharesBefore, err = s.Store.CaseShares(ctx, id); err != nil {
			return err
		}
		next := []Share{}
		for _, sh := range *ch.SharedUsers {
			if sh.Role == "" {
				sh.Role = authz.RoleReadOnly // invitees default to read only, as for searches
			}
			switch {
			case sh.Role != authz.RoleFullAccess && sh.Role != authz.RoleReadOnly:
				fields["sharedUsers"] = append(fields["sharedUsers"], MsgRole)
			case !allMembers(members, []int64{sh.UserID}):
				fields["sharedUsers"] = append(fields["sharedUsers"], MsgNotMember)
			case sh.UserID != before.OwnerID && !slices.ContainsFunc(next, func(o Share) bool { return o.UserID == sh.UserID }):
				next = append(next, sh)
			}
		}
		shares = &next
		if !sameShares(sharesBefore, next) {
			summaries = append(summaries, "changed who the case is shared with")
		}
	}
	if len(fields) > 0 {
		return invalid(fields)
	}
	if len(summaries) == 0 {
		return nil
	}
	now := s.now().UTC()
	after.UpdatedAt = now
	events := make([]Event, len(summaries))
	for i, summary := range summaries {
		events[i] = Event{CaseID: id, UserID: actor.UserID, Action: ActionUpdated, Summary: summary, CreatedAt: now}
	}
	entries := audit.Updated(actor, audit.ModelCase, id, caseFields(before, sharesBefore), caseFields(after, derefShares(shares, sharesBefore)))
	if err := s.Store.UpdateCase(ctx, after, shares, events, entries...); err != nil {
		return err
	}
	s.tell(ctx, actor, after, members)
	return nil
}

// Delete removes a case with its items, timeline and comments; for its owner and the
// organization's owners and admins.
func (s *Service) Delete(ctx context.Context, actor authz.Actor, id int64) error {
	a, err := s.access(ctx, actor, id, authz.LevelView)
	if err != nil {
		return err
	}
	if err := authz.CanDeleteCase(actor, a.Level); err != nil {
		return err
	}
	return s.Store.DeleteCase(ctx, id, audit.Deleted(actor, audit.ModelCase, id, caseFields(a.Case, nil)))
}

// Page is everything the case page shows.
type Page struct {
	Access
	Shares   []Share
	Items    []Item
	Timeline []Event
	Comments []Comment
	Members  map[int64]account.Member
}

// Page loads a case with its items, timeline and comments.
func (s *Service) Page(ctx context.Context, actor authz.Actor, id int64) (Page, error) {
	a, err := s.access(ctx, actor, id, authz.LevelView)
	if err != nil {
		return Page{}, err
	}
	p := Page{Access: a}
	if p.Shares, err = s.Store.CaseShares(ctx, id); err != nil {
		return Page{}, err
	}
	if p.Items, err = s.Store.CaseItems(ctx, id); err != nil {
		return Page{}, err
	}
	if p.Timeline, err = s.Store.CaseEvents(ctx, id); err != nil {
		return Page{}, err
	}
	if p.Comments, err = s.Store.CaseComments(ctx, id); err != nil {
		return Page{}, err
	}
	if p.Members, err = s.members(ctx, actor.OrganizationID); err != nil {
		return Page{}, err
	}
	return p, nil
}

// Members are the actor's organization's members by id, who cases name.
func (s *Service) Members(ctx context.Context, actor authz.Actor) (map[int64]account.Member, error) {
	if err := authz.CanUseAPI(actor); err != nil {
		return nil, err
	}
	return s.members(ctx, actor.OrganizationID)
}

func (s *Service) members(ctx context.Context, organizationID int64) (map[int64]account.Member, error) {
	list, err := s.Store.Members(ctx, organizationID)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]account.Member, len(list))
	for _, m := range list {
		out[m.UserID] = m
	}
	return out, nil
}

// viewers are the members who can see a case, each decided by internal/authz as for a
// request of theirs.
func (s *Service) viewers(ctx context.Context, c Case, members map[int64]account.Member) (map[int64]bool, error) {
	shares, err := s.Store.CaseShares(ctx, c.ID)
	if err != nil {
		return nil, err
	}
	out := map[int64]bool{}
	for id, m := range members {
		actor := authz.Actor{UserID: id, OrganizationID: c.OrganizationID, Role: m.Role}
		if authz.CaseLevel(actor, facts(c, actor, roleOf(shares, id))) > authz.LevelNone {
			out[id] = true
		}
	}
	return out, nil
}

// EventCaseUpdated tells the members who can see a case that it changed, so an open case page
// or list refetches; EventCaseMention tells a member a comment mentions them.
const (
	EventCaseUpdated = "case.updated"
	EventCaseMention = "case.mention"
)

// CaseUpdated is the payload of EventCaseUpdated.
type CaseUpdated struct {
	CaseID int64 `json:"caseId"`
}

// CaseMention is the payload of EventCaseMention.
type CaseMention struct {
	CaseID    int64  `json:"caseId"`
	CaseName  string `json:"caseName"`
	CommentID int64  `json:"commentId"`
	// By is the name (else the e-mail) of who wrote the comment.
	By string `json:"by"`
}

// tell sends EventCaseUpdated to everyone else who can see the case. Live events are at most
// once and only say "refetch", so a failure is logged, never the change's.
func (s *Service) tell(ctx context.Context, actor authz.Actor, c Case, members map[int64]account.Member) {
	if s.Live == nil {
		return
	}
	viewers, err := s.viewers(ctx, c, members)
	if err != nil {
		s.Logger.Warn("cases: who to tell of a change", "case", c.ID, "err", err)
		return
	}
	for id := range viewers {
		if id == actor.UserID {
			continue
		}
		if err := s.Live.PublishToUser(ctx, id, EventCaseUpdated, CaseUpdated{CaseID: c.ID}); err != nil {
			s.Logger.Warn("cases: live event", "case", c.ID, "err", err)
		}
	}
}

// touch is an event at now on a case, for the store to write with the change.
func (s *Service) touch(actor authz.Actor, caseID int64, action, summary string) Event {
	return Event{CaseID: caseID, UserID: actor.UserID, Action: action, Summary: summary, CreatedAt: s.now().UTC()}
}

var privacyWords = map[string]string{
	authz.PrivacyShared:   "editable by everyone in the organization",
	authz.PrivacyReadonly: "visible to everyone in the organization",
	authz.PrivacyPrivate:  "private",
}

func checkName(fields map[string][]string, name string) {
	switch {
	case name == "":
		fields["name"] = append(fields["name"], MsgNameRequired)
	case utf8.RuneCountInString(name) > MaxName:
		fields["name"] = append(fields["name"], MsgNameTooLong)
	}
}

func checkText(fields map[string][]string, field, text string) {
	if utf8.RuneCountInString(text) > MaxText {
		fields[field] = append(fields[field], MsgTextTooLong)
	}
}

func cleanTags(fields map[string][]string, in []string) []string {
	out := []string{}
	for _, t := range in {
		t = strings.Join(strings.Fields(t), " ")
		switch {
		case t == "":
		case utf8.RuneCountInString(t) > MaxTag:
			fields["tags"] = append(fields["tags"], MsgTagTooLong)
			return out
		case !slices.ContainsFunc(out, func(o string) bool { return strings.EqualFold(o, t) }):
			out = append(out, t)
		}
	}
	if len(out) > MaxTags {
		fields["tags"] = append(fields["tags"], MsgTooManyTags)
	}
	return out
}

func tagWords(tags []string) string {
	if len(tags) == 0 {
		return "none"
	}
	return strings.Join(tags, ", ")
}

func invalid(fields map[string][]string) error {
	for _, k := range []string{"name", "description", "status", "privacy", "assignees", "tags", "sharedUsers",
		"postId", "storyId", "matchId", "evidenceId", "note", "body"} {
		if msgs := fields[k]; len(msgs) > 0 {
			return problem.Invalid(msgs[0], fields)
		}
	}
	return problem.Invalid("The given data was invalid.", fields)
}

func uniqueIDs(ids []int64) []int64 {
	out := []int64{}
	for _, id := range ids {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

func allMembers(members map[int64]account.Member, ids []int64) bool {
	for _, id := range ids {
		if _, ok := members[id]; !ok {
			return false
		}
	}
	return true
}

func diffIDs(before, after []int64) (added, removed []int64) {
	for _, id := range after {
		if !slices.Contains(before, id) {
			added = append(added, id)
		}
	}
	for _, id := range before {
		if !slices.Contains(after, id) {
			removed = append(removed, id)
		}
	}
	return added, removed
}

func peopleChange(addVerb string, added []int64, removeVerb string, removed []int64, members map[int64]account.Member) string {
	var parts []string
	if len(added) > 0 {
		parts = append(parts, addVerb+" "+names(added, members))
	}
	if len(removed) > 0 {
		parts = append(parts, removeVerb+" "+names(removed, members))
	}
	return strings.Join(parts, " and ")
}

func names(ids []int64, members map[int64]account.Member) string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = DisplayName(members[id])
	}
	return strings.Join(out, ", ")
}

// DisplayName is how a member is named to colleagues: their name, else their e-mail.
func DisplayName(m account.Member) string {
	if m.Name != "" {
		return m.Name
	}
	return m.Email
}

func sameShares(a, b []Share) bool {
	if len(a) != len(b) {
		return false
	}
	for _, sh := range a {
		if roleOf(b, sh.UserID) != sh.Role {
			return false
		}
	}
	return true
}

func derefShares(next *[]Share, before []Share) []Share {
	if next == nil {
		return before
	}
	return *next
}

// caseFields is what a case's audit rows show of it.
func caseFields(c Case, shares []Share) audit.Fields {
	f := audit.Fields{"name": c.Name, "description": c.Description, "status": c.Status, "privacy": c.Privacy,
		"assignees": nonNil(c.Assignees), "tags": nonNil(c.Tags)}
	if shares != nil {
		users := make([]string, len(shares))
		for i, sh := range shares {
			users[i] = fmt.Sprintf("%d:%s", sh.UserID, sh.Role)
		}
		slices.Sort(users)
		f["shared_users"] = users
	}
	return f
}

func nonNil[T any](items []T) []T {
	if items == nil {
		return []T{}
	}
	return items
}
