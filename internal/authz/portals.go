package authz

import (
	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/problem"
)

// Portal is another product the navigation links to (search-side.md section 2).
type Portal string

const (
	PortalCompliance   Portal = "compliance"
	PortalRFI          Portal = "rfi"
	PortalIntelReports Portal = "intel_reports"
)

// CanOpenPortal allows everyone into Compliance, and into My RFIs and Intel Reports only users
// whose permission codes grant them (section 6).
func CanOpenPortal(u account.User, p Portal) error {
	switch p {
	case PortalCompliance:
		return nil
	case PortalRFI:
		if u.HasRFIAccess() {
			return nil
		}
	case PortalIntelReports:
		if u.HasIntelReportsAccess() {
			return nil
		}
	}
	return problem.Forbidden("Your subscription does not include this product.")
}
