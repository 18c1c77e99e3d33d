-- SQLite numbers posts in publication order (posts.seq), so a time window or the retention
-- cutoff is a range of row numbers: an index on published_at only slowed every insert.
DROP INDEX IF EXISTS posts_published;
