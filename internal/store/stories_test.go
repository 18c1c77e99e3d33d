package store_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
	"github.com/sightline/sightline/internal/story"
)

// TestStory checks that a story is counted over the posts the reader's tenant may see: another
// tenant's private posts neither appear nor count, and a story of only such posts is not found.
func TestStory(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Now().UTC().Truncate(time.Hour)
		member := func(native, provider, lang string, tenant int64, at time.Time, storyID string) post.Post {
			p := indexed(provider, native, at, "Quake in Chile. Buildings shook in Santiago.")
			p.Language, p.Tenant, p.StoryID = lang, tenant, storyID
			return p
		}
		shared := member("1", "news", "en", 0, now, "")
		shared.StoryID = shared.ID
		posts := []post.Post{
			shared,
			member("2", "reddit", "es", 1, now.Add(30*time.Minute), shared.ID),
			member("3", "news", "en", 2, now.Add(2*time.Hour), shared.ID),
			member("4", "reddit", "en", 2, now, "private-story"),
		}
		if _, err := s.InsertPosts(ctx, posts); err != nil {
			t.Fatal(err)
		}

		v, err := s.Story(ctx, shared.ID, 1, nil, 0, 10)
		if err != nil {
			t.Fatal(err)
		}
		ids := func(ps []post.Post) (out []string) {
			for _, p := range ps {
				out = append(out, p.ID)
			}
			return out
		}
		want := story.View{ID: shared.ID, Title: "Quake in Chile.", PostCount: 2,
			Providers:   []story.Count{{Name: "news", Count: 1}, {Name: "reddit", Count: 1}},
			Languages:   []story.Count{{Name: "en", Count: 1}, {Name: "es", Count: 1}},
			FirstSeenAt: now, LastSeenAt: now.Add(30 * time.Minute), Timeline: []story.HourCount{{Hour: now, Count: 2}}}
		if !slices.Equal(ids(v.Posts), []string{posts[0].ID, posts[1].ID}) {
			t.Errorf("tenant 1 sees posts %v, want the shared one and its own", ids(v.Posts))
		}
		v.Posts = nil
		if !equalViews(v, want) {
			t.Errorf("tenant 1 sees %+v, want %+v", v, want)
		}

		v, err = s.Story(ctx, shared.ID, 2, nil, 1, 10)
		if err != nil || v.PostCount != 2 || !slices.Equal(ids(v.Posts), []string{posts[2].ID}) || len(v.Timeline) != 2 {
			t.Errorf("tenant 2's second page: %+v, %v; want its own post of two, in two hours", v, err)
		}

		for _, tenant := range []int64{1, 3} {
			if _, err := s.Story(ctx, "private-story", tenant, nil, 0, 10); !isNotFound(err) {
				t.Errorf("tenant %d reads another tenant's story: %v, want not found", tenant, err)
			}
		}

		// Posts of providers the reader's subscriptions do not reach neither appear nor count.
		if v, err := s.Story(ctx, shared.ID, 1, []string{"reddit"}, 0, 10); err != nil || v.PostCount != 1 || v.Posts[0].ID != posts[1].ID {
			t.Errorf("tenant 1 reaching reddit only: %+v, %v; want its own reddit post", v, err)
		}
		if _, err := s.Story(ctx, shared.ID, 1, []string{}, 0, 10); !isNotFound(err) {
			t.Errorf("a reader reaching no provider: %v, want not found", err)
		}

		// Summaries of several stories at once follow the same rule: tenant 1 sees two posts of the
		// shared story and nothing of tenant 2's private one, which is absent.
		sums, err := s.Summaries(ctx, []string{shared.ID, "private-story", "no-such-story"}, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(sums) != 1 || !equalViews(sums[shared.ID].View(nil), want) {
			t.Errorf("tenant 1's summaries %+v, want only %+v", sums, want)
		}
		if sums, err := s.Summaries(ctx, []string{shared.ID, "private-story"}, 2, nil); err != nil || sums[shared.ID].PostCount != 2 ||
			sums["private-story"].PostCount != 1 || sums[shared.ID].Title != "Quake in Chile." {
			t.Errorf("tenant 2's summaries %+v, %v; want the shared story's two posts and its own story", sums, err)
		}

		var recent []post.Post
		err = s.EachRecentPost(ctx, now.Add(time.Minute), func(p *post.Post) { recent = append(recent, *p) })
		if err != nil || !slices.Equal(ids(recent), []string{posts[1].ID, posts[2].ID}) || recent[0].StoryID != shared.ID {
			t.Errorf("EachRecentPost gave %v, %v; want posts 2 and 3 with their story, oldest first", ids(recent), err)
		}
	})
}

func equalViews(a, b story.View) bool {
	return a.ID == b.ID && a.Title == b.Title && a.PostCount == b.PostCount && slices.Equal(a.Providers, b.Providers) &&
		slices.Equal(a.Languages, b.Languages) && a.FirstSeenAt.Equal(b.FirstSeenAt) && a.LastSeenAt.Equal(b.LastSeenAt) &&
		slices.EqualFunc(a.Timeline, b.Timeline, func(x, y story.HourCount) bool { return x.Hour.Equal(y.Hour) && x.Count == y.Count })
}

func isNotFound(err error) bool {
	p, ok := problem.As(err)
	return ok && p.Kind == problem.KindNotFound
}
