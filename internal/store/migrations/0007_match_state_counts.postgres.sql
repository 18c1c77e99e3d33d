-- Each user's read, deleted and flagged matches per saved search, kept by a trigger, so counting
-- an inbox reads one row a search instead of every match. read and flagged leave deleted
-- matches out, as the counts do. A state row carries its match's search for the trigger.
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

-- A state row's share of the counts, added for the new row and taken away for the old one.
CREATE FUNCTION monitor_state_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP IN ('INSERT', 'UPDATE') THEN
		INSERT INTO monitor_state_counts (user_id, search_id, read_count, deleted_count, flagged_count)
		VALUES (NEW.user_id, NEW.search_id, (NEW.is_read AND NOT NEW.is_deleted)::int, NEW.is_deleted::int,
			(NEW.is_flagged AND NOT NEW.is_deleted)::int)
		ON CONFLICT (user_id, search_id) DO UPDATE SET
			read_count = monitor_state_counts.read_count + excluded.read_count,
			deleted_count = monitor_state_counts.deleted_count + excluded.deleted_count,
			flagged_count = monitor_state_counts.flagged_count + excluded.flagged_count;
	END IF;
	-- Also when a match goes (retention, a deleted search) and takes its states with it.
	IF TG_OP IN ('UPDATE', 'DELETE') THEN
		UPDATE monitor_state_counts SET
			read_count = read_count - (OLD.is_read AND NOT OLD.is_deleted)::int,
			deleted_count = deleted_count - OLD.is_deleted::int,
			flagged_count = flagged_count - (OLD.is_flagged AND NOT OLD.is_deleted)::int
		WHERE user_id = OLD.user_id AND search_id = OLD.search_id;
	END IF;
	RETURN NULL;
END
$$;
CREATE TRIGGER monitor_match_states_counted AFTER INSERT OR UPDATE OR DELETE ON monitor_match_states
FOR EACH ROW EXECUTE FUNCTION monitor_state_counted();
