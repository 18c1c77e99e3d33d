// Package email is the e-mail alert channel: batches, digests, proximity alerts and daily
// summaries go to addresses through the operator's SMTP server, within the mail limits.
package email

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	netmail "net/mail"
	"net/url"
	"regexp"
	"strings"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/alerts/channel"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/mail"
	"github.com/sightline/sightline/internal/problem"
)

// Name is the type of e-mail destinations.
const Name = "email"

// Messages of e-mail destinations (monitor-area.md section 5).
const (
	MsgInvalid   = "The provided email address is invalid"
	MsgDuplicate = "This e-mail address is already a destination."
	// MsgTestFailed answers a test e-mail the mail server did not take.
	MsgTestFailed = "The test could not be delivered: the mail server did not accept it. Try again later."
)

// ErrOff is the error of e-mail on a server without SMTP.
var ErrOff = errors.New("E-mail delivery is not configured on this server.")

// errOutsideLimit is the error of a delivery held back by the outside limit; it is retried.
var errOutsideLimit = errors.New("The organization's limit on alert e-mails to addresses outside it is reached; the delivery is retried.")

// Directory is who may be mailed: test e-mails go only to members, and alert e-mails to anyone
// else count against the outside limit.
type Directory interface {
	User(ctx context.Context, id int64) (account.User, error)
	Members(ctx context.Context, organizationID int64) ([]account.Member, error)
}

// Channel sends alert e-mails.
type Channel struct {
	// Mail sends; nil means e-mail is off on this server.
	Mail      mail.Sender
	Directory Directory
	// TestLimit bounds the test e-mails people ask for; OutsideLimit the alert e-mails to
	// addresses outside the search's organization.
	TestLimit, OutsideLimit *mail.Limiter
	// PublicURL names the host of Message-IDs.
	PublicURL string
	Logger    *slog.Logger
}

// shape is what the app checks an address against before the server does; the server checks it
// too, so that the two never disagree (net/mail alone takes "desk@localhost").
const shape = `^[^\s@]+@[^\s@]+\.[^\s@]+$`

var shapeRE = regexp.MustCompile("(?i)" + shape)

// Describe is the e-mail channel as the app shows it.
func (c *Channel) Describe() channel.Description {
	d := channel.Description{Name: Name, Label: "E-mail", AlertTypes: []string{"batch", "digest", "proximity", "ai_summary", "spike"},
		AddLabel: "Add an e-mail address", InputType: "email", Placeholder: "name@example.com", Pattern: shape,
		Invalid: MsgInvalid, Duplicate: MsgDuplicate, DefaultsToUserEmail: true, Available: c.Mail != nil}
	if !d.Available {
		d.Unavailable = ErrOff.Error()
	}
	return d
}

// Check accepts a bare address, as net/mail reads it, with a dot in its domain.
func (c *Channel) Check(address string) string {
	if a, err := netmail.ParseAddress(address); err != nil || a.Address != address || !shapeRE.MatchString(address) {
		return MsgInvalid
	}
	return ""
}

// Send mails m's content to its address.
func (c *Channel) Send(ctx context.Context, m channel.Message) error {
	if m.Tester != nil {
		return c.sendTest(ctx, m)
	}
	if c.Mail == nil {
		return errors.Join(channel.ErrPermanent, ErrOff)
	}
	if err := c.mayDeliver(ctx, m.OrganizationID, m.Address); err != nil {
		return err
	}
	msg, err := m.Content.Mail(ctx)
	if err != nil {
		return err
	}
	msg.To = []string{m.Address}
	msg.ID = c.messageID(m.ID)
	return c.Mail.Send(ctx, msg)
}

// sendTest mails a test to the tester's own address or another member's, within the limits.
func (c *Channel) sendTest(ctx context.Context, m channel.Message) error {
	if c.Mail == nil {
		return problem.Unavailable(ErrOff.Error())
	}
	self, err := c.Directory.User(ctx, m.Tester.UserID)
	if err != nil {
		return err
	}
	members, err := c.Directory.Members(ctx, m.Tester.OrganizationID)
	if err != nil {
		return err
	}
	if err := authz.CanMailTo("destination", m.Address, self.Email, members); err != nil {
		return err
	}
	if err := c.TestLimit.Take(m.Tester.UserID, m.Tester.OrganizationID); err != nil {
		return err
	}
	msg, err := m.Content.Mail(ctx)
	if err != nil {
		return err
	}
	msg.To = []string{m.Address}
	if err := c.Mail.Send(ctx, msg); err != nil {
		// The mail server is the operator's: its address and dialogue go to the log only.
		c.Logger.Warn("alerts: a test e-mail failed", "err", err)
		return problem.BadGateway(MsgTestFailed)
	}
	return nil
}

// mayDeliver counts an alert e-mail to an address outside the organization against its
// limit; members' addresses are not counted.
func (c *Channel) mayDeliver(ctx context.Context, organizationID int64, address string) error {
	members, err := c.Directory.Members(ctx, organizationID)
	if err != nil {
		return err
	}
	for _, m := range members {
		if strings.EqualFold(m.Email, address) {
			return nil
		}
	}
	if err := c.OutsideLimit.TakeOrganization(organizationID); err != nil {
		return errOutsideLimit
	}
	return nil
}

// messageID names a delivery's e-mail the same on every attempt: if a node dies after the
// mail server took the message but before the delivery was marked sent, the message sent again
// is recognisably the same one.
func (c *Channel) messageID(id string) string {
	host := "sightline.localhost"
	if u, err := url.Parse(c.PublicURL); err == nil && u.Hostname() != "" {
		host = u.Hostname()
	}
	return fmt.Sprintf("delivery-%s@%s", id, host)
}
