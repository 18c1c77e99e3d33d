-- The posts each user flagged in Beacon for export (the Flagged tab). A flag keeps the post's
-- publication time so that reading the flagged posts finds each in its day (PostgreSQL's
-- partitions); retention removes a flag with its post.
CREATE TABLE beacon_flags (
	user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	post_id TEXT NOT NULL,
	published_at BIGINT NOT NULL,
	created_at BIGINT NOT NULL,
	PRIMARY KEY (user_id, post_id)
);
CREATE INDEX beacon_flags_user_created ON beacon_flags (user_id, created_at);
CREATE INDEX beacon_flags_published ON beacon_flags (published_at);
