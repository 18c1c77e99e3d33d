-- Tenants, organizations, users, memberships, sessions, API tokens, audit log and server
-- secrets. Times are Unix milliseconds (BIGINT); 0 means "never".

CREATE TABLE tenants (
	id {{id}},
	name TEXT NOT NULL UNIQUE,
	logout_allowed BOOLEAN NOT NULL DEFAULT TRUE,
	support_email TEXT NOT NULL DEFAULT '',
	created_at BIGINT NOT NULL
);

CREATE TABLE organizations (
	id {{id}},
	tenant_id BIGINT NOT NULL REFERENCES tenants (id),
	name TEXT NOT NULL,
	crm_id TEXT NOT NULL DEFAULT '',
	webhook_secret TEXT NOT NULL DEFAULT '',
	is_uspi_compliant BOOLEAN NOT NULL DEFAULT FALSE,
	is_moose_mind_enabled BOOLEAN NOT NULL DEFAULT FALSE,
	feature_flags TEXT NOT NULL DEFAULT '{}',
	monthly_data_limit BIGINT NOT NULL DEFAULT 0,
	asset_limit BIGINT NOT NULL DEFAULT 0,
	created_at BIGINT NOT NULL,
	UNIQUE (tenant_id, name)
);

CREATE TABLE users (
	id {{id}},
	tenant_id BIGINT NOT NULL REFERENCES tenants (id),
	organization_id BIGINT NOT NULL REFERENCES organizations (id),
	name TEXT NOT NULL DEFAULT '',
	email TEXT NOT NULL UNIQUE,
	username TEXT NOT NULL DEFAULT '',
	password_hash TEXT NOT NULL,
	is_tenant_admin BOOLEAN NOT NULL DEFAULT FALSE,
	acl_beacon BOOLEAN NOT NULL DEFAULT TRUE,
	acl_pro BOOLEAN NOT NULL DEFAULT TRUE,
	acl_enterprise BOOLEAN NOT NULL DEFAULT FALSE,
	acl_locate_api BOOLEAN NOT NULL DEFAULT FALSE,
	permissions TEXT NOT NULL DEFAULT '[]',
	is_mfa_enabled BOOLEAN NOT NULL DEFAULT FALSE,
	mfa_secret TEXT NOT NULL DEFAULT '',
	is_translation_enrichment_enabled BOOLEAN NOT NULL DEFAULT TRUE,
	is_mentioned_locations_enrichment_enabled BOOLEAN NOT NULL DEFAULT TRUE,
	is_inbox_streaming_enabled BOOLEAN NOT NULL DEFAULT FALSE,
	display_theme TEXT NOT NULL DEFAULT 'system',
	media_sensitivity TEXT NOT NULL DEFAULT 'blur',
	created_at BIGINT NOT NULL
);

CREATE TABLE memberships (
	organization_id BIGINT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
	user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	role TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
	created_at BIGINT NOT NULL,
	PRIMARY KEY (organization_id, user_id)
);
CREATE INDEX memberships_user ON memberships (user_id);

CREATE TABLE sessions (
	id {{id}},
	token_hash TEXT NOT NULL UNIQUE,
	user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	ip TEXT NOT NULL DEFAULT '',
	user_agent TEXT NOT NULL DEFAULT '',
	created_at BIGINT NOT NULL,
	last_seen_at BIGINT NOT NULL,
	expires_at BIGINT NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE api_tokens (
	id {{id}},
	user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	name TEXT NOT NULL,
	token_hash TEXT NOT NULL UNIQUE,
	scopes TEXT NOT NULL DEFAULT '',
	created_at BIGINT NOT NULL,
	last_used_at BIGINT NOT NULL DEFAULT 0,
	revoked_at BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX api_tokens_user ON api_tokens (user_id);

CREATE TABLE audit_log (
	id {{id}},
	tenant_id BIGINT NOT NULL,
	organization_id BIGINT NOT NULL DEFAULT 0,
	user_id BIGINT NOT NULL DEFAULT 0,
	model TEXT NOT NULL,
	model_id TEXT NOT NULL DEFAULT '',
	action TEXT NOT NULL,
	previous_value TEXT NOT NULL DEFAULT '',
	new_value TEXT NOT NULL DEFAULT '',
	created_at BIGINT NOT NULL
);
CREATE INDEX audit_log_tenant ON audit_log (tenant_id, created_at);

CREATE TABLE server_secrets (
	name TEXT PRIMARY KEY,
	value TEXT NOT NULL
);
