package connector

import (
	"slices"
	"time"
)

// Seen is the cursor of a source that polls a listing (newest items first, no usable "since"
// parameter): the publication time of the newest item emitted and the keys of the items
// emitted recently. An item is fresh when its key is not among them and it is not older than
// SeenWindow before the newest: what a listing shows again is not emitted twice, and what is
// older than the window was either emitted long ago or is too old to matter.
type Seen struct {
	Newest time.Time `json:"newest,omitzero"`
	Keys   []string  `json:"keys,omitempty"`
	set    map[string]bool
}

// SeenWindow is how far before the newest item emitted an item may still be fresh.
const SeenWindow = 24 * time.Hour

// maxSeenKeys bounds the keys kept; listings show far fewer items than this per window.
const maxSeenKeys = 5_000

// Listings is the cursor of a source that polls several listings: a Seen per listing.
type Listings map[string]*Seen

// Of returns the Seen of the listing key, a new one the first time.
func (l Listings) Of(key string) *Seen {
	if l[key] == nil {
		l[key] = &Seen{}
	}
	return l[key]
}

// Fresh reports whether the item key published at at has not been emitted yet.
func (s *Seen) Fresh(key string, at time.Time) bool {
	if s.set == nil {
		s.set = make(map[string]bool, len(s.Keys))
		for _, k := range s.Keys {
			s.set[k] = true
		}
	}
	if s.set[key] {
		return false
	}
	return s.Newest.IsZero() || !at.Before(s.Newest.Add(-SeenWindow))
}

// Add records the item key published at at as emitted.
func (s *Seen) Add(key string, at time.Time) {
	s.Fresh(key, at) // builds the set
	if s.set[key] {
		return
	}
	s.set[key] = true
	s.Keys = append(s.Keys, key)
	if len(s.Keys) > maxSeenKeys {
		for _, k := range s.Keys[:len(s.Keys)-maxSeenKeys] {
			delete(s.set, k)
		}
		s.Keys = slices.Clone(s.Keys[len(s.Keys)-maxSeenKeys:])
	}
	if at.After(s.Newest) {
		s.Newest = at.UTC()
	}
}
