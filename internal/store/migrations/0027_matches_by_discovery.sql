-- The inbox ordered by discovery reads each search's matches from this index, as it reads
-- them by publication from (search_id, published_at).
CREATE INDEX monitor_matches_search_discovered ON monitor_matches (search_id, discovered_at);
