package auth

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/problem"
)

// API tokens are made, listed and revoked by the CLI (`sightline token`, by the user's e-mail)
// and by tenant admins in the tenant portal (by ids); both come through IssueAPIToken and
// RevokeAPITokenOf, so they act on the same records with the same rules and audit trail.

// CreateAPIToken makes a long-lived API token, valid until revoked, for the user with that
// e-mail and returns its value, which is shown once and never stored.
func (s *Service) CreateAPIToken(ctx context.Context, email, name string, scopes []string) (string, APIToken, error) {
	return s.CreateAPITokenUntil(ctx, email, name, scopes, time.Time{})
}

// CreateAPITokenUntil is CreateAPIToken for a token that stops working at expires (zero: never).
func (s *Service) CreateAPITokenUntil(ctx context.Context, email, name string, scopes []string, expires time.Time) (string, APIToken, error) {
	user, err := s.store.UserByEmail(ctx, email)
	if err != nil {
		return "", APIToken{}, err
	}
	return s.IssueAPIToken(ctx, user, name, scopes, expires, 0)
}

// MaxMintedTokenLife bounds the expiry of a token made for someone else.
const MaxMintedTokenLife = 365 * 24 * time.Hour

// Messages refusing a token made for someone else without the limits it needs.
const (
	MsgMintedNeedsScope  = "A token made for someone else needs a scope; choose ingest."
	MsgMintedNeedsExpiry = "A token made for someone else needs an expiry date."
	MsgMintedTooLong     = "A token made for someone else may last at most 365 days."
)

// IssueAPIToken makes a long-lived API token acting as user, stopping at expires (zero: never),
// and returns its value, shown once and never stored. by is who asked (0: the operator's CLI).
// A token someone makes for another user (a tenant admin, for a script of theirs) needs a scope
// and an expiry at most MaxMintedTokenLife away, so it never acts as its user in full or forever;
// its user sees it among their own tokens, with who made it, and may revoke it.
func (s *Service) IssueAPIToken(ctx context.Context, user account.User, name string, scopes []string, expires time.Time, by int64) (string, APIToken, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", APIToken{}, problem.InvalidField("name", "The name field is required.")
	}
	if len(name) > 100 {
		return "", APIToken{}, problem.InvalidField("name", "The name may be at most 100 characters.")
	}
	for _, scope := range scopes {
		if scope != authz.ScopeIngest {
			return "", APIToken{}, problem.InvalidField("scopes", fmt.Sprintf("Unknown scope %q; the known scope is %q.", scope, authz.ScopeIngest))
		}
	}
	now := s.now().UTC()
	if !expires.IsZero() && !expires.After(now) {
		return "", APIToken{}, problem.InvalidField("expires", "The expiry must be in the future.")
	}
	forSomeoneElse := by != 0 && by != user.ID
	switch {
	case forSomeoneElse && len(scopes) == 0:
		return "", APIToken{}, problem.InvalidField("scopes", MsgMintedNeedsScope)
	case forSomeoneElse && expires.IsZero():
		return "", APIToken{}, problem.InvalidField("expires", MsgMintedNeedsExpiry)
	case forSomeoneElse && expires.Sub(now) > MaxMintedTokenLife:
		return "", APIToken{}, problem.InvalidField("expires", MsgMintedTooLong)
	}
	if user.Disabled() {
		return "", APIToken{}, problem.InvalidField("userId", "The user is disabled; enable them first.")
	}
	secret, err := randomToken(32)
	if err != nil {
		return "", APIToken{}, err
	}
	value := APITokenPrefix + secret
	token := APIToken{UserID: user.ID, Name: name, Scopes: scopes, CreatedAt: now, ExpiresAt: expires.UTC()}
	if forSomeoneElse {
		token.CreatedBy = by
	}
	if err := s.store.CreateAPIToken(ctx, &token, hashToken(value), account.AuditEntry{TenantID: user.TenantID,
		OrganizationID: user.OrganizationID, UserID: actorOr(by, user.ID), Model: "token", Action: "created",
		NewValue: name + " for " + user.Email}); err != nil {
		return "", APIToken{}, err
	}
	return value, token, nil
}

// APITokens lists the API tokens of the user with that e-mail, revoked and expired ones too.
func (s *Service) APITokens(ctx context.Context, email string) ([]APIToken, error) {
	user, err := s.store.UserByEmail(ctx, email)
	if err != nil {
		return nil, err
	}
	return s.store.APITokens(ctx, user.ID)
}

// RevokeAPIToken revokes every unrevoked API token of that name of the user with that e-mail,
// at once: the next request with one gets 401. It returns how many it revoked.
func (s *Service) RevokeAPIToken(ctx context.Context, email, name string) (int, error) {
	name = strings.TrimSpace(name)
	user, err := s.store.UserByEmail(ctx, email)
	if err != nil {
		return 0, err
	}
	tokens, err := s.store.APITokens(ctx, user.ID)
	if err != nil {
		return 0, err
	}
	revoked := 0
	for _, t := range tokens {
		if t.Name != name || !t.RevokedAt.IsZero() {
			continue
		}
		if err := s.RevokeAPITokenOf(ctx, user, t, 0); err != nil {
			return revoked, err
		}
		revoked++
	}
	if revoked == 0 {
		return 0, problem.NotFound("%s has no unrevoked API token named %q.", user.Email, name)
	}
	return revoked, nil
}

// RevokeAPITokenOf revokes user's token at once: its next request gets 401. Revoking a revoked
// token changes nothing. by is who asked (0: the operator's CLI).
func (s *Service) RevokeAPITokenOf(ctx context.Context, user account.User, t APIToken, by int64) error {
	if t.UserID != user.ID {
		return problem.NotFound("The API token was not found.")
	}
	if !t.RevokedAt.IsZero() {
		return nil
	}
	return s.store.RevokeAPIToken(ctx, user.ID, t.ID, s.now().UTC(), account.AuditEntry{TenantID: user.TenantID,
		OrganizationID: user.OrganizationID, UserID: actorOr(by, user.ID), Model: "token",
		ModelID: strconv.FormatInt(t.ID, 10), Action: "revoked", PreviousValue: t.Name + " for " + user.Email})
}

// OwnAPITokens lists the caller's API tokens, those a tenant admin made for them included (with
// who made them), revoked and expired ones too.
func (s *Service) OwnAPITokens(ctx context.Context, id Identity) ([]APIToken, error) {
	if err := authz.CanManageOwnAPITokens(id.Actor(), id.User.ID); err != nil {
		return nil, err
	}
	return s.store.APITokens(ctx, id.User.ID)
}

// RevokeOwnAPIToken revokes one of the caller's API tokens at once; another user's does not
// exist for them.
func (s *Service) RevokeOwnAPIToken(ctx context.Context, id Identity, tokenID int64) (APIToken, error) {
	t, err := s.store.APIToken(ctx, tokenID)
	if problem.Is(err, problem.KindNotFound) {
		return APIToken{}, problem.NotFound("The API token was not found.")
	}
	if err != nil {
		return APIToken{}, err
	}
	if err := authz.CanManageOwnAPITokens(id.Actor(), t.UserID); err != nil {
		return APIToken{}, err
	}
	if err := s.RevokeAPITokenOf(ctx, id.User, t, id.User.ID); err != nil {
		return APIToken{}, err
	}
	return s.store.APIToken(ctx, tokenID)
}

// EndUserSessions signs every session of the user out at once (their sockets close), as when a
// tenant admin disables them. It returns how many ended.
func (s *Service) EndUserSessions(ctx context.Context, userID int64) (int, error) {
	all, err := s.store.UserSessions(ctx, userID)
	if err != nil {
		return 0, err
	}
	for i, sess := range all {
		if err := s.end(ctx, sess); err != nil {
			return i, err
		}
	}
	// Sockets opened through an API token belong to no session: the hook hears of the user anyway,
	// so the live channel closes every socket of theirs.
	if len(all) == 0 && s.sessionEnded != nil {
		s.sessionEnded(ctx, Session{UserID: userID})
	}
	return len(all), nil
}

// actorOr is who made a change for the audit log: by, or the user themselves for the CLI.
func actorOr(by, user int64) int64 {
	if by != 0 {
		return by
	}
	return user
}
