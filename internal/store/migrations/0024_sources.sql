-- Content sources managed in the app (issue 16): one row a source a tenant admin added, or the
-- server seeded from --sources FILE or the default public set. config is the type's JSON
-- settings. The node that runs a source holds its claim until lease_until; past that another
-- node takes it over, so each source runs on one node. health is the running node's JSON report
-- (state counters, the last hour's per-minute counts), read by every node. Times are Unix
-- milliseconds; 0 means "none".
CREATE TABLE sources (
	id {{id}},
	tenant_id BIGINT NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
	type TEXT NOT NULL,
	name TEXT NOT NULL,
	config TEXT NOT NULL,
	enabled BOOLEAN NOT NULL DEFAULT TRUE,
	created_at BIGINT NOT NULL,
	updated_at BIGINT NOT NULL,
	claim TEXT NOT NULL DEFAULT '',
	lease_until BIGINT NOT NULL DEFAULT 0,
	health TEXT NOT NULL DEFAULT '',
	UNIQUE (tenant_id, name)
);
CREATE INDEX sources_enabled ON sources (enabled, lease_until);

-- The tenants whose sources were seeded once: seeding never brings back rows an operator
-- deleted.
CREATE TABLE source_seeds (
	tenant_id BIGINT PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
	seeded_at BIGINT NOT NULL
);
