package account

import (
	"errors"

	"github.com/sightline/sightline/internal/problem"
)

// ErrAssetLimitReached is the store's refusal to add an asset (a saved search or a location
// configuration) beyond the organization's asset limit. The count and the insert happen in one
// transaction, so concurrent creations cannot overshoot.
var ErrAssetLimitReached = errors.New("account: the organization's asset limit is reached")

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
