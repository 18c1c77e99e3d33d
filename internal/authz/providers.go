package authz

import "github.com/sightline/sightline/internal/provider"

// Entitlements are the actor's subscriptions as the provider catalogue reads them.
func Entitlements(a Actor) provider.Entitlements {
	return provider.Entitlements{Beacon: a.ACL.Beacon, Pro: a.ACL.Pro, Enterprise: a.ACL.Enterprise}
}

// CanSeeProvider says whether the actor's subscriptions reach the posts of a provider. It is
// asked whenever a stored post or match is shown or sent, not only when a search is saved: a
// tenant admin may take a subscription away at any time, and what it covered must stop showing
// at once.
func CanSeeProvider(a Actor, providerName string) bool {
	return Entitlements(a).Reaches(providerName)
}

// VisibleProviders lists the providers whose posts the actor may see, in catalogue order;
// every is true when that is the whole catalogue, so that callers need not filter at all.
func VisibleProviders(a Actor) (names []string, every bool) {
	e := Entitlements(a)
	every = true
	for _, p := range provider.All() {
		if e.Holds(p.Needs) {
			names = append(names, p.Name)
		} else {
			every = false
		}
	}
	return names, every
}
