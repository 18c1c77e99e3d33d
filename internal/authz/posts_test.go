package authz_test

import (
	"testing"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/authz"
)

func TestCanCorrectPlaces(t *testing.T) {
	analyst := authz.Actor{UserID: 1, TenantID: 7, ACL: account.ACL{Pro: true}, Via: authz.ViaSession}
	for _, tt := range []struct {
		name  string
		actor authz.Actor
		post  authz.PostFacts
		ok    bool
	}{
		{"a shared post", analyst, authz.PostFacts{Tenant: 0, Provider: "news"}, true},
		{"the tenant's own post", analyst, authz.PostFacts{Tenant: 7, Provider: "news"}, true},
		{"another tenant's post", analyst, authz.PostFacts{Tenant: 8, Provider: "news"}, false},
		{"a provider the subscription does not reach", analyst, authz.PostFacts{Provider: "tor"}, false},
		{"an ingest token", authz.Actor{TenantID: 7, ACL: account.ACL{Pro: true}, Via: authz.ViaAPIToken,
			Scopes: []string{authz.ScopeIngest}}, authz.PostFacts{Provider: "news"}, false},
	} {
		if err := authz.CanCorrectPlaces(tt.actor, tt.post); (err == nil) != tt.ok {
			t.Errorf("%s: %v, want allowed %v", tt.name, err, tt.ok)
		}
	}
}
