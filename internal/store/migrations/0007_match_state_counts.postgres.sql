-- Each user's read, deleted and flagged matches per saved search, kept by triggers, so counting
-- an inbox reads one row a search instead of every match. read and flagged leave deleted
-- matches out, as the counts do. A state row carries its match's search for the triggers.
ALTER TABLE monitor_match_states ADD COLUMN search_id BIGINT;
UPDATE monitor_match_states st SET search_id = m.search_id FROM monitor_matches m WHERE m.id = st.match_id;

CREATE TABLE monitor_state_counts (
	user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	search_id BIGINT NOT NULL REFERENCES monitor_searches (id) ON DELETE CASCADE,
	read_count BIGINT NOT NULL DEFAULT 0,
	deleted_count BIGINT NOT NULL DEFAULT 0,
	flagged_count BIGINT NOT NULL DEFAULT 0,
	PRIMARY KEY (user_id, search_id)
);
INSERT INTO monitor_state_counts (user_id, search_id, read_count, deleted_count, flagged_count)
SELECT user_id, search_id,
	COUNT(*) FILTER (WHERE is_read AND NOT is_deleted),
	COUNT(*) FILTER (WHERE is_deleted),
	COUNT(*) FILTER (WHERE is_flagged AND NOT is_deleted)
FROM monitor_match_states WHERE search_id IS NOT NULL GROUP BY user_id, search_id;

-- Statement triggers: a statement that changes many states (marking everything read) updates
-- each counts row once. Each state row's share is added for new rows and taken away for old ones.
CREATE FUNCTION monitor_state_counts_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO monitor_state_counts (user_id, search_id, read_count, deleted_count, flagged_count)
	SELECT user_id, search_id,
		COUNT(*) FILTER (WHERE is_read AND NOT is_deleted),
		COUNT(*) FILTER (WHERE is_deleted),
		COUNT(*) FILTER (WHERE is_flagged AND NOT is_deleted)
	FROM new_rows GROUP BY user_id, search_id ORDER BY user_id, search_id
	ON CONFLICT (user_id, search_id) DO UPDATE SET
		read_count = monitor_state_counts.read_count + excluded.read_count,
		deleted_count = monitor_state_counts.deleted_count + excluded.deleted_count,
		flagged_count = monitor_state_counts.flagged_count + excluded.flagged_count;
	RETURN NULL;
END
$$;

CREATE FUNCTION monitor_state_counts_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE monitor_state_counts c SET
		read_count = c.read_count + d.read_count,
		deleted_count = c.deleted_count + d.deleted_count,
		flagged_count = c.flagged_count + d.flagged_count
	FROM (
		SELECT user_id, search_id,
			SUM((is_read AND NOT is_deleted)::int * sign) AS read_count,
			SUM(is_deleted::int * sign) AS deleted_count,
			SUM((is_flagged AND NOT is_deleted)::int * sign) AS flagged_count
		FROM (SELECT *, 1 AS sign FROM new_rows UNION ALL SELECT *, -1 AS sign FROM old_rows) AS rows
		GROUP BY user_id, search_id
	) AS d
	WHERE c.user_id = d.user_id AND c.search_id = d.search_id;
	RETURN NULL;
END
$$;

-- Also when matches go (retention, a deleted search) and take their states with them.
CREATE FUNCTION monitor_state_counts_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE monitor_state_counts c SET
		read_count = c.read_count - d.read_count,
		deleted_count = c.deleted_count - d.deleted_count,
		flagged_count = c.flagged_count - d.flagged_count
	FROM (
		SELECT user_id, search_id,
			COUNT(*) FILTER (WHERE is_read AND NOT is_deleted) AS read_count,
			COUNT(*) FILTER (WHERE is_deleted) AS deleted_count,
			COUNT(*) FILTER (WHERE is_flagged AND NOT is_deleted) AS flagged_count
		FROM old_rows GROUP BY user_id, search_id
	) AS d
	WHERE c.user_id = d.user_id AND c.search_id = d.search_id;
	RETURN NULL;
END
$$;

CREATE TRIGGER monitor_match_states_counted_insert AFTER INSERT ON monitor_match_states
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION monitor_state_counts_add();
CREATE TRIGGER monitor_match_states_counted_update AFTER UPDATE ON monitor_match_states
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION monitor_state_counts_change();
CREATE TRIGGER monitor_match_states_counted_delete AFTER DELETE ON monitor_match_states
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION monitor_state_counts_remove();
