package monitor

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/alerts/channel/webhook"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/problem"
)

// Alert types, in the order the app lists them.
const (
	AlertBatch     = "batch"
	AlertDigest    = "digest"
	AlertWebhook   = "webhook"
	AlertProximity = "proximity"
	AlertAISummary = "ai_summary"
	// AlertSpike sends the saved search's spikes (docs/spikes.md) as detection finds them.
	AlertSpike = "spike"
)

var alertTypes = []string{AlertBatch, AlertDigest, AlertWebhook, AlertProximity, AlertAISummary, AlertSpike}

// MaxProximityLocations bounds the locations of one proximity alert (the spec leaves the number
// to us; docs/decisions.md).
const MaxProximityLocations = 20

// Messages of the notification settings (monitor-area.md sections 5, 6 and 8).
const (
	MsgInvalidPermissions  = "Invalid Permissions"
	MsgKeepOneDestination  = "Keep at least one destination, or turn this alert off."
	MsgProximityNeedsPlace = "A proximity alert needs at least one location before it can be turned on."
	// The offer's rules in the spec's words (monitor-area.md section 6).
	MsgAISummaryNotOffered = "AI-summary notifications need the AI summary notifications flag and the organization's AI feature."
	MsgProximityNotOffered = "Proximity notifications need the proximity notifications flag and a user not on the designated tenant."
	MsgUnknownLocation     = "%q is not one of the organization's location configurations."
)

// On says whether the setting sends anything: an interval, or for webhooks a webhook.
func (n NotificationSetting) On() bool {
	if n.Type == AlertWebhook {
		return len(n.Destinations) > 0
	}
	return n.Interval > 0
}

// NotificationSettings are a search's alerts as the actor may use them: every type the
// organization offers them, in order, off when never set; and whether they may change them.
func (s *Service) NotificationSettings(ctx context.Context, actor authz.Actor, id int64) ([]NotificationSetting, bool, error) {
	sv, err := s.Search(ctx, actor, id)
	if err != nil {
		return nil, false, err
	}
	offered, email, _, err := s.alertContext(ctx, actor)
	if err != nil {
		return nil, false, err
	}
	stored := StoredSettings(sv.NotificationSettings)
	out := make([]NotificationSetting, 0, len(offered))
	for _, t := range offered {
		n := NotificationSetting{Type: t, Destinations: []Destination{}, Grouping: GroupingStory}
		if i := slices.IndexFunc(stored, func(x NotificationSetting) bool { return x.Type == t }); i >= 0 {
			n = stored[i]
		}
		out = append(out, s.withDefaultDestination(n, email))
	}
	return out, sv.Level >= authz.LevelEdit, nil
}

// SetNotificationSettings replaces the settings of the types given, keeps the others, and
// answers with every setting as stored. Nothing is stored when any is refused.
func (s *Service) SetNotificationSettings(ctx context.Context, actor authz.Actor, id int64, in []NotificationSetting) ([]NotificationSetting, error) {
	sv, err := s.Search(ctx, actor, id)
	if err != nil {
		return nil, err
	}
	if sv.Level < authz.LevelEdit {
		return nil, problem.Forbidden(MsgInvalidPermissions)
	}
	offered, email, signing, err := s.alertContext(ctx, actor)
	if err != nil {
		return nil, err
	}
	stored := StoredSettings(sv.NotificationSettings)
	now := s.now().Unix()
	seen := map[string]bool{}
	for _, n := range in {
		if _, known := allowedIntervals[n.Type]; !known {
			return nil, problem.InvalidField("type", fmt.Sprintf("Unknown alert type %q.", n.Type))
		}
		if seen[n.Type] {
			return nil, problem.InvalidField("type", fmt.Sprintf("The %s alert is given twice.", n.Type))
		}
		seen[n.Type] = true
		n = s.withDefaultDestination(n, email)
		n, msg := withGrouping(n, stored)
		if msg != "" {
			return nil, problem.InvalidField("grouping", msg)
		}
		msg, err := s.refuseAlert(ctx, actor.OrganizationID, offered, signing, n, stored)
		if err != nil {
			return nil, err
		}
		if msg != "" {
			return nil, problem.InvalidField(n.Type, msg)
		}
		i := slices.IndexFunc(stored, func(x NotificationSetting) bool { return x.Type == n.Type })
		if i >= 0 && sameSetting(stored[i], n) {
			continue
		}
		n.LastUpdatedAt = &now
		if i >= 0 {
			stored[i] = n
		} else {
			stored = append(stored, n)
		}
	}
	raw, err := json.Marshal(stored)
	if err != nil {
		return nil, err
	}
	if _, err := s.change(ctx, actor, id, func(m *Search) error { m.NotificationSettings = raw; return nil }); err != nil {
		return nil, err
	}
	out, _, err := s.NotificationSettings(ctx, actor, id)
	return out, err
}

// alertContext is the alert types the actor's organization offers, the actor's e-mail and
// whether the organization can sign webhooks. Proximity alerts need their flag and a tenant other
// than the designated one; AI summaries need their flag and the organization's AI feature
// (monitor-area.md section 6).
func (s *Service) alertContext(ctx context.Context, actor authz.Actor) ([]string, string, bool, error) {
	org, err := s.store.Organization(ctx, actor.OrganizationID)
	if err != nil {
		return nil, "", false, err
	}
	user, err := s.store.User(ctx, actor.UserID)
	if err != nil {
		return nil, "", false, err
	}
	tenant, err := s.store.Tenant(ctx, actor.TenantID)
	if err != nil {
		return nil, "", false, err
	}
	var offered []string
	for _, t := range alertTypes {
		switch {
		case t == AlertProximity && (!org.FeatureFlags[account.FlagProximityNotifications] || tenant.IsECS()):
		case t == AlertAISummary && !OffersAISummary(org):
		default:
			offered = append(offered, t)
		}
	}
	return offered, user.Email, org.WebhookSecret != "", nil
}

// OffersAISummary says whether the organization has AI summary alerts: their flag and its AI
// feature (the tenant portal's "AI features" switch).
func OffersAISummary(org account.Organization) bool {
	return org.FeatureFlags[account.FlagAISummaryNotifications] && org.IsMooseMindEnabled
}

// StoredSettings reads a search's stored alerts; what cannot be read counts as none. An alert
// stored before grouping existed groups by post, as it did then.
func StoredSettings(raw json.RawMessage) []NotificationSetting {
	var out []NotificationSetting
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil
	}
	for i := range out {
		if out[i].Grouping == "" {
			out[i].Grouping = GroupingPost
		}
	}
	return out
}

// withDefaultDestination gives an alert whose channel defaults to the user's e-mail, and that
// has no destination, the user's own address.
func (s *Service) withDefaultDestination(n NotificationSetting, email string) NotificationSetting {
	if n.Destinations == nil {
		n.Destinations = []Destination{}
	}
	if n.LocationAssetIDs == nil {
		n.LocationAssetIDs = []string{}
	}
	if ch, ok := s.channels.For(n.Type); ok && ch.Describe().DefaultsToUserEmail && len(n.Destinations) == 0 && email != "" {
		n.Destinations = []Destination{{Type: ch.Describe().Name, Address: email}}
	}
	return n
}

// refuseAlert is the first rule n breaks, or "": a type the organization does not offer cannot
// be turned on, then those of checkSetting, then a proximity alert watches only the
// organization's location configurations. What stored already had stays acceptable, so
// a search still saves after its organization lost the feature or deleted a location (the
// scheduler ignores a deleted location).
func (s *Service) refuseAlert(ctx context.Context, organizationID int64, offered []string, signing bool, n NotificationSetting, stored []NotificationSetting) (string, error) {
	var was NotificationSetting
	if i := slices.IndexFunc(stored, func(x NotificationSetting) bool { return x.Type == n.Type }); i >= 0 {
		was = stored[i]
	}
	if n.On() && !was.On() && !slices.Contains(offered, n.Type) {
		if n.Type == AlertProximity {
			return MsgProximityNotOffered, nil
		}
		return MsgAISummaryNotOffered, nil
	}
	if msg := s.checkSetting(n, signing); msg != "" {
		return msg, nil
	}
	for _, id := range n.LocationAssetIDs {
		if slices.Contains(was.LocationAssetIDs, id) {
			continue
		}
		c, err := s.store.LocationConfigurationByFPID(ctx, id)
		if problem.Is(err, problem.KindNotFound) || (err == nil && c.OrganizationID != organizationID) {
			return fmt.Sprintf(MsgUnknownLocation, id), nil
		}
		if err != nil {
			return "", err
		}
	}
	return "", nil
}

// checkSetting is the first rule n breaks on its own, or ""; signing says whether the
// organization has the secret every webhook is signed with.
func (s *Service) checkSetting(n NotificationSetting, signing bool) string {
	intervals := allowedIntervals[n.Type]
	if n.Type == AlertWebhook {
		if n.Interval != 0 {
			return "A webhook alert is sent at once; it takes no interval."
		}
	} else if !slices.Contains(intervals, n.Interval) {
		return fmt.Sprintf("%d seconds is not an interval a %s alert offers.", n.Interval, n.Type)
	}
	if n.Type == AlertProximity {
		if n.Interval > 0 && len(n.LocationAssetIDs) == 0 {
			return MsgProximityNeedsPlace
		}
		if len(n.LocationAssetIDs) > MaxProximityLocations {
			return fmt.Sprintf("A proximity alert watches at most %d locations.", MaxProximityLocations)
		}
	} else if len(n.LocationAssetIDs) > 0 {
		return "Only a proximity alert has locations."
	}
	// Each destination goes through the channel its type names, which must carry this alert.
	seen := map[string]bool{}
	for _, d := range n.Destinations {
		ch, ok := s.channels.Named(d.Type)
		if !ok || !slices.Contains(ch.Describe().AlertTypes, n.Type) {
			return fmt.Sprintf("A %s alert cannot go to a %s destination.", n.Type, d.Type)
		}
		if msg := ch.Check(d.Address); msg != "" {
			return msg
		}
		if d.Type == webhook.Name && !signing {
			return webhook.MsgNoSecret
		}
		key := d.Type + " " + strings.ToLower(d.Address)
		if seen[key] {
			return ch.Describe().Duplicate
		}
		seen[key] = true
	}
	if n.Type != AlertWebhook && n.Interval > 0 && len(n.Destinations) == 0 {
		return MsgKeepOneDestination
	}
	return ""
}

func sameSetting(a, b NotificationSetting) bool {
	a.LastUpdatedAt, b.LastUpdatedAt = nil, nil
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
