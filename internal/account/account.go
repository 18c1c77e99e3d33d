// Package account owns tenants, organizations, users and their memberships: who exists, which
// organization they belong to, their settings, and the audit trail of changes to them.
package account

import (
	"strings"
	"time"
)

// Role is a user's role in an organization.
type Role string

const (
	RoleOwner  Role = "owner"
	RoleAdmin  Role = "admin"
	RoleMember Role = "member"
)

// Valid reports whether r is a known role.
func (r Role) Valid() bool { return r == RoleOwner || r == RoleAdmin || r == RoleMember }

// Tenant groups organizations under one deployment customer.
type Tenant struct {
	ID            int64
	Name          string
	LogoutAllowed bool
	SupportEmail  string
	CreatedAt     time.Time
}

// Organization is the unit of data ownership: an organization never sees another's data.
type Organization struct {
	ID                 int64
	TenantID           int64
	Name               string
	CRMID              string
	WebhookSecret      string
	IsUSPICompliant    bool
	IsMooseMindEnabled bool
	FeatureFlags       map[string]bool
	// MonthlyDataLimit and AssetLimit are 0 when unlimited.
	MonthlyDataLimit int64
	AssetLimit       int64
	// AlertDailyLimit bounds the notifications one saved search sends in 24 hours (the alerts'
	// flood guard); 0 is the default (alerts.DefaultDailyLimit).
	AlertDailyLimit int64
	CreatedAt       time.Time
}

// Feature flags an organization may carry (monitor-area.md section 6, search-side.md section 6).
const (
	FlagBeaconSunset           = "beacon_sunset"
	FlagShareSearches          = "share_searches"
	FlagSharedFilterWarning    = "shared_filter_warning"
	FlagMonitorGlobalFilterBar = "monitor_global_filter_bar"
	FlagProximityNotifications = "proximity_notifications"
	FlagAISummaryNotifications = "ai_summary_notifications"
)

// DefaultFeatureFlags are the flags a new organization starts with.
func DefaultFeatureFlags() map[string]bool {
	return map[string]bool{
		FlagBeaconSunset:           false,
		FlagShareSearches:          true,
		FlagSharedFilterWarning:    true,
		FlagMonitorGlobalFilterBar: true,
		FlagProximityNotifications: true,
		FlagAISummaryNotifications: true,
	}
}

// ACL holds a user's product access flags (search-side.md section 6).
type ACL struct {
	Beacon     bool
	Pro        bool
	Enterprise bool
	LocateAPI  bool
}

// Display themes and media sensitivity settings.
const (
	ThemeLight  = "light"
	ThemeDark   = "dark"
	ThemeSystem = "system"

	MediaBlur = "blur"
	MediaShow = "show"
)

// User is a person who signs in. Email is stored lower-case and is unique.
type User struct {
	ID             int64
	TenantID       int64
	OrganizationID int64 // the current organization
	Name           string
	Email          string
	Username       string
	PasswordHash   string
	IsTenantAdmin  bool
	ACL            ACL
	// Permissions are intelligence-portal permission codes, carried in the token claim.
	Permissions []string

	IsMFAEnabled bool
	MFASecret    string

	IsTranslationEnrichmentEnabled        bool
	IsMentionedLocationsEnrichmentEnabled bool
	IsInboxStreamingEnabled               bool
	DisplayTheme                          string
	MediaSensitivity                      string

	// DisabledAt is when a tenant admin disabled the user (zero: enabled); a disabled user's
	// sessions and API tokens are refused.
	DisabledAt time.Time
	CreatedAt  time.Time
}

// Disabled reports whether a tenant admin disabled the user.
func (u User) Disabled() bool { return !u.DisabledAt.IsZero() }

// Member is a user seen as a member of an organization.
type Member struct {
	UserID   int64
	Name     string
	Email    string
	Username string
	Role     Role
}

// AuditEntry records a change: what model, what action, the value before and after.
type AuditEntry struct {
	ID             int64
	TenantID       int64
	OrganizationID int64
	UserID         int64 // who made the change; 0 for the system
	Model          string
	ModelID        string
	Action         string
	PreviousValue  string
	NewValue       string
	CreatedAt      time.Time
}

// Intelligence-portal permission prefixes (search-side.md section 6).
var rfiPrefixes = []string{"CTI_RFI", "PSI_RFI", "NSI_RFI"}

const natSecReportsPrefix = "IGNITE_NATSEC_REPORTS"

// IsIgniteUser reports whether the user came with an intelligence-portal permission claim.
func (u User) IsIgniteUser() bool { return len(u.Permissions) > 0 }

// HasRFIAccess reports whether a permission code gives access to the RFI portal.
func (u User) HasRFIAccess() bool {
	for _, p := range u.Permissions {
		for _, prefix := range rfiPrefixes {
			if strings.HasPrefix(p, prefix) {
				return true
			}
		}
	}
	return false
}

// HasIntelReportsAccess reports whether a permission code gives national-security reports.
func (u User) HasIntelReportsAccess() bool {
	for _, p := range u.Permissions {
		if strings.HasPrefix(p, natSecReportsPrefix) {
			return true
		}
	}
	return false
}

// IsECS reports whether this is the ECS tenant.
func (t Tenant) IsECS() bool { return t.Name == "ecs" }
