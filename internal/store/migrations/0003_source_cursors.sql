-- Each content source's position, so a restarted source resumes where it stopped.
CREATE TABLE source_cursors (
	source TEXT PRIMARY KEY,
	cursor TEXT NOT NULL,
	updated_at BIGINT NOT NULL
);
