package bench

import (
	"cmp"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/sightline/sightline/internal/alerts"
	"github.com/sightline/sightline/internal/connector/simulator"
	"github.com/sightline/sightline/internal/enrich"
	"github.com/sightline/sightline/internal/geo"
	"github.com/sightline/sightline/internal/percolate"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/story"
)

// AlertsConfig is one run of `sightline bench alerts`.
type AlertsConfig struct {
	// Searches are the saved searches the replayed day goes through.
	Searches int
	// Hours of the simulator's stream to replay, at Rate posts a second of stream time, with
	// Bursts injected hours at BurstFactor times the rate.
	Hours       float64
	Rate        float64
	Bursts      int
	BurstFactor float64
	Seed        uint64
	// LatencySeconds of real time the latency measurement offers LatencyRate posts a second
	// to a whole node whose searches alert a webhook receiver and an SMTP server (0 skips it).
	LatencySeconds float64
	LatencyRate    int
	// LatencySearches are how many of the searches alert while timing (the first ones).
	LatencySearches int
	Progress        io.Writer
}

// AlertsResult is what `sightline bench alerts` prints.
type AlertsResult struct {
	Grouping GroupingResult `json:"grouping"`
	Latency  *LatencyResult `json:"latency,omitempty"`
	// Spikes are the spike detector's figures (recall on injected 3× bursts, false spikes per
	// series and simulated week) from bench spikes' replay, one series a saved search
	// (alertsSpikes): a replayed day is too short a history to detect spikes on.
	Spikes SpikesResult `json:"spikes"`
}

// alertsSpikes is the spike replay that fits a bench alerts run: a series for each of its
// saved searches, as long and as bursty as bench spikes' by default.
func alertsSpikes(cfg AlertsConfig) SpikesConfig {
	return SpikesConfig{Series: cfg.Searches, Weeks: 6, BurstsPerWeek: 2, Seed: cfg.Seed}
}

// GroupingResult compares the notifications of the replayed day grouped by post and by story.
type GroupingResult struct {
	Posts    int `json:"posts"`
	Searches int `json:"searches"`
	Stories  int `json:"stories"`
	// Matches is what grouping by post notifies: one alert a match, as before stories.
	Matches int `json:"matches"`
	// PostMessages is grouping by post as a webhook sends it: one message per search and
	// five-second run with new matches.
	PostMessages int `json:"post_messages"`
	// StoryNotices are the story grouping's notifications: first notices and escalations.
	StoryNotices int `json:"story_notices"`
	FirstNotices int `json:"first_notices"`
	Escalations  int `json:"escalations"`
	// ByReason are the escalations by why each was sent, the first reason that held
	// (alerts.Escalations); SeveralReasons those that named more than one.
	ByReason       EscalationReasons `json:"escalations_by_reason"`
	SeveralReasons int               `json:"escalations_several_reasons"`
	// Deferred are the escalations held for alerts.EscalationCooldown after the story's last
	// notice and sent when it ended.
	Deferred      int     `json:"escalations_deferred"`
	FewerVsMatch  float64 `json:"fewer_than_matches"`
	FewerVsPosted float64 `json:"fewer_than_post_messages"`
	// StoryPairs are the (search, story) pairs with a match; Notified those told of at least
	// once (every one, by the rule; the check is that the replay says so).
	StoryPairs int `json:"story_pairs"`
	Notified   int `json:"story_pairs_notified"`
	// HeldBack are the story notices (of StoryNotices) the flood guard (alerts.DefaultDailyLimit)
	// holds back for the next digest; SearchesHeld the searches that reached it.
	HeldBack     int `json:"held_back"`
	SearchesHeld int `json:"searches_held_back"`
}

// EscalationReasons count escalations by their reason, the first that held (alerts.Escalations).
type EscalationReasons struct {
	PostsTripled  int `json:"posts_tripled"`
	MoreProviders int `json:"more_providers"`
	MoreLanguages int `json:"more_languages"`
	ThreatHigh    int `json:"threat_high"`
}

// add counts one escalation of reason.
func (r *EscalationReasons) add(reason string) {
	switch reason {
	case alerts.EscalationPosts:
		r.PostsTripled++
	case alerts.EscalationProviders:
		r.MoreProviders++
	case alerts.EscalationLanguages:
		r.MoreLanguages++
	case alerts.EscalationThreat:
		r.ThreatHigh++
	}
}

// ReplayedDay is the stream the grouping replay went through, for the parts that measure more
// over it (alertsParts).
type ReplayedDay struct {
	Start, End time.Time
	// Posts in stream order, enriched, each with its story; Matches[i] are the ids of the
	// searches post i matched.
	Posts   []post.Post
	Matches [][]int64
	// Searches are the saved searches, Bursts the injected hours, each at its start.
	Searches []percolate.SavedSearch
	Bursts   []time.Time
	// BurstFactor is how much faster the stream ran in a burst.
	BurstFactor float64
}

// alertsParts measure more over the replayed day; files of this package add theirs in init.
var alertsParts []func(day *ReplayedDay, res *AlertsResult) error

// webhookRun is how often an immediate alert collects: the alert service's coalescing.
const webhookRun = alerts.WebhookCoalesce

// Alerts replays a day of the simulator's stream, with its recurring events and injected
// bursts, through saved searches and counts the notifications of post and story grouping;
// then it measures ingest-to-receiver latency through a whole node.
func Alerts(cfg AlertsConfig) (AlertsResult, error) {
	var res AlertsResult
	day, err := replayDay(cfg)
	if err != nil {
		return res, err
	}
	res.Grouping = groupDay(day)
	if cfg.Progress != nil {
		fmt.Fprintf(cfg.Progress, "replaying spike detection on %d series\n", cfg.Searches)
	}
	res.Spikes = Spikes(alertsSpikes(cfg))
	for _, part := range alertsParts {
		if err := part(day, &res); err != nil {
			return res, err
		}
	}
	if cfg.LatencySeconds > 0 {
		lat, err := alertLatency(cfg, day.Searches[:min(cfg.LatencySearches, len(day.Searches))])
		if err != nil {
			return res, err
		}
		res.Latency = &lat
	}
	return res, nil
}

// replayDay generates the day's posts at their stream times, bursts included, gives them
// stories as the pipeline's stage does, enriches them and matches them against the searches.
func replayDay(cfg AlertsConfig) (*ReplayedDay, error) {
	start := time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC) // a Monday
	end := start.Add(time.Duration(cfg.Hours * float64(time.Hour)))
	searches, err := searchesWithinStreamingLimit(cfg.Searches, int(max(1, cfg.Rate*cfg.BurstFactor)), start)
	if err != nil {
		return nil, err
	}
	gazetteer, err := geo.LoadGazetteer()
	if err != nil {
		return nil, err
	}
	enricher := enrich.New(gazetteer)
	rng := rand.New(rand.NewPCG(cfg.Seed, cfg.Seed+1))
	day := &ReplayedDay{Start: start, End: end, Searches: searches, BurstFactor: cfg.BurstFactor}
	hours := int(cfg.Hours)
	for _, h := range rng.Perm(max(hours, 1))[:min(cfg.Bursts, hours)] {
		day.Bursts = append(day.Bursts, start.Add(time.Duration(h)*time.Hour))
	}
	inBurst := func(t time.Time) bool {
		for _, b := range day.Bursts {
			if !t.Before(b) && t.Before(b.Add(time.Hour)) {
				return true
			}
		}
		return false
	}
	gen := simulator.NewGenerator(cfg.Seed)
	stage := story.NewStage()
	ix := percolate.New()
	if err := ix.Put(searches...); err != nil {
		return nil, err
	}
	const batch = 500
	var pending []post.Post
	flush := func() {
		stage.Assign(pending)
		docs := make([]percolate.Doc, len(pending))
		for i := range pending {
			docs[i] = *percolate.DocOf(pending[i])
		}
		day.Posts = append(day.Posts, pending...)
		day.Matches = append(day.Matches, ix.MatchBatch(docs, end)...)
		pending = pending[:0]
	}
	for t := start; t.Before(end); {
		p := gen.Next(t)
		if err := p.Normalize(t); err != nil {
			return nil, err
		}
		p.PublishedAt = t
		enricher.Enrich(&p)
		pending = append(pending, p)
		if len(pending) == batch {
			flush()
			if cfg.Progress != nil && len(day.Posts)%(20*batch) == 0 {
				fmt.Fprintf(cfg.Progress, "\rreplayed %s of %s", t.Sub(start).Truncate(time.Minute), end.Sub(start))
			}
		}
		rate := cfg.Rate
		if inBurst(t) {
			rate *= cfg.BurstFactor
		}
		t = t.Add(time.Duration(float64(time.Second) / rate))
	}
	flush()
	if cfg.Progress != nil {
		fmt.Fprintln(cfg.Progress)
	}
	return day, nil
}

// storyState is what the replay knows of a story: its posts so far (the story's figures, as
// its owner would see them all; languages the named ones, alerts.NamedLanguage).
type storyState struct {
	posts     int64
	providers map[string]bool
	languages map[string]bool
}

// groupDay runs the alert service's decisions over the day: every webhookRun, each search's
// new matches are one post-grouped message, and with story grouping a notice for each story
// first matching or escalating (alerts.Escalation), the flood guard counting them.
func groupDay(day *ReplayedDay) GroupingResult {
	res := GroupingResult{Posts: len(day.Posts), Searches: len(day.Searches)}
	stories := map[string]*storyState{}
	type pair struct {
		search int64
		story  string
	}
	told := map[pair]alerts.StoryNotice{}
	sent := map[int64][]time.Time{} // each search's notices, for the flood guard
	held := map[int64]bool{}
	notified := map[pair]bool{}
	// The escalations held for alerts.EscalationCooldown, and when each cooldown ends, in that
	// order.
	type cooling struct {
		p   pair
		end time.Time
	}
	pending := map[pair]bool{}
	var queue []cooling
	// The matches of the current run, by search, then by story in order of arrival.
	type runMatches struct {
		order   []string
		threat  map[string]bool
		matches int
	}
	var runEnd time.Time
	current := map[int64]*runMatches{}
	var searchOrder []int64
	// notice decides the notice of pair p at a run at, its new matches with a high threat or
	// not, as the alert service does: first notice, escalation, held or nothing.
	notice := func(p pair, threat bool, at time.Time) {
		s := stories[p.story]
		now := alerts.StoryNotice{PostCount: s.posts, Providers: len(s.providers), Languages: len(s.languages), ThreatHigh: threat, At: at}
		last, ok := told[p]
		reasons := []string{alerts.EscalationFirst}
		if ok {
			now.ThreatHigh = now.ThreatHigh || last.ThreatHigh
			if reasons = alerts.Escalations(last, now); len(reasons) == 0 {
				return
			}
			if end := alerts.CooledAt(last, reasons, at); !end.IsZero() {
				if !pending[p] {
					pending[p] = true
					i, _ := slices.BinarySearchFunc(queue, end, func(c cooling, t time.Time) int { return c.end.Compare(t) })
					queue = slices.Insert(queue, i, cooling{p, end})
				}
				return
			}
			now.Level = last.Level + 1
		}
		if pending[p] {
			delete(pending, p)
			res.Deferred++
		}
		// The flood guard: past the bound in 24 hours, held back for the digest and not
		// recorded as told, as the service does.
		window := sent[p.search][:0:0]
		for _, t := range sent[p.search] {
			if at.Sub(t) < 24*time.Hour {
				window = append(window, t)
			}
		}
		sent[p.search] = window
		// A notice held back goes in the next digest: it counts as told, once.
		told[p] = now
		notified[p] = true
		res.StoryNotices++
		if len(window) >= alerts.DefaultDailyLimit {
			res.HeldBack++
			held[p.search] = true
		} else {
			sent[p.search] = append(sent[p.search], at)
		}
		if reasons[0] == alerts.EscalationFirst {
			res.FirstNotices++
			return
		}
		res.Escalations++
		res.ByReason.add(reasons[0])
		if len(reasons) > 1 {
			res.SeveralReasons++
		}
	}
	// cooled sends the held escalations whose cooldown ended by t, at its end: the alert
	// service collects the search again then, with or without a new match.
	cooled := func(t time.Time) {
		for len(queue) > 0 && !queue[0].end.After(t) {
			c := queue[0]
			queue = queue[1:]
			if pending[c.p] {
				notice(c.p, false, c.end)
			}
		}
	}
	closeRun := func() {
		for _, sid := range searchOrder {
			rm := current[sid]
			res.PostMessages++
			for _, st := range rm.order {
				notice(pair{sid, st}, rm.threat[st], runEnd)
			}
		}
		cooled(runEnd)
		clear(current)
		searchOrder = searchOrder[:0]
	}
	pairs := map[pair]bool{}
	for i, p := range day.Posts {
		if p.PublishedAt.After(runEnd) || p.PublishedAt.Equal(runEnd) {
			closeRun()
			runEnd = p.PublishedAt.Truncate(webhookRun).Add(webhookRun)
		}
		id := cmp.Or(p.StoryID, p.ID)
		s := stories[id]
		if s == nil {
			s = &storyState{providers: map[string]bool{}, languages: map[string]bool{}}
			stories[id] = s
		}
		s.posts++
		s.providers[p.Provider] = true
		if alerts.NamedLanguage(p.Language) {
			s.languages[p.Language] = true
		}
		for _, sid := range day.Matches[i] {
			res.Matches++
			rm := current[sid]
			if rm == nil {
				rm = &runMatches{threat: map[string]bool{}}
				current[sid] = rm
				searchOrder = append(searchOrder, sid)
			}
			if !pairs[pair{sid, id}] {
				pairs[pair{sid, id}] = true
			}
			if _, seen := rm.threat[id]; !seen {
				rm.order = append(rm.order, id)
				rm.threat[id] = false
			}
			if p.Threat.Score >= enrich.HighThreat {
				rm.threat[id] = true
			}
		}
	}
	closeRun()
	cooled(runEnd.Add(alerts.EscalationCooldown)) // the day's last held escalations go after it
	res.Stories, res.StoryPairs, res.Notified, res.SearchesHeld = len(stories), len(pairs), len(notified), len(held)
	if res.Matches > 0 {
		res.FewerVsMatch = 1 - float64(res.StoryNotices)/float64(res.Matches)
	}
	if res.PostMessages > 0 {
		res.FewerVsPosted = 1 - float64(res.StoryNotices)/float64(res.PostMessages)
	}
	return res
}

// WriteText prints the result for people.
func (res AlertsResult) WriteText(w io.Writer) {
	g := res.Grouping
	fmt.Fprintf(w, "replayed           %d posts, %d stories, through %d saved searches: %d matches\n", g.Posts, g.Stories, g.Searches, g.Matches)
	fmt.Fprintf(w, "grouped by post    %d alerts (one a match); %d webhook messages (one a search and %s run)\n", g.Matches, g.PostMessages, webhookRun)
	fmt.Fprintf(w, "grouped by story   %d notices (%d first, %d escalations): %.1f %% fewer than by match, %.1f %% fewer than post messages\n",
		g.StoryNotices, g.FirstNotices, g.Escalations, 100*g.FewerVsMatch, 100*g.FewerVsPosted)
	r := g.ByReason
	fmt.Fprintf(w, "escalations        %d posts tripled, %d three more providers, %d two more languages, %d threat rose to high (first reason); %d name several; %d held for the %s cooldown\n",
		r.PostsTripled, r.MoreProviders, r.MoreLanguages, r.ThreatHigh, g.SeveralReasons, g.Deferred, alerts.EscalationCooldown)
	fmt.Fprintf(w, "stories notified   %d of %d (search, story) pairs; %d of the notices held back for the digest by the flood guard, in %d searches\n",
		g.Notified, g.StoryPairs, g.HeldBack, g.SearchesHeld)
	if l := res.Latency; l != nil {
		fmt.Fprintf(w, "ingest → webhook   p50 %.0f ms, p99 %.0f ms over %d notices (%d posts at %d/s, %d searches)\n",
			l.WebhookP50ms, l.WebhookP99ms, l.Webhooks, l.Posts, l.Rate, l.Searches)
		fmt.Fprintf(w, "ingest → SMTP      p50 %.0f ms, p99 %.0f ms over %d e-mails\n", l.MailP50ms, l.MailP99ms, l.Mails)
	}
	sp := res.Spikes
	fmt.Fprintf(w, "spikes             %d series × %.1f simulated weeks: %d of %d injected 3× bursts detected, recall %.3f (target ≥ %.2f)\n",
		sp.Series, sp.SimulatedWeeks, sp.Detected, sp.Bursts, sp.Recall, SpikeRecallTarget)
	fmt.Fprintf(w, "false spikes       %d: %.3f per series per simulated week (target ≤ %.0f); median detection delay %.0f min\n",
		sp.FalseSpikes, sp.FalsePerSeriesWeek, FalseSpikesPerWeek, sp.MedianDelayMinutes)
}
