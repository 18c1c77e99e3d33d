package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
	"github.com/sightline/sightline/internal/wait"
)

func indexed(provider, native string, published time.Time, text string) post.Post {
	return post.Post{ID: post.NewID(provider, native), Provider: provider, NativeID: native, ContentText: text,
		PublishedAt: published, DiscoveredAt: published, Location: &post.Point{Lat: 48.85, Lon: 2.35}}
}

func TestInsertPostsIsIdempotent(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Now().UTC().Truncate(time.Millisecond)
		batch := []post.Post{
			indexed("reddit", "1", now, "first post"),
			indexed("reddit", "2", now.Add(-48*time.Hour), "second post"),
			indexed("telegram", "1", now.Add(-time.Hour), "third post"),
		}
		n, err := s.InsertPosts(ctx, batch)
		if err != nil || n != 3 {
			t.Fatalf("InsertPosts = %d, %v; want 3 new", n, err)
		}
		// A redelivered batch, overlapping the first, stores only what is new.
		n, err = s.InsertPosts(ctx, append(batch[1:], indexed("reddit", "3", now, "fourth")))
		if err != nil || n != 1 {
			t.Fatalf("redelivery = %d, %v; want 1 new", n, err)
		}
		total, byProvider, err := s.CountPosts(ctx)
		if err != nil || total != 4 || byProvider["reddit"] != 3 || byProvider["telegram"] != 1 {
			t.Errorf("CountPosts = %d %v, %v", total, byProvider, err)
		}
		got, err := s.Post(ctx, batch[0].ID, 0)
		if err != nil || got.ContentText != "first post" || got.Location == nil || !got.PublishedAt.Equal(now) {
			t.Errorf("Post = %+v, %v", got, err)
		}
	})
}

func TestDeletePostsBefore(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Now().UTC()
		var batch []post.Post
		for i := 0; i < 2500; i++ { // more than one retention chunk
			batch = append(batch, indexed("news", fmt.Sprint("old", i), now.Add(-40*24*time.Hour), "old news"))
		}
		batch = append(batch, indexed("news", "fresh", now.Add(-time.Hour), "fresh news"))
		if _, err := s.InsertPosts(ctx, batch); err != nil {
			t.Fatal(err)
		}
		n, err := s.DeletePostsBefore(ctx, now.Add(-30*24*time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		total, _, _ := s.CountPosts(ctx)
		if total != 1 {
			t.Errorf("after retention %d posts remain (deleted %d), want only the fresh one", total, n)
		}
	})
}

// Posts published in the same millisecond (a bulk import with second-precision times) share a
// range of row numbers; every one is stored and indexed once.
func TestPostsOfTheSameMillisecond(t *testing.T) {
	s := storetest.Open(t, store.SQLite)
	ctx := context.Background()
	at := time.Now().UTC().Truncate(time.Millisecond)
	var batch []post.Post
	for i := 0; i < 1500; i++ {
		batch = append(batch, indexed("reddit", fmt.Sprint("same-", i), at, "same time"))
	}
	if n, err := s.InsertPosts(ctx, batch); err != nil || n != 1500 {
		t.Fatalf("InsertPosts = %d, %v", n, err)
	}
	if n, err := s.InsertPosts(ctx, batch[:10]); err != nil || n != 0 {
		t.Errorf("a redelivery stored %d, %v", n, err)
	}
	posts, indexedRows, err := s.PostIndexCounts(ctx)
	if err != nil || posts != 1500 || indexedRows != 1500 {
		t.Errorf("%d posts, %d index rows, %v", posts, indexedRows, err)
	}
}

// Nodes share one PostgreSQL database: when one node's retention drops a day's partition, another
// node that had created that day must still store a post of it, not fail on its memory.
func TestInsertAfterAnotherNodeDroppedThePartition(t *testing.T) {
	dsn := storetest.DSN(t, store.Postgres)
	ctx := context.Background()
	open := func() *store.Store {
		s, err := store.Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		if err := s.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		return s
	}
	a, b := open(), open()
	old := time.Now().UTC().Add(-40 * 24 * time.Hour)
	if _, err := a.InsertPosts(ctx, []post.Post{indexed("news", "first", old, "old news")}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.DeletePostsBefore(ctx, old.Add(48*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if n, err := a.InsertPosts(ctx, []post.Post{indexed("news", "second", old, "late old news")}); err != nil || n != 1 {
		t.Fatalf("InsertPosts after the day was dropped = %d, %v", n, err)
	}
}

// A partition that grew by a bulk load is analyzed by the store, without waiting for autovacuum.
func TestBulkLoadAnalyzesThePartition(t *testing.T) {
	s := storetest.Open(t, store.Postgres)
	ctx := context.Background()
	at := time.Now().UTC().Add(-2 * time.Hour)
	analyzed := func() int64 {
		t.Helper()
		s.WaitUpkeep()
		n, err := s.AnalyzeCount(ctx, "posts_"+at.Format("20060102"))
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	var batch []post.Post
	for i := range 4999 {
		batch = append(batch, indexed("news", fmt.Sprint("n", i), at, "bulk news"))
	}
	if _, err := s.InsertPosts(ctx, batch); err != nil {
		t.Fatal(err)
	}
	if n := analyzed(); n != 0 {
		t.Fatalf("analyzed %d times after 4,999 posts, want none yet", n)
	}
	if _, err := s.InsertPosts(ctx, []post.Post{indexed("news", "last", at, "bulk news")}); err != nil {
		t.Fatal(err)
	}
	if n := analyzed(); n != 1 {
		t.Fatalf("analyzed %d times after 5,000 posts, want once", n)
	}
}

// The store vacuums what it inserts, so that the visibility map keeps a search's index-only scans
// of the newest rows index-only on a server whose autovacuum is off or behind: with each
// analysis, every 5,000 posts between analyses, and once inserts settle.
func TestBulkLoadVacuumsThePartition(t *testing.T) {
	ctx := context.Background()
	at := time.Now().UTC().Add(-2 * time.Hour)
	partition := "posts_" + at.Format("20060102")
	bulk := func(prefix string, n int) []post.Post {
		batch := make([]post.Post, n)
		for i := range batch {
			batch[i] = indexed("news", fmt.Sprint(prefix, i), at, "bulk news")
		}
		return batch
	}
	upkept := func(t *testing.T, s *store.Store) (vacuums, analyses int64) {
		t.Helper()
		s.WaitUpkeep()
		vacuums, err := s.VacuumCount(ctx, partition)
		if err == nil {
			analyses, err = s.AnalyzeCount(ctx, partition)
		}
		if err != nil {
			t.Fatal(err)
		}
		return vacuums, analyses
	}
	t.Run("while inserting", func(t *testing.T) {
		s := storetest.Open(t, store.Postgres)
		s.SetSettle(time.Hour) // inserts never settle here
		for i, want := range []struct{ vacuums, analyses int64 }{
			{1, 1}, // 5,000 posts: the first analysis, with a vacuum
			{2, 2}, // 5,000 more: the partition doubled, analyzed again
			{3, 2}, // 5,000 more: not doubled, vacuumed only
		} {
			if _, err := s.InsertPosts(ctx, bulk(fmt.Sprint("b", i, "-"), 5000)); err != nil {
				t.Fatal(err)
			}
			if vacuums, analyses := upkept(t, s); vacuums != want.vacuums || analyses != want.analyses {
				t.Fatalf("after %d posts: %d vacuums and %d analyses, want %d and %d",
					5000*(i+1), vacuums, analyses, want.vacuums, want.analyses)
			}
		}
		if _, err := s.InsertPosts(ctx, bulk("few", 10)); err != nil {
			t.Fatal(err)
		}
		if vacuums, _ := upkept(t, s); vacuums != 3 {
			t.Fatalf("%d vacuums after 10 more posts, want none more before inserts settle", vacuums)
		}
	})

	t.Run("once inserts settle", func(t *testing.T) {
		s := storetest.Open(t, store.Postgres)
		s.SetSettle(10 * time.Millisecond)
		if _, err := s.InsertPosts(ctx, bulk("few", 10)); err != nil {
			t.Fatal(err)
		}
		var analyses int64
		wait.For(t, "10 posts vacuumed after the inserts settled", func() bool {
			var vacuums int64
			vacuums, analyses = upkept(t, s)
			return vacuums == 1
		})
		if analyses != 0 {
			t.Fatalf("%d analyses of 10 posts, want none", analyses)
		}
	})
}
