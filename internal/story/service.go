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
	// Summaries returns the summaries of the stories among ids that have a post the reader may
	// see, keyed by id; the others are absent.
	Summaries(ctx context.Context, ids []string, tenant int64, providers []string) (map[string]Summary, error)
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
	return s.store.Story(ctx, id, actor.TenantID, visibleProviders(actor), offset, limit)
}

// MaxSummaries is the most stories one call summarizes: a page of the inbox's stories.
const MaxSummaries = 200

// Summaries returns the summaries of the given stories as the actor sees them, keyed by id; a
// story none of whose posts the actor may see is absent, as if it did not exist.
func (s *Service) Summaries(ctx context.Context, actor authz.Actor, ids []string) (map[string]Summary, error) {
	if err := authz.CanUseAPI(actor); err != nil {
		return nil, err
	}
	if len(ids) > MaxSummaries {
		return nil, fmt.Errorf("story summaries: %d ids, at most %d", len(ids), MaxSummaries)
	}
	if len(ids) == 0 {
		return map[string]Summary{}, nil
	}
	return s.store.Summaries(ctx, ids, actor.TenantID, visibleProviders(actor))
}

// visibleProviders is the providers whose posts the actor may see, nil for every one.
func visibleProviders(actor authz.Actor) []string {
	if names, every := authz.VisibleProviders(actor); !every {
		return append([]string{}, names...)
	}
	return nil
}
