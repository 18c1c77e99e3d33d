package monitor

import (
	"slices"
	"testing"

	"github.com/sightline/sightline/internal/alerts/channel"
	"github.com/sightline/sightline/internal/alerts/channel/email"
	"github.com/sightline/sightline/internal/alerts/channel/webhook"
)

// The intervals the web app's menus are generated from (Intervals) are exactly those the rules a
// saved alert goes through accept: each listed one passes, the seconds either side are refused.
func TestIntervalsAreWhatTheRulesAccept(t *testing.T) {
	// The real channels: checking a destination's address needs none of their dependencies.
	svc := &Service{channels: channel.Table{&email.Channel{}, &webhook.Channel{}}}
	for _, typ := range alertTypes {
		listed := Intervals(typ)
		if typ != AlertWebhook && (len(listed) == 0 || listed[0] != 0) {
			t.Errorf("%s: intervals %v do not start with off", typ, listed)
		}
		candidates := []int{-1, 0, 1}
		for _, s := range listed {
			candidates = append(candidates, s-1, s, s+1)
		}
		for _, seconds := range candidates {
			n := svc.withDefaultDestination(NotificationSetting{Type: typ, Interval: seconds}, "ada@example.test")
			if typ == AlertProximity {
				n.LocationAssetIDs = []string{"loc-1"}
			}
			accepted := svc.checkSetting(n, true) == ""
			// A webhook has no interval: it is sent at once, 0 on the wire.
			want := slices.Contains(listed, seconds) || (typ == AlertWebhook && seconds == 0)
			if accepted != want {
				t.Errorf("%s every %d s: the server accepts it: %v, Intervals lists it: %v", typ, seconds, accepted, want)
			}
		}
	}
}
