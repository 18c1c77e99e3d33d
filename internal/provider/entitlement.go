package provider

// Entitlements are the user's access flags (search-side.md section 3, user acl).
type Entitlements struct {
	Beacon     bool
	Pro        bool
	Enterprise bool
	// Tenant is the user's tenant, whose own posts the user sees besides the shared ones.
	Tenant int64
}

// Holds reports whether a user with these entitlements holds the subscription.
func (e Entitlements) Holds(s Subscription) bool {
	switch s {
	case AnySubscription:
		return true
	case Beacon:
		return e.Beacon
	case Locate:
		// Locate comes with either of its tiers.
		return e.Pro || e.Enterprise
	}
	return false
}

// Reaches reports whether a user with these entitlements may see posts of the named provider.
func (e Entitlements) Reaches(providerName string) bool {
	p, ok := Lookup(providerName)
	return ok && e.Holds(p.Needs)
}

// Entry is a provider as GET /api/v1/monitor/providers serves it: the Provider shape of
// monitor-area.md section 3, plus what the selector and post cards need to draw it.
type Entry struct {
	Name        string `json:"name"`
	DisplayName string `json:"displayName"`
	Enabled     bool   `json:"enabled"`
	// BeaconFeature marks providers that come with the Beacon subscription.
	BeaconFeature  bool           `json:"beaconFeature"`
	SearchFeatures SearchFeatures `json:"searchFeatures"`
	Region         Region         `json:"region"`
	Kind           Kind           `json:"kind"`
	Colour         string         `json:"color"`
	Icon           string         `json:"icon"`
	SupersetOf     []string       `json:"supersetOf"`
	Category       Category       `json:"category"`
}

// For returns, in catalogue order, the providers a user with these entitlements may search.
// Providers behind a subscription the user lacks are left out entirely, so neither the selector
// nor a crafted request can reach their posts.
func For(e Entitlements) []Entry {
	entries := make([]Entry, 0, len(catalogue))
	for _, p := range catalogue {
		if !e.Holds(p.Needs) {
			continue
		}
		superset := p.SupersetOf
		if superset == nil {
			superset = []string{}
		}
		entries = append(entries, Entry{
			Name:           p.Name,
			DisplayName:    p.DisplayName,
			Enabled:        p.Enabled,
			BeaconFeature:  p.Needs == Beacon,
			SearchFeatures: p.Search,
			Region:         p.Region,
			Kind:           p.Kind,
			Colour:         p.Colour,
			Icon:           p.Icon,
			SupersetOf:     superset,
			Category:       p.Category,
		})
	}
	return entries
}

// excludedFromDefault is the photo network a new search leaves out unless chosen
// (monitor-area.md section 4: "one specific excluded photo-network provider").
const excludedFromDefault = "flickr"

// DefaultSelection is the provider list a new saved search starts with: every enabled entry
// except superset providers and the excluded photo network.
func DefaultSelection(entries []Entry) []string {
	var names []string
	for _, e := range entries {
		if e.Enabled && len(e.SupersetOf) == 0 && e.Name != excludedFromDefault {
			names = append(names, e.Name)
		}
	}
	return names
}
