package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/problem"
)

// CountUsers counts every user of every tenant.
func (s *Store) CountUsers(ctx context.Context) (int, error) {
	var n int
	err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM users`).Scan(&n)
	return n, err
}

const tenantColumns = `id, name, logout_allowed, support_email, created_at`

func scanTenant(row interface{ Scan(...any) error }) (account.Tenant, error) {
	var t account.Tenant
	var created int64
	err := row.Scan(&t.ID, &t.Name, &t.LogoutAllowed, &t.SupportEmail, &created)
	t.CreatedAt = fromMillis(created)
	return t, notFound(err, "tenant")
}

func (s *Store) Tenant(ctx context.Context, id int64) (account.Tenant, error) {
	return scanTenant(s.read.QueryRowContext(ctx, `SELECT `+tenantColumns+` FROM tenants WHERE id = $1`, id))
}

func (s *Store) TenantByName(ctx context.Context, name string) (account.Tenant, error) {
	return scanTenant(s.read.QueryRowContext(ctx, `SELECT `+tenantColumns+` FROM tenants WHERE name = $1`, name))
}

// SetTenantSupportEmail makes address the support contact of the tenant named; a tenant not
// created yet is left as it is.
func (s *Store) SetTenantSupportEmail(ctx context.Context, name, address string) error {
	_, err := s.write.ExecContext(ctx, `UPDATE tenants SET support_email = $1 WHERE name = $2`, address, name)
	return err
}

func (s *Store) CreateTenant(ctx context.Context, t *account.Tenant) error {
	t.CreatedAt = time.Now().UTC()
	return s.write.QueryRowContext(ctx,
		`INSERT INTO tenants (name, logout_allowed, support_email, created_at) VALUES ($1, $2, $3, $4) RETURNING id`,
		t.Name, t.LogoutAllowed, t.SupportEmail, millis(t.CreatedAt)).Scan(&t.ID)
}

const organizationColumns = `id, tenant_id, name, crm_id, webhook_secret, is_uspi_compliant,
	is_moose_mind_enabled, feature_flags, monthly_data_limit, asset_limit, created_at, alert_daily_limit`

func scanOrganization(row interface{ Scan(...any) error }) (account.Organization, error) {
	var o account.Organization
	var flags string
	var created int64
	err := row.Scan(&o.ID, &o.TenantID, &o.Name, &o.CRMID, &o.WebhookSecret, &o.IsUSPICompliant,
		&o.IsMooseMindEnabled, &flags, &o.MonthlyDataLimit, &o.AssetLimit, &created, &o.AlertDailyLimit)
	if err != nil {
		return o, notFound(err, "organization")
	}
	o.CreatedAt = fromMillis(created)
	o.FeatureFlags = map[string]bool{}
	return o, json.Unmarshal([]byte(flags), &o.FeatureFlags)
}

func (s *Store) Organization(ctx context.Context, id int64) (account.Organization, error) {
	return scanOrganization(s.read.QueryRowContext(ctx, `SELECT `+organizationColumns+` FROM organizations WHERE id = $1`, id))
}

func (s *Store) OrganizationByName(ctx context.Context, tenantID int64, name string) (account.Organization, error) {
	return scanOrganization(s.read.QueryRowContext(ctx,
		`SELECT `+organizationColumns+` FROM organizations WHERE tenant_id = $1 AND name = $2`, tenantID, name))
}

func (s *Store) CreateOrganization(ctx context.Context, o *account.Organization) error {
	flags, err := json.Marshal(o.FeatureFlags)
	if err != nil {
		return err
	}
	o.CreatedAt = time.Now().UTC()
	return s.write.QueryRowContext(ctx, `INSERT INTO organizations (tenant_id, name, crm_id, webhook_secret,
		is_uspi_compliant, is_moose_mind_enabled, feature_flags, monthly_data_limit, asset_limit, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
		o.TenantID, o.Name, o.CRMID, o.WebhookSecret, o.IsUSPICompliant, o.IsMooseMindEnabled, string(flags),
		o.MonthlyDataLimit, o.AssetLimit, millis(o.CreatedAt)).Scan(&o.ID)
}

const userColumns = `id, tenant_id, organization_id, name, email, username, password_hash, is_tenant_admin,
	acl_beacon, acl_pro, acl_enterprise, acl_locate_api, permissions, is_mfa_enabled, mfa_secret,
	is_translation_enrichment_enabled, is_mentioned_locations_enrichment_enabled,
	is_inbox_streaming_enabled, display_theme, media_sensitivity, disabled_at, created_at`

func scanUser(row interface{ Scan(...any) error }) (account.User, error) {
	var u account.User
	var permissions string
	var disabled, created int64
	err := row.Scan(&u.ID, &u.TenantID, &u.OrganizationID, &u.Name, &u.Email, &u.Username, &u.PasswordHash,
		&u.IsTenantAdmin, &u.ACL.Beacon, &u.ACL.Pro, &u.ACL.Enterprise, &u.ACL.LocateAPI, &permissions,
		&u.IsMFAEnabled, &u.MFASecret, &u.IsTranslationEnrichmentEnabled,
		&u.IsMentionedLocationsEnrichmentEnabled, &u.IsInboxStreamingEnabled, &u.DisplayTheme,
		&u.MediaSensitivity, &disabled, &created)
	if err != nil {
		return u, notFound(err, "user")
	}
	u.DisabledAt, u.CreatedAt = fromMillis(disabled), fromMillis(created)
	return u, json.Unmarshal([]byte(permissions), &u.Permissions)
}

func (s *Store) User(ctx context.Context, id int64) (account.User, error) {
	return s.openUser(scanUser(s.read.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users WHERE id = $1`, id)))
}

func (s *Store) UserByEmail(ctx context.Context, email string) (account.User, error) {
	return s.openUser(scanUser(s.read.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users WHERE email = $1`,
		strings.ToLower(strings.TrimSpace(email)))))
}

// CreateUser inserts the user and its membership of the user's organization with role, and the
// audit entries, together. An entry without a ModelID is about the user created.
func (s *Store) CreateUser(ctx context.Context, u *account.User, role account.Role, audit ...account.AuditEntry) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if err := s.insertUser(ctx, tx, u, role); err != nil {
			return err
		}
		return insertAudit(ctx, tx, withModelID(audit, u.ID)...)
	})
}

// insertUser inserts the user and its membership within tx.
func (s *Store) insertUser(ctx context.Context, tx *sql.Tx, u *account.User, role account.Role) error {
	permissions, err := json.Marshal(u.Permissions)
	if err != nil {
		return err
	}
	if u.Permissions == nil {
		permissions = []byte("[]")
	}
	mfaSecret, err := s.sealMFA(u.MFASecret)
	if err != nil {
		return err
	}
	u.CreatedAt = time.Now().UTC()
	err = tx.QueryRowContext(ctx, `INSERT INTO users (tenant_id, organization_id, name, email, username,
		password_hash, is_tenant_admin, acl_beacon, acl_pro, acl_enterprise, acl_locate_api, permissions,
		is_mfa_enabled, mfa_secret, is_translation_enrichment_enabled, is_mentioned_locations_enrichment_enabled,
		is_inbox_streaming_enabled, display_theme, media_sensitivity, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)
		RETURNING id`,
		u.TenantID, u.OrganizationID, u.Name, u.Email, u.Username, u.PasswordHash, u.IsTenantAdmin,
		u.ACL.Beacon, u.ACL.Pro, u.ACL.Enterprise, u.ACL.LocateAPI, string(permissions), u.IsMFAEnabled,
		mfaSecret, u.IsTranslationEnrichmentEnabled, u.IsMentionedLocationsEnrichmentEnabled,
		u.IsInboxStreamingEnabled, u.DisplayTheme, u.MediaSensitivity, millis(u.CreatedAt)).Scan(&u.ID)
	if isUniqueViolation(err) {
		return problem.InvalidField("email", "A user with this e-mail address already exists.")
	}
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO memberships (organization_id, user_id, role, created_at)
		VALUES ($1, $2, $3, $4)`, u.OrganizationID, u.ID, string(role), millis(u.CreatedAt))
	return err
}

// UpdateUserSettings stores the user's own settings (theme, media sensitivity, enrichment and
// streaming toggles). Two-step verification has calls of its own (mfa.go), so a settings change
// read before it cannot write an old state back over it.
func (s *Store) UpdateUserSettings(ctx context.Context, u account.User, audit ...account.AuditEntry) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE users SET display_theme = $1, media_sensitivity = $2,
			is_translation_enrichment_enabled = $3, is_mentioned_locations_enrichment_enabled = $4,
			is_inbox_streaming_enabled = $5 WHERE id = $6`,
			u.DisplayTheme, u.MediaSensitivity, u.IsTranslationEnrichmentEnabled,
			u.IsMentionedLocationsEnrichmentEnabled, u.IsInboxStreamingEnabled, u.ID); err != nil {
			return err
		}
		return insertAudit(ctx, tx, audit...)
	})
}

// MembershipRole is the user's role in the organization; NotFound when not a member.
func (s *Store) MembershipRole(ctx context.Context, organizationID, userID int64) (account.Role, error) {
	var role string
	err := s.read.QueryRowContext(ctx, `SELECT role FROM memberships WHERE organization_id = $1 AND user_id = $2`,
		organizationID, userID).Scan(&role)
	return account.Role(role), notFound(err, "membership")
}

// Members lists an organization's members by e-mail.
func (s *Store) Members(ctx context.Context, organizationID int64) ([]account.Member, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT u.id, u.name, u.email, u.username, m.role
		FROM memberships m JOIN users u ON u.id = m.user_id
		WHERE m.organization_id = $1 ORDER BY u.email`, organizationID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var members []account.Member
	for rows.Next() {
		var m account.Member
		var role string
		if err := rows.Scan(&m.UserID, &m.Name, &m.Email, &m.Username, &role); err != nil {
			return nil, err
		}
		m.Role = account.Role(role)
		members = append(members, m)
	}
	return members, rows.Err()
}

// AddAudit appends an entry to the audit log on its own, outside any change: tests seed the log
// with it. Every audited change of the application writes its entries in the change's own
// transaction instead (insertAudit), so neither is stored without the other.
func (s *Store) AddAudit(ctx context.Context, e account.AuditEntry) error {
	return insertAudit(ctx, s.write, e)
}

type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// insertAudit appends the entries with the actor's name as it is now, so renaming or deleting the
// actor later does not rewrite history. Called with a change's transaction, the entry and the
// change are stored together or not at all.
func insertAudit(ctx context.Context, q execer, entries ...account.AuditEntry) error {
	for _, e := range entries {
		if e.CreatedAt.IsZero() {
			e.CreatedAt = time.Now().UTC()
		}
		if _, err := q.ExecContext(ctx, `INSERT INTO audit_log (tenant_id, organization_id, user_id, model,
			model_id, action, previous_value, new_value, created_at, actor_name)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, COALESCE((SELECT name FROM users WHERE id = $3), ''))`,
			e.TenantID, e.OrganizationID, e.UserID, e.Model, e.ModelID, e.Action, e.PreviousValue, e.NewValue,
			millis(e.CreatedAt)); err != nil {
			return fmt.Errorf("store: audit %s %s: %w", e.Model, e.Action, err)
		}
	}
	return nil
}

// AuditLog lists a tenant's audit entries, newest first.
func (s *Store) AuditLog(ctx context.Context, tenantID int64, limit int) ([]account.AuditEntry, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT id, tenant_id, organization_id, user_id, model, model_id,
		action, previous_value, new_value, created_at FROM audit_log WHERE tenant_id = $1
		ORDER BY created_at DESC, id DESC LIMIT $2`, tenantID, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var entries []account.AuditEntry
	for rows.Next() {
		var e account.AuditEntry
		var created int64
		if err := rows.Scan(&e.ID, &e.TenantID, &e.OrganizationID, &e.UserID, &e.Model, &e.ModelID, &e.Action,
			&e.PreviousValue, &e.NewValue, &created); err != nil {
			return nil, err
		}
		e.CreatedAt = fromMillis(created)
		entries = append(entries, e)
	}
	return entries, rows.Err()
}

// notFound turns sql.ErrNoRows into a NotFound problem naming what was missing.
func notFound(err error, what string) error {
	if errors.Is(err, sql.ErrNoRows) {
		return problem.NotFound("The %s was not found.", what)
	}
	return err
}

// UpdateUserAccess sets the user's product access flags, with the audit entries.
func (s *Store) UpdateUserAccess(ctx context.Context, userID int64, acl account.ACL, audit ...account.AuditEntry) error {
	return s.execAudited(ctx, audit, `UPDATE users SET acl_beacon = $1, acl_pro = $2, acl_enterprise = $3,
		acl_locate_api = $4 WHERE id = $5`, acl.Beacon, acl.Pro, acl.Enterprise, acl.LocateAPI, userID)
}

// SetOrganizationLimits sets an organization's monthly data and asset limits (0 is unlimited).
func (s *Store) SetOrganizationLimits(ctx context.Context, organizationID, monthlyData, assets int64) error {
	_, err := s.write.ExecContext(ctx, `UPDATE organizations SET monthly_data_limit = $1, asset_limit = $2 WHERE id = $3`,
		monthlyData, assets, organizationID)
	return err
}

// AcceptTOTPStep records step as the user's last accepted TOTP time step when it is later than
// the recorded one, and reports whether it was: a code works once, and none of an earlier step
// works after it. One conditional update, so two nodes cannot both accept the same code.
func (s *Store) AcceptTOTPStep(ctx context.Context, userID, step int64) (bool, error) {
	res, err := s.write.ExecContext(ctx, `UPDATE users SET mfa_last_step = $1 WHERE id = $2 AND mfa_last_step < $1`,
		step, userID)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// SetPasswordHash replaces a user's password hash and writes the audit entries, together.
func (s *Store) SetPasswordHash(ctx context.Context, userID int64, hash string, audit ...account.AuditEntry) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE users SET password_hash = $1 WHERE id = $2`, hash, userID); err != nil {
			return err
		}
		return insertAudit(ctx, tx, audit...)
	})
}
