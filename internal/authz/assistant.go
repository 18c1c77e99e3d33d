package authz

import "github.com/sightline/sightline/internal/problem"

// CanUseAssistant allows users whose subscriptions reach some data source (Beacon, Pro or
// Enterprise): the assistant answers only from posts they could search themselves.
func CanUseAssistant(a Actor) error {
	if err := CanUseAPI(a); err != nil {
		return err
	}
	if !a.ACL.Beacon && !a.ACL.Pro && !a.ACL.Enterprise {
		return problem.Forbidden("Your subscription includes no data source for the assistant.")
	}
	return nil
}

// CanUseConversation allows users their own assistant conversations only; anyone else's does
// not exist for them, whoever knows its session id.
func CanUseConversation(a Actor, ownerUserID int64) error {
	if a.UserID != ownerUserID {
		return problem.NotFound("The conversation was not found.")
	}
	return nil
}
