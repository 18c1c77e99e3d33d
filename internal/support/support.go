// Package support sends what a user writes in the help drawer's contact form to the tenant's
// support address (--support-email for the default tenant), through the operator's SMTP server
// and within the e-mail limits every user-triggered message shares.
package support

import (
	"context"
	"html"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/mail"
	"github.com/sightline/sightline/internal/problem"
)

// MaxRunes bounds a message: a description of a problem, not an attachment.
const MaxRunes = 5000

// Refusals, as the form shows them.
const (
	MsgNoMail    = "This server does not send e-mail, so it cannot pass on your message; write to your administrator instead."
	MsgNoAddress = "This server has no support address; its operator sets one with --support-email."
	MsgEmpty     = "Write your message."
	MsgTooLong   = "Your message is too long; keep it under 5000 characters."
	MsgNotSent   = "Your message could not be sent; try again later."
)

// Profiles finds who is writing: the user, their organization and their tenant.
type Profiles interface {
	Profile(ctx context.Context, userID int64) (account.Profile, error)
}

// Deps are what the service needs; Mail nil is a server without e-mail.
type Deps struct {
	Profiles  Profiles
	Mail      mail.Sender
	MailLimit *mail.Limiter
}

// Service passes support requests on.
type Service struct{ d Deps }

// NewService returns the service; a nil MailLimit gets the default limits.
func NewService(d Deps) *Service {
	if d.MailLimit == nil {
		d.MailLimit = mail.NewLimiter(mail.Limits{})
	}
	return &Service{d: d}
}

// Address is where the user's support requests go, or "" when they cannot be sent: no e-mail,
// no support address, or an address that is the user's own (setup makes the first
// administrator the tenant's contact, who would be writing to themselves).
func Address(p account.Profile) string {
	to := strings.TrimSpace(p.Tenant.SupportEmail)
	if strings.EqualFold(to, strings.TrimSpace(p.User.Email)) {
		return ""
	}
	return to
}

// Write sends the user's text to their tenant's support address, replies going to the user.
func (s *Service) Write(ctx context.Context, userID int64, text string) error {
	if s == nil || s.d.Mail == nil { // nil: a server assembled without support requests
		return problem.Unavailable(MsgNoMail)
	}
	text = clean(text)
	if text == "" {
		return problem.InvalidField("message", MsgEmpty)
	}
	if utf8.RuneCountInString(text) > MaxRunes {
		return problem.InvalidField("message", MsgTooLong)
	}
	p, err := s.d.Profiles.Profile(ctx, userID)
	if err != nil {
		return err
	}
	to := Address(p)
	if to == "" {
		return problem.Unavailable(MsgNoAddress)
	}
	if err := s.d.MailLimit.Take(p.User.ID, p.Organization.ID); err != nil {
		return err
	}
	if err := s.d.Mail.Send(ctx, request(p, to, text)); err != nil {
		return problem.BadGateway(MsgNotSent)
	}
	return nil
}

// request is the e-mail: who wrote, from which organization, and their text quoted after the
// product's wording so it never reads as Sightline's own.
func request(p account.Profile, to, text string) mail.Message {
	who := mail.Quote(p.User.Name, 0) + " <" + p.User.Email + ">"
	org := mail.Quote(p.Organization.Name, 0)
	quoted := "> " + strings.ReplaceAll(text, "\n", "\n> ")
	body := who + " of the organization " + org + " wrote through Sightline's help form:\n\n" + quoted +
		"\n\nReply to this e-mail to answer them.\n"
	htmlBody := "<p>" + html.EscapeString(who) + " of the organization " + html.EscapeString(org) +
		" wrote through Sightline's help form:</p><blockquote>" +
		strings.ReplaceAll(html.EscapeString(text), "\n", "<br>") + "</blockquote><p>Reply to this e-mail to answer them.</p>"
	return mail.Message{To: []string{to}, ReplyTo: p.User.Email,
		Subject: "Support request from " + mail.Quote(p.User.Name, mail.SubjectRunes), Text: body, HTML: htmlBody}
}

// clean keeps the text's lines but drops control and format characters (bidirectional
// overrides included) and surrounding blank space.
func clean(text string) string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' {
			return r
		}
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, text)
	return strings.TrimSpace(text)
}
