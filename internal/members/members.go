// Package members runs an organization's membership: invitations by e-mail with one-time links,
// accepting them, changing roles and removing members (whose sessions and API tokens stop at
// once). Who may do what is decided in internal/authz.
package members

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"log/slog"
	netmail "net/mail"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/mail"
	"github.com/sightline/sightline/internal/password"
	"github.com/sightline/sightline/internal/problem"
)

// InvitationTTL is how long an invitation link works.
const InvitationTTL = 7 * 24 * time.Hour

// Messages people see (docs/settings-api.md, "Members and invitations").
const (
	MsgEmailOff          = "E-mail delivery is off on this server, so invitations cannot be sent. The operator turns it on with --smtp-url."
	MsgInvitationUnknown = "This invitation link is not valid. Ask the person who invited you for a new invitation."
	MsgInvitationUsed    = "This invitation has already been used. Sign in with the e-mail address it was sent to."
	MsgInvitationExpired = "This invitation has expired. Ask the person who invited you for a new invitation."
	MsgLastOwner         = "An organization needs at least one owner: make someone else an owner first."
	// MsgHasAccount answers, on the invitation page only, an invitee whose address already has an
	// account that cannot join: one in another tenant (an account never changes tenant), or one
	// that is a member of an organization. The inviter is told nothing: the invitation stays
	// pending until it expires or is withdrawn.
	MsgHasAccount = "This e-mail address already has a Sightline account, which cannot join through this invitation. " +
		"Sign in with it, or ask the person who invited you to invite another address."
)

// Invitation states.
const (
	StatePending  = "pending"
	StateExpired  = "expired"
	StateAccepted = "accepted"
	StateRevoked  = "revoked"
)

// Invitation asks someone by e-mail to join an organization with a role.
type Invitation struct {
	ID             int64
	OrganizationID int64
	Email          string
	Role           account.Role
	// ACL is the product access the invitation grants: the inviter's when they sent it, since
	// nobody gives access they were not given.
	ACL            account.ACL
	InvitedBy      int64
	CreatedAt      time.Time
	ExpiresAt      time.Time
	AcceptedAt     time.Time
	AcceptedUserID int64
	RevokedAt      time.Time
}

// State is pending, expired, accepted or revoked at now.
func (i Invitation) State(now time.Time) string {
	switch {
	case !i.RevokedAt.IsZero():
		return StateRevoked
	case !i.AcceptedAt.IsZero():
		return StateAccepted
	case !now.Before(i.ExpiresAt):
		return StateExpired
	}
	return StatePending
}

// Store is the persistence membership needs. Its changes write their audit entries in the
// change's transaction, so a change is never stored without its trail, nor the trail without it.
type Store interface {
	Organization(ctx context.Context, id int64) (account.Organization, error)
	UserByEmail(ctx context.Context, email string) (account.User, error)
	MembershipRole(ctx context.Context, organizationID, userID int64) (account.Role, error)
	Members(ctx context.Context, organizationID int64) ([]account.Member, error)
	// CreateInvitation stores a new invitation unless one to that address is pending in the
	// organization (a problem of kind invalid, on the email field). An audit entry without a
	// ModelID names the invitation.
	CreateInvitation(ctx context.Context, inv *Invitation, tokenHash string, audit ...account.AuditEntry) error
	Invitations(ctx context.Context, organizationID int64) ([]Invitation, error)
	Invitation(ctx context.Context, id int64) (Invitation, error)
	InvitationByTokenHash(ctx context.Context, tokenHash string) (Invitation, error)
	// RevokeInvitation writes the audit entries only when it withdrew a pending invitation.
	RevokeInvitation(ctx context.Context, id int64, at time.Time, audit ...account.AuditEntry) error
	// AcceptInvitation, in one transaction, marks the pending invitation used (a problem of kind
	// conflict when it no longer is) and makes u a member with its role and product access: a new
	// user of the organization's tenant, or the user of that address in that tenant who belongs to
	// no organization any more (their name and password replaced, their tenant administration and
	// portal permissions dropped). An account of another tenant, or one that is a member
	// somewhere, is refused (MsgHasAccount). The audit entry is written with u as its actor.
	AcceptInvitation(ctx context.Context, inv Invitation, u *account.User, at time.Time, audit account.AuditEntry) error
	// RemoveMember and SetMemberRole refuse (MsgLastOwner) to leave the organization ownerless.
	RemoveMember(ctx context.Context, organizationID, userID int64, audit ...account.AuditEntry) error
	SetMemberRole(ctx context.Context, organizationID, userID int64, role account.Role, audit ...account.AuditEntry) error
}

// Access ends everything a user signed in with: sessions (and their live sockets) and API tokens.
type Access interface {
	EndAccess(ctx context.Context, userID int64) error
}

// Deps are what the service works with.
type Deps struct {
	Store  Store
	Access Access
	// Mail is nil when the server has no SMTP: inviting is then refused.
	Mail mail.Sender
	// MailLimit bounds the invitations a user and an organization send, shared with every
	// other mail path (a limiter of mail.DefaultLimits of its own when nil).
	MailLimit *mail.Limiter
	// PublicURL is where invitees open their link ({PublicURL}/invite/{token}).
	PublicURL string
	Logger    *slog.Logger
	Now       func() time.Time
}

// Service carries out the membership rules.
type Service struct{ d Deps }

func NewService(d Deps) *Service {
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Logger == nil {
		d.Logger = slog.Default()
	}
	if d.MailLimit == nil {
		d.MailLimit = mail.NewLimiter(mail.Limits{})
	}
	d.PublicURL = strings.TrimRight(d.PublicURL, "/")
	return &Service{d: d}
}

// Now is the service's clock, by which invitations expire.
func (s *Service) Now() time.Time { return s.d.Now() }

// EmailDelivery reports whether invitations can be sent.
func (s *Service) EmailDelivery() bool { return s.d.Mail != nil }

// Invitations lists the organization's open invitations, pending and expired, newest first.
func (s *Service) Invitations(ctx context.Context, a authz.Actor, organizationID int64) ([]Invitation, error) {
	if err := authz.CanListInvitations(a, organizationID); err != nil {
		return nil, err
	}
	all, err := s.d.Store.Invitations(ctx, organizationID)
	if err != nil {
		return nil, err
	}
	now := s.d.Now()
	open := all[:0]
	for _, inv := range all {
		if st := inv.State(now); st == StatePending || st == StateExpired {
			open = append(open, inv)
		}
	}
	return open, nil
}

// Invite e-mails a one-time link to join the organization with the role.
func (s *Service) Invite(ctx context.Context, a authz.Actor, organizationID int64, email string, role account.Role) (Invitation, error) {
	email = strings.ToLower(strings.TrimSpace(email))
	if role == "" {
		role = account.RoleMember
	}
	if !role.Valid() {
		return Invitation{}, problem.InvalidField("role", "The role must be owner, admin or member.")
	}
	if err := authz.CanInvite(a, organizationID, role); err != nil {
		return Invitation{}, err
	}
	if addr, err := netmail.ParseAddress(email); err != nil || addr.Address != email {
		return Invitation{}, problem.InvalidField("email", "The email must be a valid email address.")
	}
	if s.d.Mail == nil {
		return Invitation{}, problem.Unavailable(MsgEmailOff)
	}
	if err := s.checkNotMember(ctx, organizationID, email); err != nil {
		return Invitation{}, err
	}
	org, err := s.d.Store.Organization(ctx, organizationID)
	if err != nil {
		return Invitation{}, err
	}
	if err := s.d.MailLimit.Take(a.UserID, organizationID); err != nil {
		return Invitation{}, err
	}
	token, err := newToken()
	if err != nil {
		return Invitation{}, err
	}
	now := s.d.Now().UTC()
	inv := Invitation{OrganizationID: organizationID, Email: email, Role: role, ACL: a.ACL, InvitedBy: a.UserID,
		CreatedAt: now, ExpiresAt: now.Add(InvitationTTL)}
	if err := s.d.Store.CreateInvitation(ctx, &inv, hashToken(token), s.auditEntry(a, organizationID, "invitation", 0,
		"invited", "", email+" ("+string(role)+")")); err != nil {
		return Invitation{}, err
	}
	if err := s.d.Mail.Send(ctx, invitationMail(org.Name, email, role, s.d.PublicURL+"/invite/"+token, inv.ExpiresAt)); err != nil {
		// An invitation nobody received must not block sending a new one.
		if rerr := s.d.Store.RevokeInvitation(ctx, inv.ID, now, s.auditEntry(a, organizationID, "invitation", inv.ID,
			"unsent", email+" ("+string(role)+")", "")); rerr != nil {
			s.d.Logger.Warn("members: withdraw an unsent invitation", "invitation", inv.ID, "err", rerr)
		}
		s.d.Logger.Warn("members: send an invitation", "invitation", inv.ID, "err", err)
		return Invitation{}, problem.BadGateway("The invitation e-mail could not be sent; try again later.")
	}
	return inv, nil
}

// checkNotMember refuses an address that is already a member of the organization. Whether it
// has an account elsewhere (another organization, another tenant) is not told: every other
// address gets the same answer, from the same queries, and the same e-mail; the invitee alone
// learns on the invitation page that their account cannot join (MsgHasAccount).
func (s *Service) checkNotMember(ctx context.Context, organizationID int64, email string) error {
	list, err := s.d.Store.Members(ctx, organizationID)
	if err != nil {
		return err
	}
	for _, m := range list {
		if m.Email == email {
			return problem.InvalidField("email", email+" is already a member of this organization.")
		}
	}
	return nil
}

// RevokeInvitation withdraws a pending or expired invitation: its link stops working.
func (s *Service) RevokeInvitation(ctx context.Context, a authz.Actor, id int64) error {
	inv, err := s.d.Store.Invitation(ctx, id)
	if err != nil {
		return notFoundInvitation(err)
	}
	if err := authz.CanRevokeInvitation(a, inv.OrganizationID, inv.Role); err != nil {
		if problem.Is(err, problem.KindNotFound) {
			return problem.NotFound("The invitation was not found.")
		}
		return err
	}
	switch inv.State(s.d.Now()) {
	case StateAccepted:
		return problem.Invalid("This invitation has been accepted; remove the member instead.", nil)
	case StateRevoked:
		return problem.NotFound("The invitation was not found.")
	}
	return s.d.Store.RevokeInvitation(ctx, id, s.d.Now().UTC(), s.auditEntry(a, inv.OrganizationID, "invitation", id,
		"revoked", inv.Email+" ("+string(inv.Role)+")", ""))
}

func notFoundInvitation(err error) error {
	if problem.Is(err, problem.KindNotFound) {
		return problem.NotFound("The invitation was not found.")
	}
	return err
}

// Opened is what the invitation page shows before it is accepted.
type Opened struct {
	Invitation   Invitation
	Organization account.Organization
}

// Open looks an invitation up by its link's token, refusing unknown, withdrawn, used and
// expired ones with a message that says which, and one addressed to an account that cannot join
// (MsgHasAccount; only the link's holder sees it).
func (s *Service) Open(ctx context.Context, token string) (Opened, error) {
	inv, err := s.d.Store.InvitationByTokenHash(ctx, hashToken(token))
	if problem.Is(err, problem.KindNotFound) {
		return Opened{}, problem.NotFound(MsgInvitationUnknown)
	}
	if err != nil {
		return Opened{}, err
	}
	switch inv.State(s.d.Now()) {
	case StateRevoked:
		return Opened{}, problem.NotFound(MsgInvitationUnknown)
	case StateAccepted:
		return Opened{}, problem.Conflict(MsgInvitationUsed)
	case StateExpired:
		return Opened{}, problem.Invalid(MsgInvitationExpired, nil)
	}
	org, err := s.d.Store.Organization(ctx, inv.OrganizationID)
	if err != nil {
		return Opened{}, err
	}
	if err := s.checkCanJoin(ctx, inv.Email, org.TenantID); err != nil {
		return Opened{}, err
	}
	return Opened{Invitation: inv, Organization: org}, nil
}

// checkCanJoin refuses an address whose account is in another tenant or a member somewhere
// (AcceptInvitation enforces the same in its transaction).
func (s *Service) checkCanJoin(ctx context.Context, email string, tenantID int64) error {
	u, err := s.d.Store.UserByEmail(ctx, email)
	if problem.Is(err, problem.KindNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if u.TenantID != tenantID {
		return problem.Conflict(MsgHasAccount)
	}
	if _, err := s.d.Store.MembershipRole(ctx, u.OrganizationID, u.ID); err == nil {
		return problem.Conflict(MsgHasAccount)
	} else if !problem.Is(err, problem.KindNotFound) {
		return err
	}
	return nil
}

// Acceptance is what the invitee fills in.
type Acceptance struct {
	Name         string
	Password     string
	Confirmation string
}

// Accept makes the invitee a user of the organization with the invited role and product access,
// and nothing else. The link works once.
func (s *Service) Accept(ctx context.Context, token string, in Acceptance) (account.User, error) {
	opened, err := s.Open(ctx, token)
	if err != nil {
		return account.User{}, err
	}
	inv, org := opened.Invitation, opened.Organization
	name := strings.TrimSpace(in.Name)
	fields := map[string][]string{}
	switch {
	case name == "":
		fields["name"] = []string{"The name field is required."}
	case utf8.RuneCountInString(name) > 120:
		fields["name"] = []string{"The name must be at most 120 characters."}
	}
	for field, msg := range auth.PasswordProblems(inv.Email, in.Password, in.Confirmation) {
		fields[field] = append(fields[field], msg)
	}
	if len(fields) > 0 {
		msg := "The given data was invalid."
		for _, f := range []string{"name", "password", "password_confirmation"} {
			if len(fields[f]) > 0 {
				msg = fields[f][0]
				break
			}
		}
		return account.User{}, problem.Invalid(msg, fields)
	}
	hash, err := password.Hash(in.Password)
	if err != nil {
		return account.User{}, err
	}
	username, _, _ := strings.Cut(inv.Email, "@")
	u := account.User{
		TenantID: org.TenantID, OrganizationID: org.ID, Name: name, Email: inv.Email, Username: username,
		PasswordHash:                   hash,
		ACL:                            inv.ACL,
		IsTranslationEnrichmentEnabled: true, IsMentionedLocationsEnrichmentEnabled: true,
		DisplayTheme: account.ThemeSystem, MediaSensitivity: account.MediaBlur,
	}
	if err := s.d.Store.AcceptInvitation(ctx, inv, &u, s.d.Now().UTC(), account.AuditEntry{TenantID: org.TenantID,
		OrganizationID: org.ID, Model: "invitation", ModelID: strconv.FormatInt(inv.ID, 10), Action: "accepted",
		NewValue: inv.Email + " (" + string(inv.Role) + ")"}); err != nil {
		return account.User{}, err
	}
	return u, nil
}

// member finds a member of the organization, as the caller may see it.
func (s *Service) member(ctx context.Context, a authz.Actor, organizationID, userID int64) (account.Member, error) {
	if err := authz.CanReadOrganization(a, organizationID); err != nil {
		return account.Member{}, err
	}
	list, err := s.d.Store.Members(ctx, organizationID)
	if err != nil {
		return account.Member{}, err
	}
	for _, m := range list {
		if m.UserID == userID {
			return m, nil
		}
	}
	return account.Member{}, problem.NotFound("The member was not found.")
}

// Remove takes a member out of the organization; their sessions end (sockets close) and their
// API tokens are revoked at once. What they made (saved searches, filters) stays with the
// organization.
func (s *Service) Remove(ctx context.Context, a authz.Actor, organizationID, userID int64) error {
	m, err := s.member(ctx, a, organizationID, userID)
	if err != nil {
		return err
	}
	if err := authz.CanRemoveMember(a, authz.MemberFacts{OrganizationID: organizationID, UserID: userID, Role: m.Role}); err != nil {
		return err
	}
	if err := s.d.Store.RemoveMember(ctx, organizationID, userID, s.auditEntry(a, organizationID, "member", userID,
		"removed", m.Email+" ("+string(m.Role)+")", "")); err != nil {
		return err
	}
	if err := s.d.Access.EndAccess(ctx, userID); err != nil {
		return fmt.Errorf("members: end the removed member's access: %w", err)
	}
	return nil
}

// SetRole changes a member's role; the last owner keeps theirs.
func (s *Service) SetRole(ctx context.Context, a authz.Actor, organizationID, userID int64, role account.Role) (account.Member, error) {
	if !role.Valid() {
		return account.Member{}, problem.InvalidField("role", "The role must be owner, admin or member.")
	}
	m, err := s.member(ctx, a, organizationID, userID)
	if err != nil {
		return account.Member{}, err
	}
	if err := authz.CanChangeRole(a, authz.MemberFacts{OrganizationID: organizationID, UserID: userID, Role: m.Role}, role); err != nil {
		return account.Member{}, err
	}
	if m.Role == role {
		return m, nil
	}
	if err := s.d.Store.SetMemberRole(ctx, organizationID, userID, role, s.auditEntry(a, organizationID, "member", userID,
		"role_changed", m.Email+" ("+string(m.Role)+")", m.Email+" ("+string(role)+")")); err != nil {
		return account.Member{}, err
	}
	m.Role = role
	return m, nil
}

// auditEntry is the audit entry of a change a made; id 0 leaves the ModelID to the store (the
// row the change creates).
func (s *Service) auditEntry(a authz.Actor, organizationID int64, model string, id int64, action, before, after string) account.AuditEntry {
	e := account.AuditEntry{TenantID: a.TenantID, OrganizationID: organizationID, UserID: a.UserID, Model: model,
		Action: action, PreviousValue: before, NewValue: after}
	if id != 0 {
		e.ModelID = strconv.FormatInt(id, 10)
	}
	return e
}

func newToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// hashToken keeps invitation tokens as SHA-256: they are long random values, so a fast hash is
// enough, and a database leak gives no working link.
func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}
