package monitor

import (
	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/authz"
)

// Audience is what decides who sees a saved search: its facts and every member's shares and
// detachments.
type Audience struct {
	Search      Search
	Group       Group
	Members     []int64
	GroupShares map[int64]string // member → role on the group
	ShareRoles  map[int64]string // member → role on the search
	Detached    map[int64]bool   // detached from the search
	GroupGone   map[int64]bool   // detached from the group
	Streaming   map[int64]bool   // members with inbox streaming on
}

// Viewers are the members who can see the search, with whether each can edit it. Each member's
// access is decided by internal/authz, as for any request of theirs.
func (a Audience) Viewers() map[int64]bool {
	out := map[int64]bool{}
	for _, id := range a.Members {
		actor := authz.Actor{UserID: id, OrganizationID: a.Search.OrganizationID, Role: account.RoleMember}
		level := authz.SearchLevel(actor, authz.SearchFacts{
			OrganizationID: a.Search.OrganizationID, OwnerID: a.Search.OwnerID,
			ShareRole: a.ShareRoles[id], Detached: a.Detached[id],
			Group: authz.GroupFacts{OrganizationID: a.Group.OrganizationID, OwnerID: a.Group.OwnerID,
				Privacy: a.Group.Privacy, IsSavedSearch: a.Group.IsSavedSearch, ShareRole: a.GroupShares[id],
				Detached: a.GroupGone[id]},
		})
		if level > authz.LevelNone {
			out[id] = level >= authz.LevelEdit
		}
	}
	return out
}
