// Package channel is what every alert channel (e-mail, webhook, ...) is to the rest of
// Sightline: it checks a destination, sends a delivery and describes itself to the app. Each
// channel is a package of its own under this one; alerts.Channels is the table that lists them,
// and the alert service, the notification settings and the API only go through the table.
package channel

import (
	"context"
	"errors"

	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/mail"
)

// Channel is one way an alert reaches people or machines.
type Channel interface {
	// Describe is the channel as the app shows it, on this server.
	Describe() Description
	// Check is the message saying why address is not a destination of this channel, or "".
	Check(address string) string
	// Send delivers m. A failure that retrying cannot mend wraps ErrPermanent; a test's failure
	// is a problem error for the person who asked for it.
	Send(ctx context.Context, m Message) error
}

// Description tells the app what a channel's destinations are and how to check one before the
// server does (GET /api/v1/monitor/alert-channels).
type Description struct {
	// Name is the destination type stored with each destination ("email", "webhook").
	Name  string `json:"name"`
	Label string `json:"label"`
	// AlertTypes are the alerts whose destinations go through this channel.
	AlertTypes []string `json:"alertTypes"`
	// AddLabel names the field a destination is added in.
	AddLabel string `json:"addLabel"`
	// InputType is the HTML input type a destination is typed in ("email", "url").
	InputType   string `json:"inputType"`
	Placeholder string `json:"placeholder"`
	// Pattern is a regular expression (JavaScript and Go syntax, case-insensitive) an address
	// matches; Check may refuse more than it does.
	Pattern   string `json:"pattern"`
	Invalid   string `json:"invalidMessage"`
	Duplicate string `json:"duplicateMessage"`
	// DefaultsToUserEmail gives an alert of this channel switched on with no destination the
	// user's own e-mail address.
	DefaultsToUserEmail bool `json:"defaultsToUserEmail"`
	// Available is false when this server cannot send through the channel (e-mail without SMTP);
	// Unavailable says why.
	Available   bool   `json:"available"`
	Unavailable string `json:"unavailableMessage,omitempty"`
}

// Message is one delivery (or test) to one destination.
type Message struct {
	// ID is the same on every attempt of one delivery (its row's id; "test_…" for a test), so a
	// receiver recognises a repeat (webhook-id, the e-mail's Message-ID).
	ID             string
	OrganizationID int64
	Address        string
	Content        Content
	// Tester is who asked for a test message; nil for a delivery.
	Tester *authz.Actor
}

// Content is what a message says, in the forms channels carry.
type Content interface {
	// Mail is the content as an e-mail, without recipients or id.
	Mail(ctx context.Context) (mail.Message, error)
	// Event is the content as a JSON document for machines.
	Event() any
}

// ErrPermanent marks failures that retrying cannot mend.
var ErrPermanent = errors.New("alerts: cannot be sent")

// Table is every channel, in the order the app lists them.
type Table []Channel

// Named is the channel whose destinations have this type.
func (t Table) Named(name string) (Channel, bool) {
	for _, c := range t {
		if c.Describe().Name == name {
			return c, true
		}
	}
	return nil, false
}

// For is the channel that carries an alert type's destinations.
func (t Table) For(alertType string) (Channel, bool) {
	for _, c := range t {
		for _, a := range c.Describe().AlertTypes {
			if a == alertType {
				return c, true
			}
		}
	}
	return nil, false
}

// Describe is every channel's description.
func (t Table) Describe() []Description {
	out := make([]Description, len(t))
	for i, c := range t {
		out[i] = c.Describe()
	}
	return out
}
