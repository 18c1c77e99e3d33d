package social

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/outbound"
	"github.com/sightline/sightline/internal/problem"
)

// StateLifetime bounds how long a user has to approve the connection at the provider.
const StateLifetime = 10 * time.Minute

// Account is a user's connected account on a provider.
type Account struct {
	ID          int64
	UserID      int64
	Provider    string
	AccountID   string
	AccountName string
	// Token is the provider's token, JSON of an oauth2.Token; it never leaves the server.
	Token       string
	ConnectedAt time.Time
}

// Pending is a connection begun and not yet approved: the state sent to the provider (kept
// hashed) and the PKCE verifier that proves the callback continues it.
type Pending struct {
	StateHash string
	UserID    int64
	Provider  string
	Verifier  string
	ExpiresAt time.Time
}

// Store keeps pending connections and accounts; tokens and verifiers are sealed by it.
type Store interface {
	AddSocialPending(ctx context.Context, p Pending) error
	// TakeSocialPending removes and returns the pending connection: a state is used once.
	TakeSocialPending(ctx context.Context, stateHash string) (Pending, error)
	// SaveSocialAccount and DeleteSocialAccount write the audit entries in the change's
	// transaction (an entry without a ModelID names the account saved).
	SaveSocialAccount(ctx context.Context, a *Account, audit ...account.AuditEntry) error
	SocialAccounts(ctx context.Context, userID int64) ([]Account, error)
	SocialAccount(ctx context.Context, id int64) (Account, error)
	DeleteSocialAccount(ctx context.Context, id int64, audit ...account.AuditEntry) error
}

// Service runs the connection flow for the configured providers.
type Service struct {
	store     Store
	providers []Provider
	// callback is the app's address of the callback, with the provider's name at the end.
	callback string
	client   *http.Client
	now      func() time.Time
}

// NewService serves providers; publicURL is the app's address as users reach it, where the
// providers send them back. The providers' addresses are the operator's, so private ones may
// be reached (an on-premises identity server), but every call is bounded by the outbound client.
func NewService(s Store, providers []Provider, publicURL string) *Service {
	return &Service{store: s, providers: providers, now: time.Now,
		callback: strings.TrimRight(publicURL, "/") + "/api/v1/settings/social/callback/",
		client:   outbound.New(outbound.Options{AllowPrivate: true, Timeout: 20 * time.Second, MaxBytes: 1 << 20}).HTTP()}
}

// Providers are the configured providers, in the operator's order.
func (s *Service) Providers() []Provider { return s.providers }

func (s *Service) provider(name string) (Provider, error) {
	for _, p := range s.providers {
		if p.Name == name {
			return p, nil
		}
	}
	return Provider{}, problem.NotFound("The social network was not found.")
}

func (s *Service) oauth(p Provider) *oauth2.Config {
	return &oauth2.Config{ClientID: p.ClientID, ClientSecret: p.ClientSecret, Scopes: p.Scopes,
		Endpoint:    oauth2.Endpoint{AuthURL: p.AuthURL, TokenURL: p.TokenURL},
		RedirectURL: s.callback + p.Name}
}

// Begin starts connecting the user's account on the provider: it returns the provider's
// address to send the browser to.
func (s *Service) Begin(ctx context.Context, a authz.Actor, providerName string) (string, error) {
	if err := authz.CanManageSocialAccounts(a, a.UserID); err != nil {
		return "", err
	}
	p, err := s.provider(providerName)
	if err != nil {
		return "", err
	}
	state := rand.Text()
	verifier := oauth2.GenerateVerifier()
	if err := s.store.AddSocialPending(ctx, Pending{StateHash: hashState(state), UserID: a.UserID, Provider: p.Name,
		Verifier: verifier, ExpiresAt: s.now().Add(StateLifetime)}); err != nil {
		return "", err
	}
	return s.oauth(p).AuthCodeURL(state, oauth2.S256ChallengeOption(verifier)), nil
}

// Complete finishes the connection the provider sent the user back from: it checks the state
// is the user's own, unused and fresh, exchanges the code for a token and asks the provider
// whose account it is.
func (s *Service) Complete(ctx context.Context, a authz.Actor, providerName, state, code string) (Account, error) {
	if err := authz.CanManageSocialAccounts(a, a.UserID); err != nil {
		return Account{}, err
	}
	p, err := s.provider(providerName)
	if err != nil {
		return Account{}, err
	}
	pending, err := s.store.TakeSocialPending(ctx, hashState(state))
	if err != nil || pending.UserID != a.UserID || pending.Provider != p.Name || s.now().After(pending.ExpiresAt) {
		return Account{}, problem.Invalid("The connection request expired or was not yours. Start again from Settings.", nil)
	}
	ctx = context.WithValue(ctx, oauth2.HTTPClient, s.client)
	token, err := s.oauth(p).Exchange(ctx, code, oauth2.VerifierOption(pending.Verifier))
	if err != nil {
		return Account{}, problem.BadGateway(p.DisplayName + " did not accept the connection: " + outbound.RedactError(err).Error())
	}
	id, name, err := s.whoIs(ctx, p, token)
	if err != nil {
		return Account{}, err
	}
	tokenJSON, err := json.Marshal(token)
	if err != nil {
		return Account{}, err
	}
	acct := Account{UserID: a.UserID, Provider: p.Name, AccountID: id, AccountName: name, Token: string(tokenJSON),
		ConnectedAt: s.now().UTC()}
	if err := s.store.SaveSocialAccount(ctx, &acct, auditEntry(a, 0, "connected", "", acct.Provider+":"+acct.AccountID)); err != nil {
		return Account{}, err
	}
	return acct, nil
}

// whoIs asks the provider for the token's account: its id and a name to show.
func (s *Service) whoIs(ctx context.Context, p Provider, token *oauth2.Token) (id, name string, err error) {
	reply, err := s.oauth(p).Client(ctx, token).Get(p.UserInfoURL)
	if err != nil {
		return "", "", problem.BadGateway(p.DisplayName + " did not say whose account this is: " + outbound.RedactError(err).Error())
	}
	defer reply.Body.Close()
	var info any
	if reply.StatusCode != http.StatusOK || json.NewDecoder(reply.Body).Decode(&info) != nil {
		return "", "", problem.BadGateway(fmt.Sprintf("%s did not say whose account this is (HTTP %d).", p.DisplayName, reply.StatusCode))
	}
	id = firstField(info, p.AccountIDPath, "id", "sub")
	if id == "" {
		return "", "", problem.BadGateway(p.DisplayName + " did not say whose account this is (no account id).")
	}
	return id, firstField(info, p.AccountNamePath, "name", "username", "login"), nil
}

// Accounts are the user's connected accounts.
func (s *Service) Accounts(ctx context.Context, a authz.Actor) ([]Account, error) {
	if err := authz.CanManageSocialAccounts(a, a.UserID); err != nil {
		return nil, err
	}
	return s.store.SocialAccounts(ctx, a.UserID)
}

// Disconnect forgets one of the user's connected accounts and its token.
func (s *Service) Disconnect(ctx context.Context, a authz.Actor, id int64) error {
	acct, err := s.store.SocialAccount(ctx, id)
	if err != nil {
		return err
	}
	if err := authz.CanManageSocialAccounts(a, acct.UserID); err != nil {
		return err
	}
	return s.store.DeleteSocialAccount(ctx, id, auditEntry(a, acct.ID, "disconnected", acct.Provider+":"+acct.AccountID, ""))
}

// auditEntry is the audit entry of a connection or disconnection, as provider:account; id 0
// leaves the ModelID to the store (the account saved).
func auditEntry(a authz.Actor, id int64, action, previous, next string) account.AuditEntry {
	e := account.AuditEntry{TenantID: a.TenantID, OrganizationID: a.OrganizationID, UserID: a.UserID,
		Model: "social_account", Action: action, PreviousValue: previous, NewValue: next}
	if id != 0 {
		e.ModelID = strconv.FormatInt(id, 10)
	}
	return e
}

func hashState(state string) string {
	sum := sha256.Sum256([]byte(state))
	return hex.EncodeToString(sum[:])
}

// firstField is the first of the dotted paths that names a string or number in v.
func firstField(v any, paths ...string) string {
	for _, path := range paths {
		if path == "" {
			continue
		}
		cur := v
		for _, key := range strings.Split(path, ".") {
			m, ok := cur.(map[string]any)
			if !ok {
				cur = nil
				break
			}
			cur = m[key]
		}
		switch x := cur.(type) {
		case string:
			if x != "" {
				return x
			}
		case float64:
			return strconv.FormatFloat(x, 'f', -1, 64)
		}
	}
	return ""
}
