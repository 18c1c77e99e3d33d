package authz

// CanManageSources allows the tenant's admins to see, add, edit, test and remove its content
// sources and to read their health (/sources).
func CanManageSources(a Actor, tenantID int64) error {
	return CanAdministerTenant(a, tenantID)
}

// CanSeeSourceWarnings says whether the top bar warns this actor of failing sources: tenant
// admins only, who can do something about them.
func CanSeeSourceWarnings(a Actor) bool {
	return CanManageSources(a, a.TenantID) == nil
}
