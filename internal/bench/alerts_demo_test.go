package bench

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/connector/simulator"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/story"
)

// The demo's recurring events, through a saved search for each event's hashtag grouped by story:
// each story of an event is told of once, the big ones again as they grow, and the searches get
// far fewer notices than posts. The goal, one alert an event, needs the stories stage to
// join an event's posts into one story; today it splits each into 20-70 (logged), so the test
// holds what grouping itself guarantees and the report says what is missing.
func TestDemoEventsAlertPerStoryWithEscalations(t *testing.T) {
	gen := simulator.NewGenerator(1)
	stage := story.NewStage()
	start := time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)
	day := &ReplayedDay{Start: start}
	searchOf := map[string]int64{}
	for i := range 6000 {
		at := start.Add(time.Duration(i) * 2 * time.Second)
		p := gen.Next(at)
		if err := p.Normalize(at); err != nil {
			t.Fatal(err)
		}
		p.PublishedAt = at
		batch := []post.Post{p}
		stage.Assign(batch)
		var matched []int64
		if tag := strings.TrimPrefix(gen.ActiveEventTag(), "#"); tag != "" && slices.Contains(p.Tags, tag) {
			if searchOf[tag] == 0 {
				searchOf[tag] = int64(len(searchOf) + 1)
			}
			matched = []int64{searchOf[tag]}
		}
		day.Posts, day.Matches = append(day.Posts, batch[0]), append(day.Matches, matched)
	}
	if len(searchOf) < 3 {
		t.Fatalf("%d events in the replay, want several", len(searchOf))
	}
	sizes := map[int64]map[string]int{}
	for i, m := range day.Matches {
		for _, sid := range m {
			if sizes[sid] == nil {
				sizes[sid] = map[string]int{}
			}
			sizes[sid][day.Posts[i].StoryID]++
		}
	}
	for sid, st := range sizes {
		var counts []int
		for _, n := range st {
			counts = append(counts, n)
		}
		slices.Sort(counts)
		slices.Reverse(counts)
		t.Logf("event %d: %d stories, the largest %v posts", sid, len(st), counts[:min(5, len(counts))])
	}
	res := groupDay(day)
	t.Logf("%d events: %d matches, %d story notices (%d first, %d escalations)", len(searchOf), res.Matches,
		res.StoryNotices, res.FirstNotices, res.Escalations)
	pairs := 0
	for _, st := range sizes {
		pairs += len(st)
	}
	if res.FirstNotices != pairs || res.Notified != pairs || res.Escalations < len(searchOf) || res.StoryNotices*2 > res.Matches {
		t.Errorf("%d events in %d stories: %d first notices, %d escalations, %d notices over %d matches; want one first notice a story, escalations, and under half as many notices as matches",
			len(searchOf), pairs, res.FirstNotices, res.Escalations, res.StoryNotices, res.Matches)
	}
}
