package authz

import (
	"slices"
	"testing"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/provider"
)

// Which providers' posts an actor sees follows their subscriptions: Beacon's dark-web providers
// need Beacon, news needs Locate (Pro or Enterprise), the rest are open to all.
func TestVisibleProviders(t *testing.T) {
	for _, tt := range []struct {
		name         string
		acl          account.ACL
		every        bool
		tor, reddit  bool
		locateNeeded bool
	}{
		{"every subscription", account.ACL{Beacon: true, Pro: true}, true, true, true, true},
		{"Locate without Beacon", account.ACL{Enterprise: true}, false, false, true, true},
		{"Beacon without Locate", account.ACL{Beacon: true}, false, true, true, false},
		{"none", account.ACL{}, false, false, true, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := Actor{ACL: tt.acl}
			names, every := VisibleProviders(a)
			if every != tt.every || slices.Contains(names, "tor") != tt.tor || slices.Contains(names, "reddit") != tt.reddit {
				t.Errorf("VisibleProviders = %d providers, every %v; want every %v, tor %v, reddit %v", len(names), every,
					tt.every, tt.tor, tt.reddit)
			}
			for _, p := range provider.All() {
				if CanSeeProvider(a, p.Name) != slices.Contains(names, p.Name) {
					t.Errorf("CanSeeProvider(%s) disagrees with VisibleProviders", p.Name)
				}
				if p.Needs == provider.Locate && CanSeeProvider(a, p.Name) != tt.locateNeeded {
					t.Errorf("CanSeeProvider(%s) = %v with %+v", p.Name, !tt.locateNeeded, tt.acl)
				}
			}
		})
	}
}
