package simulator

import (
	"context"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/connector/connectortest"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/post/postschema"
	"github.com/sightline/sightline/internal/provider"
	"github.com/sightline/sightline/internal/wait"
)

var start = time.Date(2025, 3, 14, 12, 0, 0, 0, time.UTC)

// generate makes n posts, one every 200 ms of simulated time, as the default rate would.
func generate(seed uint64, n int) []post.Post {
	g := NewGenerator(seed)
	posts := make([]post.Post, n)
	for i := range posts {
		posts[i] = g.Next(start.Add(time.Duration(i) * 200 * time.Millisecond))
	}
	return posts
}

func TestSameSeedSameStream(t *testing.T) {
	a, _ := json.Marshal(generate(42, 2000))
	b, _ := json.Marshal(generate(42, 2000))
	if string(a) != string(b) {
		t.Fatal("two generators with the same seed diverged")
	}
	c, _ := json.Marshal(generate(43, 2000))
	if string(a) == string(c) {
		t.Fatal("different seeds gave the same stream")
	}
}

func TestEveryPostIsValidDemoContent(t *testing.T) {
	ids := map[string]bool{}
	for i, p := range generate(1, 5000) {
		if !p.Demo {
			t.Fatalf("post %d is not marked as demo data", i)
		}
		if err := p.Normalize(start.Add(time.Hour)); err != nil {
			t.Fatalf("post %d does not normalize: %v\n%+v", i, err, p)
		}
		if ids[p.NativeID] {
			t.Fatalf("native id %s repeats", p.NativeID)
		}
		ids[p.NativeID] = true
		if strings.Contains(p.TitleText+p.ContentText, "{") {
			t.Fatalf("unfilled placeholder in %q / %q", p.TitleText, p.ContentText)
		}
		if !strings.HasPrefix(p.PostLink, "https://demo.sightline.invalid/") {
			t.Fatalf("post link %q does not point at the reserved demo domain", p.PostLink)
		}
	}
	if len(generate(2, 1)[0].NativeID) == 0 || generate(2, 1)[0].NativeID == generate(3, 1)[0].NativeID {
		t.Fatal("runs with different seeds must not share post ids")
	}
}

func TestVariety(t *testing.T) {
	posts := generate(7, 6000)
	providers := map[string]bool{}
	langs := map[string]bool{}
	authorPosts := map[string]int{}
	var geotagged, photos, videos, withObjects, threats int
	for _, p := range posts {
		providers[p.Provider] = true
		langs[p.Language] = true
		authorPosts[p.AuthorScreenName]++
		if p.Location != nil {
			geotagged++
		}
		photos += len(p.Photos)
		videos += len(p.Videos)
		if len(p.DetectedObjects) > 0 {
			withObjects++
		}
		if containsAny(p.ContentText+p.TitleText, "rifle", "bomb", "weapons", "handgun", "fullz", "ssn", "пистолет", "السلاح") {
			threats++
		}
	}
	if len(providers) != len(profiles) {
		t.Errorf("%d providers posted, want all %d simulated ones", len(providers), len(profiles))
	}
	for p := range providers {
		if !provider.Known(p) {
			t.Errorf("provider %q is not in the catalogue", p)
		}
	}
	for _, l := range []string{"en", "es", "fr", "de", "pt", "ar", "ru", "uk", "ja", "it", "tr"} {
		if !langs[l] {
			t.Errorf("no post in %s", l)
		}
	}
	prolific := 0
	for _, n := range authorPosts {
		if n >= 20 {
			prolific++
		}
	}
	if len(authorPosts) < 200 || prolific < 10 {
		t.Errorf("%d authors, %d with 20 posts or more: want many authors, some recurring a lot", len(authorPosts), prolific)
	}
	share := func(n int) float64 { return float64(n) / float64(len(posts)) }
	if s := share(geotagged); s < 0.15 || s > 0.6 {
		t.Errorf("geotagged share %.2f", s)
	}
	if photos == 0 || videos == 0 || withObjects < photos/2 {
		t.Errorf("%d photos, %d videos, %d posts with detected objects", photos, videos, withObjects)
	}
	if s := share(threats); s < 0.02 || s > 0.2 {
		t.Errorf("threatening share %.3f, want some but not most", s)
	}
}

// Engagement and followers look like real ones: most posts get little, a few a lot; social
// authors have followers and keep them from post to post; pastes get no reactions.
func TestEngagementIsPlausible(t *testing.T) {
	posts := generate(7, 6000)
	followers := map[string]int64{}
	var engaged, viral int
	var counts []int64
	for _, p := range posts {
		if f, ok := followers[p.AuthorScreenName]; ok && f != p.AuthorFollowers {
			t.Fatalf("%s has %d followers, then %d", p.AuthorScreenName, f, p.AuthorFollowers)
		}
		followers[p.AuthorScreenName] = p.AuthorFollowers
		if (p.Provider == "pastebin" || p.Provider == "reddit") && p.AuthorFollowers != 0 {
			t.Errorf("%s author with %d followers", p.Provider, p.AuthorFollowers)
		}
		if p.Provider == "pastebin" && p.Engagement != 0 {
			t.Errorf("a paste with engagement %d", p.Engagement)
		}
		if p.Engagement > 0 {
			engaged++
		}
		if p.Engagement >= 1000 {
			viral++
		}
		counts = append(counts, p.Engagement)
	}
	slices.Sort(counts)
	if median := counts[len(counts)/2]; median > 50 {
		t.Errorf("median engagement %d, want most posts to get little", median)
	}
	if engaged < len(posts)/3 || viral == 0 || viral > len(posts)/20 {
		t.Errorf("%d engaged and %d with 1,000 or more of %d posts", engaged, viral, len(posts))
	}
}

func containsAny(s string, words ...string) bool {
	s = strings.ToLower(s)
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

func TestAuthorsAreStableAcrossRuns(t *testing.T) {
	handles := func(seed uint64) map[string]string {
		m := map[string]string{}
		for _, p := range generate(seed, 3000) {
			m[p.AuthorScreenName] = p.AuthorName + "|" + p.Provider + "|" + p.AuthorID
		}
		return m
	}
	a, b := handles(1), handles(99)
	shared := 0
	for h, who := range a {
		if other, ok := b[h]; ok {
			shared++
			if other != who {
				t.Fatalf("handle %s is %s in one run and %s in another", h, who, other)
			}
		}
	}
	if shared < 100 {
		t.Fatalf("only %d authors in common between two runs: the cast should recur", shared)
	}
}

func TestRepliesFormThreads(t *testing.T) {
	posts := generate(11, 4000)
	byID := map[string]post.Post{}
	replies := 0
	for _, p := range posts {
		if p.ParentID != "" {
			replies++
			parent, ok := byID[p.ParentID]
			if !ok {
				t.Fatalf("reply %s answers %s, which was not posted before it", p.NativeID, p.ParentID)
			}
			if parent.Provider != p.Provider || parent.Board != p.Board || p.ThreadID != parent.ThreadID || p.Language != parent.Language {
				t.Fatalf("reply %+v does not fit its parent %+v", p, parent)
			}
		} else if p.ThreadID != p.NativeID {
			t.Fatalf("a thread starter %s has thread id %s", p.NativeID, p.ThreadID)
		}
		byID[p.NativeID] = p
	}
	if replies < 400 {
		t.Fatalf("%d replies in 4000 posts, want about a fifth", replies)
	}
	boards := 0
	for _, p := range posts {
		if p.Board != "" {
			boards++
		}
	}
	if boards < 500 {
		t.Fatalf("%d posts on boards", boards)
	}
}

func TestLocationsAreNearRealCities(t *testing.T) {
	for _, p := range generate(5, 3000) {
		if p.Location == nil {
			continue
		}
		i := slices.IndexFunc(cities, func(c city) bool { return c.name == p.PlaceName })
		if i < 0 {
			t.Fatalf("place %q is not one of the cities", p.PlaceName)
		}
		c := cities[i]
		if math.Abs(p.Location.Lat-c.lat) > 0.25 || math.Abs(p.Location.Lon-c.lon) > 0.5 {
			t.Fatalf("post at %v is far from %s (%v, %v)", *p.Location, c.name, c.lat, c.lon)
		}
	}
}

func TestMediaUseListedNames(t *testing.T) {
	for _, p := range generate(9, 3000) {
		links := []string{p.AuthorThumbnail}
		for _, m := range slices.Concat(p.Photos, p.Videos) {
			links = append(links, m.Large, m.Normal)
		}
		for _, link := range links {
			name, ok := strings.CutPrefix(link, "/demo-media/")
			if !ok || !slices.Contains(MediaNames, strings.TrimSuffix(name, ".svg")) {
				t.Fatalf("media link %q is not a listed /demo-media/<name>.svg", link)
			}
		}
	}
}

func TestEventsBurst(t *testing.T) {
	g := NewGenerator(3)
	var inBurst, inBurstAbout, outside, outsideAbout int
	var tags []string
	for i := range 2 * eventEvery {
		p := g.Next(start.Add(time.Duration(i) * 200 * time.Millisecond))
		tag := g.ActiveEventTag()
		if tag != "" {
			inBurst++
			if strings.Contains(p.ContentText, tag) {
				inBurstAbout++
			}
			if !slices.Contains(tags, tag) {
				tags = append(tags, tag)
			}
		} else {
			outside++
			for _, old := range tags {
				if strings.Contains(p.ContentText, old) {
					outsideAbout++
				}
			}
		}
	}
	if len(tags) != 2 {
		t.Fatalf("events %v in two periods, want two", tags)
	}
	if s := float64(inBurstAbout) / float64(inBurst); s < 0.3 {
		t.Fatalf("only %.2f of the posts during a burst are about the event", s)
	}
	if outsideAbout > outside/50 {
		t.Fatalf("%d of %d posts outside bursts mention an event", outsideAbout, outside)
	}
}

func TestRunPacesAndStops(t *testing.T) {
	sim := New(Config{Rate: 200, Seed: 1})
	got := &connectortest.Collector{}
	var returned atomic.Bool
	emit := func(ctx context.Context, p post.Post) error {
		if returned.Load() {
			t.Error("a post came after Run returned")
		}
		return got.Emit(ctx, p)
	}
	began := time.Now()
	stop := connectortest.Start(t, sim, emit)
	got.WaitForPosts(t, 20)
	elapsed := time.Since(began)
	stop() // returns once Run has: from then on nothing may emit
	returned.Store(true)
	if elapsed < 80*time.Millisecond {
		t.Fatalf("20 posts at 200 a second took %v: the rate is not applied", elapsed)
	}
	n := len(got.Posts())
	if st := sim.Stats(); st.Count != int64(n) || st.Source != "simulator" {
		t.Fatalf("stats %+v after %d posts", st, n)
	}
}

func TestRunRetriesAPostThePipelineRefused(t *testing.T) {
	sim := New(Config{Rate: 1000, Seed: 1})
	sim.backoff.Initial, sim.backoff.Max = 1, 1 // retry at once
	var taken []string
	refusals := 0
	emit := func(_ context.Context, p post.Post) error {
		if refusals < 3 {
			refusals++
			return context.DeadlineExceeded
		}
		taken = append(taken, p.NativeID)
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- sim.Run(ctx, emit) }()
	wait.For(t, "posts", func() bool { return sim.Stats().Count >= 2 })
	cancel()
	<-done
	if taken[0] != "sim-1-1" || taken[1] != "sim-1-2" {
		t.Fatalf("posts taken %v: the refused first post was not offered again", taken[:2])
	}
	if sim.Stats().LastError == "" {
		t.Fatal("the refusals were not reported")
	}
}

// Within a minute at the default rate, posts mention every topic analysts watch, in several
// languages, and every post matches the post format's contract.
func TestWatchedTopicsWithinAMinute(t *testing.T) {
	posts := generate(7, int(DefaultConfig().Rate*60))
	languages := map[string]bool{}
	for _, word := range []string{"protest", "attack", "breach", "ransomware", "leak", "scam", "disaster", "election"} {
		found := 0
		for _, p := range posts {
			if strings.Contains(strings.ToLower(p.TitleText+" "+p.ContentText), word) {
				found++
				languages[p.Language] = true
			}
		}
		if found == 0 {
			t.Errorf("no post mentions %q within a minute", word)
		}
	}
	if len(languages) < 5 {
		t.Errorf("the watched topics came in %d languages, want most of the eleven", len(languages))
	}
	for _, p := range posts[:300] {
		if err := p.Normalize(time.Now()); err != nil {
			t.Fatalf("post %s: %v", p.NativeID, err)
		}
		if err := postschema.CheckValue(p); err != nil {
			t.Fatalf("post %s: %v", p.NativeID, err)
		}
	}
}
