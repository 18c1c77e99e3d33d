package alerts

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/geom"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/post"
)

// When each alert falls due: batch alerts and webhooks at once when new, digests and summaries
// at the first 00:00 UTC after their last run or their setup (weekly: the first Monday).
func TestNextRun(t *testing.T) {
	const day, week = 86400, 604800
	monday := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC) // a Monday, midnight UTC
	wednesday := monday.Add(2*24*time.Hour + 15*time.Hour + 30*time.Minute)
	thursday, nextMonday := monday.Add(3*24*time.Hour), monday.Add(7*24*time.Hour)
	setting := func(typ string, interval int, setUp time.Time) monitor.NotificationSetting {
		n := monitor.NotificationSetting{Type: typ, Interval: interval}
		if !setUp.IsZero() {
			at := setUp.Unix()
			n.LastUpdatedAt = &at
		}
		return n
	}
	for _, tt := range []struct {
		name string
		n    monitor.NotificationSetting
		last time.Time
		want time.Time
	}{
		{"new batch: at once", setting(monitor.AlertBatch, 300, wednesday), time.Time{}, time.Time{}},
		{"batch: an interval after its run", setting(monitor.AlertBatch, 300, monday), wednesday, wednesday.Add(300 * time.Second)},
		{"new webhook: at once", setting(monitor.AlertWebhook, 0, wednesday), time.Time{}, time.Time{}},
		{"webhook: coalesces a few seconds", setting(monitor.AlertWebhook, 0, monday), wednesday, wednesday.Add(WebhookCoalesce)},
		{"new daily digest: the next midnight", setting(monitor.AlertDigest, day, wednesday), time.Time{}, thursday},
		{"daily digest set up at midnight: the next one", setting(monitor.AlertDigest, day, monday), time.Time{}, monday.Add(24 * time.Hour)},
		{"new daily summary: the next midnight", setting(monitor.AlertAISummary, day, wednesday), time.Time{}, thursday},
		{"new weekly digest midweek: the next Monday", setting(monitor.AlertDigest, week, wednesday), time.Time{}, nextMonday},
		{"new weekly digest on a Monday: a week later", setting(monitor.AlertDigest, week, monday.Add(time.Hour)), time.Time{}, nextMonday},
		{"daily digest ran at midnight: the next", setting(monitor.AlertDigest, day, monday.Add(-72*time.Hour)), monday.Add(5 * time.Second), monday.Add(24 * time.Hour)},
		{"daily summary ran: the next midnight", setting(monitor.AlertAISummary, day, monday.Add(-72*time.Hour)), monday, monday.Add(24 * time.Hour)},
		{"weekly digest ran on Monday: the next Monday", setting(monitor.AlertDigest, week, monday.Add(-72*time.Hour)), monday, nextMonday},
		{"weekly digest ran midweek: the next Monday", setting(monitor.AlertDigest, week, monday.Add(-72*time.Hour)), wednesday, nextMonday},
		{"digest turned on again after a month: the next midnight", setting(monitor.AlertDigest, day, wednesday), monday.Add(-30 * 24 * time.Hour), thursday},
		{"digest without a setup time that never ran: at once", setting(monitor.AlertDigest, day, time.Time{}), time.Time{}, time.Time{}},
	} {
		if got := nextRun(tt.n, tt.last); !got.Equal(tt.want) {
			t.Errorf("%s: due %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestWithinProximity(t *testing.T) {
	zone := []geom.Shape{geom.Circle(geom.Point{Lat: 51.5, Lon: -0.12}, 2)} // 2 km around London
	for _, tt := range []struct {
		name string
		p    post.Post
		want bool
	}{
		{"posted inside", post.Post{Location: &post.Point{Lat: 51.505, Lon: -0.12}}, true},
		{"posted outside", post.Post{Location: &post.Point{Lat: 51.6, Lon: -0.12}}, false},
		{"mentions a place inside", post.Post{Location: &post.Point{Lat: 48.85, Lon: 2.35},
			MentionedLocations: []post.MentionedLocation{{Name: "Westminster", Point: post.Point{Lat: 51.499, Lon: -0.125}}}}, true},
		{"no place at all", post.Post{}, false},
	} {
		if got := within(tt.p, zone); got != tt.want {
			t.Errorf("%s: within = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func entry(id int64, author, text string) monitor.InboxEntry {
	at := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC).Add(time.Duration(id) * time.Minute)
	return monitor.InboxEntry{InboxItem: monitor.InboxItem{Match: monitor.Match{ID: id, SearchID: 1, PublishedAt: at},
		Post: post.Post{ID: fmt.Sprint("p", id), Provider: "reddit", AuthorName: author, ContentText: text}},
		Why: monitor.NewExplainer()}
}

// The summary quotes sentences verbatim, one a post, the most representative first.
func TestSummarizeQuotesAndCites(t *testing.T) {
	entries := []monitor.InboxEntry{
		entry(1, "Ana", "The harbour strike closed the container terminal. Lunch was good."),
		entry(2, "Bo", "Dockers extend the harbour strike at the container terminal into a second day."),
		entry(3, "Cy", "Weather is fine."),
		entry(4, "Di", "Police watch the harbour strike near the terminal gates."),
	}
	got, _ := summarize(context.Background(), nil, entries, 3)
	if len(got) != 3 {
		t.Fatalf("%d sentences, want 3: %v", len(got), got)
	}
	seen := map[string]bool{}
	for _, c := range got {
		if seen[c.Match.Author] {
			t.Errorf("two sentences from %s", c.Match.Author)
		}
		seen[c.Match.Author] = true
		found := false
		for _, e := range entries {
			if e.Post.AuthorName == c.Match.Author && strings.Contains(e.Post.ContentText, c.Sentence) {
				found = true
			}
		}
		if !found {
			t.Errorf("%q is not quoted from %s's post", c.Sentence, c.Match.Author)
		}
		if strings.Contains(c.Sentence, "Weather") || strings.Contains(c.Sentence, "Lunch") {
			t.Errorf("an unrepresentative sentence was picked: %q", c.Sentence)
		}
	}
}

// An e-mail lists at most 100 matches, newest first, and says how many more there are.
func TestRenderListsAtMostAHundred(t *testing.T) {
	var entries []monitor.InboxEntry
	for i := range 150 {
		entries = append(entries, entry(int64(i+1), fmt.Sprint("Author ", i+1), fmt.Sprintf("Harbour report number %d.", i+1)))
	}
	m := monitor.Search{ID: 1, Name: "Harbour"}
	msg, err := render(monitor.AlertBatch, m, entries, "https://sightline.example", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if msg.Subject != "150 new matches for “Harbour”" {
		t.Errorf("subject %q", msg.Subject)
	}
	for _, body := range []string{msg.Text, msg.HTML} {
		if strings.Count(body, "Harbour report number") != 100 || !strings.Contains(body, "And 50 more.") ||
			!strings.Contains(body, "report number 150.") || strings.Contains(body, "report number 50.") {
			t.Errorf("body lists the wrong matches:\n%.600s", body)
		}
	}
	summary, err := render(monitor.AlertAISummary, m, entries[:3], "https://sightline.example", time.Now())
	if err != nil || !strings.Contains(summary.Text, "extractive") || !strings.Contains(summary.HTML, "Extractive") {
		t.Errorf("summary mail: %v\n%s", err, summary.Text)
	}
}
