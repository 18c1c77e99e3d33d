package store_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/sightline/sightline/internal/account"
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
			if err := s.AddTurn(ctx, &c, &assistant.Turn{Question: q, Answer: "a", PostIDs: []string{q}, CreatedAt: old.Add(time.Duration(i) * time.Minute)}); err != nil {
				t.Fatal(err)
			}
		}
		if c.ID == 0 {
			t.Fatal("the first turn did not start the conversation")
		}
		again := assistant.Conversation{SessionID: "s1", UserID: owner.ID, OrganizationID: owner.OrganizationID}
		if err := s.AddTurn(ctx, &again, &assistant.Turn{Question: "q", CreatedAt: old}); !problem.Is(err, problem.KindConflict) || again.ID != 0 {
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

// Feedback is one rating per user and answer, kept with the answer's turn, read back with the
// conversation, written with its audit row in the tenant of the user who gave it, and gone with
// the turn.
func TestAssistantFeedback(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		ana, bo := seedUser(t, s, "ana@acme.test"), seedUser(t, s, "bo@globex.test") // two tenants
		now := time.Now().UTC().Truncate(time.Millisecond)
		anaConv := assistant.Conversation{SessionID: "ana-1", UserID: ana.ID, OrganizationID: ana.OrganizationID}
		boConv := assistant.Conversation{SessionID: "bo-1", UserID: bo.ID, OrganizationID: bo.OrganizationID}
		turn := func(c *assistant.Conversation, question string, related []string) assistant.Turn {
			t.Helper()
			tr := assistant.Turn{Question: question, Answer: "a", PostIDs: []string{}, Related: related, CreatedAt: now}
			if err := s.AddTurn(ctx, c, &tr); err != nil || tr.ID == 0 {
				t.Fatalf("turn %q: %v, id %d", question, err, tr.ID)
			}
			return tr
		}
		first := turn(&anaConv, "harbour strike?", []string{"harbour strike terminal", "harbour strike police"})
		second := turn(&anaConv, "arrests?", nil)
		boTurn := turn(&boConv, "floods?", []string{"floods river"})

		entry := func(u account.User, action string) func(*assistant.Feedback) []account.AuditEntry {
			return func(previous *assistant.Feedback) []account.AuditEntry {
				prev := ""
				if previous != nil {
					prev = previous.Rating
				}
				return []account.AuditEntry{{TenantID: u.TenantID, OrganizationID: u.OrganizationID, UserID: u.ID,
					Model: "assistant_feedback", Action: action, PreviousValue: prev, NewValue: action}}
			}
		}
		feedback := func(u account.User, turnID int64, rating, comment string, at time.Time) assistant.Feedback {
			return assistant.Feedback{TurnID: turnID, UserID: u.ID, TenantID: u.TenantID, OrganizationID: u.OrganizationID,
				Rating: rating, Comment: comment, CreatedAt: at, UpdatedAt: at}
		}
		steps := []struct {
			name     string
			f        assistant.Feedback
			previous string
		}{
			{"ana rates her first answer", feedback(ana, first.ID, assistant.RatingUp, "", now), ""},
			{"ana changes her mind", feedback(ana, first.ID, assistant.RatingDown, "Missed the arrests.", now.Add(time.Minute)), assistant.RatingUp},
			{"bo rates his answer", feedback(bo, boTurn.ID, assistant.RatingUp, "", now), ""},
		}
		for _, st := range steps {
			by := ana
			if st.f.UserID == bo.ID {
				by = bo
			}
			prev, err := s.SetFeedback(ctx, st.f, entry(by, "set"))
			got := ""
			if prev != nil {
				got = prev.Rating
			}
			if err != nil || got != st.previous {
				t.Errorf("%s: previous %q, %v; want %q", st.name, got, err, st.previous)
			}
		}

		turns, err := s.Turns(ctx, anaConv.ID, 10)
		if err != nil || len(turns) != 2 {
			t.Fatalf("ana's turns = %+v, %v", turns, err)
		}
		if f := turns[0].Feedback; f == nil || f.Rating != assistant.RatingDown || f.Comment != "Missed the arrests." ||
			!f.CreatedAt.Equal(now) || !f.UpdatedAt.Equal(now.Add(time.Minute)) || f.TenantID != ana.TenantID {
			t.Errorf("first answer's feedback = %+v", turns[0].Feedback)
		}
		if turns[1].Feedback != nil || turns[1].ID != second.ID {
			t.Errorf("second answer = %+v, want no feedback", turns[1])
		}
		if !slices.Equal(turns[0].Related, []string{"harbour strike terminal", "harbour strike police"}) || turns[1].Related == nil || len(turns[1].Related) != 0 {
			t.Errorf("related searches = %q, %q", turns[0].Related, turns[1].Related)
		}
		if boTurns, _ := s.Turns(ctx, boConv.ID, 10); len(boTurns) != 1 || boTurns[0].Feedback == nil || boTurns[0].Feedback.Rating != assistant.RatingUp {
			t.Errorf("bo's turns = %+v", boTurns)
		}

		// A turn's conversation, for the owner check; an unknown turn is not found.
		if c, err := s.TurnConversation(ctx, boTurn.ID); err != nil || c.UserID != bo.ID || c.SessionID != "bo-1" {
			t.Errorf("bo's turn's conversation = %+v, %v", c, err)
		}
		if _, err := s.TurnConversation(ctx, boTurn.ID+100); !problem.Is(err, problem.KindNotFound) {
			t.Errorf("unknown turn: %v", err)
		}

		// Each tenant's audit log holds its own user's rows only.
		for _, u := range []account.User{ana, bo} {
			log, err := s.AuditLog(ctx, u.TenantID, 100)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, e := range log {
				if e.Model == "assistant_feedback" {
					n++
					if e.UserID != u.ID {
						t.Errorf("tenant %d's log holds %+v", u.TenantID, e)
					}
				}
			}
			if want := map[int64]int{ana.ID: 2, bo.ID: 1}[u.ID]; n != want {
				t.Errorf("%s: %d feedback rows, want %d", u.Email, n, want)
			}
		}

		// Withdrawing: once, then there is nothing to withdraw.
		del := func(previous assistant.Feedback) []account.AuditEntry {
			return []account.AuditEntry{{TenantID: ana.TenantID, OrganizationID: ana.OrganizationID, UserID: ana.ID,
				Model: "assistant_feedback", Action: "deleted", PreviousValue: previous.Rating}}
		}
		if err := s.DeleteFeedback(ctx, first.ID, ana.ID, del); err != nil {
			t.Fatal(err)
		}
		if err := s.DeleteFeedback(ctx, first.ID, ana.ID, del); !problem.Is(err, problem.KindNotFound) {
			t.Errorf("withdrawing twice: %v", err)
		}
		if err := s.DeleteFeedback(ctx, boTurn.ID, ana.ID, del); !problem.Is(err, problem.KindNotFound) {
			t.Errorf("ana withdrew feedback she never gave: %v", err)
		}
		if turns, _ := s.Turns(ctx, anaConv.ID, 10); turns[0].Feedback != nil {
			t.Errorf("withdrawn feedback still read: %+v", turns[0].Feedback)
		}

		// Retention takes the feedback with its turn.
		if _, err := s.DeleteConversationsBefore(ctx, now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if err := s.DeleteFeedback(ctx, boTurn.ID, bo.ID, del); !problem.Is(err, problem.KindNotFound) {
			t.Errorf("feedback outlived its turn: %v", err)
		}
	})
}
