package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/members"
	"github.com/sightline/sightline/internal/problem"
)

const invitationColumns = `id, organization_id, email, role, invited_by, created_at, expires_at, accepted_at,
	accepted_user_id, revoked_at, acl_beacon, acl_pro, acl_enterprise, acl_locate_api`

func scanInvitation(row interface{ Scan(...any) error }) (members.Invitation, error) {
	var inv members.Invitation
	var role string
	var created, expires, accepted, revoked int64
	err := row.Scan(&inv.ID, &inv.OrganizationID, &inv.Email, &role, &inv.InvitedBy, &created, &expires,
		&accepted, &inv.AcceptedUserID, &revoked, &inv.ACL.Beacon, &inv.ACL.Pro, &inv.ACL.Enterprise, &inv.ACL.LocateAPI)
	if err != nil {
		return inv, notFound(err, "invitation")
	}
	inv.Role = account.Role(role)
	inv.CreatedAt, inv.ExpiresAt = fromMillis(created), fromMillis(expires)
	inv.AcceptedAt, inv.RevokedAt = fromMillis(accepted), fromMillis(revoked)
	return inv, nil
}

// CreateInvitation stores an invitation, with its audit entries, unless one to that address is
// still pending (not used, withdrawn or expired) in the organization.
func (s *Store) CreateInvitation(ctx context.Context, inv *members.Invitation, tokenHash string, audit ...account.AuditEntry) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		var pending int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM invitations WHERE organization_id = $1 AND email = $2
			AND accepted_at = 0 AND revoked_at = 0 AND expires_at > $3`,
			inv.OrganizationID, inv.Email, millis(inv.CreatedAt)).Scan(&pending); err != nil {
			return err
		}
		if pending > 0 {
			return problem.InvalidField("email", inv.Email+" already has a pending invitation; withdraw it to send a new one.")
		}
		if err := tx.QueryRowContext(ctx, `INSERT INTO invitations (organization_id, email, role, token_hash, invited_by,
			created_at, expires_at, acl_beacon, acl_pro, acl_enterprise, acl_locate_api)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id`,
			inv.OrganizationID, inv.Email, string(inv.Role), tokenHash, inv.InvitedBy, millis(inv.CreatedAt),
			millis(inv.ExpiresAt), inv.ACL.Beacon, inv.ACL.Pro, inv.ACL.Enterprise, inv.ACL.LocateAPI).Scan(&inv.ID); err != nil {
			return err
		}
		return insertAudit(ctx, tx, withModelID(audit, inv.ID)...)
	})
}

// Invitations lists the organization's invitations, newest first.
func (s *Store) Invitations(ctx context.Context, organizationID int64) ([]members.Invitation, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+invitationColumns+` FROM invitations
		WHERE organization_id = $1 ORDER BY created_at DESC, id DESC`, organizationID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []members.Invitation
	for rows.Next() {
		inv, err := scanInvitation(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, inv)
	}
	return out, rows.Err()
}

func (s *Store) Invitation(ctx context.Context, id int64) (members.Invitation, error) {
	return scanInvitation(s.read.QueryRowContext(ctx, `SELECT `+invitationColumns+` FROM invitations WHERE id = $1`, id))
}

func (s *Store) InvitationByTokenHash(ctx context.Context, tokenHash string) (members.Invitation, error) {
	return scanInvitation(s.read.QueryRowContext(ctx, `SELECT `+invitationColumns+` FROM invitations
		WHERE token_hash = $1`, tokenHash))
}

// RevokeInvitation withdraws an invitation that was not used, with the audit entries; one already
// used or withdrawn is left alone and nothing is written.
func (s *Store) RevokeInvitation(ctx context.Context, id int64, at time.Time, audit ...account.AuditEntry) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE invitations SET revoked_at = $1 WHERE id = $2 AND accepted_at = 0
			AND revoked_at = 0`, millis(at), id)
		if n, err := rowsAffected(res, err); err != nil || n == 0 {
			return err
		}
		return insertAudit(ctx, tx, audit...)
	})
}

// AcceptInvitation uses the invitation once and makes u a member with the invitation's role and
// product access, writing the audit entry (with u as its actor) in the same transaction: a new
// user, or the user of that address in the organization's tenant who is in no organization any
// more, who takes the invitation's organization, name and password and nothing they held before
// (tenant administration, portal permissions, product access). A user never changes tenant: an
// account of another tenant, or one that is a member somewhere, is refused.
func (s *Store) AcceptInvitation(ctx context.Context, inv members.Invitation, u *account.User, at time.Time, audit account.AuditEntry) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE invitations SET accepted_at = $1 WHERE id = $2 AND accepted_at = 0
			AND revoked_at = 0 AND expires_at > $1`, millis(at), inv.ID)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return cmpErr(err, problem.Conflict(members.MsgInvitationUsed))
		}
		var existing, tenantID int64
		err = tx.QueryRowContext(ctx, `SELECT id, tenant_id FROM users WHERE email = $1`,
			strings.ToLower(u.Email)).Scan(&existing, &tenantID)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			if err := s.insertUser(ctx, tx, u, inv.Role); err != nil {
				return err
			}
		case err != nil:
			return err
		case tenantID != u.TenantID:
			return problem.Conflict(members.MsgHasAccount)
		default:
			var memberships int
			if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM memberships WHERE user_id = $1`, existing).Scan(&memberships); err != nil {
				return err
			}
			if memberships > 0 {
				return problem.Conflict(members.MsgHasAccount)
			}
			u.ID, u.CreatedAt = existing, at
			if _, err := tx.ExecContext(ctx, `UPDATE users SET organization_id = $1, name = $2, password_hash = $3,
				is_tenant_admin = $4, permissions = '[]', acl_beacon = $5, acl_pro = $6, acl_enterprise = $7,
				acl_locate_api = $8 WHERE id = $9`, u.OrganizationID, u.Name, u.PasswordHash, false,
				u.ACL.Beacon, u.ACL.Pro, u.ACL.Enterprise, u.ACL.LocateAPI, u.ID); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO memberships (organization_id, user_id, role, created_at)
				VALUES ($1, $2, $3, $4)`, u.OrganizationID, u.ID, string(inv.Role), millis(at)); err != nil {
				return err
			}
			if err := s.reload(ctx, tx, u); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE invitations SET accepted_user_id = $1 WHERE id = $2`, u.ID, inv.ID); err != nil {
			return err
		}
		audit.UserID = u.ID
		return insertAudit(ctx, tx, audit)
	})
}

// reload reads u again within tx, as stored.
func (s *Store) reload(ctx context.Context, tx *sql.Tx, u *account.User) error {
	got, err := s.openUser(scanUser(tx.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users WHERE id = $1`, u.ID)))
	if err != nil {
		return err
	}
	*u = got
	return nil
}

func cmpErr(err, otherwise error) error {
	if err != nil {
		return err
	}
	return otherwise
}

// lastOwnerGuard keeps a change from touching the organization's only owner: the row changes only
// when it is no owner's or another owner remains. One statement, so two owners removing each
// other at once cannot both succeed on SQLite's single writer; PostgreSQL locks the owners' rows.
const lastOwnerGuard = `(role <> 'owner' OR (SELECT COUNT(*) FROM memberships o
	WHERE o.organization_id = $1 AND o.role = 'owner' AND o.user_id <> $2) > 0)`

// RemoveMember deletes the membership, with the audit entries, unless it is the organization's
// last owner.
func (s *Store) RemoveMember(ctx context.Context, organizationID, userID int64, audit ...account.AuditEntry) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if err := s.lockOwners(ctx, tx, organizationID); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM memberships WHERE organization_id = $1 AND user_id = $2 AND `+lastOwnerGuard,
			organizationID, userID)
		if err := s.guarded(ctx, tx, res, err, organizationID, userID); err != nil {
			return err
		}
		return insertAudit(ctx, tx, audit...)
	})
}

// SetMemberRole changes the member's role, with the audit entries, unless that demotes the
// organization's last owner.
func (s *Store) SetMemberRole(ctx context.Context, organizationID, userID int64, role account.Role, audit ...account.AuditEntry) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if err := s.lockOwners(ctx, tx, organizationID); err != nil {
			return err
		}
		guard := lastOwnerGuard
		if role == account.RoleOwner {
			guard = "TRUE"
		}
		res, err := tx.ExecContext(ctx, `UPDATE memberships SET role = $3 WHERE organization_id = $1 AND user_id = $2 AND `+guard,
			organizationID, userID, string(role))
		if err := s.guarded(ctx, tx, res, err, organizationID, userID); err != nil {
			return err
		}
		return insertAudit(ctx, tx, audit...)
	})
}

// lockOwners serialises changes to an organization's owners on PostgreSQL (SQLite has one writer).
func (s *Store) lockOwners(ctx context.Context, tx *sql.Tx, organizationID int64) error {
	return s.lockRows(ctx, tx, `SELECT user_id FROM memberships WHERE organization_id = $1 AND role = 'owner'`, organizationID)
}

// guarded tells a refused last-owner change from a membership that is not there.
func (s *Store) guarded(ctx context.Context, tx *sql.Tx, res sql.Result, err error, organizationID, userID int64) error {
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 1 {
		return err
	}
	var role string
	err = tx.QueryRowContext(ctx, `SELECT role FROM memberships WHERE organization_id = $1 AND user_id = $2`,
		organizationID, userID).Scan(&role)
	if err != nil {
		return notFound(err, "member")
	}
	return problem.Invalid(members.MsgLastOwner, map[string][]string{"role": {members.MsgLastOwner}})
}
