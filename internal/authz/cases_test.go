package authz

import (
	"testing"

	"github.com/sightline/sightline/internal/account"
)

func TestCaseLevel(t *testing.T) {
	owner := Actor{UserID: 1, OrganizationID: 10, Role: account.RoleMember}
	member := Actor{UserID: 2, OrganizationID: 10, Role: account.RoleMember}
	admin := Actor{UserID: 3, OrganizationID: 10, Role: account.RoleAdmin}
	stranger := Actor{UserID: 4, OrganizationID: 20, Role: account.RoleOwner}
	scoped := Actor{UserID: 2, OrganizationID: 10, Scopes: []string{ScopeIngest}}
	base := CaseFacts{OrganizationID: 10, OwnerID: 1, Privacy: PrivacyPrivate}
	with := func(f func(*CaseFacts)) CaseFacts { c := base; f(&c); return c }
	for _, tc := range []struct {
		name  string
		actor Actor
		facts CaseFacts
		want  Level
	}{
		{"the owner owns it", owner, base, LevelOwn},
		{"private: a member does not see it", member, base, LevelNone},
		{"private: an admin does not see it either", admin, base, LevelNone},
		{"readonly: a member views", member, with(func(c *CaseFacts) { c.Privacy = PrivacyReadonly }), LevelView},
		{"shared: a member edits", member, with(func(c *CaseFacts) { c.Privacy = PrivacyShared }), LevelEdit},
		{"a direct read-only share", member, with(func(c *CaseFacts) { c.ShareRole = RoleReadOnly }), LevelView},
		{"a direct full-access share", member, with(func(c *CaseFacts) { c.ShareRole = RoleFullAccess }), LevelEdit},
		{"an assignee edits a private case", member, with(func(c *CaseFacts) { c.Assigned = true }), LevelEdit},
		{"another organization never sees it", stranger, with(func(c *CaseFacts) { c.Privacy = PrivacyShared; c.Assigned = true }), LevelNone},
		{"a scoped token never sees it", scoped, with(func(c *CaseFacts) { c.Privacy = PrivacyShared; c.Assigned = true }), LevelNone},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := CaseLevel(tc.actor, tc.facts); got != tc.want {
				t.Errorf("level %d, want %d", got, tc.want)
			}
		})
	}
}

func TestCanDeleteCase(t *testing.T) {
	member := Actor{UserID: 2, OrganizationID: 10, Role: account.RoleMember}
	admin := Actor{UserID: 3, OrganizationID: 10, Role: account.RoleAdmin}
	for _, tc := range []struct {
		name  string
		actor Actor
		have  Level
		ok    bool
	}{
		{"owner", member, LevelOwn, true},
		{"editor", member, LevelEdit, false},
		{"admin who sees it", admin, LevelView, true},
		{"admin who does not see it", admin, LevelNone, false},
	} {
		if err := CanDeleteCase(tc.actor, tc.have); (err == nil) != tc.ok {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}
