package authz_test

import (
	"testing"

	"github.com/sightline/sightline/internal/authz"
)

func TestAuditAndAnnouncements(t *testing.T) {
	admin := authz.Actor{UserID: 1, OrganizationID: 1, TenantID: 1, TenantAdmin: true, Via: authz.ViaSession}
	member := authz.Actor{UserID: 2, OrganizationID: 1, TenantID: 1, Via: authz.ViaSession}
	ingestToken := authz.Actor{UserID: 1, OrganizationID: 1, TenantID: 1, TenantAdmin: true, Scopes: []string{authz.ScopeIngest}}
	tests := []struct {
		name                     string
		actor                    authz.Actor
		readLog, manage, readAll bool
	}{
		{"tenant admin", admin, true, true, true},
		{"member", member, false, false, true},
		{"admin's ingest-scoped token", ingestToken, false, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := authz.CanReadAuditLog(tt.actor) == nil; got != tt.readLog {
				t.Errorf("CanReadAuditLog = %v, want %v", got, tt.readLog)
			}
			if got := authz.CanManageAnnouncements(tt.actor) == nil; got != tt.manage {
				t.Errorf("CanManageAnnouncements = %v, want %v", got, tt.manage)
			}
			if got := authz.CanReadAnnouncements(tt.actor) == nil; got != tt.readAll {
				t.Errorf("CanReadAnnouncements = %v, want %v", got, tt.readAll)
			}
		})
	}
}
