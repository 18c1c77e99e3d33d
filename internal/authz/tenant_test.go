package authz

import (
	"testing"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/problem"
)

func TestTenantPortal(t *testing.T) {
	const tenant, otherTenant = 1, 2
	admin := Actor{UserID: 1, OrganizationID: 10, TenantID: tenant, Role: account.RoleMember, TenantAdmin: true}
	tests := []struct {
		name   string
		actor  Actor
		portal problem.Kind // 0: allowed
		own    problem.Kind // a resource of tenant 1
		other  problem.Kind // a resource of tenant 2
		user   problem.Kind // changing user 5 of tenant 1
		self   problem.Kind // changing their own account
	}{
		{"a member", Actor{UserID: 2, OrganizationID: 10, TenantID: tenant, Role: account.RoleMember},
			problem.KindForbidden, problem.KindForbidden, problem.KindForbidden, problem.KindForbidden, problem.KindForbidden},
		{"an organization admin", Actor{UserID: 3, OrganizationID: 10, TenantID: tenant, Role: account.RoleAdmin},
			problem.KindForbidden, problem.KindForbidden, problem.KindForbidden, problem.KindForbidden, problem.KindForbidden},
		{"an organization owner", Actor{UserID: 4, OrganizationID: 10, TenantID: tenant, Role: account.RoleOwner},
			problem.KindForbidden, problem.KindForbidden, problem.KindForbidden, problem.KindForbidden, problem.KindForbidden},
		{"the tenant admin", admin, 0, 0, problem.KindNotFound, 0, problem.KindForbidden},
		{"the tenant admin's scoped token", Actor{UserID: 1, TenantID: tenant, TenantAdmin: true, Scopes: []string{ScopeIngest}},
			problem.KindForbidden, problem.KindForbidden, problem.KindForbidden, problem.KindForbidden, problem.KindForbidden},
		{"another tenant's admin", Actor{UserID: 9, OrganizationID: 20, TenantID: otherTenant, Role: account.RoleOwner, TenantAdmin: true},
			0, problem.KindNotFound, 0, problem.KindNotFound, problem.KindForbidden},
	}
	kind := func(err error) problem.Kind {
		if err == nil {
			return 0
		}
		p, ok := problem.As(err)
		if !ok {
			t.Fatalf("not a problem: %v", err)
		}
		return p.Kind
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := kind(CanUseTenantPortal(tt.actor)); got != tt.portal {
				t.Errorf("portal = %v, want %v", got, tt.portal)
			}
			if got := kind(CanManageTenantResource(tt.actor, tenant, "user")); got != tt.own {
				t.Errorf("own tenant's = %v, want %v", got, tt.own)
			}
			if got := kind(CanManageTenantResource(tt.actor, otherTenant, "user")); got != tt.other {
				t.Errorf("other tenant's = %v, want %v", got, tt.other)
			}
			if got := kind(CanChangeTenantUser(tt.actor, tenant, 5)); got != tt.user {
				t.Errorf("change a user = %v, want %v", got, tt.user)
			}
			if got := kind(CanChangeTenantUser(tt.actor, tt.actor.TenantID, tt.actor.UserID)); got != tt.self {
				t.Errorf("change themselves = %v, want %v", got, tt.self)
			}
		})
	}
}
