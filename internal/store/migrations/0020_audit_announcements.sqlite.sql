-- The audit log is append-only: rows are never changed or removed (no retention applies to them;
-- docs/tenant-api.md, "Audit logs"). Indexes serve the tenant portal's filters, newest (last appended) first.
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN
	SELECT RAISE(ABORT, 'audit_log is append-only');
END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN
	SELECT RAISE(ABORT, 'audit_log is append-only');
END;
CREATE INDEX audit_log_tenant_model ON audit_log (tenant_id, model, id);
CREATE INDEX audit_log_tenant_user ON audit_log (tenant_id, user_id, id);

-- Announcements tenant admins publish to every user of their tenant, and who has read which.
CREATE TABLE announcements (
	id INTEGER PRIMARY KEY,
	tenant_id BIGINT NOT NULL REFERENCES tenants (id),
	author_id BIGINT NOT NULL DEFAULT 0,
	title TEXT NOT NULL,
	body TEXT NOT NULL,
	created_at BIGINT NOT NULL
);
CREATE INDEX announcements_tenant ON announcements (tenant_id, created_at);
CREATE TABLE announcement_reads (
	announcement_id BIGINT NOT NULL REFERENCES announcements (id) ON DELETE CASCADE,
	user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	read_at BIGINT NOT NULL,
	PRIMARY KEY (announcement_id, user_id)
);
