package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/announce"
)

// CreateAnnouncement inserts an announcement.
func (s *Store) CreateAnnouncement(ctx context.Context, a *announce.Announcement, audit ...account.AuditEntry) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `INSERT INTO announcements (tenant_id, author_id, title, body, created_at)
			VALUES ($1, $2, $3, $4, $5) RETURNING id`, a.TenantID, a.AuthorID, a.Title, a.Body, millis(a.CreatedAt)).Scan(&a.ID); err != nil {
			return err
		}
		return insertAudit(ctx, tx, withModelID(audit, a.ID)...)
	})
}

// Announcement returns one announcement of the tenant.
func (s *Store) Announcement(ctx context.Context, tenantID, id int64) (announce.Announcement, error) {
	var a announce.Announcement
	var created int64
	err := s.read.QueryRowContext(ctx, `SELECT id, tenant_id, author_id, title, body, created_at FROM announcements
		WHERE tenant_id = $1 AND id = $2`, tenantID, id).Scan(&a.ID, &a.TenantID, &a.AuthorID, &a.Title, &a.Body, &created)
	a.CreatedAt = fromMillis(created)
	return a, notFound(err, "announcement")
}

// DeleteAnnouncement removes an announcement and its read marks, with the audit entries.
func (s *Store) DeleteAnnouncement(ctx context.Context, id int64, audit ...account.AuditEntry) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM announcements WHERE id = $1`, id); err != nil {
			return err
		}
		return insertAudit(ctx, tx, audit...)
	})
}

// Announcements are the tenant's newest announcements with their authors' names and whether the
// user read each.
func (s *Store) Announcements(ctx context.Context, tenantID, userID int64, limit int) ([]announce.Announcement, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT a.id, a.tenant_id, a.author_id, COALESCE(u.name, ''), a.title, a.body,
		a.created_at, r.user_id IS NOT NULL
		FROM announcements a LEFT JOIN users u ON u.id = a.author_id
		LEFT JOIN announcement_reads r ON r.announcement_id = a.id AND r.user_id = $2
		WHERE a.tenant_id = $1 ORDER BY a.created_at DESC, a.id DESC LIMIT $3`, tenantID, userID, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []announce.Announcement{}
	for rows.Next() {
		var a announce.Announcement
		var created int64
		if err := rows.Scan(&a.ID, &a.TenantID, &a.AuthorID, &a.AuthorName, &a.Title, &a.Body, &created, &a.Read); err != nil {
			return nil, err
		}
		a.CreatedAt = fromMillis(created)
		out = append(out, a)
	}
	return out, rows.Err()
}

// MarkAnnouncementsRead marks the tenant's announcements among ids as read by the user; others'
// ids match nothing.
func (s *Store) MarkAnnouncementsRead(ctx context.Context, tenantID, userID int64, ids []int64, at time.Time) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		for _, id := range ids {
			if _, err := tx.ExecContext(ctx, `INSERT INTO announcement_reads (announcement_id, user_id, read_at)
				SELECT id, $2, $3 FROM announcements WHERE id = $1 AND tenant_id = $4
				ON CONFLICT (announcement_id, user_id) DO NOTHING`, id, userID, millis(at), tenantID); err != nil {
				return err
			}
		}
		return nil
	})
}
