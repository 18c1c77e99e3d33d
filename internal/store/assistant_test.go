package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/assistant"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/store"
	"github.com/sightline/sightline/internal/store/storetest"
)

// A conversation keeps its turns in order, a session id is taken once, and retention removes
// conversations untouched since its cutoff with their turns.
func TestAssistantConversations(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		owner := seedUser(t, s, "owner@acme.test")
		c := assistant.Conversation{SessionID: "s1", UserID: owner.ID, OrganizationID: owner.OrganizationID}
		old := time.Now().Add(-40 * 24 * time.Hour)
		for i, q := range []string{"first", "second", "third"} {
			if err := s.AddTurn(ctx, &c, assistant.Turn{Question: q, Answer: "a", PostIDs: []string{q}, CreatedAt: old.Add(time.Duration(i) * time.Minute)}); err != nil {
				t.Fatal(err)
			}
		}
		if c.ID == 0 {
			t.Fatal("the first turn did not start the conversation")
		}
		again := assistant.Conversation{SessionID: "s1", UserID: owner.ID, OrganizationID: owner.OrganizationID}
		if err := s.AddTurn(ctx, &again, assistant.Turn{Question: "q", CreatedAt: old}); !problem.Is(err, problem.KindConflict) || again.ID != 0 {
			t.Errorf("the same session id twice: %v, id %d", err, again.ID)
		}
		turns, err := s.Turns(ctx, c.ID, 2)
		if err != nil || len(turns) != 2 || turns[0].Question != "second" || turns[1].PostIDs[0] != "third" {
			t.Errorf("last two turns = %+v, %v", turns, err)
		}
		got, err := s.Conversation(ctx, "s1")
		if err != nil || got.ID != c.ID || got.UserID != owner.ID {
			t.Errorf("conversation = %+v, %v", got, err)
		}
		if _, err := s.Conversation(ctx, "nope"); !problem.Is(err, problem.KindNotFound) {
			t.Errorf("unknown session id: %v", err)
		}
		if n, err := s.DeleteConversationsBefore(ctx, time.Now().Add(-30*24*time.Hour)); err != nil || n != 1 {
			t.Errorf("retention removed %d (%v), want the old conversation", n, err)
		}
		if turns, _ := s.Turns(ctx, c.ID, 10); len(turns) != 0 {
			t.Errorf("turns outlived their conversation: %+v", turns)
		}
	})
}
