package authz

import (
	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/problem"
)

// Messages of the member rules (docs/settings-api.md, "Members and invitations").
const (
	MsgOnlyOwnersGrantOwner  = "Only an owner can make someone an owner."
	MsgOnlyOwnersManageOwner = "Only an owner can change or remove another owner."
)

// CanListInvitations allows the organization's owners and admins to see its invitations;
// members are refused, another organization's do not exist for the caller.
func CanListInvitations(a Actor, organizationID int64) error {
	return CanManageOrganization(a, organizationID)
}

// CanInvite allows owners to invite with any role and admins to invite admins and members:
// only an owner grants ownership.
func CanInvite(a Actor, organizationID int64, role account.Role) error {
	if err := CanManageOrganization(a, organizationID); err != nil {
		return err
	}
	if role == account.RoleOwner && a.Role != account.RoleOwner {
		return problem.Forbidden(MsgOnlyOwnersGrantOwner)
	}
	return nil
}

// CanRevokeInvitation follows CanInvite: whoever could send an invitation of that role may
// withdraw it.
func CanRevokeInvitation(a Actor, organizationID int64, role account.Role) error {
	return CanInvite(a, organizationID, role)
}

// MemberFacts are what decides whether a member may be changed or removed.
type MemberFacts struct {
	OrganizationID int64
	UserID         int64
	Role           account.Role
}

// CanRemoveMember allows owners to remove anyone and admins to remove admins and members (an
// admin may leave). Owners are touched only by owners. Keeping one owner is the domain's rule.
func CanRemoveMember(a Actor, m MemberFacts) error {
	if err := CanManageOrganization(a, m.OrganizationID); err != nil {
		return err
	}
	if m.Role == account.RoleOwner && a.Role != account.RoleOwner {
		return problem.Forbidden(MsgOnlyOwnersManageOwner)
	}
	return nil
}

// CanChangeRole allows what CanRemoveMember allows, and giving the owner role only to owners.
func CanChangeRole(a Actor, m MemberFacts, role account.Role) error {
	if err := CanRemoveMember(a, m); err != nil {
		return err
	}
	if role == account.RoleOwner && a.Role != account.RoleOwner {
		return problem.Forbidden(MsgOnlyOwnersGrantOwner)
	}
	return nil
}

// CanReadStatistics allows the organization's owners and admins to see its usage, every
// member's included; members are refused.
func CanReadStatistics(a Actor, organizationID int64) error {
	return CanManageOrganization(a, organizationID)
}
