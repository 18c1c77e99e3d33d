package evidence

import (
	"context"
	"strconv"
	"time"

	"github.com/sightline/sightline/internal/audit"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/enrich"
	"github.com/sightline/sightline/internal/problem"
)

// Automatic capture modes of a saved search.
const (
	AutoOff  = "off"
	AutoHigh = "high" // matches whose threat is high (enrich.HighThreat and above)
	AutoAll  = "all"
)

// AutoModes are the modes, for validation and the web app.
var AutoModes = []string{AutoOff, AutoHigh, AutoAll}

// Auto is a saved search's automatic capture.
type Auto struct {
	SearchID       int64
	OrganizationID int64
	TenantID       int64
	// Mode is high or all; "" (or off) turns it off.
	Mode string
	// AfterMatchID: matches stored before automatic capture was turned on are not captured.
	AfterMatchID int64
	SetBy        int64
}

// AutoMatch is a match of a search with automatic capture on, not looked at yet.
type AutoMatch struct {
	SearchID       int64
	SearchName     string
	OrganizationID int64
	TenantID       int64
	MatchID        int64
	PostID         string
	Threat         int
	Mode           string
}

// AutoPayload is a search's automatic capture as the API sends it.
type AutoPayload struct {
	Mode string `json:"mode"`
	// Quota is how many automatic captures the organization gets a UTC day (0: no limit).
	Quota int `json:"quota"`
}

// AutoCapture is a saved search's automatic capture mode, for whoever may see the search.
func (s *Service) AutoCapture(ctx context.Context, actor authz.Actor, searchID int64) (AutoPayload, error) {
	if _, err := s.Matches.Search(ctx, actor, searchID); err != nil {
		return AutoPayload{}, err
	}
	a, found, err := s.Store.AutoCapture(ctx, searchID)
	if err != nil {
		return AutoPayload{}, err
	}
	p := AutoPayload{Mode: AutoOff, Quota: max(0, s.AutoQuota)}
	if found {
		p.Mode = a.Mode
	}
	return p, nil
}

// SetAutoCapture turns a saved search's automatic capture on or off, for whoever may edit the
// search; audited.
func (s *Service) SetAutoCapture(ctx context.Context, actor authz.Actor, searchID int64, mode string) (AutoPayload, error) {
	sv, err := s.Matches.Search(ctx, actor, searchID)
	if err != nil {
		return AutoPayload{}, err
	}
	if err := authz.CanSetAutoCapture(sv.Level); err != nil {
		return AutoPayload{}, err
	}
	switch mode {
	case AutoOff, AutoHigh, AutoAll:
	default:
		return AutoPayload{}, problem.InvalidField("mode", "The mode must be off, high or all.")
	}
	before, err := s.AutoCapture(ctx, actor, searchID)
	if err != nil {
		return AutoPayload{}, err
	}
	a := Auto{SearchID: searchID, OrganizationID: sv.OrganizationID, TenantID: actor.TenantID, Mode: mode, SetBy: actor.UserID}
	if mode == AutoOff {
		a.Mode = ""
	}
	entries := audit.Updated(actor, audit.ModelSearch, searchID, audit.Fields{"autoCapture": before.Mode}, audit.Fields{"autoCapture": mode})
	if err := s.Store.SetAutoCapture(ctx, a, entries...); err != nil {
		return AutoPayload{}, err
	}
	return AutoPayload{Mode: mode, Quota: max(0, s.AutoQuota)}, nil
}

// ScanAuto captures the matches of searches with automatic capture on that arrived since the
// last scan, within each organization's daily quota; it returns how many it queued.
func (s *Service) ScanAuto(ctx context.Context) (int, error) {
	queued := 0
	for {
		batch, err := s.Store.AutoMatches(ctx, 200)
		if err != nil || len(batch) == 0 {
			return queued, err
		}
		for _, m := range batch {
			if m.Mode == AutoHigh && m.Threat < enrich.HighThreat {
				if err := s.Store.SkipAutoMatch(ctx, m.SearchID, m.MatchID); err != nil {
					return queued, err
				}
				continue
			}
			created, err := s.autoCapture(ctx, m)
			if err != nil {
				return queued, err
			}
			if created {
				queued++
			}
		}
		if queued > 0 {
			s.nudge()
		}
	}
}

func (s *Service) autoCapture(ctx context.Context, m AutoMatch) (bool, error) {
	r := Record{TenantID: m.TenantID, OrganizationID: m.OrganizationID, SearchID: m.SearchID,
		CapturedBy: "Automatic capture of the saved search “" + m.SearchName + "”", Kind: KindMatch,
		Target: strconv.FormatInt(m.MatchID, 10), State: StatePending, CreatedAt: s.Now().UTC()}
	p, err := s.Posts.Post(ctx, m.PostID, m.TenantID)
	if problem.Is(err, problem.KindNotFound) {
		// Gone since (retention): nothing left to capture.
		return false, s.Store.SkipAutoMatch(ctx, m.SearchID, m.MatchID)
	}
	if err != nil {
		return false, err
	}
	if err := postFiles(&r, p); err != nil {
		return false, err
	}
	day := r.CreatedAt.Truncate(24 * time.Hour)
	q := AutoQuota{Limit: s.AutoQuota, Since: day, Until: day.Add(24 * time.Hour)}
	created, over, err := s.Store.CreateAutoEvidence(ctx, &r, q)
	if over {
		s.Logger.Warn("evidence: the organization's automatic captures for today are used up",
			"organization", m.OrganizationID, "search", m.SearchID, "match", m.MatchID)
	}
	return created, err
}

// RunAuto scans for automatic captures every interval until ctx ends.
func (s *Service) RunAuto(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if _, err := s.ScanAuto(ctx); err != nil && ctx.Err() == nil {
			s.Logger.Warn("evidence: automatic capture", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
