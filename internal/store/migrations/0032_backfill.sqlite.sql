-- A saved search's inbox can be filled from the stored posts of its last days (issue 27). Those
-- matches are in the inbox and count towards the limits like any other, but they are old
-- news: no alert sends them, so they are marked.
ALTER TABLE monitor_matches ADD COLUMN backfilled BOOLEAN NOT NULL DEFAULT FALSE;

-- The latest backfill of each saved search and how far it got.
CREATE TABLE monitor_backfills (
	search_id BIGINT PRIMARY KEY REFERENCES monitor_searches (id) ON DELETE CASCADE,
	days INTEGER NOT NULL,
	status TEXT NOT NULL,
	scanned BIGINT NOT NULL DEFAULT 0,
	added BIGINT NOT NULL DEFAULT 0,
	started_at BIGINT NOT NULL,
	updated_at BIGINT NOT NULL
);

-- The terms of the posts' full-text index, for Beacon's suggestions of near spellings when a
-- search finds little: a term is looked up here before anything is counted.
CREATE VIRTUAL TABLE posts_fts_terms USING fts5vocab (posts_fts, row);
