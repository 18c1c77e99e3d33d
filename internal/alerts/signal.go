package alerts

import (
	"maps"
	"slices"
	"sync"
)

// Signal carries the searches with new matches from the percolator to the alert service of the
// same node: the percolator stores matches and tells it (MatchesStored), and the service wakes
// and collects those searches' alerts at once instead of waiting for its scan. Every node runs
// the service and the claims are in the store, so a node only hears of what it stored itself.
type Signal struct {
	mu       sync.Mutex
	searches map[int64]struct{}
	ready    chan struct{}
}

// NewSignal returns a signal nobody has told anything yet.
func NewSignal() *Signal {
	return &Signal{searches: map[int64]struct{}{}, ready: make(chan struct{}, 1)}
}

// MatchesStored says that these searches have new matches, stored.
func (s *Signal) MatchesStored(searchIDs []int64) {
	if len(searchIDs) == 0 {
		return
	}
	s.mu.Lock()
	for _, id := range searchIDs {
		s.searches[id] = struct{}{}
	}
	s.mu.Unlock()
	select {
	case s.ready <- struct{}{}:
	default: // a wake-up is pending already; it takes these too
	}
}

// take empties the set of searches told of, in id order.
func (s *Signal) take() []int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	ids := slices.Sorted(maps.Keys(s.searches))
	clear(s.searches)
	return ids
}
