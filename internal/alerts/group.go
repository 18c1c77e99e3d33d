package alerts

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/enrich"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/story"
)

// Escalation reasons of a story notice (the webhook's "escalation").
const (
	EscalationFirst     = "first_match"    // the story's first notice
	EscalationPosts     = "posts_tripled"  // its post count tripled since the last notice
	EscalationProviders = "more_providers" // it reached three more providers
	EscalationLanguages = "more_languages" // it reached two more languages
	EscalationThreat    = "threat_high"    // its threat rose to high (enrich.HighThreat)
)

// What a story must gain since its last notice to be told of again (issue 31). The post count
// triples from at least escalatePostsFrom: a story going from one post to three is still the
// small story its first notice told of, and its next count notice comes at nine.
const (
	escalatePostsFactor = 3
	escalatePostsFrom   = 3
	escalateProviders   = 3
	escalateLanguages   = 2
)

// DefaultDailyLimit is the flood guard's bound when the organization sets none: the
// notifications a saved search sends in 24 hours.
const DefaultDailyLimit = 50

// floodWindow is the flood guard's window.
const floodWindow = 24 * time.Hour

// EscalationCooldown is how long after a notice of a story to an alert's destination its
// further escalations wait (docs/monitor-api.md, "Escalation cooldown"): an event story
// reaches three more sources every few posts while it spreads, and one notice a minute tells
// of it as well as one every few seconds. A held escalation is not dropped: it is sent when the
// cooldown ends, whether or not the story matches again, as one notice of the story as it is
// then, naming every reason that holds. A threat rising to high is not held.
const EscalationCooldown = time.Minute

// Escalations are why a story whose last notice was last and whose figures are now is told of
// again, every reason that holds in the order; none when it is not.
func Escalations(last, now StoryNotice) []string {
	var out []string
	if now.PostCount >= escalatePostsFactor*max(last.PostCount, escalatePostsFrom) {
		out = append(out, EscalationPosts)
	}
	if now.Providers >= last.Providers+escalateProviders {
		out = append(out, EscalationProviders)
	}
	if now.Languages >= last.Languages+escalateLanguages {
		out = append(out, EscalationLanguages)
	}
	if now.ThreatHigh && !last.ThreatHigh {
		out = append(out, EscalationThreat)
	}
	return out
}

// Escalation is the reasons of Escalations as a delivery records them, comma-separated ("" when
// none); Reasons splits them again.
func Escalation(last, now StoryNotice) string { return strings.Join(Escalations(last, now), ",") }

// Reasons are the reasons of a delivery's escalation, in the order.
func Reasons(escalation string) []string {
	if escalation == "" {
		return nil
	}
	return strings.Split(escalation, ",")
}

// CooledAt is when an escalation of a story last told of at last may be sent: at once (zero)
// when the cooldown has passed by now or a reason is the threat rising to high, else when the
// cooldown after the last notice ends.
func CooledAt(last StoryNotice, reasons []string, now time.Time) time.Time {
	end := last.At.Add(EscalationCooldown)
	if slices.Contains(reasons, EscalationThreat) || !now.Before(end) {
		return time.Time{}
	}
	return end
}

// EscalationText says an escalation's reasons (comma-separated, as Escalation writes them) in
// words.
func EscalationText(escalation string) string {
	var out []string
	for _, reason := range Reasons(escalation) {
		out = append(out, reasonText(reason))
	}
	return strings.Join(out, "; ")
}

func reasonText(reason string) string {
	switch reason {
	case EscalationFirst:
		return "first matched the search"
	case EscalationPosts:
		return "its post count tripled"
	case EscalationProviders:
		return "it reached three more sources"
	case EscalationLanguages:
		return "it reached two more languages"
	case EscalationThreat:
		return "its threat level rose to high"
	}
	return reason
}

// run is what one alert run knows of its search: the owner, the snooze, the mutes and the
// flood guard's count, read once for all destinations.
type run struct {
	m        monitor.Search
	n        monitor.NotificationSetting
	now      time.Time
	snoozed  time.Time
	muted    map[string]bool
	limit    int
	sent     int // notifications counted by the flood guard in its window, this run's included
	heldBack bool
	// cooling is when the first escalation this run held for EscalationCooldown may be sent
	// (zero: none held); Run collects the search again then.
	cooling time.Time
}

// prepareRun reads what every destination of the run needs.
func (s *Service) prepareRun(ctx context.Context, m monitor.Search, n monitor.NotificationSetting, now time.Time) (*run, error) {
	r := &run{m: m, n: n, now: now, muted: map[string]bool{}, limit: DefaultDailyLimit}
	sn, err := s.Store.Snooze(ctx, m.ID)
	if err != nil {
		return nil, err
	}
	if now.Before(sn.Until) {
		r.snoozed = sn.Until
	}
	mutes, err := s.Store.MutedStories(ctx, m.ID)
	if err != nil {
		return nil, err
	}
	for _, mu := range mutes {
		r.muted[mu.StoryID] = true
	}
	if guarded(n.Type) {
		org, err := s.Store.Organization(ctx, m.OrganizationID)
		if err != nil {
			return nil, err
		}
		if org.AlertDailyLimit > 0 {
			r.limit = int(org.AlertDailyLimit)
		}
		if r.sent, err = s.Store.CountNotifications(ctx, m.ID, now.Add(-floodWindow)); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// guarded says whether the flood guard bounds an alert type: not digests and summaries, one a
// day already, which take what it holds back.
func guarded(alertType string) bool {
	return alertType != monitor.AlertDigest && alertType != monitor.AlertAISummary
}

// storyGrouped says whether an alert sends a notice per story: digests and summaries, one
// message a day, list their matches by story instead.
func storyGrouped(n monitor.NotificationSetting) bool {
	return n.Grouping == monitor.GroupingStory && guarded(n.Type)
}

// plan writes the deliveries of one destination's new matches (ids, oldest first): skipped
// while snoozed; the muted stories' matches skipped; the rest one delivery, or with story
// grouping one notice per story first matching or escalating and the others skipped as
// grouped; past the flood guard's bound, held back with one notice that says so.
func (s *Service) plan(ctx context.Context, r *run, d monitor.Destination, ids []int64) error {
	base := Delivery{SearchID: r.m.ID, OrganizationID: r.m.OrganizationID, Type: r.n.Type, Destination: d,
		Status: StatusPending, NextAttemptAt: r.now, CreatedAt: r.now, Kind: KindMatches}
	if snoozed, err := s.skipSnoozed(ctx, r, base, ids); snoozed || err != nil {
		return err
	}
	groups, unread, err := s.byStory(ctx, r.m, ids)
	if err != nil {
		return err
	}
	var muted []int64
	var mutedStories []string
	for _, g := range groups {
		if r.muted[g.story] {
			muted = append(muted, g.ids...)
			mutedStories = append(mutedStories, g.story)
		}
	}
	groups = slices.DeleteFunc(groups, func(g storyGroup) bool { return r.muted[g.story] })
	if len(muted) > 0 {
		if err := s.skip(ctx, base, muted, SkippedMuted, "Muted stories: "+strings.Join(mutedStories, ", ")+"."); err != nil {
			return err
		}
	}
	if !storyGrouped(r.n) {
		var rest []int64
		for _, g := range groups {
			rest = append(rest, g.ids...)
		}
		rest = append(rest, unread...) // the send reads what it still can
		slices.Sort(rest)
		if len(rest) == 0 {
			return nil
		}
		dv := base
		return s.notify(ctx, r, &dv, rest)
	}
	if len(unread) > 0 {
		if err := s.skip(ctx, base, unread, SkippedGrouped, "The search's owner can no longer read these matches."); err != nil {
			return err
		}
	}
	return s.planStories(ctx, r, base, groups)
}

// planStories writes a notice for each story that first matches or escalates, and one
// skipped delivery for the matches of the others.
func (s *Service) planStories(ctx context.Context, r *run, base Delivery, groups []storyGroup) error {
	storyIDs := make([]string, len(groups))
	for i, g := range groups {
		storyIDs[i] = g.story
	}
	last, err := s.Store.LastStoryNotices(ctx, r.m.ID, r.n.Type, base.Destination.Address, storyIDs)
	if err != nil {
		return err
	}
	actor, err := s.owner(ctx, r.m)
	if err != nil {
		return err
	}
	var grouped []int64
	var quiet []string
	for _, g := range groups {
		figures := s.figures(ctx, actor, g)
		prev, told := last[g.story]
		reason := EscalationFirst
		level := 0
		if told {
			figures.ThreatHigh = figures.ThreatHigh || prev.ThreatHigh
			reasons := Escalations(prev, figures)
			if len(reasons) == 0 {
				grouped = append(grouped, g.ids...)
				quiet = append(quiet, g.story)
				continue
			}
			if at := CooledAt(prev, reasons, r.now); !at.IsZero() {
				// Held: its matches stay uncovered, so the run at the cooldown's end (or any
				// before it, on any node) reads them again and tells of the story as it is then.
				if r.cooling.IsZero() || at.Before(r.cooling) {
					r.cooling = at
				}
				continue
			}
			reason, level = strings.Join(reasons, ","), prev.Level+1
		}
		figures.StoryID, figures.Level = g.story, level
		dv := base
		dv.Kind, dv.StoryID, dv.StoryLevel, dv.Escalation, dv.Notice = KindStory, g.story, level, reason, &figures
		if err := s.notify(ctx, r, &dv, g.ids); err != nil {
			return err
		}
	}
	if len(grouped) == 0 {
		return nil
	}
	slices.Sort(grouped)
	return s.skip(ctx, base, grouped, SkippedGrouped, fmt.Sprintf("Already notified, not escalated: %s.", strings.Join(quiet, ", ")))
}

// notify writes dv, covering ids, to be sent; past the flood guard's bound it is held back
// instead, and the first held back in the window brings the guard's notice.
func (s *Service) notify(ctx context.Context, r *run, dv *Delivery, ids []int64) error {
	dv.MatchCount = cmp.Or(dv.MatchCount, len(ids)) // a spike's delivery counts the spike's posts
	if guarded(r.n.Type) && r.sent >= r.limit {
		note := fmt.Sprintf("Held back: the search sent %d notifications in 24 hours, its limit; they go in its next digest.", r.limit)
		switch {
		case dv.Type == monitor.AlertSpike:
			// The spike stays on the search's timeline and the Spikes widget; no digest lists spikes.
			note = fmt.Sprintf("Held back (spike %d): the search sent %d notifications in 24 hours, its limit.", ids[0], r.limit)
		case dv.StoryID != "":
			note = fmt.Sprintf("Held back (story %s, %s): the search sent %d notifications in 24 hours, its limit; they go in its next digest.",
				dv.StoryID, EscalationText(dv.Escalation), r.limit)
		}
		held := *dv
		held.Notice = nil // a story held back is told of when the guard lets it through
		if err := s.skip(ctx, held, ids, SkippedHeld, note); err != nil {
			return err
		}
		return s.floodNotice(ctx, r, dv.Destination)
	}
	ok, err := s.Store.CreateDelivery(ctx, dv, ids)
	if ok {
		r.sent++
		s.written()
	}
	return err
}

// skipSnoozed records ids as skipped while the search's alerts are snoozed, saying until when,
// and reports whether it did: the one snooze gate of every alert kind (matches and spikes).
func (s *Service) skipSnoozed(ctx context.Context, r *run, dv Delivery, ids []int64) (bool, error) {
	if r.snoozed.IsZero() {
		return false, nil
	}
	return true, s.skip(ctx, dv, ids, SkippedSnoozed, "The search's alerts are snoozed until "+r.snoozed.UTC().Format(time.RFC3339)+".")
}

// written tells Run's sender that a delivery is waiting.
func (s *Service) written() {
	if s.onWritten != nil {
		s.onWritten()
	}
}

// floodNotice writes the guard's notice, once a search and day whichever node or alert is
// first.
func (s *Service) floodNotice(ctx context.Context, r *run, d monitor.Destination) error {
	if r.heldBack {
		return nil
	}
	r.heldBack = true
	dv := Delivery{SearchID: r.m.ID, OrganizationID: r.m.OrganizationID, Type: r.n.Type, Destination: d,
		Status: StatusPending, NextAttemptAt: r.now, CreatedAt: r.now, Kind: KindFlood,
		FloodDay: r.now.UTC().Truncate(24 * time.Hour),
		Note:     fmt.Sprintf("The search reached its %d notifications in 24 hours.", r.limit)}
	ok, err := s.Store.CreateDelivery(ctx, &dv, nil)
	if ok {
		s.written()
	}
	return err
}

// skip writes a skipped delivery of ids with why.
func (s *Service) skip(ctx context.Context, base Delivery, ids []int64, why, note string) error {
	if len(ids) == 0 {
		return nil
	}
	dv := base
	dv.Status, dv.NextAttemptAt, dv.Skipped, dv.Note, dv.MatchCount = StatusSkipped, time.Time{}, why, note, cmp.Or(dv.MatchCount, len(ids))
	_, err := s.Store.CreateDelivery(ctx, &dv, ids)
	return err
}

// storyGroup is the new matches of one story.
type storyGroup struct {
	story   string
	ids     []int64
	entries []monitor.InboxEntry
}

// byStory groups the matches by their post's story, in the order each story's first match
// came; a post without a story is a story of its own (as the stories stage seeds it). The
// matches the owner can no longer read come back apart.
func (s *Service) byStory(ctx context.Context, m monitor.Search, ids []int64) ([]storyGroup, []int64, error) {
	entries, err := s.entries(ctx, m, ids)
	if err != nil {
		return nil, nil, err
	}
	slices.SortFunc(entries, func(a, b monitor.InboxEntry) int { return cmp.Compare(a.ID, b.ID) })
	var groups []storyGroup
	at := map[string]int{}
	read := map[int64]bool{}
	for _, e := range entries {
		read[e.ID] = true
		id := cmp.Or(e.Post.StoryID, e.Post.ID)
		i, ok := at[id]
		if !ok {
			i = len(groups)
			at[id] = i
			groups = append(groups, storyGroup{story: id})
		}
		groups[i].ids = append(groups[i].ids, e.ID)
		groups[i].entries = append(groups[i].entries, e)
	}
	var unread []int64
	for _, id := range ids {
		if !read[id] {
			unread = append(unread, id)
		}
	}
	return groups, unread, nil
}

// figures are a story's figures as the owner sees it: its posts, sources and languages, and
// whether any of its new matches is a high threat. A story the store cannot read (stored
// before stories) counts its new matches.
func (s *Service) figures(ctx context.Context, actor authz.Actor, g storyGroup) StoryNotice {
	var f StoryNotice
	for _, e := range g.entries {
		if e.Post.Threat.Score >= enrich.HighThreat {
			f.ThreatHigh = true
		}
	}
	if s.Stories != nil {
		if v, err := s.Stories.Get(ctx, actor, g.story, 0, 1); err == nil {
			f.PostCount, f.Providers, f.Languages = v.PostCount, len(v.Providers), namedLanguages(v.Languages)
			return f
		}
	}
	providers, languages := map[string]bool{}, map[string]bool{}
	for _, e := range g.entries {
		providers[e.Post.Provider] = true
		if NamedLanguage(e.Post.Language) {
			languages[e.Post.Language] = true
		}
	}
	f.PostCount, f.Providers, f.Languages = int64(len(g.entries)), len(providers), len(languages)
	return f
}

// NamedLanguage says whether a post's language counts among its story's languages for the
// story's escalations: a language named, not "und" (a text too short or too ambiguous to
// tell, enrich.Undetermined) nor "" (none given). Posts that say nothing of their language do
// not spread a story to another one; counted, a story of English posts and short replies
// would "reach two more languages" with one new language.
func NamedLanguage(lang string) bool { return lang != "" && lang != enrich.Undetermined }

// namedLanguages counts the named languages (NamedLanguage) of a story's language counts.
func namedLanguages(cs []story.Count) int {
	n := 0
	for _, c := range cs {
		if NamedLanguage(c.Name) {
			n++
		}
	}
	return n
}
