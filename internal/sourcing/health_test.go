package sourcing

import (
	"errors"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/connector"
)

func TestAssess(t *testing.T) {
	now := time.Date(2026, 11, 25, 6, 0, 30, 0, time.UTC)
	ok := connector.Stats{LastSuccess: now.Add(-10 * time.Second), Count: 50, NewestPublished: now.Add(-time.Minute)}
	failed := func(n int64, unreachable bool) connector.Stats {
		s := ok
		s.Failures, s.Retries, s.Unreachable, s.LastError, s.LastErrorAt = n, n, unreachable, "boom", now.Add(-time.Second)
		return s
	}
	busy := make([]int64, 60)
	for i := range busy {
		busy[i] = 10
	}
	tests := []struct {
		name    string
		enabled bool
		report  Report
		want    string
	}{
		{"switched off", false, Report{ReportedAt: now, Stats: ok}, StateDisabled},
		{"never reported", true, Report{}, StatePending},
		{"healthy", true, Report{ReportedAt: now, Stats: ok, Minutes: busy, LastItemAt: now.Add(-5 * time.Second)}, StateOK},
		{"one failure", true, Report{ReportedAt: now, Stats: failed(1, false)}, StateDegraded},
		{"three failures", true, Report{ReportedAt: now, Stats: failed(3, false)}, StateFailing},
		{"address does not answer", true, Report{ReportedAt: now, Stats: failed(1, true)}, StateUnreachable},
		{"cannot run", true, Report{ReportedAt: now, BuildError: "bad url"}, StateFailing},
		{"silent much longer than usual", true, Report{ReportedAt: now, Stats: ok, Minutes: busy, LastItemAt: now.Add(-20 * time.Minute)}, StateDegraded},
		{"no node reports", true, Report{ReportedAt: now.Add(-time.Hour), Stats: ok}, StateDegraded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := Assess(Source{Enabled: tt.enabled, Report: tt.report}, time.Minute, now)
			if h.State != tt.want {
				t.Fatalf("state %s (%s), want %s", h.State, h.Message, tt.want)
			}
		})
	}
	h := Assess(Source{Enabled: true, Report: Report{ReportedAt: now.Add(-2 * time.Minute), Stats: ok, Minutes: busy}}, 0, now)
	if len(h.Minutes) != 60 || h.Minutes[59] != 0 || h.Minutes[58] != 0 || h.Minutes[57] != 10 || h.ItemsLastHour != 580 {
		t.Fatalf("minutes shifted to now: %v (%d)", h.Minutes[55:], h.ItemsLastHour)
	}
	if h.LagSeconds == nil || *h.LagSeconds != 60 {
		t.Fatalf("lag %v", h.LagSeconds)
	}
}

func TestUnreachable(t *testing.T) {
	if connector.IsUnreachable(errors.New("GET x: 500")) {
		t.Fatal("a 500 is not unreachable")
	}
}

func TestOffline(t *testing.T) {
	cutOff := func(typ string) Source {
		return Source{Type: typ, Enabled: true, Report: Report{Stats: connector.Stats{Failures: 4, Unreachable: true}}}
	}
	worked := Source{Type: "rss", Enabled: true, Report: Report{Stats: connector.Stats{Failures: 2, Unreachable: true, LastSuccess: time.Now()}}}
	refused := Source{Type: "rss", Enabled: true, Report: Report{Stats: connector.Stats{Failures: 1}}}
	pending := Source{Type: "rss", Enabled: true}
	off := cutOff("rss")
	off.Enabled = false
	tests := []struct {
		name string
		rows []Source
		want bool
	}{
		{"three public sources never reached", []Source{cutOff("rss"), cutOff("reddit"), cutOff("gdelt"), pending, off}, true},
		{"two are a provider's problem", []Source{cutOff("rss"), cutOff("reddit")}, false},
		{"onion sites do not count", []Source{cutOff("rss"), cutOff("reddit"), cutOff("onion")}, false},
		{"one that worked before means the network did", []Source{cutOff("rss"), cutOff("reddit"), cutOff("gdelt"), worked}, false},
		{"another failure means something answered", []Source{cutOff("rss"), cutOff("reddit"), cutOff("gdelt"), refused}, false},
		{"nothing run yet", []Source{pending, pending, pending}, false},
	}
	for _, tt := range tests {
		if got := Offline(tt.rows); got != tt.want {
			t.Errorf("%s: Offline = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// A restarted source (edited, or claimed by another node) reports the last success of its
// previous run until it succeeds again: it worked before.
func TestRestartedSourceKeepsItsLastSuccess(t *testing.T) {
	before := time.Now().Add(-time.Hour).UTC()
	run := &running{row: Source{Report: Report{Stats: connector.Stats{LastSuccess: before}}}, counts: map[int64]int64{}}
	if got := run.report(time.Now()).Stats.LastSuccess; !got.Equal(before) {
		t.Errorf("last success %v, want the previous run's %v", got, before)
	}
}
