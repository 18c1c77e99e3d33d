// Package auth establishes who is calling: password (and TOTP) sign-in with throttling,
// browser sessions, short-lived bearer tokens, and long-lived API tokens for scripts.
package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/pquerna/otp/totp"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/password"
	"github.com/sightline/sightline/internal/problem"
)

const (
	// SessionCookie is the HttpOnly cookie holding the browser session token.
	SessionCookie = "sightline_session"
	// BearerTTL is how long a bearer token from sign-in or refresh lives; the app refreshes it
	// every five minutes.
	BearerTTL = 15 * time.Minute
	// SessionIdleTTL ends a session nobody used for this long.
	SessionIdleTTL = 14 * 24 * time.Hour
	// APITokenPrefix starts every long-lived API token, telling it apart from a bearer JWT.
	APITokenPrefix = "slt_"
)

// Messages the sign-in page shows.
const (
	MsgBadCredentials  = "These credentials do not match our records."
	MsgOTPRequired     = "Enter the 6-digit code from your authenticator app."
	MsgOTPInvalid      = "That code is not valid. Try again."
	MsgUnauthenticated = "You are not signed in."
)

// Session is a signed-in browser.
type Session struct {
	ID         int64
	UserID     int64
	IP         string
	UserAgent  string
	CreatedAt  time.Time
	LastSeenAt time.Time
	ExpiresAt  time.Time
}

// APIToken is a long-lived token for scripts and API clients; only its hash is stored.
type APIToken struct {
	ID         int64
	UserID     int64
	Name       string
	Scopes     []string
	CreatedAt  time.Time
	LastUsedAt time.Time
	RevokedAt  time.Time
}

// Store is the persistence auth needs.
type Store interface {
	User(ctx context.Context, id int64) (account.User, error)
	UserByEmail(ctx context.Context, email string) (account.User, error)
	MembershipRole(ctx context.Context, organizationID, userID int64) (account.Role, error)
	CreateSession(ctx context.Context, s *Session, tokenHash string) error
	SessionByTokenHash(ctx context.Context, tokenHash string) (Session, error)
	Session(ctx context.Context, id int64) (Session, error)
	TouchSession(ctx context.Context, id int64, lastSeen, expires time.Time) error
	DeleteSession(ctx context.Context, id int64) error
	CreateAPIToken(ctx context.Context, t *APIToken, tokenHash string) error
	APITokenByHash(ctx context.Context, tokenHash string) (APIToken, error)
	TouchAPIToken(ctx context.Context, id int64, at time.Time) error
	Secret(ctx context.Context, name string, generate func() (string, error)) (string, error)
	AddAudit(ctx context.Context, e account.AuditEntry) error
}

// Service signs people in and recognises them on later requests.
type Service struct {
	store      Store
	signingKey []byte
	throttle   *Throttle
	now        func() time.Time
}

// New loads (or, on a new store, creates) the bearer-token signing key shared by every node.
func New(ctx context.Context, store Store) (*Service, error) {
	key, err := store.Secret(ctx, "bearer_signing_key", func() (string, error) { return randomToken(32) })
	if err != nil {
		return nil, fmt.Errorf("auth: signing key: %w", err)
	}
	return &Service{store: store, signingKey: []byte(key), throttle: NewThrottle(), now: time.Now}, nil
}

// Identity is an authenticated caller.
type Identity struct {
	User      account.User
	Role      account.Role
	SessionID int64 // 0 for API tokens
	Scopes    []string
	Via       authz.Via
	// TokenID and TokenName name the API token used (0 and "" otherwise): ingested posts carry
	// them as their provenance.
	TokenID   int64
	TokenName string
}

// Actor is the identity as the authorization package sees it.
func (id Identity) Actor() authz.Actor {
	return authz.Actor{
		UserID:         id.User.ID,
		OrganizationID: id.User.OrganizationID,
		TenantID:       id.User.TenantID,
		Role:           id.Role,
		TenantAdmin:    id.User.IsTenantAdmin,
		Scopes:         id.Scopes,
		Via:            id.Via,
	}
}

// Bearer is a short-lived bearer token.
type Bearer struct {
	Token     string
	ExpiresAt time.Time
}

// Credentials are what the sign-in form sends, with where it came from.
type Credentials struct {
	Email     string
	Password  string
	OTP       string
	IP        string
	UserAgent string
}

// Login is a successful sign-in: the session cookie's value, a bearer token and the user.
type Login struct {
	SessionToken string
	Bearer       Bearer
	Identity     Identity
}

// Login checks the credentials (and the TOTP code when the user has MFA on), throttled per
// account and per address, and starts a session.
func (s *Service) Login(ctx context.Context, c Credentials) (Login, error) {
	email := strings.ToLower(strings.TrimSpace(c.Email))
	keys := []string{"account:" + email, "ip:" + c.IP}
	if wait := s.throttle.Blocked(s.now(), keys...); wait > 0 {
		minutes := int(wait.Minutes()) + 1
		return Login{}, problem.RateLimited(fmt.Sprintf("Too many sign-in attempts. Try again in %d minutes.", minutes), wait)
	}
	fail := func(p *problem.Problem) (Login, error) {
		s.throttle.Fail(s.now(), keys...)
		return Login{}, p
	}
	user, err := s.store.UserByEmail(ctx, email)
	if problem.Is(err, problem.KindNotFound) {
		// Spend the same time as a real check so response time does not reveal who exists.
		password.Verify(dummyHash, c.Password)
		return fail(problem.Unauthenticated(MsgBadCredentials))
	}
	if err != nil {
		return Login{}, err
	}
	if ok, err := password.Verify(user.PasswordHash, c.Password); err != nil || !ok {
		return fail(problem.Unauthenticated(MsgBadCredentials))
	}
	if user.IsMFAEnabled {
		if strings.TrimSpace(c.OTP) == "" {
			p := problem.Unauthenticated(MsgOTPRequired)
			p.Extra = map[string]any{"mfaRequired": true}
			return Login{}, p
		}
		if !totp.Validate(strings.TrimSpace(c.OTP), user.MFASecret) {
			p := problem.Unauthenticated(MsgOTPInvalid)
			p.Extra = map[string]any{"mfaRequired": true}
			return fail(p)
		}
	}
	s.throttle.Reset("account:" + email)
	role, err := s.store.MembershipRole(ctx, user.OrganizationID, user.ID)
	if err != nil {
		return Login{}, err
	}
	token, err := randomToken(32)
	if err != nil {
		return Login{}, err
	}
	now := s.now().UTC()
	session := Session{UserID: user.ID, IP: c.IP, UserAgent: c.UserAgent, CreatedAt: now, LastSeenAt: now,
		ExpiresAt: now.Add(SessionIdleTTL)}
	if err := s.store.CreateSession(ctx, &session, hashToken(token)); err != nil {
		return Login{}, err
	}
	bearer, err := s.issueBearer(user, session.ID)
	if err != nil {
		return Login{}, err
	}
	s.store.AddAudit(ctx, account.AuditEntry{TenantID: user.TenantID, OrganizationID: user.OrganizationID,
		UserID: user.ID, Model: "session", ModelID: strconv.FormatInt(session.ID, 10), Action: "login",
		NewValue: c.IP})
	return Login{SessionToken: token, Bearer: bearer,
		Identity: Identity{User: user, Role: role, SessionID: session.ID, Via: authz.ViaSession}}, nil
}

// SessionIdentity recognises a session cookie's value and keeps the session alive.
func (s *Service) SessionIdentity(ctx context.Context, token string) (Identity, error) {
	session, err := s.store.SessionByTokenHash(ctx, hashToken(token))
	if err != nil {
		return Identity{}, unauthenticated(err)
	}
	now := s.now().UTC()
	if !now.Before(session.ExpiresAt) {
		return Identity{}, problem.Unauthenticated(MsgUnauthenticated)
	}
	// Write the sliding expiry at most once a minute, not on every request.
	if now.Sub(session.LastSeenAt) > time.Minute {
		if err := s.store.TouchSession(ctx, session.ID, now, now.Add(SessionIdleTTL)); err != nil {
			return Identity{}, err
		}
	}
	return s.identity(ctx, session.UserID, session.ID, nil, authz.ViaSession)
}

// BearerIdentity recognises an Authorization bearer value: an API token or a bearer JWT whose
// session is still open.
func (s *Service) BearerIdentity(ctx context.Context, value string) (Identity, error) {
	if strings.HasPrefix(value, APITokenPrefix) {
		token, err := s.store.APITokenByHash(ctx, hashToken(value))
		if err != nil || !token.RevokedAt.IsZero() {
			return Identity{}, unauthenticated(err)
		}
		now := s.now().UTC()
		if now.Sub(token.LastUsedAt) > time.Minute {
			if err := s.store.TouchAPIToken(ctx, token.ID, now); err != nil {
				return Identity{}, err
			}
		}
		id, err := s.identity(ctx, token.UserID, 0, token.Scopes, authz.ViaAPIToken)
		id.TokenID, id.TokenName = token.ID, token.Name
		return id, err
	}
	var c claims
	_, err := jwt.ParseWithClaims(value, &c, func(*jwt.Token) (any, error) { return s.signingKey, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}), jwt.WithExpirationRequired(),
		jwt.WithTimeFunc(s.now))
	if err != nil {
		return Identity{}, problem.Unauthenticated(MsgUnauthenticated)
	}
	userID, err := strconv.ParseInt(c.Subject, 10, 64)
	if err != nil {
		return Identity{}, problem.Unauthenticated(MsgUnauthenticated)
	}
	session, err := s.store.Session(ctx, c.Session)
	if err != nil || session.UserID != userID || !s.now().Before(session.ExpiresAt) {
		return Identity{}, problem.Unauthenticated(MsgUnauthenticated)
	}
	id, err := s.identity(ctx, userID, session.ID, nil, authz.ViaBearer)
	if err != nil {
		return Identity{}, err
	}
	if id.User.OrganizationID != c.Organization {
		return Identity{}, problem.Unauthenticated(MsgUnauthenticated)
	}
	return id, nil
}

func (s *Service) identity(ctx context.Context, userID, sessionID int64, scopes []string, via authz.Via) (Identity, error) {
	user, err := s.store.User(ctx, userID)
	if err != nil {
		return Identity{}, unauthenticated(err)
	}
	role, err := s.store.MembershipRole(ctx, user.OrganizationID, user.ID)
	if err != nil {
		return Identity{}, unauthenticated(err)
	}
	return Identity{User: user, Role: role, SessionID: sessionID, Scopes: scopes, Via: via}, nil
}

// RefreshBearer issues a fresh bearer token for an authenticated browser session.
func (s *Service) RefreshBearer(id Identity) (Bearer, error) {
	if id.SessionID == 0 {
		return Bearer{}, problem.Forbidden("API tokens cannot be exchanged for session tokens.")
	}
	return s.issueBearer(id.User, id.SessionID)
}

// Logout ends the session behind a session cookie's value; an unknown value is already gone.
func (s *Service) Logout(ctx context.Context, sessionToken string) error {
	session, err := s.store.SessionByTokenHash(ctx, hashToken(sessionToken))
	if problem.Is(err, problem.KindNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	return s.store.DeleteSession(ctx, session.ID)
}

// CreateAPIToken makes a long-lived API token for the user with that e-mail and returns its
// value, which is shown once and never stored.
func (s *Service) CreateAPIToken(ctx context.Context, email, name string, scopes []string) (string, APIToken, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", APIToken{}, problem.InvalidField("name", "The name field is required.")
	}
	for _, scope := range scopes {
		if scope != authz.ScopeIngest {
			return "", APIToken{}, problem.InvalidField("scopes", fmt.Sprintf("Unknown scope %q; the known scope is %q.", scope, authz.ScopeIngest))
		}
	}
	user, err := s.store.UserByEmail(ctx, email)
	if err != nil {
		return "", APIToken{}, err
	}
	secret, err := randomToken(32)
	if err != nil {
		return "", APIToken{}, err
	}
	value := APITokenPrefix + secret
	token := APIToken{UserID: user.ID, Name: name, Scopes: scopes, CreatedAt: s.now().UTC()}
	if err := s.store.CreateAPIToken(ctx, &token, hashToken(value)); err != nil {
		return "", APIToken{}, err
	}
	s.store.AddAudit(ctx, account.AuditEntry{TenantID: user.TenantID, OrganizationID: user.OrganizationID,
		UserID: user.ID, Model: "api_token", ModelID: strconv.FormatInt(token.ID, 10), Action: "create",
		NewValue: name})
	return value, token, nil
}

// claims are a bearer token's contents: the user (subject), organization, tenant, session and,
// for intelligence-portal users, their permission codes.
type claims struct {
	jwt.RegisteredClaims
	Organization int64    `json:"org"`
	Tenant       int64    `json:"tenant"`
	Session      int64    `json:"sid"`
	Permissions  []string `json:"permissions,omitempty"`
}

func (s *Service) issueBearer(user account.User, sessionID int64) (Bearer, error) {
	now := s.now().UTC()
	expires := now.Add(BearerTTL)
	c := claims{
		RegisteredClaims: jwt.RegisteredClaims{
			Subject:   strconv.FormatInt(user.ID, 10),
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(expires),
			Issuer:    "sightline",
		},
		Organization: user.OrganizationID,
		Tenant:       user.TenantID,
		Session:      sessionID,
		Permissions:  user.Permissions,
	}
	token, err := jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(s.signingKey)
	return Bearer{Token: token, ExpiresAt: expires}, err
}

func unauthenticated(err error) error {
	if err == nil || problem.Is(err, problem.KindNotFound) {
		return problem.Unauthenticated(MsgUnauthenticated)
	}
	return err
}

func randomToken(n int) (string, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// hashToken stores tokens as SHA-256: they are long random values, so a fast hash is enough,
// and a database leak does not leak usable tokens.
func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// dummyHash is verified against when the e-mail is unknown, to equalise timing.
var dummyHash = func() string {
	h, err := password.Hash("not a real password")
	if err != nil {
		panic(errors.New("auth: cannot hash: " + err.Error()))
	}
	return h
}()
