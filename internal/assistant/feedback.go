package assistant

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/authz"
	"github.com/sightline/sightline/internal/problem"
)

// Ratings of an answer.
const (
	RatingUp   = "up"
	RatingDown = "down"
)

// Ratings are the ratings an answer may be given, in the order the app shows them.
var Ratings = []string{RatingUp, RatingDown}

// Feedback messages.
const (
	MsgRating         = "The rating must be up or down."
	MsgCommentTooLong = "The comment can be at most 1000 characters."
	MsgAnswerNotFound = "The answer was not found."
	MsgNoFeedback     = "There is no feedback on this answer."
	// MaxComment bounds a feedback comment, in characters.
	MaxComment = 1000
)

// Feedback is a user's rating of an answer in their own conversation, with an optional comment.
type Feedback struct {
	TurnID         int64
	UserID         int64
	TenantID       int64
	OrganizationID int64
	Rating         string
	Comment        string
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// FeedbackReply is feedback as the API shows it.
type FeedbackReply struct {
	MessageID int64  `json:"message_id"`
	Rating    string `json:"rating"`
	Comment   string `json:"comment"`
	UpdatedAt int64  `json:"updated_at"` // unix seconds
}

func replyOf(f *Feedback) *FeedbackReply {
	if f == nil {
		return nil
	}
	return &FeedbackReply{MessageID: f.TurnID, Rating: f.Rating, Comment: f.Comment, UpdatedAt: f.UpdatedAt.Unix()}
}

// SetFeedback rates an answer of the caller's own conversation (turnID is the answer's id), with
// an optional comment; rating it again replaces the rating. Each change is audited.
func (s *Service) SetFeedback(ctx context.Context, actor authz.Actor, turnID int64, rating, comment string) (FeedbackReply, error) {
	if err := authz.CanUseAssistant(actor); err != nil {
		return FeedbackReply{}, err
	}
	rating, comment = strings.TrimSpace(rating), strings.TrimSpace(comment)
	fields := map[string][]string{}
	if rating != RatingUp && rating != RatingDown {
		fields["rating"] = []string{MsgRating}
	}
	if utf8.RuneCountInString(comment) > MaxComment {
		fields["comment"] = []string{MsgCommentTooLong}
	}
	if len(fields) > 0 {
		msg := MsgCommentTooLong
		if fields["rating"] != nil {
			msg = MsgRating
		}
		return FeedbackReply{}, problem.Invalid(msg, fields)
	}
	conv, err := s.turnConversation(ctx, actor, turnID)
	if err != nil {
		return FeedbackReply{}, err
	}
	now := s.now().UTC()
	f := Feedback{TurnID: turnID, UserID: actor.UserID, TenantID: actor.TenantID, OrganizationID: actor.OrganizationID,
		Rating: rating, Comment: comment, CreatedAt: now, UpdatedAt: now}
	_, err = s.store.SetFeedback(ctx, f, func(previous *Feedback) []account.AuditEntry {
		action, before := "created", ""
		if previous != nil {
			action, before = "updated", feedbackValue(conv, *previous)
		}
		return []account.AuditEntry{feedbackEntry(actor, turnID, action, before, feedbackValue(conv, f))}
	})
	if err != nil {
		return FeedbackReply{}, err
	}
	return *replyOf(&f), nil
}

// ClearFeedback withdraws the caller's feedback on an answer (audited).
func (s *Service) ClearFeedback(ctx context.Context, actor authz.Actor, turnID int64) error {
	if err := authz.CanUseAssistant(actor); err != nil {
		return err
	}
	conv, err := s.turnConversation(ctx, actor, turnID)
	if err != nil {
		return err
	}
	err = s.store.DeleteFeedback(ctx, turnID, actor.UserID, func(previous Feedback) []account.AuditEntry {
		return []account.AuditEntry{feedbackEntry(actor, turnID, "deleted", feedbackValue(conv, previous), "")}
	})
	if problem.Is(err, problem.KindNotFound) {
		return problem.NotFound(MsgNoFeedback)
	}
	return err
}

// turnConversation is the conversation of an answer the caller may rate: one of their own
// conversations. Any other answer does not exist for them.
func (s *Service) turnConversation(ctx context.Context, actor authz.Actor, turnID int64) (Conversation, error) {
	if turnID <= 0 {
		return Conversation{}, problem.NotFound(MsgAnswerNotFound)
	}
	conv, err := s.store.TurnConversation(ctx, turnID)
	if problem.Is(err, problem.KindNotFound) {
		return Conversation{}, problem.NotFound(MsgAnswerNotFound)
	}
	if err != nil {
		return Conversation{}, err
	}
	if err := authz.CanUseConversation(actor, conv.UserID); err != nil {
		return Conversation{}, problem.NotFound(MsgAnswerNotFound)
	}
	return conv, nil
}

func feedbackEntry(actor authz.Actor, turnID int64, action, previous, value string) account.AuditEntry {
	return account.AuditEntry{TenantID: actor.TenantID, OrganizationID: actor.OrganizationID, UserID: actor.UserID,
		Model: "assistant_feedback", ModelID: strconv.FormatInt(turnID, 10), Action: action, PreviousValue: previous, NewValue: value}
}

// feedbackValue is feedback as the audit log keeps it.
func feedbackValue(conv Conversation, f Feedback) string {
	b, _ := json.Marshal(map[string]string{"rating": f.Rating, "comment": f.Comment, "session_id": conv.SessionID})
	return string(b)
}
