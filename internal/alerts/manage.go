package alerts

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"

	"github.com/sightline/sightline/internal/alerts/channel"
	"github.com/sightline/sightline/internal/alerts/channel/webhook"
	"github.com/sightline/sightline/internal/audit"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/problem"
)

// MaxListedDeliveries is how many of a search's deliveries the history shows.
const MaxListedDeliveries = 100

// Deliveries are the newest deliveries of a search the actor can see.
func (s *Service) Deliveries(ctx context.Context, actor authz.Actor, searchID int64) ([]Delivery, error) {
	if _, err := s.Matches.Search(ctx, actor, searchID); err != nil {
		return nil, err
	}
	return s.Store.Deliveries(ctx, searchID, MaxListedDeliveries)
}

// Test sends a test message to a destination of a search the actor may edit the alerts of.
func (s *Service) Test(ctx context.Context, actor authz.Actor, searchID int64, d monitor.Destination) error {
	sv, err := s.Matches.Search(ctx, actor, searchID)
	if err != nil {
		return err
	}
	if sv.Level < authz.LevelEdit {
		return problem.Forbidden(monitor.MsgInvalidPermissions)
	}
	ch, ok := s.Channels.Named(d.Type)
	if !ok {
		return problem.InvalidField("destination", fmt.Sprintf("%q is not a kind of destination this server sends to.", d.Type))
	}
	if msg := ch.Check(d.Address); msg != "" {
		return problem.InvalidField("destination", msg)
	}
	if desc := ch.Describe(); !desc.Available {
		return problem.Unavailable(desc.Unavailable)
	}
	return ch.Send(ctx, channel.Message{ID: fmt.Sprintf("test_%d_%d", searchID, s.now().UnixNano()),
		OrganizationID: sv.Search.OrganizationID, Address: d.Address,
		Content: testContent{search: sv.Search, publicURL: s.PublicURL}, Tester: &actor})
}

// RotateWebhookSecret gives the organization a new webhook signing secret and returns it; the
// old one stops signing at once. Owners and admins only.
func (s *Service) RotateWebhookSecret(ctx context.Context, actor authz.Actor, organizationID int64) (string, error) {
	if err := authz.CanManageOrganization(actor, organizationID); err != nil {
		return "", err
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return "", err
	}
	secret := webhook.SecretPrefix + base64.StdEncoding.EncodeToString(key)
	// The secret itself never enters the log; the row says that it was replaced and by whom.
	if err := s.Store.SetWebhookSecret(ctx, organizationID, secret, audit.Entry(actor, audit.Change{Model: audit.ModelAlert,
		Ref: "webhook_secret", Action: audit.ActionRotated, New: audit.Encode(audit.Fields{"organization_id": organizationID})})); err != nil {
		return "", err
	}
	return secret, nil
}
