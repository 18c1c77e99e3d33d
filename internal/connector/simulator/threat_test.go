package simulator

import (
	"strings"
	"testing"

	"github.com/sightline/sightline/internal/enrich"
)

// The demo's threats and dark-web listings are what an analyst first sees of the threat score:
// each, in every language written, scores high (issue 27: all 25 such posts in Beacon scored 0).
func TestDemoThreatsScoreHigh(t *testing.T) {
	fill := strings.NewReplacer("{city}", "Houston", "{phone}", "+1 713 555 0100", "{n}", "12",
		"{ssn}", "123-45-6789", "{email}", "seller@mail.example", "{org}", "Acme", "{ip}", "203.0.113.9",
		"{onion}", "abcdefghijklmnop.onion", "{card}", "4111 1111 1111 1111")
	var texts []string
	for _, list := range threats {
		for _, s := range list {
			texts = append(texts, fill.Replace(s))
		}
	}
	for _, list := range listings {
		for _, h := range list {
			texts = append(texts, fill.Replace(h.title+"\n"+h.body))
		}
	}
	for _, text := range texts {
		if th := enrich.Threat(text, enrich.Entities(text)); th.Score < enrich.HighThreat {
			t.Errorf("scores %d %v, want at least %d: %s", th.Score, th.Reasons, enrich.HighThreat, text)
		}
	}
}
