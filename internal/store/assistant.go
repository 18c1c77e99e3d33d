package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"slices"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/assistant"
	"github.com/sightline/sightline/internal/problem"
)

// Conversation finds an assistant conversation by its session id.
func (s *Store) Conversation(ctx context.Context, sessionID string) (assistant.Conversation, error) {
	c := assistant.Conversation{SessionID: sessionID}
	err := s.read.QueryRowContext(ctx, `SELECT id, user_id, organization_id FROM assistant_conversations WHERE session_id = $1`,
		sessionID).Scan(&c.ID, &c.UserID, &c.OrganizationID)
	return c, notFound(err, "conversation")
}

// Turns are a conversation's last limit turns, oldest first, each with the feedback the
// conversation's owner gave its answer.
func (s *Store) Turns(ctx context.Context, conversationID int64, limit int) ([]assistant.Turn, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT t.id, t.question, t.answer, t.post_ids, t.related_searches, t.created_at,
			f.tenant_id, f.organization_id, f.rating, f.comment, f.created_at, f.updated_at, c.user_id
		FROM assistant_turns t JOIN assistant_conversations c ON c.id = t.conversation_id
		LEFT JOIN assistant_feedback f ON f.turn_id = t.id AND f.user_id = c.user_id
		WHERE t.conversation_id = $1 ORDER BY t.id DESC LIMIT $2`, conversationID, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []assistant.Turn
	for rows.Next() {
		var t assistant.Turn
		var ids, related string
		var at, owner int64
		var tenant, org, created, updated sql.NullInt64
		var rating, comment sql.NullString
		if err := rows.Scan(&t.ID, &t.Question, &t.Answer, &ids, &related, &at, &tenant, &org, &rating, &comment,
			&created, &updated, &owner); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(ids), &t.PostIDs); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(related), &t.Related); err != nil {
			return nil, err
		}
		if rating.Valid {
			t.Feedback = &assistant.Feedback{TurnID: t.ID, UserID: owner, TenantID: tenant.Int64, OrganizationID: org.Int64,
				Rating: rating.String, Comment: comment.String, CreatedAt: fromMillis(created.Int64), UpdatedAt: fromMillis(updated.Int64)}
		}
		t.CreatedAt = fromMillis(at)
		out = append(out, t)
	}
	slices.Reverse(out)
	return out, rows.Err()
}

// AddTurn appends a question and its answer to a conversation, with the audit entries (one
// without a ModelID names the conversation). A conversation without an ID is stored with it and
// gets its ID; a session id already taken is then a conflict.
func (s *Store) AddTurn(ctx context.Context, c *assistant.Conversation, t *assistant.Turn, audit ...account.AuditEntry) error {
	ids, err := json.Marshal(t.PostIDs)
	if err != nil {
		return err
	}
	related := t.Related
	if related == nil {
		related = []string{}
	}
	relatedJSON, err := json.Marshal(related)
	if err != nil {
		return err
	}
	var turnID int64
	at := millis(t.CreatedAt)
	conversationID := c.ID
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		if conversationID == 0 {
			err := tx.QueryRowContext(ctx, `INSERT INTO assistant_conversations (session_id, user_id, organization_id,
				created_at, updated_at) VALUES ($1, $2, $3, $4, $4) RETURNING id`, c.SessionID, c.UserID, c.OrganizationID,
				at).Scan(&conversationID)
			if isUniqueViolation(err) {
				return problem.Conflict("The conversation exists.")
			}
			if err != nil {
				return err
			}
		}
		if err := tx.QueryRowContext(ctx, `INSERT INTO assistant_turns (conversation_id, question, answer, post_ids,
			related_searches, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`, conversationID, t.Question, t.Answer,
			string(ids), string(relatedJSON), at).Scan(&turnID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE assistant_conversations SET updated_at = $1 WHERE id = $2`, at, conversationID); err != nil {
			return err
		}
		return insertAudit(ctx, tx, withModelID(audit, conversationID)...)
	})
	if err == nil {
		c.ID, t.ID = conversationID, turnID
	}
	return err
}

// TurnConversation is the conversation an assistant turn belongs to.
func (s *Store) TurnConversation(ctx context.Context, turnID int64) (assistant.Conversation, error) {
	var c assistant.Conversation
	err := s.read.QueryRowContext(ctx, `SELECT c.id, c.session_id, c.user_id, c.organization_id FROM assistant_turns t
		JOIN assistant_conversations c ON c.id = t.conversation_id WHERE t.id = $1`, turnID).
		Scan(&c.ID, &c.SessionID, &c.UserID, &c.OrganizationID)
	return c, notFound(err, "turn")
}

// SetFeedback stores a user's feedback on a turn in place of theirs, with the audit entries
// (given the feedback replaced, nil when none) in the same transaction.
func (s *Store) SetFeedback(ctx context.Context, f assistant.Feedback, audit func(previous *assistant.Feedback) []account.AuditEntry) (*assistant.Feedback, error) {
	var previous *assistant.Feedback
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		if previous, err = feedbackIn(ctx, tx, f.TurnID, f.UserID); err != nil {
			return err
		}
		created := f.CreatedAt
		if previous != nil {
			created = previous.CreatedAt
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO assistant_feedback (turn_id, user_id, tenant_id, organization_id,
				rating, comment, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
			ON CONFLICT (turn_id, user_id) DO UPDATE SET rating = excluded.rating, comment = excluded.comment,
				updated_at = excluded.updated_at`,
			f.TurnID, f.UserID, f.TenantID, f.OrganizationID, f.Rating, f.Comment, millis(created), millis(f.UpdatedAt)); err != nil {
			return err
		}
		return insertAudit(ctx, tx, audit(previous)...)
	})
	if err != nil {
		return nil, err
	}
	return previous, nil
}

// DeleteFeedback deletes a user's feedback on a turn with the audit entries (given the feedback
// deleted) in the same transaction.
func (s *Store) DeleteFeedback(ctx context.Context, turnID, userID int64, audit func(previous assistant.Feedback) []account.AuditEntry) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		previous, err := feedbackIn(ctx, tx, turnID, userID)
		if err != nil {
			return err
		}
		if previous == nil {
			return problem.NotFound("The feedback was not found.")
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM assistant_feedback WHERE turn_id = $1 AND user_id = $2`, turnID, userID); err != nil {
			return err
		}
		return insertAudit(ctx, tx, audit(*previous)...)
	})
}

// feedbackIn reads a user's feedback on a turn in a transaction: nil when there is none.
func feedbackIn(ctx context.Context, tx *sql.Tx, turnID, userID int64) (*assistant.Feedback, error) {
	f := assistant.Feedback{TurnID: turnID, UserID: userID}
	var created, updated int64
	err := tx.QueryRowContext(ctx, `SELECT tenant_id, organization_id, rating, comment, created_at, updated_at
		FROM assistant_feedback WHERE turn_id = $1 AND user_id = $2`, turnID, userID).
		Scan(&f.TenantID, &f.OrganizationID, &f.Rating, &f.Comment, &created, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	f.CreatedAt, f.UpdatedAt = fromMillis(created), fromMillis(updated)
	return &f, nil
}

// DeleteConversationsBefore deletes the conversations untouched since cutoff, with their turns.
func (s *Store) DeleteConversationsBefore(ctx context.Context, cutoff time.Time) (int64, error) {
	res, err := s.write.ExecContext(ctx, `DELETE FROM assistant_conversations WHERE updated_at < $1`, millis(cutoff))
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
