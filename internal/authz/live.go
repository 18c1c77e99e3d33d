package authz

import "github.com/sightline/sightline/internal/problem"

// CanListenToUser allows users to receive their own live events (their private-user channel)
// and nobody else's; a scoped token may not.
func CanListenToUser(a Actor, userID int64) error {
	if err := CanUseAPI(a); err != nil {
		return err
	}
	if a.UserID != userID {
		return problem.Forbidden("You may only listen to your own channel.")
	}
	return nil
}
