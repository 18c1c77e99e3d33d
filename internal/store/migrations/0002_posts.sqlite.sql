-- Stored posts with full-text search. The FTS5 table is contentless: it holds only the index of
-- the title's and the text's folded tokens (query.IndexText), never a second copy of the text.
-- seq is the publication time in milliseconds times 2^20 plus a disambiguator, so that row
-- order is publication order (see store/posts.go).
CREATE TABLE posts (
	seq INTEGER PRIMARY KEY,
	id TEXT NOT NULL UNIQUE,
	provider TEXT NOT NULL,
	published_at BIGINT NOT NULL,
	discovered_at BIGINT NOT NULL,
	author_name TEXT NOT NULL DEFAULT '',
	author_screen_name TEXT NOT NULL DEFAULT '',
	board TEXT NOT NULL DEFAULT '',
	language TEXT NOT NULL DEFAULT '',
	lat REAL,
	lon REAL,
	has_images BOOLEAN NOT NULL DEFAULT FALSE,
	has_videos BOOLEAN NOT NULL DEFAULT FALSE,
	thread_id TEXT NOT NULL DEFAULT '',
	threat_score INTEGER NOT NULL DEFAULT 0,
	doc TEXT NOT NULL
);
CREATE INDEX posts_published ON posts (published_at);
CREATE INDEX posts_discovered ON posts (discovered_at);
CREATE INDEX posts_provider_published ON posts (provider, published_at);
CREATE INDEX posts_thread ON posts (thread_id) WHERE thread_id <> '';

CREATE VIRTUAL TABLE posts_fts USING fts5 (
	title,
	body,
	content = '',
	contentless_delete = 1,
	tokenize = "unicode61 remove_diacritics 0 categories 'L* N* M* Co' tokenchars '_'"
);
