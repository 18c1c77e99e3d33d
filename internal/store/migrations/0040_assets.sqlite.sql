-- An organization's assets (monitor-area.md section 4, issue 29): typed values it watches, such
-- as an IP address, a domain or a card issuer's IIN/BIN, kept once per type and value in their
-- canonical form (internal/asset). They count against the asset limit with saved searches and
-- location configurations.
CREATE TABLE assets (
	id INTEGER PRIMARY KEY,
	organization_id BIGINT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
	owner_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	type TEXT NOT NULL,
	value TEXT NOT NULL,
	created_at BIGINT NOT NULL,
	updated_at BIGINT NOT NULL,
	UNIQUE (organization_id, type, value)
);
