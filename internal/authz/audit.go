package authz

// CanReadAuditLog allows tenant admins to read their own tenant's audit log, and no other's.
func CanReadAuditLog(a Actor) error { return CanAdministerTenant(a, a.TenantID) }

// CanManageAnnouncements allows tenant admins to publish and delete their tenant's announcements.
func CanManageAnnouncements(a Actor) error { return CanAdministerTenant(a, a.TenantID) }

// CanReadAnnouncements allows every user of a tenant to read its announcements; scoped tokens
// (ingest) are not users reading news.
func CanReadAnnouncements(a Actor) error { return CanUseAPI(a) }
