// Package authz decides what an authenticated actor may do. Every permission decision in
// Sightline goes through this package, so "may this person see or change that" has one answer
// and one place to read it.
package authz

import (
	"slices"
	"strings"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/problem"
)

// Via says how an actor authenticated.
type Via string

const (
	ViaSession  Via = "session"   // the browser's session cookie
	ViaBearer   Via = "bearer"    // a short-lived bearer token from sign-in or refresh
	ViaAPIToken Via = "api_token" // a long-lived API token
)

// Token scopes. A token without scopes acts as its user; a scoped token may only do what its
// scopes name.
const ScopeIngest = "ingest"

// Actor is who is asking: a user of one organization of one tenant.
type Actor struct {
	UserID         int64
	OrganizationID int64
	TenantID       int64
	Role           account.Role
	TenantAdmin    bool
	Scopes         []string
	Via            Via
	// ACL is what the user's subscriptions include.
	ACL account.ACL
}

func forbidden() error {
	return problem.Forbidden("You do not have permission to do this.")
}

// CanUseAPI allows every unscoped actor; scoped tokens are limited to their own endpoints.
func CanUseAPI(a Actor) error {
	if len(a.Scopes) > 0 {
		return problem.Forbidden("This API token may only be used for: " + strings.Join(a.Scopes, ", ") + ".")
	}
	return nil
}

// CanSearchBeacon allows users whose subscription includes Beacon, the keyword search of
// stored posts; its screens are hidden from everyone else, and so is its API.
func CanSearchBeacon(a Actor) error {
	if err := CanUseAPI(a); err != nil {
		return err
	}
	if !a.ACL.Beacon {
		return problem.Forbidden("Your subscription does not include Beacon.")
	}
	return nil
}

// CanSearchLocate allows users whose subscription includes Locate (Pro or Enterprise); through
// an API token, the subscription must include the Locate API as well.
func CanSearchLocate(a Actor) error {
	if err := CanUseAPI(a); err != nil {
		return err
	}
	if !a.ACL.Pro && !a.ACL.Enterprise {
		return problem.Forbidden("Your subscription does not include Locate.")
	}
	if a.Via == ViaAPIToken && !a.ACL.LocateAPI {
		return problem.Forbidden("Your subscription does not include the Locate API.")
	}
	return nil
}

// CanEndSession allows users to see and end their own sessions only; anyone else's does not
// exist for them.
func CanEndSession(a Actor, sessionUserID int64) error {
	if err := CanUseAPI(a); err != nil {
		return err
	}
	if a.UserID != sessionUserID {
		return problem.NotFound("The session was not found.")
	}
	return nil
}

// CanReadOrganization allows members of the organization. Another organization's data does not
// exist for the caller, so it is reported as not found rather than forbidden.
func CanReadOrganization(a Actor, organizationID int64) error {
	if a.OrganizationID != organizationID {
		return problem.NotFound("The organization was not found.")
	}
	return CanUseAPI(a)
}

// CanManageOrganization allows the organization's owners and admins to invite and remove
// members and to rotate its webhook secret.
func CanManageOrganization(a Actor, organizationID int64) error {
	if err := CanReadOrganization(a, organizationID); err != nil {
		return err
	}
	if a.Role != account.RoleOwner && a.Role != account.RoleAdmin {
		return forbidden()
	}
	return nil
}

// CanAdministerTenant allows tenant admins of that tenant (users, API tokens, audit logs).
func CanAdministerTenant(a Actor, tenantID int64) error {
	if !a.TenantAdmin || a.TenantID != tenantID {
		return forbidden()
	}
	return CanUseAPI(a)
}

// CanIngest allows tenant admins and tokens scoped for ingest to push posts.
func CanIngest(a Actor) error {
	if slices.Contains(a.Scopes, ScopeIngest) || (a.TenantAdmin && len(a.Scopes) == 0) {
		return nil
	}
	return forbidden()
}

// IngestStatsView is how much of the ingest stats an actor sees.
type IngestStatsView int

const (
	// IngestStatsTenant is the actor's tenant's figures: its sources and ingest sources, and
	// the shared pipeline's health; never another tenant's sources.
	IngestStatsTenant IngestStatsView = iota + 1
	// IngestStatsOwn is only the posts the actor pushed, by source and provider.
	IngestStatsOwn
)

// CanReadIngestStats lets tenant admins see their tenant's figures and operators (actors who
// may ingest but do not administer the tenant, such as an ingest-scoped token) only their own
// sources'. Either is limited to the actor's tenant.
func CanReadIngestStats(a Actor) (IngestStatsView, error) {
	if a.TenantAdmin && len(a.Scopes) == 0 {
		return IngestStatsTenant, nil
	}
	if err := CanIngest(a); err != nil {
		return 0, err
	}
	return IngestStatsOwn, nil
}
