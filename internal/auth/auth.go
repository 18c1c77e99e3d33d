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
	"github.com/pquerna/otp"
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
	// SessionMaxAge ends every session this long after sign-in, however busy: a stolen session
	// cookie is not good forever.
	SessionMaxAge = 30 * 24 * time.Hour
	// APITokenPrefix starts every long-lived API token, telling it apart from a bearer JWT.
	APITokenPrefix = "slt_"
)

// Messages the sign-in page shows.
const (
	MsgBadCredentials  = "These credentials do not match our records."
	MsgOTPRequired     = "Enter the 6-digit code from your authenticator app."
	MsgOTPInvalid      = "That code is not valid. Try again."
	MsgUnauthenticated = "You are not signed in."
	// MsgNoOrganization answers the right password of someone removed from their organization.
	MsgNoOrganization = "You are no longer a member of an organization. Ask an organization owner to invite you again."
	MsgDisabled       = "This account is disabled. Contact your tenant administrator."
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

// open reports whether the session may still be used at now: neither idle for SessionIdleTTL
// (ExpiresAt slides) nor older than SessionMaxAge.
func (s Session) open(now time.Time) bool {
	return now.Before(s.ExpiresAt) && now.Before(s.CreatedAt.Add(SessionMaxAge))
}

// slide is the session's new expiry when used at now: idle time restarts, up to SessionMaxAge.
func (s Session) slide(now time.Time) time.Time {
	if end := s.CreatedAt.Add(SessionMaxAge); end.Before(now.Add(SessionIdleTTL)) {
		return end
	}
	return now.Add(SessionIdleTTL)
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
	ExpiresAt  time.Time // zero: never
	// CreatedBy is the tenant admin who made the token for its user (0: the user or the
	// operator's CLI), CreatedByName their name now.
	CreatedBy     int64
	CreatedByName string
}

// usable reports whether the token may still act at now.
func (t APIToken) usable(now time.Time) bool {
	return t.RevokedAt.IsZero() && (t.ExpiresAt.IsZero() || now.Before(t.ExpiresAt))
}

// Store is the persistence auth needs.
type Store interface {
	User(ctx context.Context, id int64) (account.User, error)
	UserByEmail(ctx context.Context, email string) (account.User, error)
	MembershipRole(ctx context.Context, organizationID, userID int64) (account.Role, error)
	// The changes below write their audit entries in the same transaction; an entry without a
	// ModelID names the row created.
	CreateSession(ctx context.Context, s *Session, tokenHash string, audit ...account.AuditEntry) error
	SessionByTokenHash(ctx context.Context, tokenHash string) (Session, error)
	Session(ctx context.Context, id int64) (Session, error)
	TouchSession(ctx context.Context, id int64, lastSeen, expires time.Time) error
	DeleteSession(ctx context.Context, id int64) error
	UserSessions(ctx context.Context, userID int64) ([]Session, error)
	SetPasswordHash(ctx context.Context, userID int64, hash string, audit ...account.AuditEntry) error
	CreateAPIToken(ctx context.Context, t *APIToken, tokenHash string, audit ...account.AuditEntry) error
	APIToken(ctx context.Context, id int64) (APIToken, error)
	APITokenByHash(ctx context.Context, tokenHash string) (APIToken, error)
	APITokens(ctx context.Context, userID int64) ([]APIToken, error)
	RevokeAPIToken(ctx context.Context, userID, id int64, at time.Time, audit ...account.AuditEntry) error
	TouchAPIToken(ctx context.Context, id int64, at time.Time) error
	AcceptTOTPStep(ctx context.Context, userID, step int64) (bool, error)
	Secret(ctx context.Context, name string, generate func() (string, error)) (string, error)
}

// Service signs people in and recognises them on later requests.
type Service struct {
	store      Store
	signingKey []byte
	throttle   *Throttle
	now        func() time.Time
	// sessionEnded hears of every session signed out (Options.SessionEnded).
	sessionEnded func(ctx context.Context, s Session)
}

// Options are the Service's settings; the zero value is fine.
type Options struct {
	// SessionEnded, when set, hears of every session signed out, so the live channel can close
	// the user's sockets.
	SessionEnded func(ctx context.Context, s Session)
	// Now is the clock of sessions, tokens and the sign-in throttle's delays; nil means
	// time.Now. Tests that count attempts against the throttle set one that stands still, so
	// that a slow machine's attempts do not outlast the delays they test (issue 26).
	Now func() time.Time
}

// New loads (or, on a new store, creates) the bearer-token signing key shared by every node.
func New(ctx context.Context, store Store, o Options) (*Service, error) {
	key, err := store.Secret(ctx, "bearer_signing_key", func() (string, error) { return randomToken(32) })
	if err != nil {
		return nil, fmt.Errorf("auth: signing key: %w", err)
	}
	now := o.Now
	if now == nil {
		now = time.Now
	}
	return &Service{store: store, signingKey: []byte(key), throttle: NewThrottle(), now: now,
		sessionEnded: o.SessionEnded}, nil
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
		ACL:            id.User.ACL,
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

// Login checks the credentials (and, when the user has two-step verification on, a TOTP code or
// an unused recovery code, which is then spent), throttled per account, address and both
// (throttle.go), and starts a session.
func (s *Service) Login(ctx context.Context, c Credentials) (Login, error) {
	email := strings.ToLower(strings.TrimSpace(c.Email))
	keys := signInKeys(email, c.IP)
	if wait := s.throttle.Attempt(s.now(), keys...); wait > 0 {
		return Login{}, tooManyAttempts("sign-in attempts", wait)
	}
	// The attempt stays counted when it was a guess; an answer that is no guess gives it back.
	notAGuess := func(err error) (Login, error) {
		s.throttle.Release(keys...)
		return Login{}, err
	}
	// An unknown e-mail is checked against a dummy hash, spending the same time as a real check so
	// response time does not reveal who exists.
	hash, known := dummyHash, false
	user, err := s.store.UserByEmail(ctx, email)
	switch {
	case err == nil:
		hash, known = user.PasswordHash, true
	case !problem.Is(err, problem.KindNotFound):
		return notAGuess(err)
	}
	matched, err := s.throttle.Verify(hash, c.Password)
	if problem.Is(err, problem.KindRateLimited) {
		return notAGuess(err)
	}
	if err != nil || !matched || !known {
		return Login{}, problem.Unauthenticated(MsgBadCredentials)
	}
	if user.Disabled() {
		return notAGuess(problem.Unauthenticated(MsgDisabled))
	}
	if user.IsMFAEnabled {
		if strings.TrimSpace(c.OTP) == "" {
			p := problem.Unauthenticated(MsgOTPRequired)
			p.Extra = map[string]any{"mfaRequired": true}
			return notAGuess(p) // the right password, asking for the second step
		}
		accepted, err := s.acceptSecondFactor(ctx, user, strings.TrimSpace(c.OTP))
		if err != nil {
			return notAGuess(err)
		}
		if !accepted {
			p := problem.Unauthenticated(MsgOTPInvalid)
			p.Extra = map[string]any{"mfaRequired": true}
			return Login{}, p
		}
	}
	s.throttle.Succeeded(keys)
	role, err := s.store.MembershipRole(ctx, user.OrganizationID, user.ID)
	if problem.Is(err, problem.KindNotFound) {
		return Login{}, problem.Unauthenticated(MsgNoOrganization)
	}
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
	if err := s.store.CreateSession(ctx, &session, hashToken(token), account.AuditEntry{TenantID: user.TenantID,
		OrganizationID: user.OrganizationID, UserID: user.ID, Model: "session", Action: "login", NewValue: c.IP}); err != nil {
		return Login{}, err
	}
	bearer, err := s.issueBearer(user, session.ID)
	if err != nil {
		return Login{}, err
	}
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
	if !session.open(now) {
		return Identity{}, problem.Unauthenticated(MsgUnauthenticated)
	}
	// Write the sliding expiry at most once a minute, not on every request.
	if now.Sub(session.LastSeenAt) > time.Minute {
		if err := s.store.TouchSession(ctx, session.ID, now, session.slide(now)); err != nil {
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
		now := s.now().UTC()
		if err != nil || !token.usable(now) {
			return Identity{}, unauthenticated(err)
		}
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
	if err != nil || session.UserID != userID || !session.open(s.now()) {
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
	// A disabled user's sessions are ended when disabled; their API tokens stop here.
	if user.Disabled() {
		return Identity{}, problem.Unauthenticated(MsgDisabled)
	}
	role, err := s.store.MembershipRole(ctx, user.OrganizationID, user.ID)
	if err != nil {
		return Identity{}, unauthenticated(err)
	}
	return Identity{User: user, Role: role, SessionID: sessionID, Scopes: scopes, Via: via}, nil
}

// RefreshBearer issues a fresh bearer token for the browser session behind a session cookie's
// value. Only the cookie buys one: a bearer token (perhaps stolen) cannot extend itself.
func (s *Service) RefreshBearer(ctx context.Context, sessionToken string) (Bearer, error) {
	id, err := s.SessionIdentity(ctx, sessionToken)
	if err != nil {
		return Bearer{}, err
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
	return s.end(ctx, session)
}

// totpOpts are what authenticator apps use: six digits, 30-second steps, HMAC-SHA1.
var totpOpts = totp.ValidateOpts{Period: totpPeriod, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1}

const totpPeriod = 30

// acceptOTP checks a code against the time steps around now (one either side, for clock
// drift) and spends the step it matched: the same code again, or a code of a step at or
// before one already accepted, is refused.
func (s *Service) acceptOTP(ctx context.Context, user account.User, code string) (bool, error) {
	current := s.now().Unix() / totpPeriod
	for _, step := range []int64{current - 1, current, current + 1} {
		if ok, err := totp.ValidateCustom(code, user.MFASecret, time.Unix(step*totpPeriod, 0), totpOpts); err != nil || !ok {
			continue
		}
		return s.store.AcceptTOTPStep(ctx, user.ID, step)
	}
	return false, nil
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
