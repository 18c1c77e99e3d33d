package auth

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/password"
	"github.com/sightline/sightline/internal/problem"
)

// Rules of a new password (docs/settings-api.md).
const (
	NewPasswordMinLength = 12
	MsgCurrentPassword   = "The current password is incorrect."
	MsgPasswordConfirmed = "The password confirmation does not match."
	MsgPasswordUnchanged = "The new password must differ from the current one."
	MsgPasswordHasEmail  = "The password must not contain your e-mail address."
	MsgPasswordTooCommon = "This password is too common; choose one that is hard to guess."
	maxPasswordBytes     = 1024
)

// common are passwords found at the top of every leaked-password list, with the product's own
// name: long enough to pass the length rule, guessed first all the same.
var common = []string{
	"123456789012", "1234567890123", "qwertyuiopas", "password1234", "passwordpassword",
	"sightline123", "sightlinesightline", "letmeinletmein", "iloveyou1234", "administrator",
	"welcome12345", "changeme1234", "qwerty123456", "aaaaaaaaaaaa", "abcdefghijkl",
}

// ChangePassword replaces the user's password after checking the current one (through the same
// throttled hashing as sign-in) and the new one's rules, then signs out every other session:
// someone who knew the old password loses the sessions it opened. API tokens stay valid; they are
// revoked on their own (docs/settings-api.md).
func (s *Service) ChangePassword(ctx context.Context, id Identity, current, next, confirmation, ip string) error {
	if err := authz.CanEndSession(id.Actor(), id.User.ID); err != nil {
		return err
	}
	fields := map[string][]string{}
	for field, msg := range newPasswordProblems(id.User.Email, current, next, confirmation) {
		fields[field] = append(fields[field], msg)
	}
	if len(fields) > 0 {
		return problem.Invalid(firstOf(fields), fields)
	}
	user, err := s.checkCurrentPassword(ctx, id, current, ip)
	if err != nil {
		return err
	}
	hash, err := password.Hash(next)
	if err != nil {
		return err
	}
	// A settings row like the others; no password, old or new, enters the log.
	if err := s.store.SetPasswordHash(ctx, user.ID, hash, account.AuditEntry{TenantID: user.TenantID,
		OrganizationID: user.OrganizationID, UserID: user.ID, Model: "settings", ModelID: strconv.FormatInt(user.ID, 10),
		Action: "updated", NewValue: `{"password":"changed"}`}); err != nil {
		return err
	}
	_, err = s.EndOtherSessions(ctx, id)
	return err
}

// MsgCurrentPasswordRequired asks for the current password before a change to how one signs in.
const MsgCurrentPasswordRequired = "Enter your current password."

// checkCurrentPassword checks the caller's current password (field current_password) through the
// same throttled hashing as sign-in, and returns the user as stored.
func (s *Service) checkCurrentPassword(ctx context.Context, id Identity, current, ip string) (account.User, error) {
	if current == "" {
		return account.User{}, problem.InvalidField("current_password", MsgCurrentPasswordRequired)
	}
	keys := signInKeys(id.User.Email, ip)
	if wait := s.throttle.Attempt(s.now(), keys...); wait > 0 {
		return account.User{}, tooManyAttempts("attempts", wait)
	}
	user, err := s.store.User(ctx, id.User.ID)
	if err != nil {
		s.throttle.Release(keys...)
		return account.User{}, err
	}
	matched, err := s.throttle.Verify(user.PasswordHash, current)
	if problem.Is(err, problem.KindRateLimited) {
		s.throttle.Release(keys...)
		return account.User{}, err
	}
	if err != nil || !matched {
		return account.User{}, problem.InvalidField("current_password", MsgCurrentPassword)
	}
	s.throttle.Succeeded(keys)
	return user, nil
}

// newPasswordProblems are the rules a new password breaks, by field.
func newPasswordProblems(email, current, next, confirmation string) map[string]string {
	out := PasswordProblems(email, next, confirmation)
	if current == "" {
		out["current_password"] = "The current password is required."
	}
	if _, broken := out["password"]; !broken && next == current {
		out["password"] = MsgPasswordUnchanged
	}
	return out
}

// PasswordProblems are the rules a chosen password breaks, by field (password,
// password_confirmation): the same for a changed password and for one set on joining.
func PasswordProblems(email, next, confirmation string) map[string]string {
	out := map[string]string{}
	local, _, _ := strings.Cut(strings.ToLower(email), "@")
	lower := strings.ToLower(next)
	switch {
	case utf8.RuneCountInString(next) < NewPasswordMinLength:
		out["password"] = fmt.Sprintf("The password must be at least %d characters.", NewPasswordMinLength)
	case len(next) > maxPasswordBytes:
		out["password"] = "The password is too long."
	case len(local) >= 3 && strings.Contains(lower, local):
		out["password"] = MsgPasswordHasEmail
	case isCommon(lower):
		out["password"] = MsgPasswordTooCommon
	}
	if confirmation != next {
		out["password_confirmation"] = MsgPasswordConfirmed
	}
	return out
}

func isCommon(lower string) bool {
	for _, c := range common {
		if lower == c {
			return true
		}
	}
	// One character repeated is no better.
	return strings.Count(lower, lower[:1]) == len(lower)
}

func firstOf(fields map[string][]string) string {
	for _, f := range []string{"current_password", "password", "password_confirmation"} {
		if msgs := fields[f]; len(msgs) > 0 {
			return msgs[0]
		}
	}
	return "The password could not be changed."
}
