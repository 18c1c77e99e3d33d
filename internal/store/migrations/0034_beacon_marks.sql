-- What each user did to Beacon results besides flagging them (issue 29): read, and deleted. A
-- mark is the user's own; deleting is irreversible, so marking the post unread again leaves it
-- deleted. Like a flag, a mark keeps the post's publication time so retention removes it with
-- its post.
CREATE TABLE beacon_marks (
	user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	post_id TEXT NOT NULL,
	published_at BIGINT NOT NULL,
	is_read BOOLEAN NOT NULL DEFAULT FALSE,
	is_deleted BOOLEAN NOT NULL DEFAULT FALSE,
	PRIMARY KEY (user_id, post_id)
);
CREATE INDEX beacon_marks_published ON beacon_marks (published_at);
