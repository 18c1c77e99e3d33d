-- The tenant whose own sources or ingest produced a post (issue 25): only that tenant sees it.
-- 0 is a post of the operator's shared public sources, which every tenant sees, and what every
-- post stored before this migration was. Searches filter on it beside their other conditions;
-- private posts are few, so no index of their own (every insert would pay for it).
ALTER TABLE posts ADD COLUMN tenant_id BIGINT NOT NULL DEFAULT 0;
