package api

import (
	"net/http"

	"github.com/sightline/sightline/internal/auth"
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
