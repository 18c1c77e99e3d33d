package alerts

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"net/mail"
	"net/url"

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
	switch d.Type {
	case "email":
		if a, err := mail.ParseAddress(d.Address); err != nil || a.Address != d.Address {
			return problem.InvalidField("destination", monitor.MsgInvalidEmail)
		}
		if s.Mail == nil {
			return problem.Unavailable(ErrMailOff.Error())
		}
		if err := s.mayMail(ctx, actor, d.Address); err != nil {
			return err
		}
	case "webhook":
		if u, err := url.Parse(d.Address); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return problem.InvalidField("destination", monitor.MsgWebhookURL)
		}
	}
	return s.sendTest(ctx, sv.Search, d)
}

// mayMail admits a test e-mail the actor asks for: to their own address or another member's of
// their organization only, and within the e-mail limits.
func (s *Service) mayMail(ctx context.Context, actor authz.Actor, address string) error {
	self, err := s.Store.User(ctx, actor.UserID)
	if err != nil {
		return err
	}
	members, err := s.Store.Members(ctx, actor.OrganizationID)
	if err != nil {
		return err
	}
	if err := authz.CanMailTo("destination", address, self.Email, members); err != nil {
		return err
	}
	return s.MailLimit.Take(actor.UserID, actor.OrganizationID)
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
	secret := SecretPrefix + base64.StdEncoding.EncodeToString(key)
	// The secret itself never enters the log; the row says that it was replaced and by whom.
	if err := s.Store.SetWebhookSecret(ctx, organizationID, secret, audit.Entry(actor, audit.Change{Model: audit.ModelAlert,
		Ref: "webhook_secret", Action: audit.ActionRotated, New: audit.Encode(audit.Fields{"organization_id": organizationID})})); err != nil {
		return "", err
	}
	return secret, nil
}
