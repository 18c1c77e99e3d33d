-- Two-step verification (issue 14): the one-time recovery codes given when a user turns it on,
-- kept only as SHA-256 hashes (each code carries 80 random bits). used_at is Unix milliseconds,
-- 0 while unused. A TOTP secret stored while is_mfa_enabled is false is an enrolment waiting
-- for its first code.
CREATE TABLE mfa_recovery_codes (
	user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	code_hash TEXT NOT NULL,
	used_at BIGINT NOT NULL DEFAULT 0,
	PRIMARY KEY (user_id, code_hash)
);
