package api

import (
	"net/http"

	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/provider"
)

// entitlements are the provider subscriptions the user's access flags give.
func entitlements(id auth.Identity) provider.Entitlements {
	acl := id.User.ACL
	return provider.Entitlements{Beacon: acl.Beacon, Pro: acl.Pro, Enterprise: acl.Enterprise, Tenant: id.User.TenantID}
}

// providers lists the providers the caller's subscriptions reach.
func (a *API) providers(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	return ok(w, provider.For(entitlements(id)))
}
