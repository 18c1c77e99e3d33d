package monitor

import (
	"context"
	"fmt"
	"testing"
	"time"
)

type flags struct{ streamingLower, streamingUpper, gnipLower, gnipUpper bool }

func flagsOf(s Search) flags {
	return flags{s.StreamingLowerLimitExceeded, s.StreamingUpperLimitExceeded, s.GnipLowerLimitExceeded, s.GnipUpperLimitExceeded}
}

func candidates(searchID int64, prefix string, reddit, gnip int) []Match {
	var ms []Match
	for i := range reddit + gnip {
		provider := "reddit"
		if i >= reddit {
			provider = gnipProvider
		}
		ms = append(ms, Match{SearchID: searchID, OrganizationID: 1, PostID: fmt.Sprint(prefix, i), Provider: provider})
	}
	return ms
}

// Each transition of the hourly and monthly limits: what one batch may store, and the flags
// the search has after the store reported which matches were new.
func TestLimitTransitions(t *testing.T) {
	now := time.Date(2026, 5, 20, 12, 0, 0, 0, time.UTC)
	future, past := now.Add(time.Hour), now.Add(-time.Minute)
	for _, c := range []struct {
		name         string
		search       Search
		stored, gnip int64         // already stored this hour
		hourAgo      time.Duration // when that hour began
		used, limit  int64         // the organization's month
		reddit, fire int           // the batch's matches by provider
		redelivered  bool          // the store reports none of them as new
		admitted     int
		want         flags
	}{
		{name: "under every limit", reddit: 10, fire: 5, admitted: 15},
		{name: "streaming limit reached", stored: StreamingLowerLimit - 3, reddit: 10, admitted: 3,
			want: flags{streamingLower: true}},
		{name: "at the streaming limit after an override ran out", stored: StreamingLowerLimit + 500,
			search: Search{StreamingOverrideUntil: past}, reddit: 1, admitted: 0, want: flags{streamingLower: true}},
		{name: "stopped at the streaming limit", search: Search{StreamingLowerLimitExceeded: true}, reddit: 4,
			admitted: 0, want: flags{streamingLower: true}},
		{name: "stopped, with the override running", search: Search{StreamingLowerLimitExceeded: true,
			StreamingOverrideUntil: future}, stored: StreamingLowerLimit + 1, reddit: 4, admitted: 4,
			want: flags{streamingLower: true}},
		{name: "override reactivates", search: Search{StreamingOverrideUntil: future}, stored: StreamingLowerLimit + 1,
			reddit: 4, admitted: 4},
		{name: "raised limit reached", search: Search{StreamingOverrideUntil: future}, stored: StreamingUpperLimit - 1,
			reddit: 4, admitted: 1, want: flags{streamingUpper: true}},
		{name: "over the raised limit", search: Search{StreamingUpperLimitExceeded: true, StreamingOverrideUntil: future},
			reddit: 4, admitted: 0, want: flags{streamingUpper: true}},
		{name: "a new hour counts from zero", stored: StreamingLowerLimit - 1, hourAgo: time.Hour, reddit: 10,
			admitted: 10},
		{name: "firehose limit reached: the rest still collected", gnip: GnipLowerLimit - 2, stored: GnipLowerLimit - 2,
			reddit: 3, fire: 5, admitted: 5, want: flags{gnipLower: true}},
		{name: "firehose left out", search: Search{GnipLowerLimitExceeded: true}, reddit: 3, fire: 5, admitted: 3,
			want: flags{gnipLower: true}},
		{name: "firehose override reactivates", search: Search{GnipOverrideUntil: future}, gnip: GnipLowerLimit,
			stored: GnipLowerLimit, fire: 5, admitted: 5},
		{name: "raised firehose limit reached", search: Search{GnipOverrideUntil: future, StreamingOverrideUntil: future}, gnip: GnipUpperLimit - 1,
			stored: GnipUpperLimit - 1, fire: 5, admitted: 1, want: flags{gnipUpper: true}},
		{name: "firehose override ran out", search: Search{GnipOverrideUntil: past}, gnip: GnipLowerLimit,
			stored: GnipLowerLimit, reddit: 1, fire: 1, admitted: 1, want: flags{gnipLower: true}},
		{name: "monthly data nearly used", used: 98, limit: 100, reddit: 5, admitted: 2},
		{name: "monthly data used up", used: 100, limit: 100, reddit: 5, admitted: 0},
		{name: "redelivered at the edge: nothing counted", stored: StreamingLowerLimit - 3, reddit: 3,
			redelivered: true, admitted: 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := NewLimits(func(context.Context, int64, time.Time) (int64, int64, error) { return c.used, c.limit, nil })
			c.search.ID, c.search.OrganizationID = 1, 1
			l.hours[1] = &hourCount{start: now.Add(-c.hourAgo), total: c.stored, gnip: c.gnip}
			g := l.Admit(context.Background(), candidates(1, "p", c.reddit, c.fire), map[int64]Search{1: c.search}, now)
			if len(g.Matches) != c.admitted {
				t.Errorf("admitted %d of %d, want %d", len(g.Matches), c.reddit+c.fire, c.admitted)
			}
			created := g.Matches
			if c.redelivered {
				created = nil
			}
			got := flagsOf(c.search)
			for _, s := range g.Settle(created) {
				got = flagsOf(s)
			}
			if got != c.want {
				t.Errorf("flags %+v, want %+v", got, c.want)
			}
		})
	}
}

// A batch delivered again counts nothing, so the limit falls where the stored matches put it;
// a new month collects again.
func TestLimitsCountStoredMatchesOnce(t *testing.T) {
	now := time.Date(2026, 5, 31, 23, 0, 0, 0, time.UTC)
	stored := map[string]bool{}
	l := NewLimits(func(_ context.Context, _ int64, month time.Time) (int64, int64, error) {
		if month.Month() == time.June {
			return 0, 5, nil
		}
		return int64(len(stored)), 5, nil
	})
	searches := map[int64]Search{1: {ID: 1, OrganizationID: 1}}
	deliver := func(batch []Match, at time.Time) int {
		g := l.Admit(context.Background(), batch, searches, at)
		var created []Match
		for _, m := range g.Matches {
			if !stored[m.PostID] {
				stored[m.PostID] = true
				created = append(created, m)
			}
		}
		g.Settle(created)
		return len(created)
	}
	first := candidates(1, "a", 3, 0)
	for i, step := range []struct {
		batch []Match
		at    time.Time
		want  int
	}{
		{first, now, 3},
		{first, now, 0}, // redelivered
		{candidates(1, "b", 3, 0), now, 2},
		{candidates(1, "c", 1, 0), now, 0},
		{candidates(1, "d", 1, 0), now.Add(2 * time.Hour), 1}, // June
	} {
		if got := deliver(step.batch, step.at); got != step.want {
			t.Errorf("step %d stored %d, want %d", i, got, step.want)
		}
	}
}

// Raising a limit reactivates a stopped search for the override's time; lowering it back or
// letting it run out stops it again.
func TestOverrides(t *testing.T) {
	now := time.Date(2026, 5, 20, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name                        string
		start                       Search
		apply                       func(*Search)
		at                          time.Time
		streamingBlocked, gnipBlock bool
	}{
		{"streaming raised", Search{StreamingLowerLimitExceeded: true, GnipLowerLimitExceeded: true},
			func(m *Search) { overrideStreaming(m, true, now) }, now.Add(StreamingOverride - time.Second), false, false},
		{"streaming override ran out", Search{StreamingLowerLimitExceeded: true},
			func(m *Search) { overrideStreaming(m, true, now); m.StreamingLowerLimitExceeded = true },
			now.Add(StreamingOverride), true, false},
		{"streaming lowered back", Search{StreamingLowerLimitExceeded: true},
			func(m *Search) {
				overrideStreaming(m, true, now)
				m.StreamingLowerLimitExceeded = true
				overrideStreaming(m, false, now)
			},
			now, true, true},
		{"firehose raised", Search{GnipLowerLimitExceeded: true},
			func(m *Search) { overrideGnip(m, true, now) }, now.Add(GnipOverride - time.Second), false, false},
		{"firehose raised but over the raised limit", Search{GnipLowerLimitExceeded: true, GnipUpperLimitExceeded: true},
			func(m *Search) { overrideGnip(m, true, now) }, now, false, true},
		{"firehose lowered back", Search{},
			func(m *Search) { overrideGnip(m, false, now) }, now, false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := c.start
			c.apply(&m)
			if got := streamingBlocked(m, c.at); got != c.streamingBlocked {
				t.Errorf("streaming blocked %v, want %v", got, c.streamingBlocked)
			}
			if got := gnipBlocked(m, c.at); got != c.gnipBlock {
				t.Errorf("firehose blocked %v, want %v", got, c.gnipBlock)
			}
		})
	}
}
