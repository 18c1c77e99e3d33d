// Package webhook is the webhook alert channel: new matches are POSTed at once to the
// destination's URL through the outbound guard, signed per Standard Webhooks with the
// organization's whsec_ secret.
package webhook

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/alerts/channel"
	"github.com/sightline/sightline/internal/outbound"
	"github.com/sightline/sightline/internal/problem"
)

// Name is the type of webhook destinations.
const Name = "webhook"

// Messages of webhook destinations (monitor-area.md section 5).
const (
	MsgURL       = "The webhook must be an http or https URL."
	MsgDuplicate = "This webhook is already a destination."
)

// SecretPrefix starts every webhook secret (Standard Webhooks).
const SecretPrefix = "whsec_"

// MsgNoSecret refuses a webhook before its organization has a signing secret: saving one, and
// sending (every delivery is signed).
const MsgNoSecret = "The organization has no webhook signing secret yet: an owner or admin generates it in Settings."

var errNoSecret = errors.New(MsgNoSecret)

// Secrets gives an organization's signing secret ("" when it has none yet).
type Secrets interface {
	WebhookSecret(ctx context.Context, organizationID int64) (string, error)
}

// Channel posts signed webhooks.
type Channel struct {
	Secrets Secrets
	// Client is the outbound guard's client for webhooks (NewClient).
	Client *outbound.Client
}

// NewClient is the guarded client webhooks go through: public addresses and the operator's
// allowlist for webhooks, 10 s, no redirects (a redirect is a failure, so a webhook cannot be
// bounced to an address the guard would not have dialled).
func NewClient(allow []netip.Prefix) *outbound.Client {
	return outbound.New(outbound.Options{Allow: allow, Timeout: 10 * time.Second, MaxBytes: 64 << 10,
		MaxRedirects: -1})
}

// Describe is the webhook channel as the app shows it.
func (c *Channel) Describe() channel.Description {
	return channel.Description{Name: Name, Label: "Webhook", AlertTypes: []string{"webhook"},
		AddLabel: "Add a webhook URL", InputType: "url",
		Placeholder: "https://example.com/hooks/sightline", Pattern: `^https?://[^\s/?#]+([/?#]\S*)?$`,
		Invalid: MsgURL, Duplicate: MsgDuplicate, Available: true}
}

// Check accepts an http or https URL with a host.
func (c *Channel) Check(address string) string {
	if u, err := url.Parse(address); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return MsgURL
	}
	return ""
}

// Send posts m's content as JSON; a reply other than 2xx fails.
func (c *Channel) Send(ctx context.Context, m channel.Message) error {
	err := c.post(ctx, m)
	if err != nil && m.Tester != nil {
		return problem.BadGateway("The test could not be delivered: " + outbound.RedactError(err).Error())
	}
	return err
}

func (c *Channel) post(ctx context.Context, m channel.Message) error {
	body, err := json.Marshal(m.Content.Event())
	if err != nil {
		return err
	}
	secret, err := c.Secrets.WebhookSecret(ctx, m.OrganizationID)
	if err != nil {
		return err
	}
	if secret == "" {
		// Waiting does not make a secret: the delivery fails at once and says who can fix it.
		return errors.Join(channel.ErrPermanent, errNoSecret)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, m.Address, bytes.NewReader(body))
	if err != nil {
		return errors.Join(channel.ErrPermanent, outbound.RedactError(err))
	}
	id := "msg_" + m.ID
	// The wall clock, not the schedule's: receivers check the timestamp against their own.
	ts := time.Now().Unix()
	signature, err := Sign(secret, id, ts, body)
	if err != nil {
		return errors.Join(channel.ErrPermanent, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Sightline-Webhooks")
	req.Header.Set("webhook-id", id)
	req.Header.Set("webhook-timestamp", strconv.FormatInt(ts, 10))
	req.Header.Set("webhook-signature", signature)
	resp, err := c.Client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("the webhook answered %s", resp.Status)
	}
	return nil
}

// Sign is the Standard Webhooks signature of a message: "v1," and the base64 HMAC-SHA256 of
// "id.timestamp.body", keyed with the secret's bytes (base64 after the whsec_ prefix).
func Sign(secret, id string, timestamp int64, body []byte) (string, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, SecretPrefix))
	if err != nil {
		return "", fmt.Errorf("alerts: the webhook secret is not base64: %w", err)
	}
	mac := hmac.New(sha256.New, key)
	fmt.Fprintf(mac, "%s.%d.", id, timestamp)
	mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil)), nil
}
