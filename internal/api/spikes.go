package api

import (
	"net/http"
	"strconv"
	"time"

	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/spike"
)

// spikeReply is one spike of a saved search (docs/monitor-api.md, "Spikes"). Times are Unix
// seconds; kind and name say which series spiked: the whole search, a provider or a place.
type spikeReply struct {
	ID       string         `json:"id"`
	Kind     string         `json:"kind"`
	Name     string         `json:"name"`
	Start    int64          `json:"start"`
	End      int64          `json:"end"`
	Count    int64          `json:"count"`
	Expected float64        `json:"expected"`
	Low      float64        `json:"low"`
	High     float64        `json:"high"`
	Score    float64        `json:"score"`
	StoryIDs []string       `json:"storyIds"`
	Samples  []spike.Sample `json:"samples"`
}

func spikeJSON(s spike.Spike) spikeReply {
	kind, name := spike.Describe(s.Series)
	return spikeReply{ID: strconv.FormatInt(s.ID, 10), Kind: kind, Name: name, Start: s.Start.Unix(), End: s.End.Unix(),
		Count: s.Count, Expected: s.Expected, Low: s.Low, High: s.High, Score: s.Score, StoryIDs: s.StoryIDs, Samples: s.Samples}
}

// searchSpikes lists a saved search's spikes from `from` to `to` (a day or an RFC 3339 time;
// the last seven days by default).
func (a *API) searchSpikes(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	sid, err := pathID(r)
	if err != nil {
		return err
	}
	from, err := auditDate(r, "from")
	if err != nil {
		return err
	}
	to, err := auditDate(r, "to")
	if err != nil {
		return err
	}
	if to.IsZero() {
		to = time.Now()
	}
	if from.IsZero() {
		from = to.Add(-7 * 24 * time.Hour)
	}
	if !from.Before(to) || to.Sub(from) > spike.MaxRange {
		return problem.InvalidField("from", "The from date must come before the to date, at most 31 days earlier.")
	}
	list, err := a.Spikes.List(r.Context(), id.Actor(), sid, from, to)
	if err != nil {
		return err
	}
	out := make([]spikeReply, 0, len(list))
	for _, s := range list {
		out = append(out, spikeJSON(s))
	}
	return ok(w, out)
}
