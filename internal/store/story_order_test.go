package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// Two nodes storing in story order: each folds in, once, exactly the posts the other stored
// since its last batch, in the order they were stored, before it assigns its own batch; and a
// redelivered batch is neither stored again nor folded again.
func TestInsertPostsInStoryOrder(t *testing.T) {
	dsn := storetest.Migrated(t)
	ctx := context.Background()
	open := func() *store.Store {
		s, err := store.Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	a, b := open(), open()
	if !a.SharesStories() {
		t.Fatal("a PostgreSQL store does not say other nodes may share it")
	}
	cursorA, err := a.StoryCursor(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cursorB := cursorA
	now := time.Now().UTC().Truncate(time.Millisecond)
	batch := func(natives ...string) []post.Post {
		var out []post.Post
		for _, n := range natives {
			out = append(out, indexed("news", n, now, "post "+n))
		}
		return out
	}
	// put has node s store posts at cursor and returns what it folded, in order.
	put := func(s *store.Store, cursor *int64, posts []post.Post) (folded []string, inserted int) {
		t.Helper()
		next, n, err := s.InsertPostsInStoryOrder(ctx, posts, *cursor,
			func(p *post.Post) { folded = append(folded, p.NativeID+"@"+p.StoryID) },
			func(posts []post.Post) {
				for i := range posts {
					posts[i].StoryID = "s-" + posts[i].NativeID
				}
			})
		if err != nil {
			t.Fatal(err)
		}
		*cursor = next
		return folded, n
	}
	for _, step := range []struct {
		node       string
		posts      []string
		wantFolded string
		wantNew    int
	}{
		{"a", []string{"1", "2"}, "[]", 2},
		{"a", []string{"3"}, "[]", 1},
		{"b", []string{"4"}, "[1@s-1 2@s-2 3@s-3]", 1},
		{"b", []string{"5", "6"}, "[]", 2},
		{"a", []string{"7"}, "[4@s-4 5@s-5 6@s-6]", 1},
		// A batch b stored, redelivered to a: nothing new, and a folded it once.
		{"a", []string{"5", "6"}, "[]", 0},
		{"b", []string{"8"}, "[7@s-7]", 1},
	} {
		s, cursor := a, &cursorA
		if step.node == "b" {
			s, cursor = b, &cursorB
		}
		folded, n := put(s, cursor, batch(step.posts...))
		if got := fmt.Sprint(folded); got != step.wantFolded {
			t.Errorf("%s storing %v folded %s, want %s", step.node, step.posts, got, step.wantFolded)
		}
		if n != step.wantNew {
			t.Errorf("%s storing %v stored %d new, want %d", step.node, step.posts, n, step.wantNew)
		}
	}
	got, err := b.Post(ctx, post.NewID("news", "7"), 0)
	if err != nil || got.StoryID != "s-7" {
		t.Errorf("post 7 = %q, %v; want stored with its story s-7", got.StoryID, err)
	}
}

// BenchmarkStoryOrder stores batches of 1,000 posts on PostgreSQL the way one node did before
// (InsertPosts) and in the cluster's story order (InsertPostsInStoryOrder: the lock, the fold,
// the documents encoded again with their stories), with nothing to fold and with another
// node's batch of 1,000 to fold in each time (read and decoded; the window's work on them is
// the stories stage's, not counted here). µs-locked/post is how long, a post, the batch held
// the cluster's lock after its fold: what other nodes wait for.
func BenchmarkStoryOrder(b *testing.B) {
	const size = 1000
	ctx := context.Background()
	dsn := storetest.Migrated(b)
	open := func() *store.Store {
		s, err := store.Open(ctx, dsn)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { s.Close() })
		return s
	}
	s, other := open(), open()
	now := time.Now().UTC()
	n := 0
	batch := func() []post.Post {
		out := make([]post.Post, size)
		for i := range out {
			n++
			out[i] = indexed("news", fmt.Sprint("bench-", n), now.Add(-time.Duration(n)*time.Millisecond),
				fmt.Sprintf("Firefighters battled blaze number %d at a warehouse in Rotterdam on Tuesday night, officials said, %d", n, n%97))
		}
		return out
	}
	// assigned is when the last batch was assigned: from then until the call returns, the lock
	// is held (it is taken just before, with what other nodes stored meanwhile folded in).
	var assigned time.Time
	assign := func(posts []post.Post) {
		assigned = time.Now()
		for i := range posts {
			posts[i].StoryID = posts[i].ID
		}
	}
	var cursor, otherCursor int64
	for _, tc := range []struct {
		name  string
		store func(posts []post.Post) error
		fold  bool
	}{
		{"InsertPosts", func(posts []post.Post) error { _, err := s.InsertPosts(ctx, posts); return err }, false},
		{"InStoryOrder", func(posts []post.Post) error {
			var err error
			cursor, _, err = s.InsertPostsInStoryOrder(ctx, posts, cursor, func(*post.Post) {}, assign)
			return err
		}, false},
		{"InStoryOrderFolding1000", func(posts []post.Post) error {
			var err error
			cursor, _, err = s.InsertPostsInStoryOrder(ctx, posts, cursor, func(*post.Post) {}, assign)
			return err
		}, true},
	} {
		b.Run(tc.name, func(b *testing.B) {
			var locked time.Duration
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				posts := batch()
				if tc.fold {
					var err error
					if otherCursor, _, err = other.InsertPostsInStoryOrder(ctx, batch(), otherCursor, func(*post.Post) {}, assign); err != nil {
						b.Fatal(err)
					}
				}
				b.StartTimer()
				assigned = time.Time{}
				if err := tc.store(posts); err != nil {
					b.Fatal(err)
				}
				if !assigned.IsZero() {
					locked += time.Since(assigned)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*size), "µs/post")
			if locked > 0 {
				b.ReportMetric(float64(locked.Microseconds())/float64(b.N*size), "µs-locked/post")
			}
		})
	}
}
