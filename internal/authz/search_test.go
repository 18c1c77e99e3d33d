package authz_test

import (
	"testing"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/authz"
)

func TestCanSearchLocate(t *testing.T) {
	for _, tt := range []struct {
		name  string
		actor authz.Actor
		ok    bool
	}{
		{"pro", authz.Actor{ACL: account.ACL{Pro: true}, Via: authz.ViaSession}, true},
		{"enterprise", authz.Actor{ACL: account.ACL{Enterprise: true}, Via: authz.ViaBearer}, true},
		{"beacon only", authz.Actor{ACL: account.ACL{Beacon: true}, Via: authz.ViaSession}, false},
		{"token without the Locate API", authz.Actor{ACL: account.ACL{Pro: true}, Via: authz.ViaAPIToken}, false},
		{"token with the Locate API", authz.Actor{ACL: account.ACL{Pro: true, LocateAPI: true}, Via: authz.ViaAPIToken}, true},
		{"ingest token", authz.Actor{ACL: account.ACL{Pro: true, LocateAPI: true}, Via: authz.ViaAPIToken,
			Scopes: []string{authz.ScopeIngest}}, false},
	} {
		if err := authz.CanSearchLocate(tt.actor); (err == nil) != tt.ok {
			t.Errorf("%s: %v, want allowed %v", tt.name, err, tt.ok)
		}
	}
}

func TestCanSearchBeacon(t *testing.T) {
	for _, tt := range []struct {
		name  string
		actor authz.Actor
		ok    bool
	}{
		{"beacon", authz.Actor{ACL: account.ACL{Beacon: true}, Via: authz.ViaSession}, true},
		{"beacon by token", authz.Actor{ACL: account.ACL{Beacon: true}, Via: authz.ViaAPIToken}, true},
		{"locate only", authz.Actor{ACL: account.ACL{Pro: true, Enterprise: true}, Via: authz.ViaSession}, false},
		{"ingest token", authz.Actor{ACL: account.ACL{Beacon: true}, Via: authz.ViaAPIToken,
			Scopes: []string{authz.ScopeIngest}}, false},
	} {
		if err := authz.CanSearchBeacon(tt.actor); (err == nil) != tt.ok {
			t.Errorf("%s: %v, want allowed %v", tt.name, err, tt.ok)
		}
	}
}
