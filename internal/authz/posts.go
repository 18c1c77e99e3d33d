package authz

import (
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/problem"
)

// PostFacts is what decides an actor's access to a stored post: the tenant whose source
// produced it (0 for the operator's shared sources) and its provider.
type PostFacts struct {
	Tenant   int64
	Provider string
}

// MsgPostNotFound is what a post the actor may not see answers: as if it did not exist.
const MsgPostNotFound = "The post was not found."

// CanSeePost allows users of the post's tenant (every tenant, for a shared post) whose
// subscriptions reach its provider.
func CanSeePost(a Actor, p PostFacts) error {
	if err := CanUseAPI(a); err != nil {
		return err
	}
	if !post.VisibleTo(p.Tenant, a.TenantID) || !CanSeeProvider(a, p.Provider) {
		return problem.NotFound(MsgPostNotFound)
	}
	return nil
}

// CanCorrectPlaces allows whoever may see a post to take places off it, or put them back, for
// their tenant: correcting what the gazetteer read is part of reading the post.
func CanCorrectPlaces(a Actor, p PostFacts) error { return CanSeePost(a, p) }
