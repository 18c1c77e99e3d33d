-- Translations (issue 15): what the translation server answered, per text (a SHA-256 of the
-- format and the text) and language pair, so a text is sent once whoever asks again. Created
-- is Unix milliseconds; entries older than post retention are swept as new ones arrive.
CREATE TABLE translations (
	text_hash TEXT NOT NULL,
	source TEXT NOT NULL,
	target TEXT NOT NULL,
	format TEXT NOT NULL,
	translation TEXT NOT NULL,
	created_at BIGINT NOT NULL,
	PRIMARY KEY (text_hash, source, target, format)
);
CREATE INDEX translations_created ON translations (created_at);
