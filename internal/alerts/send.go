package alerts

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
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/mail"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/outbound"
	"github.com/sightline/sightline/internal/problem"
)

// Errors a delivery records.
var (
	ErrMailOff       = errors.New("E-mail delivery is not configured on this server.")
	errNoSecret      = errors.New("The organization has no webhook signing secret yet: an owner or admin generates it in Settings.")
	errNothingToSend = errors.New("none of the matches can be read any more")
)

// send delivers d: it reads the matches it covers as the search's owner sees them and sends
// the e-mail or the webhook.
func (s *Service) send(ctx context.Context, d Delivery) error {
	m, err := s.Store.Search(ctx, d.SearchID)
	if err != nil {
		return errors.Join(errPermanent, err)
	}
	ids, err := s.Store.DeliveryMatches(ctx, d.ID)
	if err != nil {
		return err
	}
	entries, err := s.entries(ctx, m, ids)
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		return errors.Join(errPermanent, errNothingToSend)
	}
	if d.Destination.Type == "webhook" {
		body, err := json.Marshal(webhookBody(m, entries, s.PublicURL))
		if err != nil {
			return err
		}
		return s.postWebhook(ctx, m.OrganizationID, d.Destination.Address, "msg_"+strconv.FormatInt(d.ID, 10), body)
	}
	if s.Mail == nil {
		return errors.Join(errPermanent, ErrMailOff)
	}
	if err := s.mayDeliver(ctx, m.OrganizationID, d.Destination.Address); err != nil {
		return err
	}
	msg, err := renderWith(ctx, s.Summarizer, d.Type, m, entries, s.PublicURL, s.now().UTC())
	if err != nil {
		return err
	}
	msg.To = []string{d.Destination.Address}
	msg.ID = messageID(d, s.PublicURL)
	return s.Mail.Send(ctx, msg)
}

// MsgTestMailFailed answers a test e-mail the mail server did not take.
const MsgTestMailFailed = "The test could not be delivered: the mail server did not accept it. Try again later."

// errOutsideLimit is the error of a delivery held back by DefaultOutsideLimits; it is retried.
var errOutsideLimit = errors.New("The organization's limit on alert e-mails to addresses outside it is reached; the delivery is retried.")

// mayDeliver counts an alert e-mail to an address outside the organization against its
// limit; members' addresses are not counted.
func (s *Service) mayDeliver(ctx context.Context, organizationID int64, address string) error {
	members, err := s.Store.Members(ctx, organizationID)
	if err != nil {
		return err
	}
	for _, m := range members {
		if strings.EqualFold(m.Email, address) {
			return nil
		}
	}
	if err := s.OutsideMailLimit.TakeOrganization(organizationID); err != nil {
		return errOutsideLimit
	}
	return nil
}

// messageID names a delivery's e-mail the same on every attempt: if a node dies after the
// mail server took the message but before the delivery was marked sent, the message sent again
// is recognisably the same one.
func messageID(d Delivery, publicURL string) string {
	host := "sightline.localhost"
	if u, err := url.Parse(publicURL); err == nil && u.Hostname() != "" {
		host = u.Hostname()
	}
	return fmt.Sprintf("delivery-%d@%s", d.ID, host)
}

// entries reads the matches as the search's owner sees them, oldest first.
func (s *Service) entries(ctx context.Context, m monitor.Search, ids []int64) ([]monitor.InboxEntry, error) {
	actor, err := s.owner(ctx, m)
	if err != nil {
		return nil, errors.Join(errPermanent, err)
	}
	var out []monitor.InboxEntry
	err = s.Matches.EachMatchByID(ctx, actor, ids, 1000, func(e []monitor.InboxEntry) error {
		out = append(out, e...)
		return nil
	})
	return out, err
}

// postWebhook sends a signed webhook through the outbound guard; a reply other than 2xx fails.
func (s *Service) postWebhook(ctx context.Context, organizationID int64, address, id string, body []byte) error {
	secret, err := s.Store.WebhookSecret(ctx, organizationID)
	if err != nil {
		return err
	}
	if secret == "" {
		return errNoSecret
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, address, bytes.NewReader(body))
	if err != nil {
		return errors.Join(errPermanent, outbound.RedactError(err))
	}
	// The wall clock, not the schedule's: receivers check the timestamp against their own.
	ts := time.Now().Unix()
	signature, err := Sign(secret, id, ts, body)
	if err != nil {
		return errors.Join(errPermanent, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Sightline-Webhooks")
	req.Header.Set("webhook-id", id)
	req.Header.Set("webhook-timestamp", strconv.FormatInt(ts, 10))
	req.Header.Set("webhook-signature", signature)
	resp, err := s.Webhooks.Do(req)
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

// SecretPrefix starts every webhook secret (Standard Webhooks).
const SecretPrefix = "whsec_"

// WebhookMatch is one match in a webhook's body.
type WebhookMatch struct {
	MatchID      int64  `json:"matchId"`
	PostID       string `json:"postId"`
	Provider     string `json:"provider"`
	Author       string `json:"author"`
	PublishedAt  string `json:"publishedAt"`
	Text         string `json:"text"`
	URL          string `json:"url"`
	MatchedTerms any    `json:"matchedTerms"`
	Link         string `json:"link"`
}

// WebhookBody is what a webhook receives.
type WebhookBody struct {
	Type   string `json:"type"`
	Search struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
	} `json:"search"`
	Matches []WebhookMatch `json:"matches"`
}

func webhookBody(m monitor.Search, entries []monitor.InboxEntry, publicURL string) WebhookBody {
	b := WebhookBody{Type: "monitor.matches", Matches: []WebhookMatch{}}
	b.Search.ID, b.Search.Name = m.ID, m.Name
	for _, e := range entries {
		p := e.Payload()
		b.Matches = append(b.Matches, WebhookMatch{MatchID: e.ID, PostID: e.Post.ID, Provider: e.Post.Provider,
			Author: author(e), PublishedAt: e.PublishedAt.UTC().Format(time.RFC3339), Text: postText(e),
			URL: e.Post.PostLink, MatchedTerms: p.MatchMeta.MatchedTerms, Link: inboxLink(publicURL, m.ID)})
	}
	return b
}

// inboxLink opens the search's matches in the app.
func inboxLink(publicURL string, searchID int64) string {
	return strings.TrimRight(publicURL, "/") + "/monitor/matches/list?monitorSearchIds=" + strconv.FormatInt(searchID, 10)
}

// sendTest sends a test message to one destination of a search, once Test admitted it.
func (s *Service) sendTest(ctx context.Context, m monitor.Search, d monitor.Destination) error {
	switch d.Type {
	case "email":
		msg := testMessage(m, s.PublicURL)
		msg.To = []string{d.Address}
		if err := s.Mail.Send(ctx, msg); err != nil {
			// The mail server is the operator's: its address and dialogue go to the log only.
			s.Logger.Warn("alerts: a test e-mail failed", "search", m.ID, "err", err)
			return problem.BadGateway(MsgTestMailFailed)
		}
	case "webhook":
		body, err := json.Marshal(map[string]any{"type": "monitor.test", "search": map[string]any{"id": m.ID, "name": m.Name},
			"matches": []any{}})
		if err != nil {
			return err
		}
		id := fmt.Sprintf("msg_test_%d_%d", m.ID, s.now().UnixNano())
		if err := s.postWebhook(ctx, m.OrganizationID, d.Address, id, body); err != nil {
			return problem.BadGateway("The test could not be delivered: " + outbound.RedactError(err).Error())
		}
	default:
		return problem.InvalidField("destination", "A destination is an e-mail address or a webhook.")
	}
	return nil
}

func testMessage(m monitor.Search, publicURL string) mail.Message {
	link := inboxLink(publicURL, m.ID)
	name := mail.Quote(m.Name, 0)
	// The subject is the product's alone: a search's name is the user's text, quoted in the body.
	return mail.Message{Subject: "Sightline test alert",
		Text: fmt.Sprintf("This is a test from Sightline: alerts of the saved search %s reach this address.\n\n%s\n", name, link),
		HTML: fmt.Sprintf(`<p>This is a test from Sightline: alerts of the saved search %s reach this address.</p><p><a href="%s">Open its matches</a></p>`,
			htmlEscape(name), htmlEscape(link))}
}
