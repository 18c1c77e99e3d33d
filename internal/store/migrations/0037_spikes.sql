-- Spikes (issue 31, docs/spikes.md). Matches are counted per saved search, quarter hour of
-- publication (published_at / 900,000) and series: '' the whole search, 'provider:<name>' one
-- data source, 'place:<name>|<country code>' one mentioned place. Kept with the matches and
-- removed by retention with them; history starts with this release.
CREATE TABLE monitor_match_quarters (
	search_id BIGINT NOT NULL REFERENCES monitor_searches (id) ON DELETE CASCADE,
	series TEXT NOT NULL,
	quarter BIGINT NOT NULL,
	match_count BIGINT NOT NULL,
	PRIMARY KEY (search_id, series, quarter)
);
INSERT INTO monitor_match_quarters (search_id, series, quarter, match_count)
SELECT search_id, '', published_at / 900000, COUNT(*) FROM monitor_matches GROUP BY search_id, published_at / 900000;
INSERT INTO monitor_match_quarters (search_id, series, quarter, match_count)
SELECT search_id, 'provider:' || provider, published_at / 900000, COUNT(*) FROM monitor_matches
GROUP BY search_id, provider, published_at / 900000;

-- The spikes detection found, so the API and the alerts see the same ones. A spike is known by
-- its search, series and start; a later run extends its end and counts. story_ids and samples
-- are JSON lists.
CREATE TABLE monitor_spikes (
	id {{id}},
	search_id BIGINT NOT NULL REFERENCES monitor_searches (id) ON DELETE CASCADE,
	series TEXT NOT NULL,
	start_at BIGINT NOT NULL,
	end_at BIGINT NOT NULL,
	match_count BIGINT NOT NULL,
	expected DOUBLE PRECISION NOT NULL,
	low DOUBLE PRECISION NOT NULL,
	high DOUBLE PRECISION NOT NULL,
	score DOUBLE PRECISION NOT NULL,
	story_ids TEXT NOT NULL,
	samples TEXT NOT NULL,
	detected_at BIGINT NOT NULL,
	UNIQUE (search_id, series, start_at)
);
CREATE INDEX monitor_spikes_search_end ON monitor_spikes (search_id, end_at);
