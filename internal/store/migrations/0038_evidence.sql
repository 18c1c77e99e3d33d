-- Evidence captures (issue 32, docs/evidence.md). A record is written when the capture is asked
-- for, with what Sightline stored (the post, match or story as JSON) as its first file; a worker
-- on any node claims it, fetches the page and its media, timestamps the hashes and finishes it.
-- Files and timestamp tokens live in the database, so every node of a PostgreSQL deployment
-- serves every record and a backup of the database is a backup of the evidence.
CREATE TABLE evidence (
	id {{id}},
	tenant_id BIGINT NOT NULL,
	organization_id BIGINT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
	-- Who captured it; 0 for an automatic capture of a saved search (search_id says which).
	user_id BIGINT NOT NULL DEFAULT 0,
	captured_by TEXT NOT NULL DEFAULT '',
	search_id BIGINT NOT NULL DEFAULT 0,
	kind TEXT NOT NULL CHECK (kind IN ('post', 'match', 'story', 'url')),
	target TEXT NOT NULL,
	-- JSON: the pages and media the worker fetches.
	plan TEXT NOT NULL DEFAULT '{}',
	-- The record this one captures again (re-capture never edits a record).
	previous_id BIGINT NOT NULL DEFAULT 0,
	state TEXT NOT NULL CHECK (state IN ('pending', 'running', 'done', 'partial', 'failed', 'deleted')),
	progress INTEGER NOT NULL DEFAULT 0,
	step TEXT NOT NULL DEFAULT '',
	errors TEXT NOT NULL DEFAULT '[]',
	claim TEXT NOT NULL DEFAULT '',
	lease_until BIGINT NOT NULL DEFAULT 0,
	created_at BIGINT NOT NULL,
	captured_at BIGINT NOT NULL DEFAULT 0,
	deleted_at BIGINT NOT NULL DEFAULT 0,
	deleted_by BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX evidence_organization ON evidence (organization_id, id);
CREATE INDEX evidence_waiting ON evidence (state, id) WHERE state IN ('pending', 'running');

-- A record's files. A deleted record keeps its names, hashes and sizes (the tombstone) and loses
-- the bytes.
CREATE TABLE evidence_files (
	evidence_id BIGINT NOT NULL REFERENCES evidence (id) ON DELETE CASCADE,
	name TEXT NOT NULL,
	sha256 TEXT NOT NULL,
	size BIGINT NOT NULL,
	content {{blob}},
	PRIMARY KEY (evidence_id, name)
);

-- RFC 3161 time-stamp responses over the SHA256SUMS of a record, one per authority that answered.
CREATE TABLE evidence_timestamps (
	evidence_id BIGINT NOT NULL REFERENCES evidence (id) ON DELETE CASCADE,
	n INTEGER NOT NULL,
	tsa TEXT NOT NULL,
	stamped_at BIGINT NOT NULL,
	response {{blob}} NOT NULL,
	PRIMARY KEY (evidence_id, n)
);

-- Automatic capture (docs/evidence.md): the saved searches whose matches are captured, every one
-- or those whose threat is high, from the match after after_match_id on. Nodes scan it together:
-- the unique index makes a match captured once however many nodes saw it.
CREATE TABLE evidence_auto (
	search_id BIGINT PRIMARY KEY REFERENCES monitor_searches (id) ON DELETE CASCADE,
	organization_id BIGINT NOT NULL,
	tenant_id BIGINT NOT NULL,
	mode TEXT NOT NULL CHECK (mode IN ('high', 'all')),
	after_match_id BIGINT NOT NULL DEFAULT 0,
	set_by BIGINT NOT NULL
);
CREATE UNIQUE INDEX evidence_automatic ON evidence (search_id, target) WHERE search_id <> 0;
-- The scan reads a search's matches after its cursor in id order, at the index's cost rather
-- than all of the search's matches every 10 s.
CREATE INDEX monitor_matches_search_id ON monitor_matches (search_id, id);
