package authz_test

import (
	"testing"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/authz"
)

func TestCanUseAssistant(t *testing.T) {
	for _, tt := range []struct {
		name  string
		actor authz.Actor
		ok    bool
	}{
		{"beacon", authz.Actor{ACL: account.ACL{Beacon: true}}, true},
		{"pro", authz.Actor{ACL: account.ACL{Pro: true}}, true},
		{"enterprise", authz.Actor{ACL: account.ACL{Enterprise: true}}, true},
		{"no subscription", authz.Actor{}, false},
		{"ingest token", authz.Actor{ACL: account.ACL{Beacon: true}, Scopes: []string{authz.ScopeIngest}}, false},
	} {
		if err := authz.CanUseAssistant(tt.actor); (err == nil) != tt.ok {
			t.Errorf("%s: %v, want allowed %v", tt.name, err, tt.ok)
		}
	}
}

func TestCanUseConversation(t *testing.T) {
	for _, tt := range []struct {
		name  string
		actor authz.Actor
		owner int64
		ok    bool
	}{
		{"own", authz.Actor{UserID: 7}, 7, true},
		{"another user's", authz.Actor{UserID: 7}, 8, false},
	} {
		if err := authz.CanUseConversation(tt.actor, tt.owner); (err == nil) != tt.ok {
			t.Errorf("%s: %v, want allowed %v", tt.name, err, tt.ok)
		}
	}
}
