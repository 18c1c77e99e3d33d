package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/tenant"
)

var _ tenant.Store = (*Store)(nil)

// TenantOrganizations lists a tenant's organizations by name.
func (s *Store) TenantOrganizations(ctx context.Context, tenantID int64) ([]account.Organization, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+organizationColumns+` FROM organizations WHERE tenant_id = $1
		ORDER BY name, id`, tenantID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []account.Organization
	for rows.Next() {
		o, err := scanOrganization(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, rows.Err()
}

// OrganizationUsage counts an organization's members, saved searches, assets (saved searches
// and location configurations, as the asset limit counts them) and the matches it collected
// since monthStart (its monthly data).
func (s *Store) OrganizationUsage(ctx context.Context, organizationID int64, monthStart time.Time) (tenant.Usage, error) {
	var u tenant.Usage
	var locations int64
	err := s.read.QueryRowContext(ctx, `SELECT
		(SELECT COUNT(*) FROM memberships WHERE organization_id = $1),
		(SELECT COUNT(*) FROM monitor_searches WHERE organization_id = $1),
		(SELECT COUNT(*) FROM location_configurations WHERE organization_id = $1)
			+ (SELECT COUNT(*) FROM assets WHERE organization_id = $1),
		(SELECT COUNT(*) FROM monitor_matches WHERE organization_id = $1 AND created_at >= $2)`,
		organizationID, millis(monthStart)).Scan(&u.Members, &u.SavedSearches, &locations, &u.MatchesThisMonth)
	u.Assets = u.SavedSearches + locations
	return u, err
}

// ChangeOrganization applies change to the organization's feature flags, US-persons and AI
// settings, limits and alerts' daily limit and stores them with the audit entries change returns, in one transaction with the row
// locked (on PostgreSQL; SQLite's writer is single), so two admins switching different flags at
// once both keep their change.
func (s *Store) ChangeOrganization(ctx context.Context, id int64, change func(*account.Organization) ([]account.AuditEntry, error)) (account.Organization, error) {
	var o account.Organization
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if err := s.lockOrganization(ctx, tx, id); err != nil {
			return err
		}
		var err error
		if o, err = scanOrganization(tx.QueryRowContext(ctx, `SELECT `+organizationColumns+` FROM organizations
			WHERE id = $1`, id)); err != nil {
			return err
		}
		audit, err := change(&o)
		if err != nil {
			return err
		}
		flags, err := json.Marshal(o.FeatureFlags)
		if err != nil {
			return err
		}
		if _, err = tx.ExecContext(ctx, `UPDATE organizations SET feature_flags = $1, is_uspi_compliant = $2,
			is_moose_mind_enabled = $3, monthly_data_limit = $4, asset_limit = $5, alert_daily_limit = $6 WHERE id = $7`,
			string(flags), o.IsUSPICompliant, o.IsMooseMindEnabled, o.MonthlyDataLimit, o.AssetLimit, o.AlertDailyLimit, o.ID); err != nil {
			return err
		}
		return insertAudit(ctx, tx, audit...)
	})
	return o, err
}

// TenantUsers lists a tenant's users by e-mail, with their organization's name and their role in it.
func (s *Store) TenantUsers(ctx context.Context, tenantID int64) ([]tenant.User, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT u.id, u.name, u.email, u.organization_id, o.name,
		COALESCE(m.role, ''), u.is_tenant_admin, u.is_mfa_enabled, u.acl_beacon, u.acl_pro, u.acl_enterprise, u.acl_locate_api,
		u.disabled_at, u.created_at
		FROM users u JOIN organizations o ON o.id = u.organization_id
		LEFT JOIN memberships m ON m.organization_id = u.organization_id AND m.user_id = u.id
		WHERE u.tenant_id = $1 ORDER BY u.email`, tenantID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []tenant.User
	for rows.Next() {
		var u tenant.User
		var role string
		var disabled, created int64
		if err := rows.Scan(&u.ID, &u.Name, &u.Email, &u.OrganizationID, &u.OrganizationName, &role,
			&u.IsTenantAdmin, &u.IsMFAEnabled, &u.ACL.Beacon, &u.ACL.Pro, &u.ACL.Enterprise, &u.ACL.LocateAPI, &disabled,
			&created); err != nil {
			return nil, err
		}
		u.Role, u.DisabledAt, u.CreatedAt = account.Role(role), fromMillis(disabled), fromMillis(created)
		out = append(out, u)
	}
	return out, rows.Err()
}

// SetMembershipRole changes the user's role in the organization, with the audit entries.
func (s *Store) SetMembershipRole(ctx context.Context, organizationID, userID int64, role account.Role, audit ...account.AuditEntry) error {
	return s.execAudited(ctx, audit, `UPDATE memberships SET role = $1 WHERE organization_id = $2 AND user_id = $3`,
		string(role), organizationID, userID)
}

// SetUserDisabled disables the user from at, or enables them when at is zero, with the audit entries.
func (s *Store) SetUserDisabled(ctx context.Context, userID int64, at time.Time, audit ...account.AuditEntry) error {
	return s.execAudited(ctx, audit, `UPDATE users SET disabled_at = $1 WHERE id = $2`, millis(at), userID)
}

// execAudited runs one statement and writes the audit entries in the same transaction.
func (s *Store) execAudited(ctx context.Context, audit []account.AuditEntry, query string, args ...any) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, query, args...); err != nil {
			return err
		}
		return insertAudit(ctx, tx, audit...)
	})
}

// TenantAPITokens lists the API tokens of a tenant's users, revoked and expired ones too,
// newest first.
func (s *Store) TenantAPITokens(ctx context.Context, tenantID int64) ([]auth.APIToken, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+apiTokenColumns+` FROM api_tokens t JOIN users u ON u.id = t.user_id
		WHERE u.tenant_id = $1 ORDER BY t.created_at DESC, t.id DESC`, tenantID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []auth.APIToken
	for rows.Next() {
		t, err := scanAPIToken(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// APIToken is the API token with that id.
func (s *Store) APIToken(ctx context.Context, id int64) (auth.APIToken, error) {
	return scanAPIToken(s.read.QueryRowContext(ctx, `SELECT `+apiTokenColumns+` FROM api_tokens t WHERE t.id = $1`, id))
}
