-- The Monitor area: groups, saved searches, sharing, matches with per-user state, filter lists
-- and location configurations. Times are Unix milliseconds; 0 means "none".

CREATE TABLE monitor_groups (
	id {{id}},
	organization_id BIGINT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
	owner_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	name TEXT NOT NULL,
	-- shared: everyone in the organization can edit; readonly: everyone can view; private: only
	-- the owner and the people it is shared with.
	privacy TEXT NOT NULL CHECK (privacy IN ('shared', 'readonly', 'private')),
	-- The owner's "Uncategorized" group: one per user, never shared.
	is_saved_search BOOLEAN NOT NULL DEFAULT FALSE,
	created_at BIGINT NOT NULL,
	updated_at BIGINT NOT NULL
);
CREATE INDEX monitor_groups_org ON monitor_groups (organization_id);
CREATE UNIQUE INDEX monitor_groups_uncategorized ON monitor_groups (owner_id) WHERE is_saved_search;

CREATE TABLE monitor_searches (
	id {{id}},
	organization_id BIGINT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
	owner_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	group_id BIGINT NOT NULL REFERENCES monitor_groups (id),
	name TEXT NOT NULL,
	enabled BOOLEAN NOT NULL DEFAULT TRUE,
	author_id TEXT NOT NULL DEFAULT '',
	author_query TEXT NOT NULL DEFAULT '',
	address TEXT NOT NULL DEFAULT '',
	address_bounds TEXT NOT NULL DEFAULT '', -- WKT
	keywords TEXT NOT NULL DEFAULT '', -- the query text
	providers TEXT NOT NULL DEFAULT '[]', -- JSON list of provider names
	start_at BIGINT NOT NULL DEFAULT 0,
	end_at BIGINT NOT NULL DEFAULT 0,
	images_only BOOLEAN NOT NULL DEFAULT FALSE,
	video_only BOOLEAN NOT NULL DEFAULT FALSE,
	board_names TEXT NOT NULL DEFAULT '[]', -- JSON list
	notification_settings TEXT NOT NULL DEFAULT '[]', -- JSON list of alert settings
	-- Streaming (all providers) and firehose (gnip) limits: the flags say a limit was exceeded;
	-- the override columns say until when a raised limit applies.
	streaming_lower_limit_exceeded BOOLEAN NOT NULL DEFAULT FALSE,
	streaming_upper_limit_exceeded BOOLEAN NOT NULL DEFAULT FALSE,
	gnip_lower_limit_exceeded BOOLEAN NOT NULL DEFAULT FALSE,
	gnip_upper_limit_exceeded BOOLEAN NOT NULL DEFAULT FALSE,
	streaming_override_until BIGINT NOT NULL DEFAULT 0,
	gnip_override_until BIGINT NOT NULL DEFAULT 0,
	created_at BIGINT NOT NULL,
	updated_at BIGINT NOT NULL
);
CREATE INDEX monitor_searches_org ON monitor_searches (organization_id);
CREATE INDEX monitor_searches_group ON monitor_searches (group_id);

-- Direct shares with individuals. role: full_access ("can edit") or read_only ("can view").
CREATE TABLE monitor_group_shares (
	group_id BIGINT NOT NULL REFERENCES monitor_groups (id) ON DELETE CASCADE,
	user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	role TEXT NOT NULL CHECK (role IN ('full_access', 'read_only')),
	created_at BIGINT NOT NULL,
	PRIMARY KEY (group_id, user_id)
);
CREATE INDEX monitor_group_shares_user ON monitor_group_shares (user_id);

CREATE TABLE monitor_search_shares (
	search_id BIGINT NOT NULL REFERENCES monitor_searches (id) ON DELETE CASCADE,
	user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	role TEXT NOT NULL CHECK (role IN ('full_access', 'read_only')),
	created_at BIGINT NOT NULL,
	PRIMARY KEY (search_id, user_id)
);
CREATE INDEX monitor_search_shares_user ON monitor_search_shares (user_id);

-- A user who detached from a group or search they had through the organization or a group.
CREATE TABLE monitor_detachments (
	kind TEXT NOT NULL CHECK (kind IN ('group', 'search')),
	item_id BIGINT NOT NULL,
	user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	PRIMARY KEY (kind, item_id, user_id)
);

-- Per-user favourites of groups and searches.
CREATE TABLE monitor_favourites (
	kind TEXT NOT NULL CHECK (kind IN ('group', 'search')),
	item_id BIGINT NOT NULL,
	user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	PRIMARY KEY (kind, item_id, user_id)
);

-- A match: a post that matched a saved search, stored once per (search, post).
CREATE TABLE monitor_matches (
	id {{id}},
	search_id BIGINT NOT NULL REFERENCES monitor_searches (id) ON DELETE CASCADE,
	organization_id BIGINT NOT NULL,
	post_id TEXT NOT NULL,
	published_at BIGINT NOT NULL,
	discovered_at BIGINT NOT NULL,
	created_at BIGINT NOT NULL,
	has_images BOOLEAN NOT NULL DEFAULT FALSE,
	has_videos BOOLEAN NOT NULL DEFAULT FALSE,
	has_location BOOLEAN NOT NULL DEFAULT FALSE,
	provider TEXT NOT NULL DEFAULT '',
	UNIQUE (search_id, post_id)
);
CREATE INDEX monitor_matches_search_published ON monitor_matches (search_id, published_at);
CREATE INDEX monitor_matches_published ON monitor_matches (published_at);
CREATE INDEX monitor_matches_org_created ON monitor_matches (organization_id, created_at);

-- Each user's state of a match; a missing row means unread, not flagged, not deleted.
CREATE TABLE monitor_match_states (
	match_id BIGINT NOT NULL REFERENCES monitor_matches (id) ON DELETE CASCADE,
	user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	is_read BOOLEAN NOT NULL DEFAULT FALSE,
	is_flagged BOOLEAN NOT NULL DEFAULT FALSE,
	is_deleted BOOLEAN NOT NULL DEFAULT FALSE,
	updated_at BIGINT NOT NULL,
	PRIMARY KEY (match_id, user_id)
);
CREATE INDEX monitor_match_states_user ON monitor_match_states (user_id);

-- Search filter lists. type: keyword (inclusion says include or exclude), author (exclusion),
-- object_detection.
CREATE TABLE filter_lists (
	id {{id}},
	organization_id BIGINT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
	owner_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	name TEXT NOT NULL,
	-- The name folded (case and accents): names are unique in an organization in this form.
	name_key TEXT NOT NULL,
	type TEXT NOT NULL CHECK (type IN ('keyword', 'author', 'object_detection')),
	inclusion BOOLEAN NOT NULL DEFAULT TRUE,
	created_at BIGINT NOT NULL,
	updated_at BIGINT NOT NULL,
	UNIQUE (organization_id, name_key)
);

-- Entries have ids because the API removes them by id.
CREATE TABLE filter_list_entries (
	id {{id}},
	list_id BIGINT NOT NULL REFERENCES filter_lists (id) ON DELETE CASCADE,
	value TEXT NOT NULL, -- as the user typed it
	value_key TEXT NOT NULL, -- folded as the matcher compares it: one entry per key
	created_at BIGINT NOT NULL,
	UNIQUE (list_id, value_key)
);

CREATE TABLE monitor_search_filter_lists (
	search_id BIGINT NOT NULL REFERENCES monitor_searches (id) ON DELETE CASCADE,
	list_id BIGINT NOT NULL REFERENCES filter_lists (id) ON DELETE CASCADE,
	PRIMARY KEY (search_id, list_id)
);
CREATE INDEX monitor_search_filter_lists_list ON monitor_search_filter_lists (list_id);

-- How often each object-detection keyword was chosen, for the typeahead's ranking.
CREATE TABLE object_detection_usage (
	organization_id BIGINT NOT NULL,
	keyword TEXT NOT NULL,
	uses BIGINT NOT NULL DEFAULT 0,
	PRIMARY KEY (organization_id, keyword)
);

-- Location configurations (location assets) for searches and proximity alerts.
CREATE TABLE location_configurations (
	id {{id}},
	fpid TEXT NOT NULL UNIQUE,
	organization_id BIGINT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
	owner_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	name TEXT NOT NULL,
	name_key TEXT NOT NULL, -- the name folded, for the q filter and the order
	address TEXT NOT NULL,
	address_bounds TEXT NOT NULL, -- GeoJSON
	created_at BIGINT NOT NULL,
	updated_at BIGINT NOT NULL
);
CREATE INDEX location_configurations_org ON location_configurations (organization_id, name_key);
