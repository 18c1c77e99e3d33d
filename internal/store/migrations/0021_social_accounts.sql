-- Social integrations (issue 14): users' accounts on other networks, connected by OAuth 2, and
-- the connections begun and not yet approved at the provider. Tokens and PKCE verifiers are
-- sealed with the server's key. Times are Unix milliseconds.
CREATE TABLE social_accounts (
	id {{id}},
	user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	provider TEXT NOT NULL,
	account_id TEXT NOT NULL,
	account_name TEXT NOT NULL DEFAULT '',
	token TEXT NOT NULL,
	connected_at BIGINT NOT NULL,
	UNIQUE (user_id, provider, account_id)
);

CREATE TABLE social_pending (
	state_hash TEXT PRIMARY KEY,
	user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	provider TEXT NOT NULL,
	verifier TEXT NOT NULL,
	expires_at BIGINT NOT NULL
);
CREATE INDEX social_pending_expires ON social_pending (expires_at);
