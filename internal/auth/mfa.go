package auth

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base32"
	"encoding/base64"
	"image/png"
	"strconv"
	"strings"
	"time"

	"github.com/pquerna/otp/totp"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/problem"
)

// Two-step verification (docs/settings-api.md): a user starts an enrolment with their current
// password, which stores a new TOTP secret (sealed) that does nothing yet; the first valid code
// from their authenticator app turns it on and gives them recovery codes, shown once. Turning it
// off takes the current password and a valid code: a session alone (a browser left open) can
// neither put a second factor of someone else's on the account nor take the owner's off. A
// tenant admin, or the operator's CLI, resets it for a user who lost their authenticator.
const (
	RecoveryCodeCount = 10
	totpIssuer        = "Sightline"
	qrSize            = 240

	MsgMFAAlreadyOn  = "Two-step verification is already on."
	MsgMFAOff        = "Two-step verification is not on."
	MsgMFANotStarted = "Start turning on two-step verification first."
	MsgCodeRequired  = "Enter the 6-digit code from your authenticator app."
	MsgRecoveryOrOTP = "Enter the 6-digit code from your authenticator app, or a recovery code."
)

// MFAStore is the persistence two-step verification needs beyond Store.
type MFAStore interface {
	StartMFAEnrolment(ctx context.Context, userID int64, secret string) error
	// These write their audit entries in the change's transaction.
	EnableMFA(ctx context.Context, userID int64, codeHashes []string, audit ...account.AuditEntry) error
	DisableMFA(ctx context.Context, userID int64, audit ...account.AuditEntry) error
	UseRecoveryCode(ctx context.Context, userID int64, codeHash string, at time.Time, audit ...account.AuditEntry) (bool, error)
	RecoveryCodesLeft(ctx context.Context, userID int64) (int, error)
}

// Enrolment is a started, unconfirmed two-step enrolment: the secret for manual entry, the
// otpauth:// URI authenticator apps read, and that URI as a QR code (a PNG data URL).
type Enrolment struct {
	Secret string
	URI    string
	QRCode string
}

// MFAState is where a user's two-step verification stands.
type MFAState struct {
	Enabled           bool
	Pending           bool // an enrolment waits for its first code
	RecoveryCodesLeft int
}

func (s *Service) mfaStore() (MFAStore, error) {
	m, ok := s.store.(MFAStore)
	if !ok {
		return nil, problem.Unavailable("Two-step verification is not available on this server.")
	}
	return m, nil
}

// MFAState reports the caller's two-step verification state.
func (s *Service) MFAState(ctx context.Context, id Identity) (MFAState, error) {
	m, err := s.mfaStore()
	if err != nil {
		return MFAState{}, err
	}
	user, err := s.store.User(ctx, id.User.ID)
	if err != nil {
		return MFAState{}, err
	}
	st := MFAState{Enabled: user.IsMFAEnabled, Pending: !user.IsMFAEnabled && user.MFASecret != ""}
	if user.IsMFAEnabled {
		st.RecoveryCodesLeft, err = m.RecoveryCodesLeft(ctx, user.ID)
	}
	return st, err
}

// StartMFA begins (or begins again) turning on two-step verification for the caller, who proves
// they are the owner with their current password: a new secret, stored but not used for sign-in
// until ConfirmMFA.
func (s *Service) StartMFA(ctx context.Context, id Identity, currentPassword, ip string) (Enrolment, error) {
	if err := authz.CanManageOwnProfile(id.Actor(), id.User.ID); err != nil {
		return Enrolment{}, err
	}
	m, err := s.mfaStore()
	if err != nil {
		return Enrolment{}, err
	}
	if id.User.IsMFAEnabled {
		return Enrolment{}, problem.Conflict(MsgMFAAlreadyOn)
	}
	if _, err := s.checkCurrentPassword(ctx, id, currentPassword, ip); err != nil {
		return Enrolment{}, err
	}
	key, err := totp.Generate(totp.GenerateOpts{Issuer: totpIssuer, AccountName: id.User.Email,
		Period: totpPeriod, Digits: totpOpts.Digits, Algorithm: totpOpts.Algorithm})
	if err != nil {
		return Enrolment{}, err
	}
	img, err := key.Image(qrSize, qrSize)
	if err != nil {
		return Enrolment{}, err
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return Enrolment{}, err
	}
	if err := m.StartMFAEnrolment(ctx, id.User.ID, key.Secret()); err != nil {
		return Enrolment{}, err
	}
	return Enrolment{Secret: key.Secret(), URI: key.URL(),
		QRCode: "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())}, nil
}

// ConfirmMFA turns two-step verification on when code is valid for the pending secret, and
// returns the recovery codes, which are never shown again. Wrong codes are throttled like
// sign-in attempts.
func (s *Service) ConfirmMFA(ctx context.Context, id Identity, code, ip string) ([]string, error) {
	if err := authz.CanManageOwnProfile(id.Actor(), id.User.ID); err != nil {
		return nil, err
	}
	m, err := s.mfaStore()
	if err != nil {
		return nil, err
	}
	user, err := s.store.User(ctx, id.User.ID)
	if err != nil {
		return nil, err
	}
	switch {
	case user.IsMFAEnabled:
		return nil, problem.Conflict(MsgMFAAlreadyOn)
	case user.MFASecret == "":
		return nil, problem.Conflict(MsgMFANotStarted)
	}
	// Only an authenticator code proves the app holds the secret; there are no recovery codes yet.
	if err := s.checkCode(ctx, user, code, ip, false); err != nil {
		return nil, err
	}
	codes := make([]string, RecoveryCodeCount)
	hashes := make([]string, RecoveryCodeCount)
	for i := range codes {
		if codes[i], err = newRecoveryCode(); err != nil {
			return nil, err
		}
		hashes[i] = hashToken(normalizeRecoveryCode(codes[i]))
	}
	if err := m.EnableMFA(ctx, user.ID, hashes, mfaAudit(user, user.ID, "mfa_enabled", "false", "true")); err != nil {
		return nil, err
	}
	return codes, nil
}

// DisableMFA turns two-step verification off when the current password is right and code is a
// valid authenticator or recovery code: whoever holds only the session (a browser left open)
// cannot remove the second factor.
func (s *Service) DisableMFA(ctx context.Context, id Identity, currentPassword, code, ip string) error {
	if err := authz.CanManageOwnProfile(id.Actor(), id.User.ID); err != nil {
		return err
	}
	m, err := s.mfaStore()
	if err != nil {
		return err
	}
	user, err := s.store.User(ctx, id.User.ID)
	if err != nil {
		return err
	}
	if !user.IsMFAEnabled {
		return problem.Conflict(MsgMFAOff)
	}
	if strings.TrimSpace(code) == "" {
		return problem.InvalidField("code", MsgRecoveryOrOTP)
	}
	if _, err := s.checkCurrentPassword(ctx, id, currentPassword, ip); err != nil {
		return err
	}
	if err := s.checkCode(ctx, user, code, ip, true); err != nil {
		return err
	}
	return m.DisableMFA(ctx, user.ID, mfaAudit(user, user.ID, "mfa_disabled", "true", "false"))
}

// ResetMFA turns a user's two-step verification off (a pending enrolment too) for someone who lost
// their authenticator and recovery codes; they sign in with their password and may turn it on
// again. by is who reset it: a tenant admin of the user's tenant (the portal checks that), or 0
// for the operator's CLI, recorded as the system (not as the user, who did not do it).
func (s *Service) ResetMFA(ctx context.Context, user account.User, by int64) error {
	m, err := s.mfaStore()
	if err != nil {
		return err
	}
	if !user.IsMFAEnabled && user.MFASecret == "" {
		return problem.Conflict(MsgMFAOff)
	}
	return m.DisableMFA(ctx, user.ID, mfaAudit(user, by, "mfa_reset",
		strconv.FormatBool(user.IsMFAEnabled), "false"))
}

// mfaAudit is the audit entry of a change to user's two-step verification made by actor.
func mfaAudit(user account.User, actor int64, action, before, after string) account.AuditEntry {
	return account.AuditEntry{TenantID: user.TenantID, OrganizationID: user.OrganizationID, UserID: actor,
		Model: "user", ModelID: strconv.FormatInt(user.ID, 10), Action: action, PreviousValue: before, NewValue: after}
}

// checkCode checks a code typed in settings under the sign-in throttle: a wrong code counts as
// an attempt against the account and the address; a right one clears the account's count.
func (s *Service) checkCode(ctx context.Context, user account.User, code, ip string, recovery bool) error {
	code = strings.TrimSpace(code)
	if code == "" {
		msg := MsgCodeRequired
		if recovery {
			msg = MsgRecoveryOrOTP
		}
		return problem.InvalidField("code", msg)
	}
	keys := signInKeys(user.Email, ip)
	if wait := s.throttle.Attempt(s.now(), keys...); wait > 0 {
		return tooManyAttempts("attempts", wait)
	}
	var ok bool
	var err error
	if recovery {
		ok, err = s.acceptSecondFactor(ctx, user, code)
	} else {
		ok, err = s.acceptOTP(ctx, user, code)
	}
	if err != nil {
		s.throttle.Release(keys...)
		return err
	}
	if !ok {
		return problem.InvalidField("code", MsgOTPInvalid)
	}
	s.throttle.Succeeded(keys)
	return nil
}

// acceptSecondFactor accepts a current authenticator code (six digits) or spends one of the
// user's unused recovery codes.
func (s *Service) acceptSecondFactor(ctx context.Context, user account.User, code string) (bool, error) {
	if isSixDigits(code) {
		return s.acceptOTP(ctx, user, code)
	}
	m, err := s.mfaStore()
	if err != nil {
		return false, err
	}
	normalized := normalizeRecoveryCode(code)
	if len(normalized) != recoveryCodeLength {
		return false, nil
	}
	return m.UseRecoveryCode(ctx, user.ID, hashToken(normalized), s.now().UTC(), account.AuditEntry{
		TenantID: user.TenantID, OrganizationID: user.OrganizationID, UserID: user.ID, Model: "user",
		ModelID: strconv.FormatInt(user.ID, 10), Action: "recovery_code_used"})
}

func isSixDigits(code string) bool {
	if len(code) != 6 {
		return false
	}
	for _, r := range code {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// Recovery codes are 16 base32 characters (80 random bits), shown in groups of four. A fast hash
// is enough for values that long.
const recoveryCodeLength = 16

var recoveryEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

func newRecoveryCode() (string, error) {
	b := make([]byte, 10)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	c := strings.ToLower(recoveryEncoding.EncodeToString(b))
	return c[0:4] + "-" + c[4:8] + "-" + c[8:12] + "-" + c[12:16], nil
}

// normalizeRecoveryCode forgives case, spaces and dashes as typed.
func normalizeRecoveryCode(code string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == ' ' {
			return -1
		}
		return r
	}, strings.ToLower(strings.TrimSpace(code)))
}
