package search_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/percolate"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/provider"
	"github.com/sightline/sightline/internal/query"
	"github.com/sightline/sightline/internal/search"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// The word cloud and the daily graph count every match when they can be read in time: the
// same figures as the matcher gives post by post.
func TestAnalyticsCountsEveryMatch(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		posts := corpus(t, s, 400, 3)
		svc := search.NewService(s, search.Options{})
		now := time.Now()
		got, err := svc.Analyze(context.Background(), everything, provider.Social, search.Request{Query: "attack OR riot"})
		if err != nil {
			t.Fatal(err)
		}
		from, to := now.Add(-search.DefaultWindow), now.Add(time.Second)
		c, err := percolate.Compile(percolate.SavedSearch{Keywords: "attack OR riot", Enabled: true,
			Mode: query.ModeBeacon, Start: &from, End: &to,
			Providers: []string{"twitter", "reddit", "telegram", "mastodon", "bluesky"}})
		if err != nil {
			t.Fatal(err)
		}
		words, daily, matched := map[string]int{}, map[string]int{}, 0
		for _, p := range posts {
			if !c.Match(percolate.DocOf(p), now) {
				continue
			}
			matched++
			daily[p.PublishedAt.UTC().Format(time.DateOnly)]++
			seen := map[string]bool{}
			for _, w := range query.Tokens(p.TitleText + " " + p.ContentText) {
				if !seen[w] {
					seen[w] = true
					words[w]++
				}
			}
		}
		if !got.Complete || got.DailyIsEstimate || got.Analyzed != matched {
			t.Errorf("complete %v, estimate %v, analyzed %d; want every one of %d matches counted",
				got.Complete, got.DailyIsEstimate, got.Analyzed, matched)
		}
		if len(got.Daily) != search.DailyDays || got.Daily[search.DailyDays-1].Date != now.UTC().Format(time.DateOnly) {
			t.Fatalf("daily = %v, want the last %d days up to today", got.Daily, search.DailyDays)
		}
		for _, d := range got.Daily {
			if d.Count != daily[d.Date] {
				t.Errorf("%s: %d posts, the matcher %d", d.Date, d.Count, daily[d.Date])
			}
		}
		if len(got.WordCloud) == 0 {
			t.Fatal("no words")
		}
		for i, w := range got.WordCloud {
			if folded := query.Fold(w.Word); w.Count != words[folded] {
				t.Errorf("%q is in %d posts, the cloud says %d", w.Word, words[folded], w.Count)
			}
			if i > 0 && w.Count > got.WordCloud[i-1].Count {
				t.Errorf("%q is out of order", w.Word)
			}
		}
		if got.WordCloud[0].Word != "attack" && got.WordCloud[0].Word != "riot" {
			t.Errorf("the most used word is %q, want a searched one", got.WordCloud[0].Word)
		}
	})
}

// Stop words of the post's language and of English, short words and numbers stay out; words are
// shown as written (words_test.go has every language).
func TestAnalyticsLeavesOutStopWords(t *testing.T) {
	s := storetest.Open(t, store.SQLite)
	now := time.Now().UTC().Truncate(time.Millisecond)
	texts := map[string]string{
		"fr": "La grue est tombée dans le port et les dockers sont là",
		"en": "The crane fell into the harbour and it is 2026 now",
		"de": "Der Kran ist über dem Hafen und die grue",
	}
	var posts []post.Post
	for _, lang := range slices.Sorted(maps.Keys(texts)) {
		p := post.Post{Provider: "reddit", NativeID: lang, Language: lang, ContentText: texts[lang] + " grue",
			PublishedAt: now.Add(-time.Hour)}
		p.ID, p.DiscoveredAt = post.NewID(p.Provider, p.NativeID), p.PublishedAt
		posts = append(posts, p)
	}
	if _, err := s.InsertPosts(context.Background(), posts); err != nil {
		t.Fatal(err)
	}
	got, err := search.NewService(s, search.Options{}).Analyze(context.Background(), everything, provider.Social, search.Request{Query: "grue"})
	if err != nil {
		t.Fatal(err)
	}
	var words []string
	for _, w := range got.WordCloud {
		words = append(words, w.Word)
	}
	slices.Sort(words)
	want := []string{"Hafen", "Kran", "crane", "dockers", "fell", "grue", "harbour", "port", "tombée"}
	if fmt.Sprint(words) != fmt.Sprint(want) {
		t.Errorf("words = %v, want %v", words, want)
	}
}

// When the matches cannot all be read in time, the newest are read and the older ones sampled
// evenly: the counts cover every match, each sampled one standing for 1/rate of them.
func TestAnalyticsSamplesTheOlderMatches(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		// Just before a UTC midnight, so that the six days of posts fill six whole days: a
		// day cut short by the time of the run held few posts, too few for its sampled
		// estimate to be held to 30 % (the test failed at some hours and not others).
		now := time.Now().UTC().Truncate(24 * time.Hour).Add(-time.Millisecond)
		const n = 2500
		_, perDay := cranePosts(t, s, now, n)
		// Each reading of the clock takes 100 ms: one batch of the newest is read within its
		// budget (150 ms), and the sample of the older ones, about 400 posts, after it.
		clock := now
		svc := search.NewService(s, search.Options{
			Now: func() time.Time { clock = clock.Add(100 * time.Millisecond); return clock },
			Analytics: &search.AnalyticsLimits{Newest: 150 * time.Millisecond, Sample: 10 * time.Second, Total: time.Hour,
				SampleSize: 400, ReadTimeout: time.Minute}})
		got, err := svc.Analyze(context.Background(), everything, provider.Social, search.Request{Query: "crane"})
		if err != nil {
			t.Fatal(err)
		}
		if !got.Complete || !got.DailyIsEstimate || got.Sampled == 0 || got.Analyzed != 500+got.Sampled ||
			got.SampleRate < 0.15 || got.SampleRate > 0.25 {
			t.Fatalf("complete %v, estimate %v, analyzed %d, sampled %d at %.3f; want the newest 500 read and a fifth of the rest",
				got.Complete, got.DailyIsEstimate, got.Analyzed, got.Sampled, got.SampleRate)
		}
		within := func(what string, got, want int, share float64) {
			t.Helper()
			if d := float64(got - want); d > share*float64(want) || d < -share*float64(want) {
				t.Errorf("%s: %d estimated, %d in fact (more than %.0f%% off)", what, got, want, share*100)
			}
		}
		words := map[string]int{}
		for _, w := range got.WordCloud {
			words[w.Word] = w.Count
		}
		within("crane", words["crane"], n, 0.1)
		within("harbour", words["harbour"], n/4, 0.2)
		for _, d := range got.Daily {
			if perDay[d.Date] > 0 {
				within(d.Date, d.Count, perDay[d.Date], 0.3)
			}
		}
	})
}

// cranePosts stores n posts saying "crane", every fourth "harbour" too, spread evenly over the
// six days before now, newest first; perDay counts them by UTC day.
func cranePosts(t *testing.T, s *store.Store, now time.Time, n int) (posts []post.Post, perDay map[string]int) {
	t.Helper()
	perDay = map[string]int{}
	for i := range n {
		text := "crane"
		if i%4 == 0 {
			text += " harbour"
		}
		p := post.Post{Provider: "reddit", NativeID: fmt.Sprint(i), ContentText: text,
			PublishedAt: now.Add(-time.Duration(i) * 6 * 24 * time.Hour / time.Duration(n))}
		p.ID, p.DiscoveredAt = post.NewID(p.Provider, p.NativeID), p.PublishedAt
		posts = append(posts, p)
		perDay[p.PublishedAt.Format(time.DateOnly)]++
	}
	if _, err := s.InsertPosts(context.Background(), posts); err != nil {
		t.Fatal(err)
	}
	return posts, perDay
}

// When no sample big enough to stand for the older matches can be read in time, the cloud is
// of the newest and says how far back they go, and the days not reached are estimated from
// their candidates.
func TestAnalyticsEstimatesWhatItCouldNotRead(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		now := time.Now().UTC().Truncate(time.Millisecond)
		const n = 2500
		posts, perDay := cranePosts(t, s, now, n)
		// One batch of the newest in 200 ms: the sample's 150 ms would read about 60 more.
		clock := now
		limits := search.DefaultAnalyticsLimits()
		limits.Newest, limits.Sample, limits.Total, limits.ReadTimeout = 150*time.Millisecond, 150*time.Millisecond, time.Hour, time.Minute
		svc := search.NewService(s, search.Options{Analytics: &limits,
			Now: func() time.Time { clock = clock.Add(100 * time.Millisecond); return clock }})
		got, err := svc.Analyze(context.Background(), everything, provider.Social, search.Request{Query: "crane"})
		if err != nil {
			t.Fatal(err)
		}
		if got.Complete || !got.DailyIsEstimate || got.Analyzed != 500 || got.SampleRate != 1 ||
			!got.Reached.Equal(posts[499].PublishedAt) {
			t.Errorf("complete %v, estimate %v, analyzed %d at %.3f back to %v; want 500 read back to %v and the rest estimated",
				got.Complete, got.DailyIsEstimate, got.Analyzed, got.SampleRate, got.Reached, posts[499].PublishedAt)
		}
		// Every candidate matches, so the estimate is exact.
		for _, d := range got.Daily {
			if d.Count != perDay[d.Date] {
				t.Errorf("%s: %d estimated, %d published", d.Date, d.Count, perDay[d.Date])
			}
		}
	})
}

// When even counting the candidates would take too long, the days not reached carry the rate
// of the matches read: here half the real rate of the older, busier days.
func TestAnalyticsExtrapolatesWhenCountingTakesTooLong(t *testing.T) {
	s := storetest.Open(t, store.SQLite)
	now := time.Now().UTC().Truncate(time.Millisecond)
	var posts []post.Post
	perDay := map[string]int{}
	add := func(at time.Time) {
		p := post.Post{Provider: "reddit", NativeID: fmt.Sprint(len(posts)), ContentText: "crane", PublishedAt: at}
		p.ID, p.DiscoveredAt = post.NewID(p.Provider, p.NativeID), p.PublishedAt
		posts = append(posts, p)
		perDay[at.Format(time.DateOnly)]++
	}
	for i := range 1000 { // the last two days: 500 a day
		add(now.Add(-time.Duration(i) * 48 * time.Hour / 1000))
	}
	for i := range 4000 { // the four before: 1,000 a day
		add(now.Add(-48*time.Hour - time.Duration(i)*96*time.Hour/4000))
	}
	if _, err := s.InsertPosts(context.Background(), posts); err != nil {
		t.Fatal(err)
	}
	// One batch of the newest (the last day), a sample too small to count, no time to count.
	clock := now
	limits := search.DefaultAnalyticsLimits()
	limits.Newest, limits.Sample, limits.Total, limits.ReadTimeout = 150*time.Millisecond, 150*time.Millisecond, 0, time.Minute
	svc := search.NewService(s, search.Options{Analytics: &limits,
		Now: func() time.Time { clock = clock.Add(100 * time.Millisecond); return clock }})
	got, err := svc.Analyze(context.Background(), everything, provider.Social, search.Request{Query: "crane"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Complete || !got.DailyIsEstimate {
		t.Fatalf("complete %v, estimate %v; want the rest extrapolated", got.Complete, got.DailyIsEstimate)
	}
	// The days wholly before the busy ones began: extrapolated at about 500, not counted at 1,000.
	for _, d := range got.Daily[1:3] {
		if d.Count < 400 || d.Count > 600 || perDay[d.Date] < 900 {
			t.Errorf("%s: %d extrapolated (%d published), want about 500", d.Date, d.Count, perDay[d.Date])
		}
	}
}

// A node too busy to read anything within the budget still reads the first batch of the
// newest matches: an analysis of a query with matches is never empty because the machine was
// slow (a loaded machine's first read took longer than the whole 150 ms budget).
func TestAnalyticsReadsTheFirstBatchWhateverTheBudget(t *testing.T) {
	s := storetest.Open(t, store.SQLite)
	corpus(t, s, 50, 3)
	svc := search.NewService(s, search.Options{Analytics: &search.AnalyticsLimits{Newest: time.Nanosecond,
		Sample: time.Nanosecond, Total: time.Nanosecond, SampleSize: search.DefaultAnalyticsLimits().SampleSize}})
	got, err := svc.Analyze(context.Background(), everything, provider.Social, search.Request{Query: "attack OR riot"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Analyzed == 0 || len(got.WordCloud) == 0 {
		t.Fatalf("analyzed %d, %d words: the first batch was not read", got.Analyzed, len(got.WordCloud))
	}
}
