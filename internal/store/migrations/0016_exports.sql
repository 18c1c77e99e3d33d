-- Exports of posts to CSV or JSON files (issue 13): one row a request, written before the work
-- starts so that a restart resumes it. Times are Unix milliseconds; 0 means "none".
CREATE TABLE exports (
	id {{id}},
	organization_id BIGINT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
	user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	source TEXT NOT NULL CHECK (source IN ('matches', 'beacon')),
	format TEXT NOT NULL CHECK (format IN ('csv', 'json')),
	columns TEXT NOT NULL, -- JSON list of column ids
	request TEXT NOT NULL, -- JSON: the matches or the Beacon search to export
	email TEXT NOT NULL DEFAULT '',
	-- '' (no address), pending, sent, off (no SMTP on the server) or failed.
	email_status TEXT NOT NULL DEFAULT '',
	status TEXT NOT NULL CHECK (status IN ('pending', 'running', 'ready', 'failed')),
	-- The posts the request counted (what the daily quota holds for it), then those written.
	post_count BIGINT NOT NULL DEFAULT 0,
	error TEXT NOT NULL DEFAULT '',
	-- The worker that runs it: a random claim and until when it holds it; past that another
	-- worker (after a crash, another node) takes it over.
	claim TEXT NOT NULL DEFAULT '',
	lease_until BIGINT NOT NULL DEFAULT 0,
	created_at BIGINT NOT NULL,
	finished_at BIGINT NOT NULL DEFAULT 0,
	expires_at BIGINT NOT NULL,
	file_path TEXT NOT NULL DEFAULT '' -- the file's name in <data dir>/exports
);
CREATE INDEX exports_user_created ON exports (user_id, created_at);
CREATE INDEX exports_status ON exports (status, id);
CREATE INDEX exports_expires ON exports (expires_at);
