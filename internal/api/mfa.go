package api

import (
	"net/http"

	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/authz"
)

// mfaReply answers PUT /api/v1/settings/profile/mfa (docs/settings-api.md): the enrolment's
// secret, URI and QR code when starting, the recovery codes once when confirmed.
type mfaReply struct {
	IsMFAEnabled  bool     `json:"is_mfa_enabled"`
	Pending       bool     `json:"pending"`
	Secret        string   `json:"secret,omitempty"`
	OTPAuthURI    string   `json:"otpauth_uri,omitempty"`
	QRCode        string   `json:"qr_code,omitempty"`
	RecoveryCodes []string `json:"recovery_codes,omitempty"`
}

// updateMFA turns two-step verification on (without a code but with the current password:
// start, with a code: confirm) or off (with the current password and a code).
func (a *API) updateMFA(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	var body struct {
		Enabled         bool   `json:"enabled"`
		Code            string `json:"code"`
		CurrentPassword string `json:"current_password"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	switch {
	case !body.Enabled:
		if err := a.Auth.DisableMFA(r.Context(), id, body.CurrentPassword, body.Code, clientIP(r)); err != nil {
			return err
		}
		return ok(w, mfaReply{})
	case body.Code == "":
		e, err := a.Auth.StartMFA(r.Context(), id, body.CurrentPassword, clientIP(r))
		if err != nil {
			return err
		}
		return ok(w, mfaReply{Pending: true, Secret: e.Secret, OTPAuthURI: e.URI, QRCode: e.QRCode})
	default:
		codes, err := a.Auth.ConfirmMFA(r.Context(), id, body.Code, clientIP(r))
		if err != nil {
			return err
		}
		return ok(w, mfaReply{IsMFAEnabled: true, RecoveryCodes: codes})
	}
}

// updateContact changes the caller's name and username and replies with the profile.
func (a *API) updateContact(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	if err := authz.CanManageOwnProfile(id.Actor(), id.User.ID); err != nil {
		return err
	}
	var body struct {
		Name     string `json:"name"`
		Username string `json:"username"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	if _, err := a.Accounts.UpdateContact(r.Context(), id.User.ID, body.Name, body.Username); err != nil {
		return err
	}
	return a.currentProfile(w, r, id)
}

// profileStateReply is the caller's settings state: their switches and where two-step
// verification stands (docs/settings-api.md).
type profileStateReply struct {
	IsMFAEnabled                          bool   `json:"is_mfa_enabled"`
	MFAPending                            bool   `json:"mfa_pending"`
	RecoveryCodesLeft                     int    `json:"recovery_codes_left"`
	IsTranslationEnrichmentEnabled        bool   `json:"is_translation_enrichment_enabled"`
	IsMentionedLocationsEnrichmentEnabled bool   `json:"is_mentioned_locations_enrichment_enabled"`
	IsInboxStreamingEnabled               bool   `json:"is_inbox_streaming_enabled"`
	DisplayTheme                          string `json:"display_theme"`
	MediaSensitivity                      string `json:"media_sensitivity"`
}

func (a *API) profileState(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	st, err := a.Auth.MFAState(r.Context(), id)
	if err != nil {
		return err
	}
	u := id.User
	return ok(w, profileStateReply{IsMFAEnabled: st.Enabled, MFAPending: st.Pending, RecoveryCodesLeft: st.RecoveryCodesLeft,
		IsTranslationEnrichmentEnabled:        u.IsTranslationEnrichmentEnabled,
		IsMentionedLocationsEnrichmentEnabled: u.IsMentionedLocationsEnrichmentEnabled,
		IsInboxStreamingEnabled:               u.IsInboxStreamingEnabled,
		DisplayTheme:                          u.DisplayTheme, MediaSensitivity: u.MediaSensitivity})
}
