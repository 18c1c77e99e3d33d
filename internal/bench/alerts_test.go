package bench

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// A small bench alerts run without its latency part carries the grouping figures (escalations by
// reason) and, beside them, the spike replay of one series a saved search, in its JSON and its text.
func TestAlertsCarrySpikeFigures(t *testing.T) {
	cfg := AlertsConfig{Searches: 20, Hours: 0.25, Rate: 1, Bursts: 1, BurstFactor: 3, Seed: 3}
	res, err := Alerts(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Grouping.Posts == 0 || res.Grouping.Searches != cfg.Searches {
		t.Errorf("grouping %+v: want the replayed day through %d searches", res.Grouping, cfg.Searches)
	}
	if r := res.Grouping.ByReason; r.PostsTripled+r.MoreProviders+r.MoreLanguages+r.ThreatHigh != res.Grouping.Escalations ||
		res.Grouping.FirstNotices+res.Grouping.Escalations != res.Grouping.StoryNotices {
		t.Errorf("grouping %+v: the escalations by reason do not add up to the escalations", res.Grouping)
	}
	if want := Spikes(alertsSpikes(cfg)); res.Spikes != want || want.Series != cfg.Searches || want.Bursts == 0 {
		t.Errorf("spikes %+v, want bench spikes' replay of a series a search: %+v", res.Spikes, want)
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		Spikes map[string]float64 `json:"spikes"`
	}
	if err := json.Unmarshal(b, &back); err != nil || back.Spikes["recall"] != res.Spikes.Recall ||
		back.Spikes["falseSpikesPerSeriesWeek"] != res.Spikes.FalsePerSeriesWeek {
		t.Errorf("JSON %s: want the spikes' recall and false spikes per series-week", b)
	}
	var text bytes.Buffer
	res.WriteText(&text)
	for _, want := range []string{"grouped by story", "posts tripled", "recall", "per series per simulated week"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
}
