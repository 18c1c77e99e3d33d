package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/alerts"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
	"github.com/sightline/sightline/internal/story"
)

// storyPost is one post of a story for addStoryMatches.
type storyPost struct {
	story, provider, lang string
	threat                int
}

// addStoryMatches stores posts of stories as new matches of the search, now.
func (x *alertEnv) addStoryMatches(email string, searchID int64, posts ...storyPost) {
	x.t.Helper()
	ctx := context.Background()
	a := x.actor(email)
	now := time.Now().UTC().Truncate(time.Millisecond)
	var ps []post.Post
	var ms []monitor.Match
	for _, sp := range posts {
		x.added++
		id := fmt.Sprintf("story-post-%d", x.added)
		ps = append(ps, post.Post{ID: id, Provider: sp.provider, NativeID: id, Type: post.TypeThreadPost, Language: sp.lang,
			AuthorName: "Ana", ContentText: fmt.Sprintf("The flood reached the bridge of %s, report %d.", sp.story, x.added),
			PublishedAt: now, DiscoveredAt: now, StoryID: sp.story, Threat: post.Threat{Score: sp.threat}})
		ms = append(ms, monitor.Match{SearchID: searchID, OrganizationID: a.OrganizationID, PostID: id,
			PublishedAt: now, DiscoveredAt: now, Provider: sp.provider})
	}
	if _, err := x.store.InsertPosts(ctx, ps); err != nil {
		x.t.Fatal(err)
	}
	if _, err := x.store.InsertMatches(ctx, ms); err != nil {
		x.t.Fatal(err)
	}
}

// hookBodies are the webhooks received, decoded.
func (x *alertEnv) hookBodies() []alerts.WebhookBody {
	var out []alerts.WebhookBody
	for _, h := range x.receiver.all() {
		var b alerts.WebhookBody
		if err := json.Unmarshal(h.body, &b); err != nil {
			x.t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// storyRun stores the posts as new matches of the owner's search, advances the clock, runs the
// alerts and returns the run's webhooks as story:escalation, sorted: deliveries written in one
// run go out in no fixed order.
func (x *alertEnv) storyRun(searchID int64, advance time.Duration, posts ...storyPost) []string {
	x.t.Helper()
	before := len(x.receiver.all())
	x.addStoryMatches("owner@acme.test", searchID, posts...)
	x.clock.Advance(advance)
	x.run()
	var run []string
	for _, b := range x.hookBodies()[before:] {
		run = append(run, b.StoryID+":"+b.Escalation)
	}
	slices.Sort(run)
	return run
}

// newStoryAlertEnv is an alert environment whose owner has a search with a webhook alert
// grouped by story, as a new alert is.
func newStoryAlertEnv(t *testing.T, s *store.Store) (x *alertEnv, owner *client, searchID int64) {
	t.Helper()
	x = newAlertEnv(t, s, true)
	owner = x.signedIn("owner@acme.test")
	x.seed("owner@acme.test", 0)
	searchID = x.searchID("owner@acme.test")
	org := x.actor("owner@acme.test").OrganizationID
	if r := owner.do("PUT", fmt.Sprintf("/api/v1/settings/organizations/%d/webhook", org), nil, withBearer(owner.bearer)); r.status != 200 {
		x.t.Fatalf("rotate = %d %v", r.status, r.body)
	}
	// No grouping given: a new alert groups by story.
	r := x.settings(owner, searchID, []map[string]any{
		{"type": "webhook", "interval": 0, "destinations": []map[string]string{{"type": "webhook", "address": x.receiver.srv.URL + "/hook"}}},
	})
	if r.status != 200 {
		x.t.Fatalf("PUT = %d %v", r.status, r.body)
	}
	for _, n := range r.body["data"].([]any) {
		if dig(n, "type") == "webhook" && dig(n, "grouping") != "story" {
			x.t.Fatalf("a new webhook alert groups by %v", dig(n, "grouping"))
		}
	}
	x.clock.Advance(time.Second)
	return x, owner, searchID
}

// With story grouping, a story is told of once when it first matches and once more at each
// escalation; its other posts are listed as grouped in the delivery history, and a second node
// (or a restart) sends nothing again.
func TestAlertsGroupByStory(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		x, owner, searchID := newStoryAlertEnv(t, s)
		var got []string
		step := func(posts ...storyPost) { // each escalation after the last's cooldown
			t.Helper()
			got = append(got, x.storyRun(searchID, alerts.EscalationCooldown, posts...)...)
		}

		step(storyPost{"quake", "reddit", "en", 0}, storyPost{"quake", "reddit", "en", 0}, storyPost{"fire", "reddit", "en", 0})
		step(storyPost{"quake", "reddit", "en", 0}) // 3 posts: not tripled (counted from three, as from 2)
		quake := storyPost{"quake", "reddit", "en", 0}
		step(storyPost{"quake", "telegram", "en", 0}, quake, quake, quake, quake, quake)                                        // 9 posts: tripled from three
		step(storyPost{"fire", "reddit", "en", 80})                                                                             // threat rises to high
		step(storyPost{"fire", "mastodon", "fr", 0}, storyPost{"fire", "telegram", "de", 0}, storyPost{"fire", "rss", "es", 0}) // 3 more providers
		want := []string{"fire:first_match", "quake:first_match", "quake:posts_tripled", "fire:threat_high", "fire:more_providers"}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("webhooks %v, want %v", got, want)
		}
		var first alerts.WebhookBody
		for _, b := range x.hookBodies() {
			if b.StoryID == "quake" && b.Escalation == "first_match" {
				first = b
			}
		}
		if first.Type != "monitor.story" || first.Story == nil || first.Story.PostCount != 2 || first.MatchCount != 2 ||
			len(first.Matches) != 2 || first.Story.Providers[0].Name != "reddit" || first.Story.FirstSeenAt == "" {
			t.Errorf("first story webhook = %+v", first)
		}

		// Another node, or the same after a restart: nothing new, nothing sent.
		again := alerts.NewService(alerts.Deps{Store: s, Matches: x.monitor, Channels: x.alerts.Channels,
			PublicURL: "https://sightline.example", Now: x.clock.Now})
		x.clock.Advance(time.Minute)
		x.runOn(again)
		if n := len(x.receiver.all()); n != len(want) {
			t.Errorf("%d webhooks after another node ran, want %d", n, len(want))
		}

		r := owner.do("GET", fmt.Sprintf("/api/v1/monitor/searches/%d/deliveries", searchID), nil, withBearer(owner.bearer))
		var grouped int
		for _, d := range r.body["data"].([]any) {
			if dig(d, "status") == "skipped" && dig(d, "skipped") == "grouped" && strings.Contains(dig(d, "note").(string), "quake") {
				grouped++
			}
		}
		if grouped != 1 {
			t.Errorf("%d grouped deliveries of quake in the history, want 1: %v", grouped, r.body)
		}
	})
}

// A muted story and a snoozed search send nothing; both are listed in the history with why,
// both are audited, and another organization cannot see or change them.
func TestAlertsSnoozeAndMute(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		x, owner, searchID := newStoryAlertEnv(t, s)
		base := fmt.Sprintf("/api/v1/monitor/searches/%d", searchID)

		other := x.signedIn("owner@globex.test")
		for _, c := range []struct{ method, path string }{{"GET", "/alert-quiet"}, {"PUT", "/snooze"}, {"PUT", "/muted-stories/fire"}} {
			if r := other.do(c.method, base+c.path, map[string]string{"for": "1h"}, withBearer(other.bearer)); r.status != 404 {
				t.Errorf("another organization's %s %s = %d, want 404", c.method, c.path, r.status)
			}
		}
		for _, bad := range []map[string]any{{"for": "2h"}, {"until": time.Now().Add(-time.Hour).Unix()}, {}} {
			if r := owner.do("PUT", base+"/snooze", bad, withBearer(owner.bearer)); r.status != 422 {
				t.Errorf("snooze %v = %d, want 422", bad, r.status)
			}
		}

		if r := owner.do("PUT", base+"/muted-stories/fire", nil, withBearer(owner.bearer)); r.status != 200 ||
			dig(r.body, "data", "mutedStories").([]any)[0].(map[string]any)["storyId"] != "fire" {
			t.Fatalf("mute = %d %v", r.status, r.body)
		}
		if got := x.storyRun(searchID, 10*time.Second, storyPost{"fire", "reddit", "en", 0},
			storyPost{"quake", "reddit", "en", 0}); !slices.Equal(got, []string{"quake:first_match"}) {
			t.Fatalf("with fire muted, webhooks %v", got)
		}

		r := owner.do("PUT", base+"/snooze", map[string]string{"for": "8h"}, withBearer(owner.bearer))
		until, _ := dig(r.body, "data", "snoozedUntil").(float64)
		if r.status != 200 || time.Until(time.Unix(int64(until), 0)) < 7*time.Hour {
			t.Fatalf("snooze = %d %v", r.status, r.body)
		}
		if got := x.storyRun(searchID, 10*time.Second, storyPost{"flood", "reddit", "en", 0}); len(got) != 0 {
			t.Fatalf("webhooks %v while snoozed, want none", got)
		}
		// Woken, a story first seen while snoozed is told of with its next post.
		if r := owner.do("DELETE", base+"/snooze", nil, withBearer(owner.bearer)); r.status != 200 || dig(r.body, "data", "snoozedUntil") != nil {
			t.Fatalf("wake = %d %v", r.status, r.body)
		}
		if got := x.storyRun(searchID, 10*time.Second, storyPost{"flood", "reddit", "en", 0}); !slices.Equal(got, []string{"flood:first_match"}) {
			t.Fatalf("after waking, webhooks %v", got)
		}

		why := map[string]int{}
		r = owner.do("GET", base+"/deliveries", nil, withBearer(owner.bearer))
		for _, d := range r.body["data"].([]any) {
			why[dig(d, "skipped").(string)]++
		}
		if why["muted"] != 1 || why["snoozed"] != 1 {
			t.Errorf("history reasons %v, want one muted and one snoozed", why)
		}
		entries, err := s.AuditLog(context.Background(), x.actor("owner@acme.test").TenantID, 100)
		if err != nil {
			t.Fatal(err)
		}
		var audited []string
		for _, e := range entries {
			if e.Model != "alert" {
				continue
			}
			audited = append(audited, e.Action+" "+e.NewValue+e.PreviousValue)
		}
		all := strings.Join(audited, "\n")
		for _, want := range []string{`muted_story":"fire"`, "snoozed_until"} {
			if !strings.Contains(all, want) {
				t.Errorf("the audit log lacks %s:\n%s", want, all)
			}
		}
	})
}

// Past its organization's limit, a search's notifications are held back, with one notice.
func TestAlertsFloodGuard(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		x, owner, searchID := newStoryAlertEnv(t, s)
		org := x.actor("owner@acme.test").OrganizationID
		if _, err := s.ChangeOrganization(context.Background(), org, func(o *account.Organization) ([]account.AuditEntry, error) {
			o.AlertDailyLimit = 2
			return nil, nil
		}); err != nil {
			t.Fatal(err)
		}
		for _, story := range []string{"a", "b", "c", "d"} {
			x.storyRun(searchID, 10*time.Second, storyPost{story, "reddit", "en", 0})
		}
		var types []string
		for _, b := range x.hookBodies() {
			types = append(types, b.Type+":"+b.StoryID)
		}
		if got := strings.Join(types, " "); got != "monitor.story:a monitor.story:b monitor.flood:" {
			t.Errorf("webhooks %s; want two stories and one flood notice", got)
		}
		r := owner.do("GET", fmt.Sprintf("/api/v1/monitor/searches/%d/deliveries", searchID), nil, withBearer(owner.bearer))
		held := 0
		for _, d := range r.body["data"].([]any) {
			if dig(d, "skipped") == "held" {
				held++
			}
		}
		if held != 2 {
			t.Errorf("%d held back in the history, want 2: %v", held, r.body)
		}
	})
}

// A story's languages escalate on languages named: its undetermined posts (und, too short to
// tell) and posts without a language add none, on both stores as the story service counts them.
func TestAlertsStoryLanguagesAreNamed(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		x, _, searchID := newStoryAlertEnv(t, s)
		for _, step := range []struct {
			name  string
			langs []string
			want  []string // the run's webhooks, story:escalation
		}{
			{"first post", []string{"en"}, []string{"storm:first_match"}},
			{"undetermined and none: no language", []string{"und", "", "und"}, nil},
			{"one more language", []string{"fr"}, nil},
			{"a second more language", []string{"de"}, []string{"storm:more_languages"}},
			{"undetermined again: nothing since", []string{"und"}, nil},
		} {
			var posts []storyPost
			for _, l := range step.langs {
				posts = append(posts, storyPost{"storm", "reddit", l, 0})
			}
			if got := x.storyRun(searchID, alerts.EscalationCooldown, posts...); !slices.Equal(got, step.want) {
				t.Errorf("%s: webhooks %v, want %v", step.name, got, step.want)
			}
		}
	})
}

// After a story's notice, its escalations wait for the cooldown and then go as one notice of
// the story as it is then, naming every reason, even when no match comes after; a threat
// rising to high goes at once; a restart during a cooldown sends the held escalation once.
func TestAlertsEscalationCooldown(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		x, owner, searchID := newStoryAlertEnv(t, s)
		// restarted is another node, or this one after a restart: it knows only the store.
		restarted := func() *alerts.Service {
			return alerts.NewService(alerts.Deps{Store: s, Matches: x.monitor, Channels: x.alerts.Channels,
				Stories: story.NewService(s), PublicURL: "https://sightline.example", Now: x.clock.Now})
		}
		storm := func(provider string, threat int) storyPost { return storyPost{"storm", provider, "en", threat} }
		gale := func(provider string) storyPost { return storyPost{"gale", provider, "en", 0} }
		sent := 0
		for _, step := range []struct {
			name    string
			posts   []storyPost
			advance time.Duration
			restart bool
			mute    bool     // mute the story before the run
			want    []string // the run's webhooks, story:escalation(s)
		}{
			{"first notice at once", []storyPost{storm("reddit", 0)}, 10 * time.Second, false, false, []string{"storm:first_match"}},
			{"three more providers 10 s after: held", []storyPost{storm("telegram", 0), storm("mastodon", 0), storm("bluesky", 0)},
				10 * time.Second, false, false, nil},
			{"tripled 20 s after: held with it", []storyPost{storm("reddit", 0), storm("reddit", 0), storm("reddit", 0),
				storm("reddit", 0), storm("reddit", 0)}, 10 * time.Second, false, false, nil},
			{"silence to the cooldown's end: one notice, both reasons", nil, 45 * time.Second, false, false,
				[]string{"storm:posts_tripled,more_providers"}},
			{"threat to high a second after: at once", []storyPost{storm("reddit", 80)}, time.Second, false, false,
				[]string{"storm:threat_high"}},
			{"three more providers: held", []storyPost{storm("youtube", 0), storm("tiktok", 0), storm("x", 0)},
				10 * time.Second, false, false, nil},
			{"restart during the cooldown, then its end: sent", nil, time.Minute, true, false, []string{"storm:more_providers"}},
			{"another node or restart after: nothing again", nil, time.Minute, true, false, nil},
			{"nor this node", nil, time.Minute, false, false, nil},
			{"another story's first notice", []storyPost{gale("reddit")}, 10 * time.Second, false, false, []string{"gale:first_match"}},
			{"three more providers: held", []storyPost{gale("telegram"), gale("mastodon"), gale("bluesky")}, 10 * time.Second,
				false, false, nil},
			{"muted during the cooldown: not sent at its end", nil, time.Minute, false, true, nil},
		} {
			if step.mute {
				path := fmt.Sprintf("/api/v1/monitor/searches/%d/muted-stories/gale", searchID)
				if r := owner.do("PUT", path, nil, withBearer(owner.bearer)); r.status != 200 {
					t.Fatalf("mute = %d %v", r.status, r.body)
				}
			}
			x.addStoryMatches("owner@acme.test", searchID, step.posts...)
			x.clock.Advance(step.advance)
			svc := x.alerts
			if step.restart {
				svc = restarted()
			}
			x.runOn(svc)
			var got []string
			for _, b := range x.hookBodies()[sent:] {
				got = append(got, b.StoryID+":"+strings.Join(b.Escalations, ","))
				if b.Escalation != b.Escalations[0] {
					t.Errorf("%s: escalation %q is not the first of %v", step.name, b.Escalation, b.Escalations)
				}
			}
			sent += len(got)
			if strings.Join(got, " ") != strings.Join(step.want, " ") {
				t.Fatalf("%s: webhooks %v, want %v", step.name, got, step.want)
			}
		}
		// The held notice tells of the story as it was at the cooldown's end and covers the
		// matches held.
		var both alerts.WebhookBody
		for _, b := range x.hookBodies() {
			if len(b.Escalations) == 2 {
				both = b
			}
		}
		if both.Story == nil || both.Story.PostCount != 9 || len(both.Story.Providers) != 4 || both.MatchCount != 8 || both.Story.Level != 1 {
			t.Errorf("the held escalation = %+v %+v", both, both.Story)
		}

		r := owner.do("GET", fmt.Sprintf("/api/v1/monitor/searches/%d/deliveries", searchID), nil, withBearer(owner.bearer))
		var escalations []string
		for _, d := range r.body["data"].([]any) {
			if dig(d, "kind") == "story" && dig(d, "storyId") == "storm" {
				escalations = append(escalations, dig(d, "escalation").(string))
			}
		}
		if got := strings.Join(escalations, " "); got != "more_providers threat_high posts_tripled,more_providers first_match" ||
			!strings.Contains(fmt.Sprint(r.body), "skipped:muted") {
			t.Errorf("the history's story notices, newest first: %s", got)
		}
	})
}
