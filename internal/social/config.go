// Package social connects users' accounts on other networks to Sightline through OAuth 2
// (search-side.md section 7, "social integrations"). The operator registers Sightline as an
// OAuth 2 app with each network and lists the apps in a file (--oauth-config); a user connects
// an account by the authorization-code flow with PKCE, and the account's token is kept sealed.
package social

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"regexp"
)

// Provider is one network the operator registered Sightline with.
type Provider struct {
	// Name is the provider's id in paths and records: lower-case letters, digits and dashes.
	Name        string `json:"name"`
	DisplayName string `json:"displayName"`
	ClientID    string `json:"clientId"`
	// ClientSecret may be empty for public clients, which rely on PKCE alone.
	ClientSecret string   `json:"clientSecret"`
	AuthURL      string   `json:"authUrl"`
	TokenURL     string   `json:"tokenUrl"`
	Scopes       []string `json:"scopes"`
	// UserInfoURL answers, with the new token, who the account is; AccountIDPath and
	// AccountNamePath are dotted paths into its JSON reply ("data.id"). They default to "id"
	// (or "sub") and "name" (or "username").
	UserInfoURL     string `json:"userInfoUrl"`
	AccountIDPath   string `json:"accountIdPath"`
	AccountNamePath string `json:"accountNamePath"`
}

var providerName = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,39}$`)

// LoadConfig reads the operator's file of providers: {"providers": [...]}.
func LoadConfig(path string) ([]Provider, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var file struct {
		Providers []Provider `json:"providers"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := validate(file.Providers); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return file.Providers, nil
}

func validate(providers []Provider) error {
	seen := map[string]bool{}
	for i, p := range providers {
		if !providerName.MatchString(p.Name) {
			return fmt.Errorf("provider %d: name %q must be lower-case letters, digits and dashes", i+1, p.Name)
		}
		if seen[p.Name] {
			return fmt.Errorf("provider %q is listed twice", p.Name)
		}
		seen[p.Name] = true
		if p.DisplayName == "" || p.ClientID == "" {
			return fmt.Errorf("provider %q needs a displayName and a clientId", p.Name)
		}
		for field, address := range map[string]string{"authUrl": p.AuthURL, "tokenUrl": p.TokenURL, "userInfoUrl": p.UserInfoURL} {
			u, err := url.Parse(address)
			if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
				return fmt.Errorf("provider %q: %s must be an http or https address", p.Name, field)
			}
		}
	}
	return nil
}
