package authz

import "github.com/sightline/sightline/internal/account"

// OwnedFacts is what decides an actor's access to an organization's filter list or location
// configuration: whose organization it belongs to and who created it.
type OwnedFacts struct {
	OrganizationID int64
	OwnerID        int64
}

// FilterListLevel is the actor's access to a filter list: its creator owns it, the
// organization's owners and admins can edit it, every other member can view it. Only the owner
// may delete it, attach it to a search or switch it between inclusion and exclusion.
func FilterListLevel(a Actor, f OwnedFacts) Level { return ownedLevel(a, f) }

// LocationConfigurationLevel is the actor's access to a location configuration, by the same
// rule as filter lists; edit access includes deleting it.
func LocationConfigurationLevel(a Actor, c OwnedFacts) Level { return ownedLevel(a, c) }

// AssetLevel is the actor's access to an organization's asset, by the same rule: every member
// sees it, its creator and the organization's admins change it.
func AssetLevel(a Actor, c OwnedFacts) Level { return ownedLevel(a, c) }

func ownedLevel(a Actor, f OwnedFacts) Level {
	if a.OrganizationID != f.OrganizationID || len(a.Scopes) > 0 {
		return LevelNone
	}
	if a.UserID == f.OwnerID {
		return LevelOwn
	}
	if a.Role == account.RoleOwner || a.Role == account.RoleAdmin {
		return LevelEdit
	}
	return LevelView
}

// Messages for refused filter-list and location-configuration actions (monitor-area.md
// section 6 gives the first three word for word).
const (
	MsgFilterDeleteOwner  = "You are unable to delete this filter. You must be the filter owner to do so."
	MsgFilterAttachOwner  = "You must be the owner of the Filter to do so"
	MsgFilterSharing      = "Unable to update this filter. You do not have sufficient sharing permissions."
	MsgNotFoundFilterList = "The filter list was not found."
	MsgNotFoundLocation   = "The location configuration was not found."
	MsgLocationReadOnly   = "Only the creator of this location configuration or an organization admin can change it."
)
