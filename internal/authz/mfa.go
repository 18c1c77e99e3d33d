package authz

import "github.com/sightline/sightline/internal/problem"

// MsgProfileFromApp refuses an API token that tries to change who its owner is or how they sign in.
const MsgProfileFromApp = "Your profile and sign-in settings are changed in the app, not with an API token."

// CanManageOwnProfile allows users to change their own contact details and two-step
// verification, signed in through the app. Another user's profile does not exist for them, and
// an API token (a script's credential, perhaps leaked) cannot turn its owner's second factor off
// or rename them.
func CanManageOwnProfile(a Actor, userID int64) error {
	if err := CanUseAPI(a); err != nil {
		return err
	}
	if a.UserID != userID {
		return problem.NotFound("The user was not found.")
	}
	if a.Via == ViaAPIToken {
		return problem.Forbidden(MsgProfileFromApp)
	}
	return nil
}
