-- Alerts on events, not posts (issue 31, docs/monitor-api.md "Alert grouping"). A delivery may
-- now be skipped: written, covering its matches so no later run sends them, but never sent,
-- with why (grouped into a story already notified, snoozed, muted, held back by the flood
-- guard). SQLite cannot change a CHECK, so the table is rebuilt as in 0030.
CREATE TABLE alert_delivery_matches_kept AS SELECT * FROM alert_delivery_matches;
DROP TABLE alert_delivery_matches;

CREATE TABLE alert_deliveries_rebuilt (
	id INTEGER PRIMARY KEY,
	search_id BIGINT NOT NULL REFERENCES monitor_searches (id) ON DELETE CASCADE,
	organization_id BIGINT NOT NULL,
	type TEXT NOT NULL,
	destination_type TEXT NOT NULL,
	destination TEXT NOT NULL,
	match_count INTEGER NOT NULL,
	status TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'retrying', 'failed', 'skipped')),
	attempts INTEGER NOT NULL DEFAULT 0,
	next_attempt_at BIGINT NOT NULL DEFAULT 0,
	lease_until BIGINT NOT NULL DEFAULT 0,
	last_error TEXT NOT NULL DEFAULT '',
	created_at BIGINT NOT NULL,
	sent_at BIGINT NOT NULL DEFAULT 0,
	-- matches (one message of matches), story (a story's first notice or escalation) or flood
	-- (the flood guard's notice).
	kind TEXT NOT NULL DEFAULT 'matches',
	story_id TEXT NOT NULL DEFAULT '',
	story_level INTEGER NOT NULL DEFAULT 0,
	escalation TEXT NOT NULL DEFAULT '',
	-- Why a skipped delivery was not sent: grouped, snoozed, muted or held; note says more.
	skipped TEXT NOT NULL DEFAULT '',
	note TEXT NOT NULL DEFAULT ''
);
INSERT INTO alert_deliveries_rebuilt (id, search_id, organization_id, type, destination_type, destination, match_count,
	status, attempts, next_attempt_at, lease_until, last_error, created_at, sent_at)
SELECT id, search_id, organization_id, type, destination_type, destination, match_count,
	status, attempts, next_attempt_at, lease_until, last_error, created_at, sent_at FROM alert_deliveries;
DROP TABLE alert_deliveries;
ALTER TABLE alert_deliveries_rebuilt RENAME TO alert_deliveries;
CREATE INDEX alert_deliveries_due ON alert_deliveries (status, next_attempt_at);
CREATE INDEX alert_deliveries_search ON alert_deliveries (search_id, id);
CREATE INDEX alert_deliveries_recent ON alert_deliveries (search_id, created_at);

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

-- What each alert has told of each story (issue 31): one row a story's first notice (level 0)
-- and each escalation (1, 2, ...), with the story's figures then, which the next escalation is
-- measured against. It is written in the transaction that writes the delivery, and its key
-- makes a second node's or a restarted node's attempt at the same notice roll back.
CREATE TABLE alert_story_notices (
	search_id BIGINT NOT NULL REFERENCES monitor_searches (id) ON DELETE CASCADE,
	type TEXT NOT NULL,
	destination TEXT NOT NULL,
	story_id TEXT NOT NULL,
	level INTEGER NOT NULL,
	delivery_id BIGINT NOT NULL REFERENCES alert_deliveries (id) ON DELETE CASCADE,
	post_count BIGINT NOT NULL,
	providers INTEGER NOT NULL,
	languages INTEGER NOT NULL,
	threat_high BOOLEAN NOT NULL,
	created_at BIGINT NOT NULL,
	PRIMARY KEY (search_id, type, destination, story_id, level)
);

-- The flood guard's notices: at most one a search and a day (Unix milliseconds at 00:00 UTC),
-- whichever node writes it first.
CREATE TABLE alert_flood_notices (
	search_id BIGINT NOT NULL REFERENCES monitor_searches (id) ON DELETE CASCADE,
	day BIGINT NOT NULL,
	delivery_id BIGINT NOT NULL REFERENCES alert_deliveries (id) ON DELETE CASCADE,
	PRIMARY KEY (search_id, day)
);

-- A saved search's alerts snoozed until a time (Unix milliseconds), by whom.
CREATE TABLE alert_snoozes (
	search_id BIGINT PRIMARY KEY REFERENCES monitor_searches (id) ON DELETE CASCADE,
	until_at BIGINT NOT NULL,
	user_id BIGINT NOT NULL,
	created_at BIGINT NOT NULL
);

-- Stories muted in a saved search's alerts, by whom (a mute is the search's, not one user's).
CREATE TABLE alert_story_mutes (
	search_id BIGINT NOT NULL REFERENCES monitor_searches (id) ON DELETE CASCADE,
	story_id TEXT NOT NULL,
	user_id BIGINT NOT NULL,
	created_at BIGINT NOT NULL,
	PRIMARY KEY (search_id, story_id)
);

-- The flood guard's bound: notifications a saved search sends in 24 hours (0: the default, 50).
ALTER TABLE organizations ADD COLUMN alert_daily_limit INTEGER NOT NULL DEFAULT 0;
