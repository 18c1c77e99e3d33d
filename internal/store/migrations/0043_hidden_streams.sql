-- Locate's hidden streams (search-side.md section 4): saved searches a user has hidden from
-- Locate's saved-search list, a personal mark like a favourite. Shown again by removing the row.
CREATE TABLE monitor_hidden (
	search_id BIGINT NOT NULL REFERENCES monitor_searches (id) ON DELETE CASCADE,
	user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	PRIMARY KEY (search_id, user_id)
);
