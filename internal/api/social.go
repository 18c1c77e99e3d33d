package api

import (
	"net/http"
	"net/url"
	"time"

	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/social"
)

type socialProviderReply struct {
	Name        string `json:"name"`
	DisplayName string `json:"display_name"`
	// ConnectURL is where the browser goes to connect an account: a full page load.
	ConnectURL string `json:"connect_url"`
}

type socialAccountReply struct {
	ID          int64               `json:"id"`
	AccountID   string              `json:"account_id"`
	AccountName string              `json:"account_name"`
	Provider    socialProviderReply `json:"provider"`
	ConnectedAt time.Time           `json:"connected_at"`
}

// providers are the configured networks; Deps.Social is optional, and without it there are none.
func (a *API) socialNetworks() []social.Provider {
	if a.Social == nil {
		return nil
	}
	return a.Social.Providers()
}

func (a *API) socialProviderJSON(name string) socialProviderReply {
	reply := socialProviderReply{Name: name, DisplayName: name, ConnectURL: "/api/v1/settings/social/connect/" + url.PathEscape(name)}
	for _, p := range a.socialNetworks() {
		if p.Name == name {
			reply.DisplayName = p.DisplayName
		}
	}
	return reply
}

func (a *API) socialProviders(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	providers := []socialProviderReply{}
	for _, p := range a.socialNetworks() {
		providers = append(providers, a.socialProviderJSON(p.Name))
	}
	return ok(w, providers)
}

// socialAccounts are the user's connected accounts, without their tokens, which stay here.
func (a *API) socialAccounts(r *http.Request, id auth.Identity) ([]socialAccountReply, error) {
	replies := []socialAccountReply{}
	if a.Social == nil {
		return replies, nil
	}
	accounts, err := a.Social.Accounts(r.Context(), id.Actor())
	if err != nil {
		return nil, err
	}
	for _, acct := range accounts {
		replies = append(replies, socialAccountReply{ID: acct.ID, AccountID: acct.AccountID, AccountName: acct.AccountName,
			Provider: a.socialProviderJSON(acct.Provider), ConnectedAt: acct.ConnectedAt})
	}
	return replies, nil
}

func (a *API) socialIntegrations(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	accounts, err := a.socialAccounts(r, id)
	if err != nil {
		return err
	}
	return ok(w, accounts)
}

// connectSocial sends the browser to the provider to approve the connection.
func (a *API) connectSocial(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	address, err := a.Social.Begin(r.Context(), id.Actor(), r.PathValue("provider"))
	if err != nil {
		return err
	}
	http.Redirect(w, r, address, http.StatusFound)
	return nil
}

// socialCallback is where the provider sends the browser back. It always lands on Settings,
// which says how it went.
func (a *API) socialCallback(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	back := url.Values{}
	q := r.URL.Query()
	provider := a.socialProviderJSON(r.PathValue("provider"))
	switch {
	case q.Get("error") != "":
		back.Set("social_error", "You did not allow the connection at "+provider.DisplayName+".")
	default:
		acct, err := a.Social.Complete(r.Context(), id.Actor(), provider.Name, q.Get("state"), q.Get("code"))
		if p, isProblem := problem.As(err); isProblem {
			back.Set("social_error", p.Message)
		} else if err != nil {
			return err
		} else {
			back.Set("social_connected", provider.DisplayName+" account "+displayAccount(acct))
		}
	}
	http.Redirect(w, r, "/settings?"+back.Encode()+"#social", http.StatusFound)
	return nil
}

func displayAccount(acct social.Account) string {
	if acct.AccountName != "" {
		return acct.AccountName
	}
	return acct.AccountID
}

func (a *API) disconnectSocial(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	accountID, err := pathID(r)
	if err != nil {
		return err
	}
	if err := a.Social.Disconnect(r.Context(), id.Actor(), accountID); err != nil {
		return err
	}
	return ok(w, map[string]int{"disconnected": 1})
}
