-- The provenance of posts pushed through the ingest API (issue 10): the source (the API token's
-- name) and the user who pushed them, so that ingest stats can show an operator their own.
-- Connectors' posts have neither; the partial index holds only ingested posts.
ALTER TABLE posts ADD COLUMN source TEXT NOT NULL DEFAULT '';
ALTER TABLE posts ADD COLUMN source_user_id BIGINT;
CREATE INDEX posts_source_user ON posts (source_user_id, source) WHERE source_user_id IS NOT NULL;
