package authz

import "github.com/sightline/sightline/internal/problem"

// MsgNotTenantAdmin refuses the tenant portal to everyone but the tenant's admins.
const MsgNotTenantAdmin = "Only tenant administrators may use the tenant portal."

// CanUseTenantPortal allows the tenant admins of the caller's own tenant, acting as
// themselves (not through a scoped token), into the tenant portal (search-side.md section 6).
func CanUseTenantPortal(a Actor) error {
	if err := CanAdministerTenant(a, a.TenantID); err != nil {
		return problem.Forbidden(MsgNotTenantAdmin)
	}
	return nil
}

// CanManageTenantResource allows a tenant admin to act on an organization, user or API token
// of their own tenant. Another tenant's does not exist for them: it is reported as not found,
// so the portal tells nothing of other tenants.
func CanManageTenantResource(a Actor, resourceTenantID int64, what string) error {
	if err := CanUseTenantPortal(a); err != nil {
		return err
	}
	if resourceTenantID != a.TenantID {
		return problem.NotFound("The %s was not found.", what)
	}
	return nil
}

// CanChangeTenantUser is CanManageTenantResource for changing a user's role, access or
// whether they may sign in; tenant admins cannot do it to themselves, so nobody locks the
// last administrator out by mistake.
func CanChangeTenantUser(a Actor, userTenantID, userID int64) error {
	if err := CanManageTenantResource(a, userTenantID, "user"); err != nil {
		return err
	}
	if userID == a.UserID {
		return problem.Forbidden("You cannot change or disable your own account here.")
	}
	return nil
}

// CanMintAPIToken is CanManageTenantResource for making an API token that acts as a user of the
// tenant: a tenant admin may make one for themselves or for a user who is no tenant admin, never
// one that acts as another tenant admin (it would carry that admin's powers and trail).
func CanMintAPIToken(a Actor, userTenantID, userID int64, userIsTenantAdmin bool) error {
	if err := CanManageTenantResource(a, userTenantID, "user"); err != nil {
		return err
	}
	if userIsTenantAdmin && userID != a.UserID {
		return problem.Forbidden(MsgMintForTenantAdmin)
	}
	return nil
}

// MsgMintForTenantAdmin refuses a token acting as another tenant admin.
const MsgMintForTenantAdmin = "You cannot make an API token for another tenant administrator; they make their own."

// CanManageOwnAPITokens allows users to see and revoke their own API tokens, those made for them
// included; anyone else's do not exist for them.
func CanManageOwnAPITokens(a Actor, tokenUserID int64) error {
	if err := CanUseAPI(a); err != nil {
		return err
	}
	if a.UserID != tokenUserID {
		return problem.NotFound("The API token was not found.")
	}
	return nil
}
