-- A delivery's destination type is whichever alert channel carried it (internal/alerts/channel):
-- the list lives in the channels' table, so a new channel needs no migration. SQLite cannot drop
-- a CHECK, so the table is rebuilt; the matches' table, which refers to it and would be emptied
-- by the cascade of dropping it, is set aside first and put back after.
CREATE TABLE alert_delivery_matches_kept AS SELECT * FROM alert_delivery_matches;
DROP TABLE alert_delivery_matches;

CREATE TABLE alert_deliveries_rebuilt (
	id INTEGER PRIMARY KEY,
	search_id BIGINT NOT NULL REFERENCES monitor_searches (id) ON DELETE CASCADE,
	organization_id BIGINT NOT NULL,
	type TEXT NOT NULL, -- batch, digest, webhook, proximity or ai_summary
	destination_type TEXT NOT NULL, -- the channel's name: email, webhook, ...
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
INSERT INTO alert_deliveries_rebuilt (id, search_id, organization_id, type, destination_type, destination, match_count,
	status, attempts, next_attempt_at, lease_until, last_error, created_at, sent_at)
SELECT id, search_id, organization_id, type, destination_type, destination, match_count,
	status, attempts, next_attempt_at, lease_until, last_error, created_at, sent_at FROM alert_deliveries;
DROP TABLE alert_deliveries;
ALTER TABLE alert_deliveries_rebuilt RENAME TO alert_deliveries;
CREATE INDEX alert_deliveries_due ON alert_deliveries (status, next_attempt_at);
CREATE INDEX alert_deliveries_search ON alert_deliveries (search_id, id);

CREATE TABLE alert_delivery_matches (
	search_id BIGINT NOT NULL,
	type TEXT NOT NULL,
	destination TEXT NOT NULL,
	match_id BIGINT NOT NULL,
	delivery_id BIGINT NOT NULL REFERENCES alert_deliveries (id) ON DELETE CASCADE,
	PRIMARY KEY (search_id, type, destination, match_id)
);
INSERT INTO alert_delivery_matches (search_id, type, destination, match_id, delivery_id)
SELECT search_id, type, destination, match_id, delivery_id FROM alert_delivery_matches_kept;
DROP TABLE alert_delivery_matches_kept;
CREATE INDEX alert_delivery_matches_delivery ON alert_delivery_matches (delivery_id);
