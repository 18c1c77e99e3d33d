package monitor

import (
	"encoding/json"
	"os"
	"slices"
	"testing"

	"github.com/sightline/sightline/internal/alerts/channel"
	"github.com/sightline/sightline/internal/alerts/channel/email"
	"github.com/sightline/sightline/internal/alerts/channel/webhook"
)

// testdata/alert_intervals.json is each alert type's intervals in seconds; the web app's
// lib/alerts.test.ts checks its interval menus against the same file, so the two cannot drift.
func TestAlertIntervalsFile(t *testing.T) {
	data, err := os.ReadFile("testdata/alert_intervals.json")
	if err != nil {
		t.Fatal(err)
	}
	// The real channels: checking a destination's address needs none of their dependencies.
	svc := &Service{channels: channel.Table{&email.Channel{}, &webhook.Channel{}}}
	var file map[string][]int
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	if len(file) != len(alertTypes) {
		t.Errorf("the file lists %d alert types, the server has %d", len(file), len(alertTypes))
	}
	for _, typ := range alertTypes {
		listed, ok := file[typ]
		if !ok {
			t.Errorf("%s is missing from the file", typ)
			continue
		}
		// What the server accepts, not only what its table says: every listed interval passes
		// the rules a saved alert goes through, and the seconds either side of each are refused.
		candidates := []int{-1, 0, 1}
		for _, s := range slices.Concat(listed, allowedIntervals[typ]) {
			candidates = append(candidates, s-1, s, s+1)
		}
		for _, seconds := range candidates {
			n := svc.withDefaultDestination(NotificationSetting{Type: typ, Interval: seconds}, "ada@example.test")
			if typ == AlertProximity {
				n.LocationAssetIDs = []string{"loc-1"}
			}
			accepted := svc.checkSetting(n) == ""
			// A webhook has no interval: it is sent at once, 0 on the wire.
			want := slices.Contains(listed, seconds) || (typ == AlertWebhook && seconds == 0)
			if accepted != want {
				t.Errorf("%s every %d s: the server accepts it: %v, the file: %v", typ, seconds, accepted, want)
			}
		}
	}
}
