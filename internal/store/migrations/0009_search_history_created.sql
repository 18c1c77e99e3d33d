-- The retention deletes search history by age across all users.
CREATE INDEX search_history_created ON search_history (created_at);
