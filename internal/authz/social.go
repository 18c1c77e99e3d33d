package authz

import "github.com/sightline/sightline/internal/problem"

// CanManageSocialAccounts allows users their own connected accounts only; another user's do
// not exist for them.
func CanManageSocialAccounts(a Actor, ownerUserID int64) error {
	if err := CanUseAPI(a); err != nil {
		return err
	}
	if a.UserID != ownerUserID {
		return problem.NotFound("The social account was not found.")
	}
	return nil
}
