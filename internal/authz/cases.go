package authz

import "github.com/sightline/sightline/internal/account"

// CaseFacts is what decides an actor's access to a case. Cases are shared as groups are: a
// privacy for the whole organization and direct shares with roles (monitor-area.md section 6).
type CaseFacts struct {
	OrganizationID int64
	OwnerID        int64
	Privacy        string
	ShareRole      string // the actor's direct share on the case, "" for none
	Assigned       bool   // the actor is one of the case's assignees
}

// CaseLevel is the actor's access to a case: the sharing rules of a group, and an assignee
// can always edit what they were asked to work on.
func CaseLevel(a Actor, c CaseFacts) Level {
	level := GroupLevel(a, GroupFacts{OrganizationID: c.OrganizationID, OwnerID: c.OwnerID, Privacy: c.Privacy,
		ShareRole: c.ShareRole})
	if c.Assigned && a.OrganizationID == c.OrganizationID && len(a.Scopes) == 0 {
		level = max(level, LevelEdit)
	}
	return level
}

// Messages for refused case actions (docs/cases-api.md).
const (
	MsgNotFoundCase = "The case was not found."
	MsgCaseReadOnly = "You have view access to this case only; ask its owner for edit access."
	MsgCaseOwner    = "Only the case's owner or an organization admin can delete it."
	MsgCaseSharing  = "Only the owner, or someone it is shared with for editing, can change who sees this case."
)

// CanDeleteCase allows the case's owner and the organization's owners and admins.
func CanDeleteCase(a Actor, have Level) error {
	if have > LevelNone && (a.Role == account.RoleOwner || a.Role == account.RoleAdmin) {
		return nil
	}
	return Require(have, LevelOwn, MsgNotFoundCase, MsgCaseOwner)
}
