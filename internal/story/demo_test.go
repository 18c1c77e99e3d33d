package story_test

import (
	"runtime"
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
// by dozens of posts. Every post stays in the window. Run it with -benchtime 20000x at most:
// beyond, its posts come round again as exact copies, which cost next to nothing.
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

// BenchmarkAddLongKept is BenchmarkAddLong at the scale: the window is first filled
// (untimed) with a million of the generated posts, spaced so that the window holds exactly that
// many, and then each post timed evicts the oldest as it comes. It reports the window's heap a
// post kept (after garbage collection, the generator's vocabularies left out) and the CPU a post
// of the filling, which includes the garbage collections a growing heap costs. -short fills it
// with 100,000. Run it with -benchtime 20000x at most: its posts are then each new.
func BenchmarkAddLongKept(b *testing.B) {
	kept := 1_000_000
	if testing.Short() {
		kept = 100_000
	}
	gen := workload.NewGenerator(1)
	start := time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)
	step := story.Window / time.Duration(kept)
	at := func(i int) time.Time { return start.Add(time.Duration(i) * step) }
	next := func(i int) post.Post {
		d := gen.Post(at(i))
		return post.Post{ID: strconv.Itoa(i), Provider: d.Provider, TitleText: d.Title, ContentText: d.Text, AuthorName: d.AuthorName, PublishedAt: at(i)}
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	c := story.New()
	var fillCPU time.Duration
	batch := make([]post.Post, 1000)
	for i := 0; i < kept; i += len(batch) {
		for j := range batch {
			batch[j] = next(i + j)
		}
		t := processCPU()
		for j := range batch {
			c.Add(&batch[j])
		}
		fillCPU += processCPU() - t
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if c.Len() != kept {
		b.Fatalf("%d posts in the window, want %d", c.Len(), kept)
	}
	posts := make([]post.Post, 20000)
	for i := range posts {
		posts[i] = next(kept + i)
	}
	gcs := after.NumGC
	cpu := processCPU()
	for i := 0; b.Loop(); i++ {
		p := posts[i%len(posts)]
		p.ID = strconv.Itoa(kept + i)
		p.PublishedAt = at(kept + i)
		c.Add(&p)
	}
	b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/float64(kept), "heap-B/kept")
	b.ReportMetric(float64(fillCPU)/float64(kept), "fill-cpu-ns/post")
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.NumGC-gcs), "gcs")
}

// processCPU is the process's CPU time: the machines the benchmarks run on are often shared.
func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
