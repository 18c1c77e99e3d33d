package api

import (
	"net/http"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/ingest"
)

type aclReply struct {
	Beacon       bool `json:"beacon"`
	Pro          bool `json:"pro"`
	Enterprise   bool `json:"enterprise"`
	LocateAPI    bool `json:"locate_api"`
	RFI          bool `json:"rfi"`
	IntelReports bool `json:"intel_reports"`
}

type organizationReply struct {
	ID                 int64           `json:"id"`
	Name               string          `json:"name"`
	CRMID              string          `json:"crm_id"`
	IsUSPICompliant    bool            `json:"is_uspi_compliant"`
	IsMooseMindEnabled bool            `json:"is_moose_mind_enabled"`
	FeatureFlags       map[string]bool `json:"feature_flags"`
	MonthlyDataLimit   int64           `json:"monthly_data_limit"`
	AssetLimit         int64           `json:"asset_limit"`
}

type tenantReply struct {
	ID           int64  `json:"id"`
	Name         string `json:"name"`
	Logout       bool   `json:"logout"`
	SupportEmail string `json:"support_email"`
	IsECS        bool   `json:"is_ecs"`
}

type profileReply struct {
	ID                                    int64                `json:"id"`
	Name                                  string               `json:"name"`
	Email                                 string               `json:"email"`
	Username                              string               `json:"username"`
	IsMFAEnabled                          bool                 `json:"is_mfa_enabled"`
	IsTranslationEnrichmentEnabled        bool                 `json:"is_translation_enrichment_enabled"`
	IsMentionedLocationsEnrichmentEnabled bool                 `json:"is_mentioned_locations_enrichment_enabled"`
	IsInboxStreamingEnabled               bool                 `json:"is_inbox_streaming_enabled"`
	DisplayTheme                          string               `json:"display_theme"`
	MediaSensitivity                      string               `json:"media_sensitivity"`
	IsTenantAdmin                         bool                 `json:"is_tenant_admin"`
	IsIgniteUser                          bool                 `json:"is_ignite_user"`
	Role                                  account.Role         `json:"role"`
	ACL                                   aclReply             `json:"acl"`
	Organization                          organizationReply    `json:"organization"`
	Tenant                                tenantReply          `json:"tenant"`
	SocialAccounts                        []socialAccountReply `json:"social_accounts"`
	// EmailDelivery says whether this server sends e-mail at all (alerts, export links).
	EmailDelivery bool `json:"emailDelivery"`
	// Translation says whether this server has a translation server (--translate-url).
	Translation bool `json:"translation"`
	// RetentionDays is how many days of posts this server keeps (--retention): how far back a
	// search can reach, and which of Locate's date shortcuts mean something.
	RetentionDays int `json:"retentionDays"`
	// Portals says which other products this deployment links to.
	Portals map[authz.Portal]bool `json:"portals"`
}

func (a *API) profileJSON(p account.Profile) profileReply {
	u, o, t := p.User, p.Organization, p.Tenant
	return profileReply{
		ID: u.ID, Name: u.Name, Email: u.Email, Username: u.Username, IsMFAEnabled: u.IsMFAEnabled,
		IsTranslationEnrichmentEnabled:        u.IsTranslationEnrichmentEnabled,
		IsMentionedLocationsEnrichmentEnabled: u.IsMentionedLocationsEnrichmentEnabled,
		IsInboxStreamingEnabled:               u.IsInboxStreamingEnabled,
		DisplayTheme:                          u.DisplayTheme, MediaSensitivity: u.MediaSensitivity,
		IsTenantAdmin: u.IsTenantAdmin, IsIgniteUser: u.IsIgniteUser(), Role: p.Role,
		ACL: aclReply{Beacon: u.ACL.Beacon, Pro: u.ACL.Pro, Enterprise: u.ACL.Enterprise, LocateAPI: u.ACL.LocateAPI,
			RFI: u.HasRFIAccess(), IntelReports: u.HasIntelReportsAccess()},
		Organization: organizationReply{ID: o.ID, Name: o.Name, CRMID: o.CRMID, IsUSPICompliant: o.IsUSPICompliant,
			IsMooseMindEnabled: o.IsMooseMindEnabled, FeatureFlags: o.FeatureFlags,
			MonthlyDataLimit: o.MonthlyDataLimit, AssetLimit: o.AssetLimit},
		Tenant: tenantReply{ID: t.ID, Name: t.Name, Logout: t.LogoutAllowed, SupportEmail: t.SupportEmail,
			IsECS: t.IsECS()},
		SocialAccounts: []socialAccountReply{}, EmailDelivery: a.EmailDelivery, Portals: a.Portals.configured(),
		Translation:   a.Translate.Configured(),
		RetentionDays: int(a.retention().Hours() / 24),
	}
}

func (a *API) currentProfile(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	p, err := a.Accounts.Profile(r.Context(), id.User.ID)
	if err != nil {
		return err
	}
	reply := a.profileJSON(p)
	if reply.SocialAccounts, err = a.socialAccounts(r, id); err != nil {
		return err
	}
	return ok(w, reply)
}

func (a *API) updateDisplayTheme(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	var body struct {
		DisplayTheme string `json:"display_theme"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	if _, err := a.Accounts.SetDisplayTheme(r.Context(), id.User.ID, body.DisplayTheme); err != nil {
		return err
	}
	return a.currentProfile(w, r, id)
}

// toggleSetting flips one of the profile's switches and replies with the profile.
func (a *API) toggleSetting(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	if _, err := a.Accounts.Toggle(r.Context(), id.User.ID, r.PathValue("switch")); err != nil {
		return err
	}
	return a.currentProfile(w, r, id)
}

func (a *API) updateMediaSensitivity(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	var body struct {
		MediaSensitivity string `json:"media_sensitivity"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	if _, err := a.Accounts.SetMediaSensitivity(r.Context(), id.User.ID, body.MediaSensitivity); err != nil {
		return err
	}
	return a.currentProfile(w, r, id)
}

type memberReply struct {
	ID       int64        `json:"id"`
	Email    string       `json:"email"`
	Username string       `json:"username"`
	Name     string       `json:"name"`
	Role     account.Role `json:"role"`
}

// currentOrganization replies with the caller's organization and its members in data.data.users.
func (a *API) currentOrganization(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	actor := id.Actor()
	if err := authz.CanReadOrganization(actor, actor.OrganizationID); err != nil {
		return err
	}
	org, err := a.Accounts.OrganizationMembers(r.Context(), actor.OrganizationID)
	if err != nil {
		return err
	}
	users := make([]memberReply, 0, len(org.Members))
	for _, m := range org.Members {
		users = append(users, memberReply{ID: m.UserID, Email: m.Email, Username: m.Username, Name: m.Name, Role: m.Role})
	}
	return ok(w, map[string]any{"data": map[string]any{
		"id": org.Organization.ID, "name": org.Organization.Name, "crm_id": org.Organization.CRMID, "users": users,
		"hasWebhookSecret": org.Organization.WebhookSecret != "",
	}})
}

// retention is how long this server keeps posts.
func (a *API) retention() time.Duration {
	if a.Ingest == nil {
		return ingest.Retention
	}
	return a.Ingest.Retention()
}
