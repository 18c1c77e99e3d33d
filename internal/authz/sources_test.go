package authz

import (
	"testing"

	"github.com/sightline/sightline/internal/account"
)

func TestCanManageSources(t *testing.T) {
	admin := Actor{UserID: 1, TenantID: 1, Role: account.RoleOwner, TenantAdmin: true}
	tests := []struct {
		name   string
		actor  Actor
		tenant int64
		want   bool
	}{
		{"tenant admin", admin, 1, true},
		{"another tenant's admin", admin, 2, false},
		{"organization owner, not a tenant admin", Actor{UserID: 2, TenantID: 1, Role: account.RoleOwner}, 1, false},
		{"member", Actor{UserID: 3, TenantID: 1, Role: account.RoleMember}, 1, false},
		{"scoped token of a tenant admin", Actor{UserID: 1, TenantID: 1, TenantAdmin: true, Scopes: []string{ScopeIngest}}, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CanManageSources(tt.actor, tt.tenant) == nil; got != tt.want {
				t.Fatalf("CanManageSources = %v, want %v", got, tt.want)
			}
			if tt.tenant == tt.actor.TenantID && CanSeeSourceWarnings(tt.actor) != tt.want {
				t.Fatalf("CanSeeSourceWarnings disagrees")
			}
		})
	}
}
