package search

import (
	"context"
	"strings"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/audit"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/problem"
)

// Places corrects the places the gazetteer found in posts (issue 27): an analyst takes off a
// post a place it is not about, for every user of their tenant, and may put it back. Other
// tenants still see the post as it was.
type Places struct{ store PlaceStore }

// PlaceStore keeps the tenants' removals of places.
type PlaceStore interface {
	// Post loads a stored post a user of the tenant may see, without the places it removed.
	Post(ctx context.Context, id string, tenant int64) (post.Post, error)
	// RemovePlace and RestorePlace change the tenant's removals of a post's place with the audit
	// entries, in one transaction, and report whether anything changed (then only are the
	// entries written).
	RemovePlace(ctx context.Context, tenant int64, p post.Post, place post.MentionedLocation, userID int64, audit ...account.AuditEntry) (bool, error)
	RestorePlace(ctx context.Context, tenant int64, postID string, place post.MentionedLocation, audit ...account.AuditEntry) (bool, error)
}

func NewPlaces(s PlaceStore) *Places { return &Places{store: s} }

// MsgPlaceNotOnPost answers the removal of a place the post does not show.
const MsgPlaceNotOnPost = "This place is not on the post."

// Remove takes the place (country code and name, as the post lists it) off the post for the
// actor's tenant and returns the places the post keeps.
func (s *Places) Remove(ctx context.Context, a authz.Actor, postID, countryCode, name string) ([]post.MentionedLocation, error) {
	p, err := s.visible(ctx, a, postID)
	if err != nil {
		return nil, err
	}
	// A place is its name in its country: the gazetteer may give one name two points, and
	// the analyst removes the name.
	var place *post.MentionedLocation
	kept := []post.MentionedLocation{}
	for _, l := range p.MentionedLocations {
		if strings.EqualFold(l.CountryCode, countryCode) && l.Name == name {
			place = &post.MentionedLocation{Name: l.Name, CountryCode: l.CountryCode}
		} else {
			kept = append(kept, l)
		}
	}
	if place == nil {
		return nil, problem.NotFound(MsgPlaceNotOnPost)
	}
	entry := audit.Entry(a, audit.Change{Model: audit.ModelPostPlace, Ref: p.ID, Action: audit.ActionRemoved,
		Previous: placeSnapshot(*place)})
	if _, err := s.store.RemovePlace(ctx, a.TenantID, p, *place, a.UserID, entry); err != nil {
		return nil, err
	}
	return kept, nil
}

// Restore puts a place the actor's tenant removed back on the post and returns the post's
// places; restoring a place that was not removed changes nothing.
func (s *Places) Restore(ctx context.Context, a authz.Actor, postID, countryCode, name string) ([]post.MentionedLocation, error) {
	p, err := s.visible(ctx, a, postID)
	if err != nil {
		return nil, err
	}
	place := post.MentionedLocation{CountryCode: strings.ToUpper(countryCode), Name: name}
	entry := audit.Entry(a, audit.Change{Model: audit.ModelPostPlace, Ref: p.ID, Action: audit.ActionRestored,
		New: placeSnapshot(place)})
	restored, err := s.store.RestorePlace(ctx, a.TenantID, p.ID, place, entry)
	if err != nil || !restored {
		return nonNil(p.MentionedLocations), err
	}
	if p, err = s.store.Post(ctx, p.ID, a.TenantID); err != nil {
		return nil, err
	}
	return nonNil(p.MentionedLocations), nil
}

// visible loads a post the actor may correct: one they may see.
func (s *Places) visible(ctx context.Context, a authz.Actor, postID string) (post.Post, error) {
	p, err := s.store.Post(ctx, strings.TrimSpace(postID), a.TenantID)
	if problem.Is(err, problem.KindNotFound) {
		return post.Post{}, problem.NotFound(authz.MsgPostNotFound)
	}
	if err != nil {
		return post.Post{}, err
	}
	return p, authz.CanCorrectPlaces(a, authz.PostFacts{Tenant: p.Tenant, Provider: p.Provider})
}

func placeSnapshot(l post.MentionedLocation) string {
	return audit.Encode(audit.Fields{"name": l.Name, "country_code": l.CountryCode})
}

// nonNil keeps an empty list a list in JSON.
func nonNil(places []post.MentionedLocation) []post.MentionedLocation {
	if places == nil {
		return []post.MentionedLocation{}
	}
	return places
}
