package store

import (
	"context"
	"database/sql"
	"encoding/json"
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

// Turns are a conversation's last limit turns, oldest first.
func (s *Store) Turns(ctx context.Context, conversationID int64, limit int) ([]assistant.Turn, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT question, answer, post_ids, created_at FROM assistant_turns
		WHERE conversation_id = $1 ORDER BY id DESC LIMIT $2`, conversationID, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []assistant.Turn
	for rows.Next() {
		var t assistant.Turn
		var ids string
		var at int64
		if err := rows.Scan(&t.Question, &t.Answer, &ids, &at); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(ids), &t.PostIDs); err != nil {
			return nil, err
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
func (s *Store) AddTurn(ctx context.Context, c *assistant.Conversation, t assistant.Turn, audit ...account.AuditEntry) error {
	ids, err := json.Marshal(t.PostIDs)
	if err != nil {
		return err
	}
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
		if _, err := tx.ExecContext(ctx, `INSERT INTO assistant_turns (conversation_id, question, answer, post_ids, created_at)
			VALUES ($1, $2, $3, $4, $5)`, conversationID, t.Question, t.Answer, string(ids), at); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE assistant_conversations SET updated_at = $1 WHERE id = $2`, at, conversationID); err != nil {
			return err
		}
		return insertAudit(ctx, tx, withModelID(audit, conversationID)...)
	})
	if err == nil {
		c.ID = conversationID
	}
	return err
}

// DeleteConversationsBefore deletes the conversations untouched since cutoff, with their turns.
func (s *Store) DeleteConversationsBefore(ctx context.Context, cutoff time.Time) (int64, error) {
	res, err := s.write.ExecContext(ctx, `DELETE FROM assistant_conversations WHERE updated_at < $1`, millis(cutoff))
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
