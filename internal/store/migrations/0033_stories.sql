-- The story each post belongs to (issue 30): the id of the story's first post, the post's own id
-- when it joined none (docs/stories.md). Posts stored before stories existed have none: each is a
-- story of its own. The index serves a story's posts, newest first.
ALTER TABLE posts ADD COLUMN story_id TEXT NOT NULL DEFAULT '';
CREATE INDEX posts_story ON posts (story_id, published_at) WHERE story_id <> '';
