-- The places an analyst took off a post (issue 27): a place the gazetteer found in the text
-- that the post is not about. A removal is the tenant's, so every user of the tenant stops
-- seeing the place on that post, and other tenants still see it. The removal keeps the post's
-- publication time, as flags do, so that retention removes it with its post.
CREATE TABLE post_place_removals (
	tenant_id BIGINT NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
	post_id TEXT NOT NULL,
	country_code TEXT NOT NULL,
	name TEXT NOT NULL,
	published_at BIGINT NOT NULL,
	user_id BIGINT NOT NULL,
	created_at BIGINT NOT NULL,
	PRIMARY KEY (tenant_id, post_id, country_code, name)
);
CREATE INDEX post_place_removals_published ON post_place_removals (published_at);
