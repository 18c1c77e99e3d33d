package api

import (
	"context"
	"net/http"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/tenant"
)

// The tenant portal's calls (docs/tenant-api.md). Times are Unix seconds, 0 for never.

type tenantUsageReply struct {
	Members          int64 `json:"members"`
	SavedSearches    int64 `json:"savedSearches"`
	Assets           int64 `json:"assets"`
	MatchesThisMonth int64 `json:"matchesThisMonth"`
}

type tenantOrganizationReply struct {
	ID                 int64            `json:"id"`
	Name               string           `json:"name"`
	IsUSPICompliant    bool             `json:"is_uspi_compliant"`
	IsMooseMindEnabled bool             `json:"is_moose_mind_enabled"`
	FeatureFlags       map[string]bool  `json:"feature_flags"`
	MonthlyDataLimit   int64            `json:"monthly_data_limit"`
	AssetLimit         int64            `json:"asset_limit"`
	AlertDailyLimit    int64            `json:"alert_daily_limit"`
	Usage              tenantUsageReply `json:"usage"`
	CreatedAt          int64            `json:"createdAt"`
}

func tenantOrganizationJSON(o tenant.Organization) tenantOrganizationReply {
	// Every known flag is listed, with its default when the organization predates it.
	flags := account.DefaultFeatureFlags()
	for name := range flags {
		if on, set := o.FeatureFlags[name]; set {
			flags[name] = on
		}
	}
	return tenantOrganizationReply{ID: o.ID, Name: o.Name, IsUSPICompliant: o.IsUSPICompliant,
		IsMooseMindEnabled: o.IsMooseMindEnabled, FeatureFlags: flags, MonthlyDataLimit: o.MonthlyDataLimit,
		AssetLimit: o.AssetLimit, AlertDailyLimit: o.AlertDailyLimit, CreatedAt: unixOrZero(o.CreatedAt),
		Usage: tenantUsageReply{Members: o.Usage.Members, SavedSearches: o.Usage.SavedSearches,
			Assets: o.Usage.Assets, MatchesThisMonth: o.Usage.MatchesThisMonth}}
}

func unixOrZero(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.Unix()
}

func (a *API) tenantOrganizations(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	orgs, err := a.Tenant.Organizations(r.Context(), id.Actor())
	if err != nil {
		return err
	}
	out := make([]tenantOrganizationReply, 0, len(orgs))
	for _, o := range orgs {
		out = append(out, tenantOrganizationJSON(o))
	}
	return ok(w, out)
}

// switchBody turns a flag or setting on or off.
type switchBody struct {
	Enabled *bool `json:"enabled"`
}

func (a *API) setTenantFeatureFlag(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	return a.setTenantSwitch(w, r, id, r.PathValue("flag"), a.Tenant.SetFeatureFlag)
}

func (a *API) setTenantOrganizationSetting(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	return a.setTenantSwitch(w, r, id, r.PathValue("setting"), a.Tenant.SetOrganizationSetting)
}

// setTenantOrganizationLimits changes an organization's monthly data limit, asset limit and
// alert flood guard.
func (a *API) setTenantOrganizationLimits(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	orgID, err := pathID(r)
	if err != nil {
		return err
	}
	var body struct {
		MonthlyDataLimit *int64 `json:"monthly_data_limit"`
		AssetLimit       *int64 `json:"asset_limit"`
		AlertDailyLimit  *int64 `json:"alert_daily_limit"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	o, err := a.Tenant.SetLimits(r.Context(), id.Actor(), orgID, tenant.Limits{MonthlyData: body.MonthlyDataLimit, Assets: body.AssetLimit, AlertDaily: body.AlertDailyLimit})
	if err != nil {
		return err
	}
	return ok(w, tenantOrganizationJSON(o))
}

func (a *API) setTenantSwitch(w http.ResponseWriter, r *http.Request, id auth.Identity, name string,
	set func(context.Context, authz.Actor, int64, string, bool) (tenant.Organization, error)) error {
	orgID, err := pathID(r)
	if err != nil {
		return err
	}
	var body switchBody
	if err := decode(r, &body); err != nil {
		return err
	}
	if body.Enabled == nil {
		return problem.InvalidField("enabled", "The enabled field is required.")
	}
	o, err := set(r.Context(), id.Actor(), orgID, name, *body.Enabled)
	if err != nil {
		return err
	}
	return ok(w, tenantOrganizationJSON(o))
}

type tenantACL struct {
	Beacon     bool `json:"beacon"`
	Pro        bool `json:"pro"`
	Enterprise bool `json:"enterprise"`
	LocateAPI  bool `json:"locate_api"`
}

func (t tenantACL) acl() account.ACL {
	return account.ACL{Beacon: t.Beacon, Pro: t.Pro, Enterprise: t.Enterprise, LocateAPI: t.LocateAPI}
}

type tenantUserReply struct {
	ID            int64        `json:"id"`
	Name          string       `json:"name"`
	Email         string       `json:"email"`
	Organization  idName       `json:"organization"`
	Role          account.Role `json:"role"`
	IsTenantAdmin bool         `json:"is_tenant_admin"`
	IsMFAEnabled  bool         `json:"is_mfa_enabled"`
	ACL           tenantACL    `json:"acl"`
	Disabled      bool         `json:"disabled"`
	DisabledAt    int64        `json:"disabledAt"`
	CreatedAt     int64        `json:"createdAt"`
}

type idName struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

func tenantUserJSON(u tenant.User) tenantUserReply {
	return tenantUserReply{ID: u.ID, Name: u.Name, Email: u.Email,
		Organization: idName{ID: u.OrganizationID, Name: u.OrganizationName}, Role: u.Role,
		IsTenantAdmin: u.IsTenantAdmin, IsMFAEnabled: u.IsMFAEnabled, ACL: tenantACL{Beacon: u.ACL.Beacon, Pro: u.ACL.Pro,
			Enterprise: u.ACL.Enterprise, LocateAPI: u.ACL.LocateAPI},
		Disabled: !u.DisabledAt.IsZero(), DisabledAt: unixOrZero(u.DisabledAt), CreatedAt: unixOrZero(u.CreatedAt)}
}

func (a *API) tenantUsers(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	users, err := a.Tenant.Users(r.Context(), id.Actor())
	if err != nil {
		return err
	}
	out := make([]tenantUserReply, 0, len(users))
	for _, u := range users {
		out = append(out, tenantUserJSON(u))
	}
	return ok(w, out)
}

func (a *API) createTenantUser(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	var body struct {
		Name           string       `json:"name"`
		Email          string       `json:"email"`
		OrganizationID int64        `json:"organizationId"`
		Role           account.Role `json:"role"`
		ACL            tenantACL    `json:"acl"`
		Password       string       `json:"password"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	u, err := a.Tenant.CreateUser(r.Context(), id.Actor(), tenant.NewUser{Name: body.Name, Email: body.Email,
		OrganizationID: body.OrganizationID, Role: body.Role, ACL: body.ACL.acl(), Password: body.Password})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, envelope{Data: tenantUserJSON(u)})
	return nil
}

func (a *API) updateTenantUser(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	userID, err := pathID(r)
	if err != nil {
		return err
	}
	var body struct {
		Role account.Role `json:"role"`
		ACL  tenantACL    `json:"acl"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	u, err := a.Tenant.UpdateUser(r.Context(), id.Actor(), userID, body.Role, body.ACL.acl())
	if err != nil {
		return err
	}
	return ok(w, tenantUserJSON(u))
}

func (a *API) disableTenantUser(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	return a.tenantUserAction(w, r, id, a.Tenant.DisableUser)
}

func (a *API) enableTenantUser(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	return a.tenantUserAction(w, r, id, a.Tenant.EnableUser)
}

func (a *API) resetTenantUserMFA(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	return a.tenantUserAction(w, r, id, a.Tenant.ResetUserMFA)
}

func (a *API) tenantUserAction(w http.ResponseWriter, r *http.Request, id auth.Identity,
	act func(context.Context, authz.Actor, int64) (tenant.User, error)) error {
	userID, err := pathID(r)
	if err != nil {
		return err
	}
	u, err := act(r.Context(), id.Actor(), userID)
	if err != nil {
		return err
	}
	return ok(w, tenantUserJSON(u))
}

type tenantTokenReply struct {
	ID         int64    `json:"id"`
	Name       string   `json:"name"`
	User       userRef  `json:"user"`
	Scopes     []string `json:"scopes"`
	ExpiresAt  int64    `json:"expiresAt"`
	LastUsedAt int64    `json:"lastUsedAt"`
	CreatedAt  int64    `json:"createdAt"`
	RevokedAt  int64    `json:"revokedAt"`
	// CreatedBy is the tenant admin who made the token for its user; null when the user (or the
	// operator's CLI) made it.
	CreatedBy *personRef `json:"createdBy"`
	// Token is the secret, only in the reply that created it.
	Token string `json:"token,omitempty"`
}

type userRef struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	Email    string `json:"email"`
	Disabled bool   `json:"disabled"`
}

// personRef names who did something.
type personRef struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

func createdByJSON(t auth.APIToken) *personRef {
	if t.CreatedBy == 0 {
		return nil
	}
	return &personRef{ID: t.CreatedBy, Name: t.CreatedByName}
}

func tenantTokenJSON(t tenant.Token) tenantTokenReply {
	scopes := t.Scopes
	if scopes == nil {
		scopes = []string{}
	}
	return tenantTokenReply{ID: t.ID, Name: t.Name, User: userRef{ID: t.UserID, Name: t.UserName, Email: t.UserEmail, Disabled: t.UserDisabled},
		Scopes: scopes, ExpiresAt: unixOrZero(t.ExpiresAt), LastUsedAt: unixOrZero(t.LastUsedAt),
		CreatedAt: unixOrZero(t.CreatedAt), RevokedAt: unixOrZero(t.RevokedAt), CreatedBy: createdByJSON(t.APIToken)}
}

func (a *API) tenantTokens(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	tokens, err := a.Tenant.Tokens(r.Context(), id.Actor())
	if err != nil {
		return err
	}
	out := make([]tenantTokenReply, 0, len(tokens))
	for _, t := range tokens {
		out = append(out, tenantTokenJSON(t))
	}
	return ok(w, out)
}

func (a *API) createTenantToken(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	var body struct {
		Name      string   `json:"name"`
		UserID    int64    `json:"userId"`
		Scopes    []string `json:"scopes"`
		ExpiresAt int64    `json:"expiresAt"` // Unix seconds; 0 or absent: until revoked
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	var expires time.Time
	if body.ExpiresAt > 0 {
		expires = time.Unix(body.ExpiresAt, 0)
	}
	value, t, err := a.Tenant.CreateToken(r.Context(), id.Actor(), tenant.NewToken{Name: body.Name, UserID: body.UserID,
		Scopes: body.Scopes, ExpiresAt: expires})
	if err != nil {
		return err
	}
	reply := tenantTokenJSON(t)
	reply.Token = value
	writeJSON(w, http.StatusCreated, envelope{Data: reply})
	return nil
}

func (a *API) revokeTenantToken(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	tokenID, err := pathID(r)
	if err != nil {
		return err
	}
	t, err := a.Tenant.RevokeToken(r.Context(), id.Actor(), tokenID)
	if err != nil {
		return err
	}
	return ok(w, tenantTokenJSON(t))
}
