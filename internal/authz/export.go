package authz

import "github.com/sightline/sightline/internal/problem"

// CanExport allows every user to export what they can see: the exports service reads matches
// and Beacon results as the actor, through the same checks as the inbox and the search.
// Beacon results need Beacon, as its search does.
func CanExport(a Actor, beacon bool) error {
	if beacon {
		return CanSearchBeacon(a)
	}
	return CanUseAPI(a)
}

// ExportFacts is what decides access to an export's file.
type ExportFacts struct {
	OrganizationID int64
	OwnerID        int64
}

// CanDownloadExport allows only the user who asked for the export. Anyone else's, in the same
// organization or another, does not exist for them: not found, not forbidden.
func CanDownloadExport(a Actor, e ExportFacts) error {
	if err := CanUseAPI(a); err != nil {
		return err
	}
	if a.UserID != e.OwnerID || a.OrganizationID != e.OrganizationID {
		return problem.NotFound("The export was not found.")
	}
	return nil
}
