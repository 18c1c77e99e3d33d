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

// A tenant admin makes API tokens for themselves and for their tenant's users who are not tenant
// admins; never as another tenant admin, and another tenant's users do not exist for them.
func TestCanMintAPIToken(t *testing.T) {
	admin := Actor{UserID: 1, OrganizationID: 10, TenantID: 1, Role: account.RoleMember, TenantAdmin: true}
	tests := []struct {
		name              string
		actor             Actor
		tenant, user      int64
		userIsTenantAdmin bool
		want              problem.Kind
	}{
		{"for a user of the tenant", admin, 1, 5, false, 0},
		{"for themselves", admin, 1, 1, true, 0},
		{"for another tenant admin", admin, 1, 6, true, problem.KindForbidden},
		{"for another tenant's user", admin, 2, 7, false, problem.KindNotFound},
		{"for another tenant's admin", admin, 2, 8, true, problem.KindNotFound},
		{"by an organization owner", Actor{UserID: 4, OrganizationID: 10, TenantID: 1, Role: account.RoleOwner}, 1, 5, false,
			problem.KindForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CanMintAPIToken(tt.actor, tt.tenant, tt.user, tt.userIsTenantAdmin)
			if p, _ := problem.As(err); (tt.want == 0 && err != nil) || (tt.want != 0 && (p == nil || p.Kind != tt.want)) {
				t.Errorf("err = %v, want kind %v", err, tt.want)
			}
		})
	}
}

// Users see and revoke their own API tokens only; a scoped token does neither.
func TestCanManageOwnAPITokens(t *testing.T) {
	me := Actor{UserID: 1, OrganizationID: 10, TenantID: 1, Role: account.RoleMember}
	tests := []struct {
		name  string
		actor Actor
		owner int64
		want  problem.Kind
	}{
		{"their own", me, 1, 0},
		{"someone else's", me, 2, problem.KindNotFound},
		{"through an ingest token", Actor{UserID: 1, TenantID: 1, Scopes: []string{ScopeIngest}, Via: ViaAPIToken}, 1,
			problem.KindForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CanManageOwnAPITokens(tt.actor, tt.owner)
			if p, _ := problem.As(err); (tt.want == 0 && err != nil) || (tt.want != 0 && (p == nil || p.Kind != tt.want)) {
				t.Errorf("err = %v, want kind %v", err, tt.want)
			}
		})
	}
}
