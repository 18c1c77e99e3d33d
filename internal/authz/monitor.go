package authz

import "github.com/sightline/sightline/internal/problem"

// Level is how much an actor may do with a group, a saved search or a filter list.
type Level int

const (
	LevelNone Level = iota // does not exist for the actor
	LevelView              // "can view"
	LevelEdit              // "can edit"
	LevelOwn               // the owner
)

// Share roles (monitor-area.md section 6), and the role the API gives a search's or group's owner.
const (
	RoleFullAccess = "full_access" // "can edit"
	RoleReadOnly   = "read_only"   // "can view"
	RoleOwner      = "owner"
)

// Group privacies.
const (
	PrivacyShared   = "shared"   // everyone in the organization can edit
	PrivacyReadonly = "readonly" // everyone in the organization can view
	PrivacyPrivate  = "private"  // only the owner and the people it is shared with
)

// GroupFacts is what decides an actor's access to a group.
type GroupFacts struct {
	OrganizationID int64
	OwnerID        int64
	Privacy        string
	IsSavedSearch  bool   // the owner's Uncategorized group, never shared
	ShareRole      string // the actor's direct share on the group, "" for none
	Detached       bool   // the actor detached from it
}

// SearchFacts is what decides an actor's access to a saved search.
type SearchFacts struct {
	OrganizationID int64
	OwnerID        int64
	Group          GroupFacts
	ShareRole      string // the actor's direct share on the search
	Detached       bool
}

func levelOfRole(role string) Level {
	switch role {
	case RoleFullAccess:
		return LevelEdit
	case RoleReadOnly:
		return LevelView
	}
	return LevelNone
}

// GroupLevel is the actor's access to a group: the owner owns it; others get the better of
// their direct share and the group's privacy, unless they detached from it.
func GroupLevel(a Actor, g GroupFacts) Level {
	if a.OrganizationID != g.OrganizationID || len(a.Scopes) > 0 {
		return LevelNone
	}
	if a.UserID == g.OwnerID {
		return LevelOwn
	}
	if g.IsSavedSearch || g.Detached {
		return LevelNone
	}
	level := levelOfRole(g.ShareRole)
	switch g.Privacy {
	case PrivacyShared:
		level = max(level, LevelEdit)
	case PrivacyReadonly:
		level = max(level, LevelView)
	}
	return level
}

// SearchLevel is the actor's access to a saved search: the owner owns it; others get the better
// of their direct share and what its group gives them (a group's owner can edit its searches).
func SearchLevel(a Actor, s SearchFacts) Level {
	if a.OrganizationID != s.OrganizationID || len(a.Scopes) > 0 {
		return LevelNone
	}
	if a.UserID == s.OwnerID {
		return LevelOwn
	}
	if s.Detached {
		return LevelNone
	}
	return max(levelOfRole(s.ShareRole), min(GroupLevel(a, s.Group), LevelEdit))
}

// Messages for refused Monitor actions (monitor-area.md section 6).
const (
	MsgNotFoundSearch = "The saved search was not found."
	MsgNotFoundGroup  = "The group was not found."
	MsgReadOnly       = "You have view access only; ask its owner for edit access."
	MsgSearchOwner    = "You must be the owner of the Saved Search to do so."
	MsgGroupOwner     = "You must be the owner of the group to do so."
	MsgUncategorized  = "The Uncategorized group cannot be shared, renamed or deleted."
	MsgDetachOwner    = "Owners cannot detach from what they own; delete it or share it instead."
	MsgReadOnlyGroup  = "You cannot move a search into a group you can only view."
)

// Require turns an access level into the error for an action needing at least want.
func Require(have, want Level, notFound, refused string) error {
	switch {
	case have == LevelNone:
		return problem.NotFound("%s", notFound)
	case have < want:
		return problem.Forbidden(refused)
	}
	return nil
}

// CanDetach allows anyone with access that is not ownership to drop it.
func CanDetach(have Level) error {
	switch have {
	case LevelNone:
		return problem.NotFound("The item was not found.")
	case LevelOwn:
		return problem.Forbidden(MsgDetachOwner)
	}
	return nil
}

// CanManageSharing allows changing who an item is shared with: its owner, or someone with
// full access of their own (a direct full-access share), not merely through the group.
func CanManageSharing(have Level, directRole string) bool {
	return have == LevelOwn || (have >= LevelEdit && directRole == RoleFullAccess)
}
