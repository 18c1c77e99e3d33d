package story_test

import (
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/connector/simulator"
	"github.com/sightline/sightline/internal/enrich"
	"github.com/sightline/sightline/internal/geo"
	"github.com/sightline/sightline/internal/percolate/workload"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/story"
)

// demoDay runs hours of the simulator's stream, rate posts a second, enriched as ingest does,
// through the stories stage in batches, and returns the posts of each event the simulator
// injected (by occurrence: the same city and kind later in the day is another event) and every
// post with its story.
func demoDay(t testing.TB, hours, rate float64) (events [][]post.Post, all []post.Post) {
	g, err := geo.LoadGazetteer()
	if err != nil {
		t.Fatal(err)
	}
	enricher := enrich.New(g)
	gen := simulator.NewGenerator(1)
	stage := story.NewStage()
	start := time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)
	end := start.Add(time.Duration(hours * float64(time.Hour)))
	step := time.Duration(float64(time.Second) / rate)
	var batch []post.Post
	var eventOf []int
	prevTag, n := "", -1
	flush := func() {
		stage.Assign(batch)
		all = append(all, batch...)
		batch = batch[:0]
	}
	for at := start; at.Before(end); at = at.Add(step) {
		p := gen.Next(at)
		tag := gen.ActiveEventTag()
		if tag != "" && tag != prevTag {
			n++
		}
		prevTag = tag
		if err := p.Normalize(at); err != nil {
			t.Fatal(err)
		}
		enricher.Enrich(&p)
		ev := -1
		if tag != "" && slices.Contains(p.Tags, strings.TrimPrefix(tag, "#")) {
			ev = n
		}
		eventOf = append(eventOf, ev)
		batch = append(batch, p)
		if len(batch) == 500 {
			flush()
		}
	}
	flush()
	events = make([][]post.Post, n+1)
	for i, ev := range eventOf {
		if ev >= 0 {
			events[ev] = append(events[ev], all[i])
		}
	}
	return events, all
}

// TestDemoEventsAreOneStoryEach runs a day of the simulator's stream at 0.2 posts a second (its
// events come every 1,200 posts and last 360, so 14 of them) through the stage and counts the stories of each event the
// simulator injected: every post about an event (its copies in eleven languages, the news and
// forum versions, the replies under them) is in one story, and no story holds two events.
func TestDemoEventsAreOneStoryEach(t *testing.T) {
	if testing.Short() {
		t.Skip("a day of the simulator's stream, enriched: about 30 s")
	}
	events, all := demoDay(t, 24, 0.2)
	if len(events) < 10 {
		t.Fatalf("%d events in the stream, want at least 10", len(events))
	}
	eventsOf := map[string]map[string]bool{}
	for i, ev := range events {
		stories := map[string]int{}
		for _, p := range ev {
			stories[p.StoryID]++
			if eventsOf[p.StoryID] == nil {
				eventsOf[p.StoryID] = map[string]bool{}
			}
			eventsOf[p.StoryID][p.Tags[0]] = true
		}
		if len(stories) != 1 {
			t.Errorf("event %d (#%s, %d posts) is in %d stories, want 1", i, ev[0].Tags[0], len(ev), len(stories))
			main, top := "", 0
			for id, n := range stories {
				if n > top {
					main, top = id, n
				}
			}
			for _, q := range all {
				if stories[q.StoryID] > 0 && q.StoryID != main && q.ID == q.StoryID {
					t.Logf("  a story of its own starts at: %v %q %q", q.Tags, q.TitleText, q.ContentText)
				}
			}
			for _, p := range ev {
				if p.StoryID != main {
					t.Logf("  apart: [%s %s reply=%v] %q %q", p.Language, p.Provider, p.ParentID != "", p.TitleText, p.ContentText)
				}
			}
		}
	}
	for id, tags := range eventsOf {
		if len(tags) > 1 {
			t.Errorf("story %s holds the posts of %d events: %v", id, len(tags), tags)
		}
	}
}

// BenchmarkAddLong is the stage's cost a post on `bench percolate`'s generated posts: 20 to 300
// words drawn from a Zipf vocabulary in several languages, so long posts and many words shared
// by dozens of posts. Every post stays in the window.
func BenchmarkAddLong(b *testing.B) {
	gen := workload.NewGenerator(1)
	start := time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)
	posts := make([]post.Post, 20000)
	for i := range posts {
		d := gen.Post(start.Add(time.Duration(i) * 100 * time.Millisecond))
		posts[i] = post.Post{Provider: d.Provider, TitleText: d.Title, ContentText: d.Text, AuthorName: d.AuthorName}
	}
	c := story.New()
	before := processCPU()
	for i := 0; b.Loop(); i++ {
		p := posts[i%len(posts)]
		p.ID = strconv.Itoa(i)
		p.PublishedAt = start.Add(time.Duration(i) * 100 * time.Millisecond)
		c.Add(&p)
	}
	b.ReportMetric(float64(processCPU()-before)/float64(b.N), "cpu-ns/op")
}

// processCPU is the process's CPU time: the machines the benchmarks run on are often shared.
func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
