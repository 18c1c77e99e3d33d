// Package mail sends e-mail through the operator's SMTP server (--smtp-url). That server is
// trusted configuration, like the database, so it is dialled directly and not through the
// outbound guard.
package mail

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	netmail "net/mail"
	"net/url"
	"strconv"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// Message is one e-mail: plain text, and an HTML alternative when HTML is set.
type Message struct {
	// ID is the Message-ID without its angle brackets; empty gets a fresh one. A message sent
	// again after a crash keeps its ID, so the receiving side can tell it is the same one.
	ID string
	To []string
	// ReplyTo, when set, is where replies go instead of the sender (a support request's author).
	ReplyTo string
	Subject string
	Text    string
	HTML    string
}

// Sender hands messages to a mail server.
type Sender interface {
	Send(ctx context.Context, m Message) error
}

// Timeout bounds one delivery to the SMTP server: connecting, the dialogue and the upload.
const Timeout = 30 * time.Second

// SMTP sends each message over a connection of its own to one SMTP server.
type SMTP struct {
	host string
	from string
	opts []gomail.Option
}

// Option adjusts an SMTP sender.
type Option func(*settings)

type settings struct{ roots *x509.CertPool }

// WithRootCAs trusts these certificate authorities for the server's certificate instead of the
// system's (a private mail relay, tests).
func WithRootCAs(pool *x509.CertPool) Option { return func(s *settings) { s.roots = pool } }

// NewSMTP returns a sender for smtp://user:pass@host:port (STARTTLS whenever the server offers
// it; port 587 when none is given) or smtps://user:pass@host:port (TLS from the first byte; port
// 465 by default). from is the sender's address, with an optional display name.
func NewSMTP(smtpURL, from string, options ...Option) (*SMTP, error) {
	u, err := url.Parse(smtpURL)
	if err != nil || u.Hostname() == "" || (u.Scheme != "smtp" && u.Scheme != "smtps") {
		return nil, errors.New("mail: the SMTP URL must look like smtp://user:password@host:port or smtps://...")
	}
	if _, err := netmail.ParseAddress(from); err != nil {
		return nil, fmt.Errorf("mail: the sender %q is not an e-mail address", from)
	}
	var s settings
	for _, o := range options {
		o(&s)
	}
	port := 587
	if u.Scheme == "smtps" {
		port = 465
	}
	if p := u.Port(); p != "" {
		if port, err = strconv.Atoi(p); err != nil {
			return nil, fmt.Errorf("mail: the SMTP port %q is not a number", p)
		}
	}
	opts := []gomail.Option{
		gomail.WithPort(port),
		gomail.WithTimeout(Timeout),
		gomail.WithTLSConfig(&tls.Config{ServerName: u.Hostname(), RootCAs: s.roots, MinVersion: tls.VersionTLS12}),
	}
	if u.Scheme == "smtps" {
		opts = append(opts, gomail.WithSSL())
	} else {
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
	}
	if u.User != nil {
		password, _ := u.User.Password()
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover),
			gomail.WithUsername(u.User.Username()), gomail.WithPassword(password))
	}
	return &SMTP{host: u.Hostname(), from: from, opts: opts}, nil
}

// Send delivers m. Its errors name the server but never the credentials.
func (s *SMTP) Send(ctx context.Context, m Message) error {
	msg := gomail.NewMsg()
	if err := msg.From(s.from); err != nil {
		return fmt.Errorf("mail: sender: %w", err)
	}
	if err := msg.To(m.To...); err != nil {
		return fmt.Errorf("mail: recipients: %w", err)
	}
	if m.ReplyTo != "" {
		if err := msg.ReplyTo(m.ReplyTo); err != nil {
			return fmt.Errorf("mail: reply-to: %w", err)
		}
	}
	msg.Subject(m.Subject)
	msg.SetDate()
	if m.ID != "" {
		msg.SetMessageIDWithValue(m.ID)
	} else {
		msg.SetMessageID()
	}
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	if m.HTML != "" {
		msg.AddAlternativeString(gomail.TypeTextHTML, m.HTML)
	}
	client, err := gomail.NewClient(s.host, s.opts...)
	if err != nil {
		return fmt.Errorf("mail: %w", err)
	}
	if err := client.DialAndSendWithContext(ctx, msg); err != nil {
		return fmt.Errorf("mail: sending through %s: %w", s.host, err)
	}
	return nil
}
