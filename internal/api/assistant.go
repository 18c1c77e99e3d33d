package api

import (
	"net/http"
	"strconv"

	"github.com/sightline/sightline/internal/assistant"
	"github.com/sightline/sightline/internal/auth"
	"github.com/sightline/sightline/internal/problem"
)

// askAssistant answers a question in a conversation: {"input", "sessionId"} (search-side.md
// section 7; docs/assistant.md).
func (a *API) askAssistant(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	var req struct {
		Input     string `json:"input"`
		SessionID string `json:"sessionId"`
	}
	if err := decode(r, &req); err != nil {
		return err
	}
	// A question runs a search of the stored posts: it counts in the caller's search limit.
	done, err := a.SearchLimiter.Begin(id.User.ID)
	if err != nil {
		return err
	}
	defer done()
	reply, err := a.Assistant.Ask(r.Context(), id.Actor(), req.SessionID, req.Input)
	if err != nil {
		return err
	}
	return ok(w, reply)
}

// assistantConversation lists the caller's conversation of a session id.
func (a *API) assistantConversation(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	messages, err := a.Assistant.Conversation(r.Context(), id.Actor(), r.PathValue("sessionId"))
	if err != nil {
		return err
	}
	return ok(w, map[string]any{"sessionId": r.PathValue("sessionId"), "messages": messages})
}

// analyzePost is "Analyze" on a post: {"postId"}.
func (a *API) analyzePost(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	var req struct {
		PostID string `json:"postId"`
	}
	if err := decode(r, &req); err != nil {
		return err
	}
	// An analysis is the engine's work on a post: it counts in the caller's search limit too.
	done, err := a.SearchLimiter.Begin(id.User.ID)
	if err != nil {
		return err
	}
	defer done()
	analysis, err := a.Assistant.Analyze(r.Context(), id.Actor(), req.PostID)
	if err != nil {
		return err
	}
	return ok(w, analysis)
}

// answerID is the answer a feedback call names: {id} of /ai-insights/messages/{id}/feedback.
func answerID(r *http.Request) (int64, error) {
	v, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || v <= 0 {
		return 0, problem.NotFound("%s", assistant.MsgAnswerNotFound)
	}
	return v, nil
}

// rateAnswer stores the caller's feedback on an answer of theirs: {"rating": "up"|"down",
// "comment"}.
func (a *API) rateAnswer(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	turnID, err := answerID(r)
	if err != nil {
		return err
	}
	var req struct {
		Rating  string `json:"rating"`
		Comment string `json:"comment"`
	}
	if err := decode(r, &req); err != nil {
		return err
	}
	f, err := a.Assistant.SetFeedback(r.Context(), id.Actor(), turnID, req.Rating, req.Comment)
	if err != nil {
		return err
	}
	return ok(w, f)
}

// withdrawFeedback deletes the caller's feedback on an answer.
func (a *API) withdrawFeedback(w http.ResponseWriter, r *http.Request, id auth.Identity) error {
	turnID, err := answerID(r)
	if err != nil {
		return err
	}
	if err := a.Assistant.ClearFeedback(r.Context(), id.Actor(), turnID); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
