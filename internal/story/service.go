package story

import (
	"context"
	"fmt"

	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/problem"
)

// Store reads a story over the posts a reader may see (the store).
type Store interface {
	Story(ctx context.Context, id string, tenant int64, providers []string, offset, limit int) (View, error)
}

// Service serves stories to readers.
type Service struct {
	store Store
}

// NewService returns a service over the store.
func NewService(s Store) *Service { return &Service{store: s} }

// MaxPage is the most posts of a story one reply holds; DefaultPage is how many without asking.
const (
	MaxPage     = 200
	DefaultPage = 50
)

// Get returns a story as the actor sees it: over the posts of the actor's tenant and of the
// shared sources whose provider the actor's subscriptions reach, with one page of them.
func (s *Service) Get(ctx context.Context, actor authz.Actor, id string, offset, limit int) (View, error) {
	// Stories open from Beacon, Locate and the inbox alike: which posts show is the rule.
	if err := authz.CanUseAPI(actor); err != nil {
		return View{}, err
	}
	if offset < 0 {
		return View{}, problem.InvalidField("offset", "The offset must be 0 or more.")
	}
	if limit < 1 || limit > MaxPage {
		return View{}, problem.InvalidField("limit", fmt.Sprintf("The limit must be between 1 and %d.", MaxPage))
	}
	var providers []string
	if names, every := authz.VisibleProviders(actor); !every {
		providers = append([]string{}, names...)
	}
	return s.store.Story(ctx, id, actor.TenantID, providers, offset, limit)
}
