package store

import (
	"context"
	"strconv"
	"strings"

	"github.com/sightline/sightline/internal/audit"
)

// AuditRows lists a tenant's audit rows matching q, newest (last appended) first, with the
// actor's and organization's names, and how many match in all (0 when q.BeforeID pages a
// download, which needs no total).
func (s *Store) AuditRows(ctx context.Context, q audit.Query) ([]audit.Row, int, error) {
	where := []string{"a.tenant_id = $1"}
	args := []any{q.TenantID}
	add := func(cond string, v any) {
		args = append(args, v)
		where = append(where, strings.ReplaceAll(cond, "?", "$"+strconv.Itoa(len(args))))
	}
	if q.Model != "" {
		add("a.model = ?", q.Model)
	}
	if q.Action != "" {
		add("a.action = ?", q.Action)
	}
	if q.UserID != 0 {
		add("a.user_id = ?", q.UserID)
	}
	if !q.From.IsZero() {
		add("a.created_at >= ?", millis(q.From))
	}
	if !q.To.IsZero() {
		add("a.created_at < ?", millis(q.To))
	}
	total := 0
	if q.BeforeID == 0 {
		if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM audit_log a WHERE `+strings.Join(where, " AND "),
			args...).Scan(&total); err != nil {
			return nil, 0, err
		}
	} else {
		add("a.id < ?", q.BeforeID)
	}
	args = append(args, q.Limit, q.Offset)
	rows, err := s.read.QueryContext(ctx, `SELECT a.id, a.model, a.model_id, a.action, a.user_id,
		COALESCE(NULLIF(a.actor_name, ''), u.name, ''), COALESCE(u.email, ''), a.organization_id, COALESCE(o.name, ''),
		a.previous_value, a.new_value, a.created_at
		FROM audit_log a LEFT JOIN users u ON u.id = a.user_id LEFT JOIN organizations o ON o.id = a.organization_id
		WHERE `+strings.Join(where, " AND ")+` ORDER BY a.id DESC
		LIMIT $`+strconv.Itoa(len(args)-1)+` OFFSET $`+strconv.Itoa(len(args)), args...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	out := []audit.Row{}
	for rows.Next() {
		var r audit.Row
		var created int64
		if err := rows.Scan(&r.ID, &r.Model, &r.ModelID, &r.Action, &r.UserID, &r.UserName, &r.UserEmail,
			&r.OrganizationID, &r.OrganizationName, &r.PreviousValue, &r.NewValue, &created); err != nil {
			return nil, 0, err
		}
		r.CreatedAt = fromMillis(created)
		out = append(out, r)
	}
	return out, total, rows.Err()
}
