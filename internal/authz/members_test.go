package authz

import (
	"testing"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/problem"
)

func TestMemberRules(t *testing.T) {
	const org = 1
	as := func(role account.Role, organization int64) Actor {
		return Actor{UserID: 10, OrganizationID: organization, Role: role}
	}
	owner, admin, member := as(account.RoleOwner, org), as(account.RoleAdmin, org), as(account.RoleMember, org)
	elsewhere := as(account.RoleOwner, 2)
	target := func(role account.Role) MemberFacts { return MemberFacts{OrganizationID: org, UserID: 20, Role: role} }
	tests := []struct {
		name string
		err  error
		want problem.Kind // 0: allowed
	}{
		{"owner invites an owner", CanInvite(owner, org, account.RoleOwner), 0},
		{"admin invites an admin", CanInvite(admin, org, account.RoleAdmin), 0},
		{"admin invites an owner", CanInvite(admin, org, account.RoleOwner), problem.KindForbidden},
		{"member invites", CanInvite(member, org, account.RoleMember), problem.KindForbidden},
		{"another organization invites", CanInvite(elsewhere, org, account.RoleMember), problem.KindNotFound},
		{"admin lists invitations", CanListInvitations(admin, org), 0},
		{"member lists invitations", CanListInvitations(member, org), problem.KindForbidden},
		{"admin withdraws an owner's invitation", CanRevokeInvitation(admin, org, account.RoleOwner), problem.KindForbidden},
		{"owner removes an owner", CanRemoveMember(owner, target(account.RoleOwner)), 0},
		{"admin removes an admin", CanRemoveMember(admin, target(account.RoleAdmin)), 0},
		{"admin removes an owner", CanRemoveMember(admin, target(account.RoleOwner)), problem.KindForbidden},
		{"member removes a member", CanRemoveMember(member, target(account.RoleMember)), problem.KindForbidden},
		{"another organization removes", CanRemoveMember(elsewhere, target(account.RoleMember)), problem.KindNotFound},
		{"admin promotes to admin", CanChangeRole(admin, target(account.RoleMember), account.RoleAdmin), 0},
		{"admin promotes to owner", CanChangeRole(admin, target(account.RoleMember), account.RoleOwner), problem.KindForbidden},
		{"owner promotes to owner", CanChangeRole(owner, target(account.RoleAdmin), account.RoleOwner), 0},
		{"admin demotes an owner", CanChangeRole(admin, target(account.RoleOwner), account.RoleMember), problem.KindForbidden},
		{"admin reads statistics", CanReadStatistics(admin, org), 0},
		{"member reads statistics", CanReadStatistics(member, org), problem.KindForbidden},
		{"another organization reads statistics", CanReadStatistics(elsewhere, org), problem.KindNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			switch {
			case tt.want == 0 && tt.err != nil:
				t.Errorf("refused: %v", tt.err)
			case tt.want != 0 && !problem.Is(tt.err, tt.want):
				t.Errorf("got %v, want kind %d", tt.err, tt.want)
			}
		})
	}
}
