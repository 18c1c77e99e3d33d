// Package trend finds emerging terms: the words, hashtags, handles and places whose share of
// recent posts rises well above their own share of the posts before (issue 31, docs/spikes.md
// "Emerging terms"). Over an organization's matches it is the dashboard's Trending widget;
// over every post a user may see, Beacon's "Trending now".
package trend

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/spike"
)

// Kinds of terms.
const (
	KindWord    = "word"
	KindHashtag = "hashtag"
	KindHandle  = "handle"
	KindPlace   = "place"
)

// Trend is one emerging term and what is behind it.
type Trend struct {
	Kind string `json:"kind"`
	Term string `json:"term"`
	// Count is how many recent posts carry the term; Share their share of the recent posts and
	// BaselineShare the term's share of the posts before.
	Count         int            `json:"count"`
	Share         float64        `json:"share"`
	BaselineShare float64        `json:"baselineShare"`
	Score         float64        `json:"score"`
	StoryIDs      []string       `json:"storyIds"`
	Samples       []spike.Sample `json:"samples"`
}

// Params tune what trends.
type Params struct {
	// MinCount recent posts must carry a term, at MinRatio times its baseline share, with a
	// score of MinScore; at most Max trends are kept, best first.
	MinCount           int
	MinRatio, MinScore float64
	Max                int
}

// Defaults are the parameters Sightline uses.
var Defaults = Params{MinCount: 5, MinRatio: 3, MinScore: 4, Max: 20}

type term struct{ kind, text string }

// Find compares the terms of the recent posts with those of the baseline posts.
func Find(recent, baseline []post.Post, p Params) []Trend {
	if len(recent) == 0 {
		return []Trend{}
	}
	before := map[term]int{}
	for _, q := range baseline {
		for _, t := range terms(q) {
			before[t]++
		}
	}
	now := map[term][]post.Post{}
	for _, q := range recent {
		for _, t := range terms(q) {
			now[t] = append(now[t], q)
		}
	}
	n, base := float64(len(recent)), float64(len(baseline))
	out := []Trend{}
	for t, posts := range now {
		c := float64(len(posts))
		// The baseline share, smoothed so a term never seen before is not infinitely new.
		share := (float64(before[t]) + 0.5) / (base + 1)
		expected := n * share
		score := 2 * (math.Sqrt(c+3.0/8) - math.Sqrt(expected+3.0/8))
		if len(posts) < p.MinCount || c < p.MinRatio*expected || score < p.MinScore {
			continue
		}
		tr := Trend{Kind: t.kind, Term: t.text, Count: len(posts), Share: c / n, BaselineShare: float64(before[t]) / max(base, 1), Score: score}
		tr.StoryIDs, tr.Samples = behind(posts)
		out = append(out, tr)
	}
	slices.SortFunc(out, func(a, b Trend) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Term, b.Term))
	})
	return out[:min(len(out), p.Max)]
}

// behind are the stories with most of the posts (up to 3) and the newest post of each.
func behind(posts []post.Post) ([]string, []spike.Sample) {
	counts := map[string]int{}
	newest := map[string]post.Post{}
	for _, p := range posts {
		id := cmp.Or(p.StoryID, p.ID)
		counts[id]++
		if n, ok := newest[id]; !ok || p.PublishedAt.After(n.PublishedAt) {
			newest[id] = p
		}
	}
	ids := make([]string, 0, len(counts))
	for id := range counts {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b string) int { return cmp.Or(cmp.Compare(counts[b], counts[a]), strings.Compare(a, b)) })
	ids = ids[:min(len(ids), 3)]
	samples := make([]spike.Sample, 0, len(ids))
	for _, id := range ids {
		samples = append(samples, spike.SampleOf(newest[id]))
	}
	return ids, samples
}

// terms are a post's distinct terms: words of four letters or more that are not common
// English words, #hashtags (and the post's tags), @handles and the places it mentions.
func terms(p post.Post) []term {
	seen := map[term]bool{}
	add := func(kind, text string) {
		if text != "" {
			seen[term{kind, text}] = true
		}
	}
	for _, f := range strings.FieldsFunc(p.TitleText+" "+p.ContentText, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '#' && r != '@' && r != '_'
	}) {
		f = strings.ToLower(f)
		switch {
		case strings.HasPrefix(f, "#"):
			add(KindHashtag, "#"+strings.Trim(f, "#@"))
		case strings.HasPrefix(f, "@"):
			add(KindHandle, "@"+strings.Trim(f, "#@"))
		default:
			w := strings.Trim(f, "#@_")
			if len([]rune(w)) >= 4 && !stopwords[w] && strings.IndexFunc(w, unicode.IsLetter) >= 0 {
				add(KindWord, w)
			}
		}
	}
	for _, t := range p.Tags {
		add(KindHashtag, "#"+strings.ToLower(strings.TrimPrefix(t, "#")))
	}
	for _, l := range p.MentionedLocations {
		add(KindPlace, l.Name)
	}
	out := make([]term, 0, len(seen))
	for t := range seen {
		out = append(out, t)
	}
	return out
}

// stopwords are common English words of four letters or more, which trend with volume only.
var stopwords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`about above after again against also among been before being below between
		both could didn does doing down during each even every from further have having here just like
		more most much must only other over same should some such than that their theirs them then there
		these they this those through under until very want were what when where which while will with
		would your yours into onto upon will shall still says said today year years week time http https
		amp www com`) {
		stopwords[w] = true
	}
}

// Bounds of a trends request.
const (
	// Window is the recent stretch, compared with the Baseline before it.
	Window   = time.Hour
	Baseline = 7 * 24 * time.Hour
	// recentPosts bound the recent posts read; baselinePerDay the posts read from each day
	// of the baseline, so the baseline spans its week whatever the volume.
	recentPosts, baselinePerDay = 2000, 700
)

// Store reads the posts trends are found in.
type Store interface {
	// MatchedPosts are up to limit distinct posts matched by any of the searches, published in
	// [from, to), newest first.
	MatchedPosts(ctx context.Context, searchIDs []int64, from, to time.Time, limit int) ([]post.Post, error)
	// VisiblePosts are up to limit posts a tenant's users may see, published in [from, to),
	// newest first.
	VisiblePosts(ctx context.Context, tenantID int64, from, to time.Time, limit int) ([]post.Post, error)
}

// Searches lists the saved searches a user may read (*monitor.Service).
type Searches interface {
	Searches(ctx context.Context, actor authz.Actor, groupID int64) ([]monitor.SearchView, error)
}

// Service serves trends.
type Service struct {
	Store    Store
	Searches Searches
	Now      func() time.Time
}

// Organization is what trends among the matches of the saved searches the actor may read.
func (s *Service) Organization(ctx context.Context, actor authz.Actor) ([]Trend, error) {
	views, err := s.Searches.Searches(ctx, actor, 0)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, 0, len(views))
	for _, v := range views {
		ids = append(ids, v.ID)
	}
	if len(ids) == 0 {
		return []Trend{}, nil
	}
	return s.find(actor, func(from, to time.Time, limit int) ([]post.Post, error) {
		return s.Store.MatchedPosts(ctx, ids, from, to, limit)
	})
}

// Visible is what trends among every post the actor may see: the shared ones and their
// tenant's own, of the providers their subscriptions reach.
func (s *Service) Visible(ctx context.Context, actor authz.Actor) ([]Trend, error) {
	return s.find(actor, func(from, to time.Time, limit int) ([]post.Post, error) {
		return s.Store.VisiblePosts(ctx, actor.TenantID, from, to, limit)
	})
}

func (s *Service) find(actor authz.Actor, read func(from, to time.Time, limit int) ([]post.Post, error)) ([]Trend, error) {
	now := s.Now().UTC()
	reachable := func(ps []post.Post) []post.Post {
		return slices.DeleteFunc(ps, func(p post.Post) bool { return !authz.CanSeeProvider(actor, p.Provider) })
	}
	recent, err := read(now.Add(-Window), now.Add(time.Minute), recentPosts)
	if err != nil {
		return nil, err
	}
	var baseline []post.Post
	for end := now.Add(-Window); end.After(now.Add(-Window - Baseline)); end = end.Add(-24 * time.Hour) {
		day, err := read(end.Add(-24*time.Hour), end, baselinePerDay)
		if err != nil {
			return nil, err
		}
		baseline = append(baseline, day...)
	}
	return Find(reachable(recent), reachable(baseline), Defaults), nil
}
