-- The assistant's related searches and feedback (issue 29, docs/assistant.md). A turn keeps the
-- related searches drawn from the posts it was answered from (a JSON array of strings), so a
-- conversation read again shows them as they were. Feedback is one rating a user gives an
-- answer of their own conversation, with an optional comment; it goes with the turn.
ALTER TABLE assistant_turns ADD COLUMN related_searches TEXT NOT NULL DEFAULT '[]';

CREATE TABLE assistant_feedback (
	turn_id BIGINT NOT NULL REFERENCES assistant_turns (id) ON DELETE CASCADE,
	user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	tenant_id BIGINT NOT NULL,
	organization_id BIGINT NOT NULL,
	rating TEXT NOT NULL,
	comment TEXT NOT NULL DEFAULT '',
	created_at BIGINT NOT NULL,
	updated_at BIGINT NOT NULL,
	PRIMARY KEY (turn_id, user_id)
);
CREATE INDEX assistant_feedback_tenant ON assistant_feedback (tenant_id, updated_at);
