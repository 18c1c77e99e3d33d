-- The order in which the nodes of a cluster stored their batches of posts, one batch at a time
-- under the stories lock (docs/stories.md, "Where the state lives"): before a node gives a batch
-- its stories it folds into its window the posts other nodes stored since its last batch, read
-- by this number. Posts stored before, and SQLite (one node), have none. Adding a column
-- without a default rewrites no partition; the index holds only the numbered posts.
CREATE SEQUENCE posts_story_seq;
ALTER TABLE posts ADD COLUMN story_seq BIGINT;
CREATE INDEX posts_story_order ON posts (story_seq) WHERE story_seq IS NOT NULL;
