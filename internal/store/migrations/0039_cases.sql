-- Cases (issue 32, docs/cases-api.md): an organization's investigations, each with items (posts,
-- stories, matches and evidence, each with a note), a timeline of every change and comments.
-- Assignees and tags are short lists read with their case, so they are JSON arrays on the row.
-- Sharing is the saved searches' model: a privacy for the organization and direct shares.
CREATE TABLE cases (
	id {{id}},
	organization_id BIGINT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
	owner_id BIGINT NOT NULL REFERENCES users (id),
	name TEXT NOT NULL,
	description TEXT NOT NULL DEFAULT '',
	status TEXT NOT NULL,
	privacy TEXT NOT NULL,
	assignees TEXT NOT NULL DEFAULT '[]',
	tags TEXT NOT NULL DEFAULT '[]',
	created_at BIGINT NOT NULL,
	updated_at BIGINT NOT NULL
);
CREATE INDEX cases_organization ON cases (organization_id, updated_at);

CREATE TABLE case_shares (
	case_id BIGINT NOT NULL REFERENCES cases (id) ON DELETE CASCADE,
	user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	role TEXT NOT NULL,
	PRIMARY KEY (case_id, user_id)
);

-- An item keeps the post it shows as it was when added (post_doc), so the case outlives the
-- posts' retention and the export shows what the analyst saw.
CREATE TABLE case_items (
	id {{id}},
	case_id BIGINT NOT NULL REFERENCES cases (id) ON DELETE CASCADE,
	kind TEXT NOT NULL,
	ref TEXT NOT NULL,
	title TEXT NOT NULL DEFAULT '',
	post_doc TEXT NOT NULL DEFAULT '',
	note TEXT NOT NULL DEFAULT '',
	added_by BIGINT NOT NULL,
	created_at BIGINT NOT NULL,
	updated_at BIGINT NOT NULL,
	UNIQUE (case_id, kind, ref)
);

CREATE TABLE case_events (
	id {{id}},
	case_id BIGINT NOT NULL REFERENCES cases (id) ON DELETE CASCADE,
	user_id BIGINT NOT NULL,
	actor_name TEXT NOT NULL DEFAULT '',
	action TEXT NOT NULL,
	summary TEXT NOT NULL,
	created_at BIGINT NOT NULL
);
CREATE INDEX case_events_case ON case_events (case_id, created_at);

CREATE TABLE case_comments (
	id {{id}},
	case_id BIGINT NOT NULL REFERENCES cases (id) ON DELETE CASCADE,
	user_id BIGINT NOT NULL,
	author_name TEXT NOT NULL DEFAULT '',
	body TEXT NOT NULL,
	mentions TEXT NOT NULL DEFAULT '[]',
	created_at BIGINT NOT NULL
);
CREATE INDEX case_comments_case ON case_comments (case_id, created_at);
