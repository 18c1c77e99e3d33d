package authz

import (
	"testing"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/problem"
)

func TestCanManageOwnProfile(t *testing.T) {
	const self = 10
	tests := []struct {
		name  string
		actor Actor
		want  problem.Kind // 0: allowed
	}{
		{"the user in their browser session", Actor{UserID: self, OrganizationID: 1, Role: account.RoleMember, Via: ViaSession}, 0},
		{"the user with a bearer token from sign-in", Actor{UserID: self, OrganizationID: 1, Role: account.RoleMember, Via: ViaBearer}, 0},
		{"the user's API token", Actor{UserID: self, OrganizationID: 1, Role: account.RoleMember, Via: ViaAPIToken, ACL: account.ACL{LocateAPI: true}}, problem.KindForbidden},
		{"the user's ingest-scoped token", Actor{UserID: self, OrganizationID: 1, Via: ViaAPIToken, Scopes: []string{ScopeIngest}}, problem.KindForbidden},
		{"the organization's owner", Actor{UserID: 11, OrganizationID: 1, Role: account.RoleOwner, Via: ViaBearer}, problem.KindNotFound},
		{"a tenant admin", Actor{UserID: 12, OrganizationID: 1, Role: account.RoleOwner, TenantAdmin: true, Via: ViaBearer}, problem.KindNotFound},
		{"another organization's user", Actor{UserID: 20, OrganizationID: 2, Role: account.RoleOwner, Via: ViaBearer}, problem.KindNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CanManageOwnProfile(tt.actor, self)
			if tt.want == 0 {
				if err != nil {
					t.Errorf("refused: %v", err)
				}
				return
			}
			if !problem.Is(err, tt.want) {
				t.Errorf("got %v, want kind %d", err, tt.want)
			}
		})
	}
}
