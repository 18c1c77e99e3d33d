package account

import (
	"errors"

	"github.com/sightline/sightline/internal/problem"
)

// ErrAssetLimitReached is the store's refusal to add an asset (a saved search or a location
// configuration) beyond the organization's asset limit. The count and the insert happen in one
// transaction, so concurrent creations cannot overshoot.
var ErrAssetLimitReached = errors.New("account: the organization's asset limit is reached")

// Caps bound how many of each thing one organization may hold, whatever its plan's asset
// limit, so that no organization can grow the store (and every percolator's memory) without
// bound; 0 lifts a cap. Reaching one is answered like the asset limit (ErrAssetLimitReached).
type Caps struct {
	SavedSearches     int64 // saved searches
	Groups            int64 // search groups, the users' own Uncategorized groups not counted
	FilterLists       int64 // filter lists
	FilterListEntries int64 // entries of all its filter lists together
	// SourcesPerTenant bounds the content sources one tenant may add (sourcing.ErrSourceLimitReached),
	// so that no tenant can make the server poll without bound; the operator's seeded sources are
	// not held to it.
	SourcesPerTenant int64
}

// DefaultCaps are the caps of `sightline serve` unless its flags say otherwise.
var DefaultCaps = Caps{SavedSearches: 1000, Groups: 200, FilterLists: 200, FilterListEntries: 200_000, SourcesPerTenant: 100}

// The "Asset Limit Reached" dialog (monitor-area.md section 8).
const (
	MsgAssetLimitTitle       = "Asset Limit Reached"
	MsgAssetLimitDescription = "Your organization has reached the number of assets its plan allows. Please contact support to raise the limit."
)

// AssetLimitProblem turns ErrAssetLimitReached into the reply the dialog shows.
func AssetLimitProblem(err error) error {
	if errors.Is(err, ErrAssetLimitReached) {
		return problem.LimitExceeded(MsgAssetLimitTitle, MsgAssetLimitDescription)
	}
	return err
}
