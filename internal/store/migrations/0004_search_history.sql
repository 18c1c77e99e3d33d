-- Searches users ran, for their history.
CREATE TABLE search_history (
	id {{id}},
	user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	organization_id BIGINT NOT NULL,
	category TEXT NOT NULL,
	request TEXT NOT NULL,
	created_at BIGINT NOT NULL
);
CREATE INDEX search_history_user ON search_history (user_id, created_at);
