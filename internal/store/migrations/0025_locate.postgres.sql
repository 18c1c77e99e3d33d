-- Locate's "most popular" and "most followers" orders (issue 12): the post's engagement (likes,
-- reposts and replies together) and its author's follower count as the connector read them, 0
-- when the provider does not say. Each index holds the order's tie-breakers, so a page in either
-- order merges the day partitions' index walks.
ALTER TABLE posts ADD COLUMN engagement BIGINT NOT NULL DEFAULT 0;
ALTER TABLE posts ADD COLUMN author_followers BIGINT NOT NULL DEFAULT 0;
CREATE INDEX posts_engagement ON posts (engagement, published_at, id);
CREATE INDEX posts_author_followers ON posts (author_followers, published_at, id);

-- Location search's spatial index (issue 12), with PostgreSQL's own geometric types (no
-- PostGIS): a GiST index of each post's point, and places, the box around the places its text
-- mentions, with one of its own. A search reads the posts whose point or places box meets its
-- area's box; the matcher then checks the area itself.
ALTER TABLE posts ADD COLUMN places box;
UPDATE posts p SET places = m.places FROM (
	SELECT id, published_at,
		box(point(MIN((l->'point'->>'lon')::float8), MIN((l->'point'->>'lat')::float8)),
			point(MAX((l->'point'->>'lon')::float8), MAX((l->'point'->>'lat')::float8))) AS places
	FROM posts, jsonb_array_elements(doc::jsonb->'mentioned_locations') l
	WHERE doc::jsonb ? 'mentioned_locations'
	GROUP BY id, published_at) m
WHERE p.id = m.id AND p.published_at = m.published_at;
CREATE INDEX posts_point ON posts USING gist (point(lon, lat));
CREATE INDEX posts_places ON posts USING gist (places);
