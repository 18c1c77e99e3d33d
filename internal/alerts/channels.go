package alerts

import (
	"log/slog"

	"github.com/sightline/sightline/internal/alerts/channel"
	"github.com/sightline/sightline/internal/alerts/channel/email"
	"github.com/sightline/sightline/internal/alerts/channel/webhook"
	"github.com/sightline/sightline/internal/mail"
	"github.com/sightline/sightline/internal/outbound"
)

// ChannelDeps are what the alert channels need.
type ChannelDeps struct {
	Store interface {
		email.Directory
		webhook.Secrets
	}
	// Mail sends e-mail; nil means e-mail is off on this server.
	Mail mail.Sender
	// MailLimit bounds the test e-mails people ask for, shared with every other mail path
	// (a limiter of mail.DefaultLimits of its own when nil).
	MailLimit *mail.Limiter
	// OutsideMailLimit bounds scheduled alert e-mails to addresses outside the search's
	// organization (a limiter of DefaultOutsideLimits of its own when nil).
	OutsideMailLimit *mail.Limiter
	// Webhooks is the outbound guard's client for webhook calls (webhook.NewClient).
	Webhooks  *outbound.Client
	PublicURL string
	Logger    *slog.Logger
}

// Channels is the table of alert channels, in the order the app lists them. A new channel is
// a package under internal/alerts/channel and a line here; the alert service, the notification
// settings and the API find it through this table.
func Channels(d ChannelDeps) channel.Table {
	if d.Logger == nil {
		d.Logger = slog.Default()
	}
	if d.MailLimit == nil {
		d.MailLimit = mail.NewLimiter(mail.Limits{})
	}
	if d.OutsideMailLimit == nil {
		d.OutsideMailLimit = mail.NewLimiter(DefaultOutsideLimits)
	}
	return channel.Table{
		&email.Channel{Mail: d.Mail, Directory: d.Store, TestLimit: d.MailLimit, OutsideLimit: d.OutsideMailLimit,
			PublicURL: d.PublicURL, Logger: d.Logger},
		&webhook.Channel{Secrets: d.Store, Client: d.Webhooks},
	}
}
