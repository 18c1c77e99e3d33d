-- Invitations to an organization by e-mail (docs/settings-api.md, "Members and invitations"):
-- only the token's SHA-256 is kept. Times are Unix milliseconds; 0 means "not yet".
CREATE TABLE invitations (
	id {{id}},
	organization_id BIGINT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
	email TEXT NOT NULL,
	role TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
	token_hash TEXT NOT NULL UNIQUE,
	invited_by BIGINT NOT NULL DEFAULT 0,
	created_at BIGINT NOT NULL,
	expires_at BIGINT NOT NULL,
	accepted_at BIGINT NOT NULL DEFAULT 0,
	accepted_user_id BIGINT NOT NULL DEFAULT 0,
	revoked_at BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX invitations_organization ON invitations (organization_id, created_at);

-- Monthly usage per organization, member and product (beacon, locate): searches run, the posts
-- they found, and exports asked for. month is year * 100 + month (UTC), 202611 for November 2026.
CREATE TABLE usage_months (
	organization_id BIGINT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
	user_id BIGINT NOT NULL,
	product TEXT NOT NULL,
	month INTEGER NOT NULL,
	searches BIGINT NOT NULL DEFAULT 0,
	results BIGINT NOT NULL DEFAULT 0,
	exports BIGINT NOT NULL DEFAULT 0,
	PRIMARY KEY (organization_id, product, month, user_id)
);
