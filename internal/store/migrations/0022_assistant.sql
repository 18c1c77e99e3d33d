-- The assistant's conversations (issue 15): one per browser session id, owned by the user who
-- started it, with its questions and answers for follow-ups. Times are Unix milliseconds.
CREATE TABLE assistant_conversations (
	id {{id}},
	session_id TEXT NOT NULL UNIQUE,
	user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	organization_id BIGINT NOT NULL,
	created_at BIGINT NOT NULL,
	updated_at BIGINT NOT NULL
);
CREATE INDEX assistant_conversations_updated ON assistant_conversations (updated_at);

CREATE TABLE assistant_turns (
	id {{id}},
	conversation_id BIGINT NOT NULL REFERENCES assistant_conversations (id) ON DELETE CASCADE,
	question TEXT NOT NULL,
	answer TEXT NOT NULL,
	post_ids TEXT NOT NULL,
	created_at BIGINT NOT NULL
);
CREATE INDEX assistant_turns_conversation ON assistant_turns (conversation_id, id);
