package api

import (
	"fmt"
	"net/http"
	"net/url"

	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/authz"
)

// Portals are the addresses of the other products the navigation leads to: Compliance, My RFIs
// and Intel Reports live beside Sightline, and each is linked only when the operator gave its
// address (--compliance-url, --rfi-url, --intel-reports-url).
type Portals map[authz.Portal]string

// ParsePortalURL accepts an absolute http or https address.
func ParsePortalURL(v string) (string, error) {
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%q is not an http or https address", v)
	}
	return u.String(), nil
}

// configured lists which portals have an address, for the profile.
func (p Portals) configured() map[authz.Portal]bool {
	out := map[authz.Portal]bool{authz.PortalCompliance: false, authz.PortalRFI: false, authz.PortalIntelReports: false}
	for portal, address := range p {
		out[portal] = address != ""
	}
	return out
}

// portalPaths are the spec's paths of the portals, full page loads that leave the app.
var portalPaths = map[authz.Portal]string{
	authz.PortalCompliance:   "/compliance",
	authz.PortalRFI:          "/rfi",
	authz.PortalIntelReports: "/cti",
}

// openPortal sends an entitled user on to the portal's address.
func (a *API) openPortal(portal authz.Portal, address string) func(http.ResponseWriter, *http.Request, auth.Identity) error {
	return func(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
		if err := authz.CanOpenPortal(id.User, portal); err != nil {
			return err
		}
		http.Redirect(w, r, address, http.StatusFound)
		return nil
	}
}
