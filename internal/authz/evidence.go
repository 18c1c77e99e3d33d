package authz

import (
	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/problem"
)

// EvidenceFacts is what decides access to an evidence record: the organization that holds it.
type EvidenceFacts struct {
	OrganizationID int64
}

// CanCapture allows every member to capture what they can see: the evidence service reads the
// post, match or story through the same checks as the pages that show it.
func CanCapture(a Actor) error { return CanUseAPI(a) }

// CanReadEvidence allows the members of the organization that holds the record; another
// organization's records do not exist for the caller.
func CanReadEvidence(a Actor, e EvidenceFacts) error {
	if err := CanUseAPI(a); err != nil {
		return err
	}
	if a.OrganizationID != e.OrganizationID {
		return problem.NotFound("The evidence was not found.")
	}
	return nil
}

// CanDeleteEvidence allows the organization's owners and admins: deleting evidence removes
// what may be needed as proof, so it is theirs to decide (and it is audited).
func CanDeleteEvidence(a Actor, e EvidenceFacts) error {
	if err := CanReadEvidence(a, e); err != nil {
		return err
	}
	if a.Role != account.RoleOwner && a.Role != account.RoleAdmin {
		return problem.Forbidden("Only the organization's owners and admins may delete evidence.")
	}
	return nil
}

// CanSetAutoCapture allows whoever may edit a saved search to make it capture its matches.
func CanSetAutoCapture(level Level) error {
	return Require(level, LevelEdit, MsgNotFoundSearch, MsgReadOnly)
}
