-- Each user's dashboard layout (Customize): rows of widget names, as JSON.
CREATE TABLE dashboard_layouts (
	user_id BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
	layout TEXT NOT NULL,
	updated_at BIGINT NOT NULL
);
