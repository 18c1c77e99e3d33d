package authz

import (
	"testing"

	"github.com/sightline/sightline/internal/account"
)

func TestOwnedLevels(t *testing.T) {
	item := OwnedFacts{OrganizationID: 1, OwnerID: 10}
	tests := []struct {
		name  string
		actor Actor
		want  Level
	}{
		{"the creator owns it", Actor{UserID: 10, OrganizationID: 1, Role: account.RoleMember}, LevelOwn},
		{"the organization's owner edits it", Actor{UserID: 11, OrganizationID: 1, Role: account.RoleOwner}, LevelEdit},
		{"an organization admin edits it", Actor{UserID: 12, OrganizationID: 1, Role: account.RoleAdmin}, LevelEdit},
		{"a member views it", Actor{UserID: 13, OrganizationID: 1, Role: account.RoleMember}, LevelView},
		{"another organization's owner does not see it", Actor{UserID: 20, OrganizationID: 2, Role: account.RoleOwner}, LevelNone},
		{"a tenant admin of another organization does not see it", Actor{UserID: 21, OrganizationID: 2, Role: account.RoleOwner, TenantAdmin: true}, LevelNone},
		{"the creator's scoped token does not see it", Actor{UserID: 10, OrganizationID: 1, Scopes: []string{ScopeIngest}}, LevelNone},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FilterListLevel(tt.actor, item); got != tt.want {
				t.Errorf("FilterListLevel = %d, want %d", got, tt.want)
			}
			if got := LocationConfigurationLevel(tt.actor, item); got != tt.want {
				t.Errorf("LocationConfigurationLevel = %d, want %d", got, tt.want)
			}
		})
	}
}
