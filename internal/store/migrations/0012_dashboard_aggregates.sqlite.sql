-- The dashboard's widgets over a million matches read aggregates kept as matches are stored, not
-- the matches (docs/performance.md). Each is per saved search and time slot, so a dashboard over
-- any choice of searches sums a few thousand rows; a user's deleted matches are subtracted from
-- them at read time. Retention removes matches by whole UTC days so the day rows go with them.
-- A match carries its post's threat score for the highest-scoring list.
ALTER TABLE monitor_matches ADD COLUMN threat_score INTEGER NOT NULL DEFAULT 0;
UPDATE monitor_matches SET threat_score = COALESCE((SELECT p.threat_score FROM posts p WHERE p.id = monitor_matches.post_id), 0);
CREATE INDEX monitor_matches_search_threat ON monitor_matches (search_id, threat_score, published_at);

-- hour: published_at / 3,600,000 (UTC). For the totals, the data sources, the heatmap and the
-- timeline.
CREATE TABLE monitor_match_hours (
	search_id BIGINT NOT NULL REFERENCES monitor_searches (id) ON DELETE CASCADE,
	hour BIGINT NOT NULL,
	provider TEXT NOT NULL,
	match_count BIGINT NOT NULL,
	PRIMARY KEY (search_id, hour, provider)
);
INSERT INTO monitor_match_hours (search_id, hour, provider, match_count)
SELECT search_id, published_at / 3600000, provider, COUNT(*) FROM monitor_matches
GROUP BY search_id, published_at / 3600000, provider;

-- The hour each match was stored in (created_at / 3,600,000), for the new results of the last day.
CREATE TABLE monitor_match_stored_hours (
	search_id BIGINT NOT NULL REFERENCES monitor_searches (id) ON DELETE CASCADE,
	hour BIGINT NOT NULL,
	match_count BIGINT NOT NULL,
	PRIMARY KEY (search_id, hour)
);
INSERT INTO monitor_match_stored_hours (search_id, hour, match_count)
SELECT search_id, created_at / 3600000, COUNT(*) FROM monitor_matches
GROUP BY search_id, created_at / 3600000;

-- day: published_at / 86,400,000 (UTC); bucket: the threat score's tenth, 100 in the last.
CREATE TABLE monitor_match_threat_days (
	search_id BIGINT NOT NULL REFERENCES monitor_searches (id) ON DELETE CASCADE,
	day BIGINT NOT NULL,
	bucket INTEGER NOT NULL,
	match_count BIGINT NOT NULL,
	PRIMARY KEY (search_id, day, bucket)
);
INSERT INTO monitor_match_threat_days (search_id, day, bucket, match_count)
SELECT search_id, published_at / 86400000, MIN(MAX(threat_score, 0), 99) / 10, COUNT(*) FROM monitor_matches
GROUP BY search_id, published_at / 86400000, MIN(MAX(threat_score, 0), 99) / 10;

-- The places the matched posts mention, per day.
CREATE TABLE monitor_match_place_days (
	search_id BIGINT NOT NULL REFERENCES monitor_searches (id) ON DELETE CASCADE,
	day BIGINT NOT NULL,
	name TEXT NOT NULL,
	country_code TEXT NOT NULL,
	lat REAL NOT NULL,
	lon REAL NOT NULL,
	match_count BIGINT NOT NULL,
	PRIMARY KEY (search_id, day, name, country_code, lat, lon)
);
INSERT INTO monitor_match_place_days (search_id, day, name, country_code, lat, lon, match_count)
SELECT m.search_id, m.published_at / 86400000, COALESCE(loc.value ->> 'name', ''), COALESCE(loc.value ->> 'country_code', ''),
	CAST(loc.value -> 'point' ->> 'lat' AS REAL), CAST(loc.value -> 'point' ->> 'lon' AS REAL), COUNT(*)
FROM monitor_matches m JOIN posts p ON p.id = m.post_id CROSS JOIN json_each(p.doc, '$.mentioned_locations') AS loc
WHERE p.doc LIKE '%"mentioned_locations"%'
GROUP BY 1, 2, 3, 4, 5, 6;
