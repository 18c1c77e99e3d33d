package authz

import (
	"testing"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/problem"
)

func TestEvidenceAccess(t *testing.T) {
	record := EvidenceFacts{OrganizationID: 1}
	for _, c := range []struct {
		name         string
		actor        Actor
		read, delete problem.Kind // 0: allowed
	}{
		{"owner", Actor{OrganizationID: 1, Role: account.RoleOwner}, 0, 0},
		{"admin", Actor{OrganizationID: 1, Role: account.RoleAdmin}, 0, 0},
		{"member", Actor{OrganizationID: 1, Role: account.RoleMember}, 0, problem.KindForbidden},
		{"another organization's owner", Actor{OrganizationID: 2, Role: account.RoleOwner}, problem.KindNotFound, problem.KindNotFound},
		{"an ingest token", Actor{OrganizationID: 1, Role: account.RoleOwner, Scopes: []string{ScopeIngest}}, problem.KindForbidden, problem.KindForbidden},
	} {
		t.Run(c.name, func(t *testing.T) {
			check := func(what string, err error, want problem.Kind) {
				if (want == 0 && err != nil) || (want != 0 && !problem.Is(err, want)) {
					t.Errorf("%s: %v, want kind %d", what, err, want)
				}
			}
			check("read", CanReadEvidence(c.actor, record), c.read)
			check("delete", CanDeleteEvidence(c.actor, record), c.delete)
		})
	}
}
