// Package tenant is the tenant portal's domain (search-side.md sections 2 and 6): a tenant
// admin sees the tenant's organizations with their usage and limits and changes their feature
// flags and settings, manages the tenant's users (create, role and access, disable, enable) and
// their API tokens. Everything is scoped to the admin's own tenant: another tenant's
// organizations, users and tokens do not exist for them (authz.CanManageTenantResource).
package tenant

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/problem"
)

// Usage is what an organization holds and collected this month, beside its limits.
type Usage struct {
	Members          int64
	SavedSearches    int64
	Assets           int64 // saved searches, location configurations and assets, as the asset limit counts
	MatchesThisMonth int64 // the monthly data the monthly data limit bounds
}

// Organization is one of the tenant's organizations with its usage.
type Organization struct {
	account.Organization
	Usage Usage
}

// User is one of the tenant's users as the portal lists them.
type User struct {
	ID               int64
	Name             string
	Email            string
	OrganizationID   int64
	OrganizationName string
	Role             account.Role
	IsTenantAdmin    bool
	IsMFAEnabled     bool
	ACL              account.ACL
	DisabledAt       time.Time
	CreatedAt        time.Time
}

// Token is an API token of one of the tenant's users.
type Token struct {
	auth.APIToken
	UserName  string
	UserEmail string
	// UserDisabled: the token is refused while its user is disabled.
	UserDisabled bool
}

// Store is the persistence the portal needs.
type Store interface {
	Tenant(ctx context.Context, id int64) (account.Tenant, error)
	Organization(ctx context.Context, id int64) (account.Organization, error)
	User(ctx context.Context, id int64) (account.User, error)
	Members(ctx context.Context, organizationID int64) ([]account.Member, error)
	TenantOrganizations(ctx context.Context, tenantID int64) ([]account.Organization, error)
	OrganizationUsage(ctx context.Context, organizationID int64, monthStart time.Time) (Usage, error)
	// The changes write the audit entries (change's, for ChangeOrganization) in their transaction.
	ChangeOrganization(ctx context.Context, id int64, change func(*account.Organization) ([]account.AuditEntry, error)) (account.Organization, error)
	TenantUsers(ctx context.Context, tenantID int64) ([]User, error)
	SetMembershipRole(ctx context.Context, organizationID, userID int64, role account.Role, audit ...account.AuditEntry) error
	UpdateUserAccess(ctx context.Context, userID int64, acl account.ACL, audit ...account.AuditEntry) error
	SetUserDisabled(ctx context.Context, userID int64, at time.Time, audit ...account.AuditEntry) error
	TenantAPITokens(ctx context.Context, tenantID int64) ([]auth.APIToken, error)
	APIToken(ctx context.Context, id int64) (auth.APIToken, error)
}

// Service carries out the portal's rules.
type Service struct {
	store    Store
	accounts *account.Service
	auth     *auth.Service
	now      func() time.Time
}

func NewService(store Store, accounts *account.Service, a *auth.Service) *Service {
	return &Service{store: store, accounts: accounts, auth: a, now: time.Now}
}

// Organizations lists the tenant's organizations with their usage this month.
func (s *Service) Organizations(ctx context.Context, a authz.Actor) ([]Organization, error) {
	if err := authz.CanUseTenantPortal(a); err != nil {
		return nil, err
	}
	orgs, err := s.store.TenantOrganizations(ctx, a.TenantID)
	if err != nil {
		return nil, err
	}
	month := monitor.MonthStart(s.now())
	out := make([]Organization, 0, len(orgs))
	for _, o := range orgs {
		u, err := s.store.OrganizationUsage(ctx, o.ID, month)
		if err != nil {
			return nil, err
		}
		out = append(out, Organization{Organization: o, Usage: u})
	}
	return out, nil
}

// organization loads one of the tenant's organizations.
func (s *Service) organization(ctx context.Context, a authz.Actor, id int64) (account.Organization, error) {
	if err := authz.CanUseTenantPortal(a); err != nil {
		return account.Organization{}, err
	}
	o, err := s.store.Organization(ctx, id)
	if err != nil {
		return o, err
	}
	return o, authz.CanManageTenantResource(a, o.TenantID, "organization")
}

// SetFeatureFlag turns one of the organization's feature flags on or off.
func (s *Service) SetFeatureFlag(ctx context.Context, a authz.Actor, organizationID int64, flag string, on bool) (Organization, error) {
	if _, known := account.DefaultFeatureFlags()[flag]; !known {
		if _, err := s.organization(ctx, a, organizationID); err != nil {
			return Organization{}, err
		}
		return Organization{}, problem.NotFound("There is no %s feature flag.", flag)
	}
	return s.switchOrganization(ctx, a, organizationID, "flag", flag, func(o *account.Organization) *bool {
		if o.FeatureFlags == nil {
			o.FeatureFlags = map[string]bool{}
		}
		if _, set := o.FeatureFlags[flag]; !set {
			o.FeatureFlags[flag] = account.DefaultFeatureFlags()[flag]
		}
		v := o.FeatureFlags[flag]
		return &v
	}, func(o *account.Organization, v bool) { o.FeatureFlags[flag] = v }, on)
}

// Settings are the organization settings a tenant admin switches, by name.
var settings = map[string]func(*account.Organization) *bool{
	"is_uspi_compliant":     func(o *account.Organization) *bool { return &o.IsUSPICompliant },
	"is_moose_mind_enabled": func(o *account.Organization) *bool { return &o.IsMooseMindEnabled },
}

// SetOrganizationSetting turns the US-persons compliance or the AI feature of the
// organization on or off.
func (s *Service) SetOrganizationSetting(ctx context.Context, a authz.Actor, organizationID int64, setting string, on bool) (Organization, error) {
	field, known := settings[setting]
	if !known {
		if _, err := s.organization(ctx, a, organizationID); err != nil {
			return Organization{}, err
		}
		return Organization{}, problem.NotFound("There is no %s setting.", setting)
	}
	return s.switchOrganization(ctx, a, organizationID, "organization", setting, field,
		func(o *account.Organization, v bool) { *field(o) = v }, on)
}

// MaxLimit bounds what a tenant admin may set a limit to; 0 lifts a limit.
const MaxLimit = 1_000_000_000

// Limits are an organization's monthly data limit, asset limit and alert flood guard; nil
// leaves one as it is.
type Limits struct {
	MonthlyData *int64
	Assets      *int64
	AlertDaily  *int64
}

// MaxAlertDailyLimit bounds what a tenant admin may set as an organization's alert flood guard.
const MaxAlertDailyLimit = 10_000

// MsgAlertDailyLimit answers a flood guard bound out of range.
const MsgAlertDailyLimit = "The alert limit must be between 1 and 10000 notifications a saved search sends in 24 hours, or 0 for the default (50)."

// msgLimit answers a data or asset limit out of range.
const msgLimit = "The limit must be a whole number from 0 (no limit) to 1,000,000,000."

// SetLimits changes one of the tenant's organizations' limits, audited with the values before
// and after. Lowering a limit below what the organization holds removes nothing: it stops
// what would go beyond it (docs/decisions.md). The alert limit bounds the notifications each
// saved search sends in 24 hours before the rest are held back (0: the default).
func (s *Service) SetLimits(ctx context.Context, a authz.Actor, id int64, l Limits) (Organization, error) {
	if _, err := s.organization(ctx, a, id); err != nil {
		return Organization{}, err
	}
	fields := []struct {
		name  string
		value *int64
		max   int64
		msg   string
		field func(*account.Organization) *int64
	}{
		{"monthly_data_limit", l.MonthlyData, MaxLimit, msgLimit, func(o *account.Organization) *int64 { return &o.MonthlyDataLimit }},
		{"asset_limit", l.Assets, MaxLimit, msgLimit, func(o *account.Organization) *int64 { return &o.AssetLimit }},
		{"alert_daily_limit", l.AlertDaily, MaxAlertDailyLimit, MsgAlertDailyLimit, func(o *account.Organization) *int64 { return &o.AlertDailyLimit }},
	}
	errs := map[string][]string{}
	for _, f := range fields {
		if f.value != nil && (*f.value < 0 || *f.value > f.max) {
			errs[f.name] = []string{f.msg}
		}
	}
	if l.MonthlyData == nil && l.Assets == nil && l.AlertDaily == nil {
		errs["asset_limit"] = []string{"Give the monthly data limit, the asset limit, the alert limit or any of them."}
	}
	if len(errs) > 0 {
		return Organization{}, problem.Invalid("The given data was invalid.", errs)
	}
	o, err := s.store.ChangeOrganization(ctx, id, func(o *account.Organization) ([]account.AuditEntry, error) {
		var entries []account.AuditEntry
		for _, f := range fields {
			if f.value == nil || *f.field(o) == *f.value {
				continue
			}
			before := *f.field(o)
			*f.field(o) = *f.value
			entries = append(entries, account.AuditEntry{TenantID: o.TenantID, OrganizationID: o.ID, UserID: a.UserID,
				Model: "organization", ModelID: strconv.FormatInt(o.ID, 10), Action: "updated",
				PreviousValue: f.name + ": " + strconv.FormatInt(before, 10), NewValue: f.name + ": " + strconv.FormatInt(*f.value, 10)})
		}
		return entries, nil
	})
	if err != nil {
		return Organization{}, err
	}
	u, err := s.store.OrganizationUsage(ctx, o.ID, monitor.MonthStart(s.now()))
	return Organization{Organization: o, Usage: u}, err
}

// switchOrganization sets one switch of one of the tenant's organizations and audits the
// change (as model) with the value before and after; setting it to what it is changes nothing.
func (s *Service) switchOrganization(ctx context.Context, a authz.Actor, id int64, model, name string,
	get func(*account.Organization) *bool, set func(*account.Organization, bool), on bool) (Organization, error) {
	if _, err := s.organization(ctx, a, id); err != nil {
		return Organization{}, err
	}
	o, err := s.store.ChangeOrganization(ctx, id, func(o *account.Organization) ([]account.AuditEntry, error) {
		before := *get(o)
		if before == on {
			return nil, nil
		}
		set(o, on)
		return []account.AuditEntry{{TenantID: o.TenantID, OrganizationID: o.ID, UserID: a.UserID,
			Model: model, ModelID: strconv.FormatInt(o.ID, 10), Action: "updated",
			PreviousValue: name + ": " + strconv.FormatBool(before), NewValue: name + ": " + strconv.FormatBool(on)}}, nil
	})
	if err != nil {
		return Organization{}, err
	}
	u, err := s.store.OrganizationUsage(ctx, o.ID, monitor.MonthStart(s.now()))
	return Organization{Organization: o, Usage: u}, err
}

// Users lists the tenant's users.
func (s *Service) Users(ctx context.Context, a authz.Actor) ([]User, error) {
	if err := authz.CanUseTenantPortal(a); err != nil {
		return nil, err
	}
	return s.store.TenantUsers(ctx, a.TenantID)
}

// NewUser is a user a tenant admin creates in one of the tenant's organizations. The admin
// sets the first password and hands it over; the user changes it in Settings.
type NewUser struct {
	Name           string
	Email          string
	OrganizationID int64
	Role           account.Role
	ACL            account.ACL
	Password       string
}

// CreateUser creates a user in one of the tenant's organizations.
func (s *Service) CreateUser(ctx context.Context, a authz.Actor, n NewUser) (User, error) {
	if err := authz.CanUseTenantPortal(a); err != nil {
		return User{}, err
	}
	if n.OrganizationID == 0 {
		return User{}, problem.InvalidField("organizationId", "The organization field is required.")
	}
	org, err := s.store.Organization(ctx, n.OrganizationID)
	if problem.Is(err, problem.KindNotFound) || (err == nil && org.TenantID != a.TenantID) {
		return User{}, problem.InvalidField("organizationId", "The organization was not found.")
	}
	if err != nil {
		return User{}, err
	}
	t, err := s.store.Tenant(ctx, a.TenantID)
	if err != nil {
		return User{}, err
	}
	acl := n.ACL
	u, err := s.accounts.CreateUser(ctx, account.NewUser{Tenant: t.Name, Organization: org.Name, Email: n.Email,
		Password: n.Password, Name: n.Name, Role: n.Role, ACL: &acl, By: a.UserID})
	if err != nil {
		return User{}, err
	}
	return s.user(ctx, a, u.ID)
}

// user is one of the tenant's users as listed.
func (s *Service) user(ctx context.Context, a authz.Actor, id int64) (User, error) {
	users, err := s.store.TenantUsers(ctx, a.TenantID)
	if err != nil {
		return User{}, err
	}
	i := slices.IndexFunc(users, func(u User) bool { return u.ID == id })
	if i < 0 {
		return User{}, problem.NotFound("The user was not found.")
	}
	return users[i], nil
}

// changeable loads a user of the tenant the admin may change (not themselves).
func (s *Service) changeable(ctx context.Context, a authz.Actor, id int64) (account.User, error) {
	if err := authz.CanUseTenantPortal(a); err != nil {
		return account.User{}, err
	}
	u, err := s.store.User(ctx, id)
	if err != nil {
		return u, err
	}
	return u, authz.CanChangeTenantUser(a, u.TenantID, u.ID)
}

// UpdateUser sets a user's role in their organization and their product access.
func (s *Service) UpdateUser(ctx context.Context, a authz.Actor, id int64, role account.Role, acl account.ACL) (User, error) {
	u, err := s.changeable(ctx, a, id)
	if err != nil {
		return User{}, err
	}
	if !role.Valid() {
		return User{}, problem.InvalidField("role", "The role must be owner, admin or member.")
	}
	before, err := s.user(ctx, a, id)
	if err != nil {
		return User{}, err
	}
	if before.Role == account.RoleOwner && role != account.RoleOwner {
		members, err := s.store.Members(ctx, u.OrganizationID)
		if err != nil {
			return User{}, err
		}
		owners := 0
		for _, m := range members {
			if m.Role == account.RoleOwner {
				owners++
			}
		}
		if owners <= 1 {
			return User{}, problem.InvalidField("role", "An organization needs an owner: make someone else its owner first.")
		}
	}
	audit := func(field, was, is string) account.AuditEntry {
		return account.AuditEntry{TenantID: u.TenantID, OrganizationID: u.OrganizationID,
			UserID: a.UserID, Model: "user", ModelID: strconv.FormatInt(u.ID, 10), Action: "updated",
			PreviousValue: u.Email + " " + field + ": " + was, NewValue: u.Email + " " + field + ": " + is}
	}
	if role != before.Role {
		if err := s.store.SetMembershipRole(ctx, u.OrganizationID, u.ID, role,
			audit("role", string(before.Role), string(role))); err != nil {
			return User{}, err
		}
	}
	if acl != before.ACL {
		if err := s.store.UpdateUserAccess(ctx, u.ID, acl, audit("access", describeACL(before.ACL), describeACL(acl))); err != nil {
			return User{}, err
		}
	}
	return s.user(ctx, a, id)
}

// describeACL names the products an ACL includes, for the audit log.
func describeACL(acl account.ACL) string {
	var on []string
	for _, p := range []struct {
		name string
		on   bool
	}{{"beacon", acl.Beacon}, {"pro", acl.Pro}, {"enterprise", acl.Enterprise}, {"locate_api", acl.LocateAPI}} {
		if p.on {
			on = append(on, p.name)
		}
	}
	if len(on) == 0 {
		return "none"
	}
	return strings.Join(on, ", ")
}

// DisableUser stops a user at once: every session is signed out (its sockets close), their API
// tokens are refused from the next request, and they cannot sign in until enabled again.
func (s *Service) DisableUser(ctx context.Context, a authz.Actor, id int64) (User, error) {
	u, err := s.changeable(ctx, a, id)
	if err != nil {
		return User{}, err
	}
	if !u.Disabled() {
		if err := s.store.SetUserDisabled(ctx, u.ID, s.now().UTC(), account.AuditEntry{TenantID: u.TenantID,
			OrganizationID: u.OrganizationID, UserID: a.UserID, Model: "user", ModelID: strconv.FormatInt(u.ID, 10),
			Action: "disabled", PreviousValue: u.Email}); err != nil {
			return User{}, err
		}
	}
	// Sessions are ended even when already disabled: a retry finishes what a failure left.
	if _, err := s.auth.EndUserSessions(ctx, u.ID); err != nil {
		return User{}, err
	}
	return s.user(ctx, a, id)
}

// EnableUser lets a disabled user sign in again; their unrevoked API tokens work again.
func (s *Service) EnableUser(ctx context.Context, a authz.Actor, id int64) (User, error) {
	u, err := s.changeable(ctx, a, id)
	if err != nil {
		return User{}, err
	}
	if u.Disabled() {
		if err := s.store.SetUserDisabled(ctx, u.ID, time.Time{}, account.AuditEntry{TenantID: u.TenantID,
			OrganizationID: u.OrganizationID, UserID: a.UserID, Model: "user", ModelID: strconv.FormatInt(u.ID, 10),
			Action: "enabled", NewValue: u.Email}); err != nil {
			return User{}, err
		}
	}
	return s.user(ctx, a, id)
}

// ResetUserMFA turns off the two-step verification of one of the tenant's users (not the admin's
// own) who lost their authenticator; the reset is audited as the admin's.
func (s *Service) ResetUserMFA(ctx context.Context, a authz.Actor, id int64) (User, error) {
	u, err := s.changeable(ctx, a, id)
	if err != nil {
		return User{}, err
	}
	if err := s.auth.ResetMFA(ctx, u, a.UserID); err != nil {
		return User{}, err
	}
	return s.user(ctx, a, id)
}

// Tokens lists the API tokens of the tenant's users, newest first, revoked ones too.
func (s *Service) Tokens(ctx context.Context, a authz.Actor) ([]Token, error) {
	if err := authz.CanUseTenantPortal(a); err != nil {
		return nil, err
	}
	tokens, err := s.store.TenantAPITokens(ctx, a.TenantID)
	if err != nil {
		return nil, err
	}
	users, err := s.store.TenantUsers(ctx, a.TenantID)
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]User, len(users))
	for _, u := range users {
		byID[u.ID] = u
	}
	out := make([]Token, 0, len(tokens))
	for _, t := range tokens {
		u := byID[t.UserID]
		out = append(out, Token{APIToken: t, UserName: u.Name, UserEmail: u.Email, UserDisabled: !u.DisabledAt.IsZero()})
	}
	return out, nil
}

// NewToken is an API token a tenant admin makes for one of the tenant's users.
type NewToken struct {
	Name      string
	UserID    int64
	Scopes    []string
	ExpiresAt time.Time // zero: until revoked
}

// CreateToken makes an API token for one of the tenant's users (themselves, or a user who is no
// tenant admin) and returns its value, shown once and never stored. A token for someone else
// needs a scope and an expiry (auth.IssueAPIToken).
func (s *Service) CreateToken(ctx context.Context, a authz.Actor, n NewToken) (string, Token, error) {
	if err := authz.CanUseTenantPortal(a); err != nil {
		return "", Token{}, err
	}
	u, err := s.store.User(ctx, n.UserID)
	if problem.Is(err, problem.KindNotFound) || (err == nil && u.TenantID != a.TenantID) || n.UserID == 0 {
		return "", Token{}, problem.InvalidField("userId", "Choose one of the tenant's users.")
	}
	if err != nil {
		return "", Token{}, err
	}
	if err := authz.CanMintAPIToken(a, u.TenantID, u.ID, u.IsTenantAdmin); err != nil {
		return "", Token{}, err
	}
	value, t, err := s.auth.IssueAPIToken(ctx, u, n.Name, n.Scopes, n.ExpiresAt, a.UserID)
	if err != nil {
		if p, ok := problem.As(err); ok && p.Fields["expires"] != nil {
			return "", Token{}, problem.InvalidField("expiresAt", p.Fields["expires"][0])
		}
		return "", Token{}, err
	}
	return value, Token{APIToken: t, UserName: u.Name, UserEmail: u.Email}, nil
}

// RevokeToken revokes one of the tenant's API tokens at once: its next request gets 401.
func (s *Service) RevokeToken(ctx context.Context, a authz.Actor, id int64) (Token, error) {
	if err := authz.CanUseTenantPortal(a); err != nil {
		return Token{}, err
	}
	t, err := s.store.APIToken(ctx, id)
	if err != nil {
		return Token{}, err
	}
	u, err := s.store.User(ctx, t.UserID)
	if err != nil {
		return Token{}, err
	}
	if err := authz.CanManageTenantResource(a, u.TenantID, "API token"); err != nil {
		return Token{}, err
	}
	if err := s.auth.RevokeAPITokenOf(ctx, u, t, a.UserID); err != nil {
		return Token{}, err
	}
	if t, err = s.store.APIToken(ctx, id); err != nil {
		return Token{}, err
	}
	return Token{APIToken: t, UserName: u.Name, UserEmail: u.Email, UserDisabled: u.Disabled()}, nil
}
