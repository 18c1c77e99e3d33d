package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/cases"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// An item keeps the post it was added with, so a case outlives the posts' retention; the same
// thing cannot be added twice; each change moves the case's time and writes its timeline with
// the actor's name; deleting the case takes everything in it.
func TestCaseItemsOutliveTheirPosts(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := seedUser(t, s, "ana@example.test")
		old := time.Now().UTC().Add(-48 * time.Hour).Truncate(time.Millisecond)
		p := post.Post{Provider: "news", NativeID: "n1", ContentText: "Strike at the port.", PublishedAt: old, Language: "en"}
		if err := p.Normalize(time.Now()); err != nil {
			t.Fatal(err)
		}
		p.StoryID = p.ID
		if _, err := s.InsertPosts(ctx, []post.Post{p}); err != nil {
			t.Fatal(err)
		}
		c := cases.Case{OrganizationID: u.OrganizationID, OwnerID: u.ID, Name: "Port", Status: cases.StatusOpen,
			Privacy: "private", CreatedAt: old, UpdatedAt: old}
		entry := account.AuditEntry{OrganizationID: u.OrganizationID, UserID: u.ID, Model: "case", Action: "created"}
		if err := s.CreateCase(ctx, &c, cases.Event{UserID: u.ID, Action: cases.ActionCreated, Summary: "created", CreatedAt: old}, entry); err != nil {
			t.Fatal(err)
		}
		stored, err := s.Post(ctx, p.ID, 0)
		if err != nil {
			t.Fatal(err)
		}
		now := time.Now().UTC().Truncate(time.Millisecond)
		it := cases.Item{CaseID: c.ID, Kind: cases.KindPost, Ref: p.ID, Post: &stored, Note: "first", AddedBy: u.ID, CreatedAt: now, UpdatedAt: now}
		add := cases.Event{UserID: u.ID, Action: cases.ActionItemAdded, Summary: "added the post", CreatedAt: now}
		if err := s.AddCaseItem(ctx, &it, add, account.AuditEntry{OrganizationID: u.OrganizationID, UserID: u.ID, Model: "case_item", Action: "created"}); err != nil {
			t.Fatal(err)
		}
		again := it
		if err := s.AddCaseItem(ctx, &again, add, account.AuditEntry{}); !problem.Is(err, problem.KindConflict) {
			t.Errorf("the same post twice: %v, want a conflict", err)
		}
		if _, err := s.DeletePostsBefore(ctx, time.Now().Add(-time.Hour)); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Post(ctx, p.ID, 0); !problem.Is(err, problem.KindNotFound) {
			t.Fatalf("the post outlived retention: %v", err)
		}
		items, err := s.CaseItems(ctx, c.ID)
		if err != nil || len(items) != 1 || items[0].Post == nil || items[0].Post.ContentText != "Strike at the port." || items[0].Note != "first" {
			t.Fatalf("items after retention = %+v, %v", items, err)
		}
		got, err := s.Case(ctx, c.ID)
		if err != nil || !got.UpdatedAt.Equal(now) {
			t.Errorf("updated_at = %v, want %v (%v)", got.UpdatedAt, now, err)
		}
		events, err := s.CaseEvents(ctx, c.ID)
		if err != nil || len(events) != 2 || events[1].Summary != "added the post" || events[1].ActorName != u.Name {
			t.Errorf("timeline = %+v, %v", events, err)
		}
		list, err := s.Cases(ctx, u.OrganizationID)
		if err != nil || len(list) != 1 || list[0].ItemCount != 1 {
			t.Errorf("Cases = %+v, %v", list, err)
		}
		if other, err := s.Cases(ctx, u.OrganizationID+1000); err != nil || len(other) != 0 {
			t.Errorf("another organization's list = %+v, %v", other, err)
		}
		if err := s.DeleteCase(ctx, c.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Case(ctx, c.ID); !problem.Is(err, problem.KindNotFound) {
			t.Errorf("deleted case: %v", err)
		}
		if items, _ := s.CaseItems(ctx, c.ID); len(items) != 0 {
			t.Errorf("items of a deleted case: %d", len(items))
		}
	})
}
