-- Locate's "most popular" and "most followers" orders (issue 12): the post's engagement (likes,
-- reposts and replies together) and its author's follower count as the connector read them, 0
-- when the provider does not say. Each index carries the row number (publication order), so a
-- page in either order is a walk of its index.
ALTER TABLE posts ADD COLUMN engagement BIGINT NOT NULL DEFAULT 0;
ALTER TABLE posts ADD COLUMN author_followers BIGINT NOT NULL DEFAULT 0;
CREATE INDEX posts_engagement ON posts (engagement);
CREATE INDEX posts_author_followers ON posts (author_followers);

-- Location search's spatial index (issue 12): an R*Tree of each post's point (id = its row
-- number) and of the box around the places its text mentions (id = minus its row number), kept
-- by the store's insert and retention. A search reads the posts whose entries meet its area's
-- box; the matcher then checks the area itself. The tree keeps 32-bit floats rounded outwards,
-- so an entry's box holds its points.
CREATE VIRTUAL TABLE posts_geo USING rtree (id, min_lat, max_lat, min_lon, max_lon);
INSERT INTO posts_geo (id, min_lat, max_lat, min_lon, max_lon)
SELECT seq, lat, lat, lon, lon FROM posts WHERE lat IS NOT NULL AND lon IS NOT NULL;
INSERT INTO posts_geo (id, min_lat, max_lat, min_lon, max_lon)
SELECT -p.seq, MIN(json_extract(m.value, '$.point.lat')), MAX(json_extract(m.value, '$.point.lat')),
	MIN(json_extract(m.value, '$.point.lon')), MAX(json_extract(m.value, '$.point.lon'))
FROM posts p, json_each(p.doc, '$.mentioned_locations') m
GROUP BY p.seq;
