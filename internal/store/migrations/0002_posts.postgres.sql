-- Stored posts with full-text search, partitioned by day of publication so retention drops
-- whole partitions. search holds the title's and text's folded tokens (query.TSVector).
CREATE TABLE posts (
	id TEXT NOT NULL,
	provider TEXT NOT NULL,
	published_at BIGINT NOT NULL,
	discovered_at BIGINT NOT NULL,
	author_name TEXT NOT NULL DEFAULT '',
	author_screen_name TEXT NOT NULL DEFAULT '',
	board TEXT NOT NULL DEFAULT '',
	language TEXT NOT NULL DEFAULT '',
	lat DOUBLE PRECISION,
	lon DOUBLE PRECISION,
	has_images BOOLEAN NOT NULL DEFAULT FALSE,
	has_videos BOOLEAN NOT NULL DEFAULT FALSE,
	thread_id TEXT NOT NULL DEFAULT '',
	threat_score INTEGER NOT NULL DEFAULT 0,
	search tsvector NOT NULL,
	doc TEXT NOT NULL,
	PRIMARY KEY (id, published_at)
) PARTITION BY RANGE (published_at);
CREATE INDEX posts_published ON posts (published_at);
CREATE INDEX posts_discovered ON posts (discovered_at);
CREATE INDEX posts_provider_published ON posts (provider, published_at);
CREATE INDEX posts_thread ON posts (thread_id) WHERE thread_id <> '';
CREATE INDEX posts_search ON posts USING GIN (search);
