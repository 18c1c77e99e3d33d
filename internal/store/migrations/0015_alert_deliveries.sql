-- Alert deliveries (issue 13): one row a message to one destination, written before it is sent,
-- so that a restart resumes it and no match is ever in two deliveries of the same alert.
-- Times are Unix milliseconds; 0 means "none".
CREATE TABLE alert_deliveries (
	id {{id}},
	search_id BIGINT NOT NULL REFERENCES monitor_searches (id) ON DELETE CASCADE,
	organization_id BIGINT NOT NULL,
	type TEXT NOT NULL, -- batch, digest, webhook, proximity or ai_summary
	destination_type TEXT NOT NULL CHECK (destination_type IN ('email', 'webhook')),
	destination TEXT NOT NULL,
	match_count INTEGER NOT NULL,
	status TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'retrying', 'failed')),
	attempts INTEGER NOT NULL DEFAULT 0,
	next_attempt_at BIGINT NOT NULL DEFAULT 0,
	-- A sender holds a row until lease_until; past it (a crash) another sender takes it over.
	lease_until BIGINT NOT NULL DEFAULT 0,
	last_error TEXT NOT NULL DEFAULT '',
	created_at BIGINT NOT NULL,
	sent_at BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX alert_deliveries_due ON alert_deliveries (status, next_attempt_at);
CREATE INDEX alert_deliveries_search ON alert_deliveries (search_id, id);

-- The matches each delivery covers. The key makes a match part of at most one delivery of each
-- alert and destination. Matches expire with their partitions, so match_id has no reference.
CREATE TABLE alert_delivery_matches (
	search_id BIGINT NOT NULL,
	type TEXT NOT NULL,
	destination TEXT NOT NULL,
	match_id BIGINT NOT NULL,
	delivery_id BIGINT NOT NULL REFERENCES alert_deliveries (id) ON DELETE CASCADE,
	PRIMARY KEY (search_id, type, destination, match_id)
);
CREATE INDEX alert_delivery_matches_delivery ON alert_delivery_matches (delivery_id);

-- When each alert of a search last collected its matches; nodes take turns through it.
CREATE TABLE alert_runs (
	search_id BIGINT NOT NULL REFERENCES monitor_searches (id) ON DELETE CASCADE,
	type TEXT NOT NULL,
	last_run_at BIGINT NOT NULL,
	PRIMARY KEY (search_id, type)
);
