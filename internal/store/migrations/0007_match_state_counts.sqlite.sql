-- Each user's read, deleted and flagged matches per saved search, kept by triggers, so counting
-- an inbox reads one row a search instead of every match. read and flagged leave deleted
-- matches out, as the counts do. A state row carries its match's search for the triggers.
ALTER TABLE monitor_match_states ADD COLUMN search_id BIGINT;
UPDATE monitor_match_states SET search_id = (SELECT search_id FROM monitor_matches WHERE id = match_id);

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
	SUM(CASE WHEN is_read AND NOT is_deleted THEN 1 ELSE 0 END),
	SUM(CASE WHEN is_deleted THEN 1 ELSE 0 END),
	SUM(CASE WHEN is_flagged AND NOT is_deleted THEN 1 ELSE 0 END)
FROM monitor_match_states WHERE search_id IS NOT NULL GROUP BY user_id, search_id;

CREATE TRIGGER monitor_match_states_counted_insert AFTER INSERT ON monitor_match_states
BEGIN
	INSERT INTO monitor_state_counts (user_id, search_id, read_count, deleted_count, flagged_count)
	VALUES (NEW.user_id, NEW.search_id, NEW.is_read AND NOT NEW.is_deleted, NEW.is_deleted,
		NEW.is_flagged AND NOT NEW.is_deleted)
	ON CONFLICT (user_id, search_id) DO UPDATE SET
		read_count = read_count + excluded.read_count,
		deleted_count = deleted_count + excluded.deleted_count,
		flagged_count = flagged_count + excluded.flagged_count;
END;

CREATE TRIGGER monitor_match_states_counted_update AFTER UPDATE ON monitor_match_states
BEGIN
	UPDATE monitor_state_counts SET
		read_count = read_count + (NEW.is_read AND NOT NEW.is_deleted) - (OLD.is_read AND NOT OLD.is_deleted),
		deleted_count = deleted_count + NEW.is_deleted - OLD.is_deleted,
		flagged_count = flagged_count + (NEW.is_flagged AND NOT NEW.is_deleted) - (OLD.is_flagged AND NOT OLD.is_deleted)
	WHERE user_id = NEW.user_id AND search_id = NEW.search_id;
END;

-- Also when a match goes (retention, a deleted search) and takes its states with it.
CREATE TRIGGER monitor_match_states_counted_delete AFTER DELETE ON monitor_match_states
BEGIN
	UPDATE monitor_state_counts SET
		read_count = read_count - (OLD.is_read AND NOT OLD.is_deleted),
		deleted_count = deleted_count - OLD.is_deleted,
		flagged_count = flagged_count - (OLD.is_flagged AND NOT OLD.is_deleted)
	WHERE user_id = OLD.user_id AND search_id = OLD.search_id;
END;
