package search_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/provider"
	"github.com/sightline/sightline/internal/search"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// Marks on both databases: read, unread and deleted are each user's own, deleting cannot be
// undone, only posts the user may see can be marked, and retention takes the marks with their
// posts.
func TestMarks(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		private := account.Tenant{Name: "private"}
		if err := s.CreateTenant(ctx, &private); err != nil {
			t.Fatal(err)
		}
		now := time.Now().UTC().Truncate(time.Millisecond)
		var posts []post.Post
		for i, prov := range []string{"reddit", "telegram", "tor", "reddit"} {
			p := post.Post{Provider: prov, NativeID: fmt.Sprint("m", i), ContentText: "mark me",
				PublishedAt: now.Add(-time.Duration(i*24) * time.Hour)}
			p.ID, p.DiscoveredAt = post.NewID(p.Provider, p.NativeID), p.PublishedAt
			posts = append(posts, p)
		}
		posts[3].Tenant = private.ID // ingested by the private tenant alone
		if _, err := s.InsertPosts(ctx, posts); err != nil {
			t.Fatal(err)
		}
		ids := []string{posts[0].ID, posts[1].ID, posts[2].ID, posts[3].ID}
		marks := search.NewMarks(s)
		ana, bo := newUser(t, s, "ana@marks.test"), newUser(t, s, "bo@marks.test")
		state := func(user int64) string {
			t.Helper()
			got, err := marks.Of(ctx, user, ids)
			if err != nil {
				t.Fatal(err)
			}
			out := ""
			for i, id := range ids {
				m := got[id]
				out += fmt.Sprintf("%d:%v/%v ", i, m.Read, m.Deleted)
			}
			return out
		}
		steps := []struct {
			name string
			do   func() error
			ana  string
			bo   string
		}{
			{"read two", func() error { return marks.Mark(ctx, ana, everything, search.MarkRead, ids[:2]) },
				"0:true/false 1:true/false 2:false/false 3:false/false ", "0:false/false 1:false/false 2:false/false 3:false/false "},
			{"read again", func() error { return marks.Mark(ctx, ana, everything, search.MarkRead, ids[:1]) },
				"0:true/false 1:true/false 2:false/false 3:false/false ", "0:false/false 1:false/false 2:false/false 3:false/false "},
			{"delete one read", func() error { return marks.Mark(ctx, ana, everything, search.MarkDeleted, ids[1:2]) },
				"0:true/false 1:true/true 2:false/false 3:false/false ", "0:false/false 1:false/false 2:false/false 3:false/false "},
			{"unread both, the deleted stays deleted", func() error { return marks.MarkUnread(ctx, ana, ids[:3]) },
				"0:false/false 1:false/true 2:false/false 3:false/false ", "0:false/false 1:false/false 2:false/false 3:false/false "},
			{"another user reads", func() error { return marks.Mark(ctx, bo, everything, search.MarkRead, ids[1:3]) },
				"0:false/false 1:false/true 2:false/false 3:false/false ", "0:false/false 1:true/false 2:true/false 3:false/false "},
		}
		for _, step := range steps {
			if err := step.do(); err != nil {
				t.Fatalf("%s: %v", step.name, err)
			}
			if got := state(ana); got != step.ana {
				t.Errorf("%s: ana %s, want %s", step.name, got, step.ana)
			}
			if got := state(bo); got != step.bo {
				t.Errorf("%s: bo %s, want %s", step.name, got, step.bo)
			}
		}

		refused := []struct {
			name string
			err  error
			kind problem.Kind
		}{
			{"a dark-web post without Beacon", marks.Mark(ctx, bo, provider.Entitlements{Pro: true}, search.MarkRead, ids[2:3]), problem.KindNotFound},
			{"another tenant's post", marks.Mark(ctx, bo, everything, search.MarkDeleted, ids[3:]), problem.KindNotFound},
			{"nothing", marks.Mark(ctx, bo, everything, search.MarkRead, nil), problem.KindInvalid},
			{"nothing unread", marks.MarkUnread(ctx, bo, nil), problem.KindInvalid},
		}
		for _, r := range refused {
			if !problem.Is(r.err, r.kind) {
				t.Errorf("marking %s = %v, want %v", r.name, r.err, r.kind)
			}
		}
		inTenant := everything
		inTenant.Tenant = private.ID
		if err := marks.Mark(ctx, bo, inTenant, search.MarkDeleted, ids[3:]); err != nil {
			t.Errorf("marking a post of the user's own tenant: %v", err)
		}

		if _, err := s.DeleteMarksBefore(ctx, now.Add(-36*time.Hour)); err != nil {
			t.Fatal(err)
		}
		if got, want := state(bo), "0:false/false 1:true/false 2:false/false 3:false/false "; got != want {
			t.Errorf("after retention bo %s, want %s", got, want)
		}
	})
}
