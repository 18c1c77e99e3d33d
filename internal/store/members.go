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
	accepted_user_id, revoked_at`

func scanInvitation(row interface{ Scan(...any) error }) (members.Invitation, error) {
	var inv members.Invitation
	var role string
	var created, expires, accepted, revoked int64
	err := row.Scan(&inv.ID, &inv.OrganizationID, &inv.Email, &role, &inv.InvitedBy, &created, &expires,
		&accepted, &inv.AcceptedUserID, &revoked)
	if err != nil {
		return inv, notFound(err, "invitation")
	}
	inv.Role = account.Role(role)
	inv.CreatedAt, inv.ExpiresAt = fromMillis(created), fromMillis(expires)
	inv.AcceptedAt, inv.RevokedAt = fromMillis(accepted), fromMillis(revoked)
	return inv, nil
}

// CreateInvitation stores an invitation unless one to that address is still pending (not used,
// withdrawn or expired) in the organization.
func (s *Store) CreateInvitation(ctx context.Context, inv *members.Invitation, tokenHash string) error {
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
		return tx.QueryRowContext(ctx, `INSERT INTO invitations (organization_id, email, role, token_hash, invited_by,
			created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
			inv.OrganizationID, inv.Email, string(inv.Role), tokenHash, inv.InvitedBy, millis(inv.CreatedAt),
			millis(inv.ExpiresAt)).Scan(&inv.ID)
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

// RevokeInvitation withdraws an invitation that was not used.
func (s *Store) RevokeInvitation(ctx context.Context, id int64, at time.Time) error {
	_, err := s.write.ExecContext(ctx, `UPDATE invitations SET revoked_at = $1 WHERE id = $2 AND accepted_at = 0
		AND revoked_at = 0`, millis(at), id)
	return err
}

// AcceptInvitation uses the invitation once and makes u a member: a new user, or the user of that
// address who is in no organization any more, who takes the invitation's organization, name and
// password.
func (s *Store) AcceptInvitation(ctx context.Context, inv members.Invitation, u *account.User, at time.Time) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE invitations SET accepted_at = $1 WHERE id = $2 AND accepted_at = 0
			AND revoked_at = 0 AND expires_at > $1`, millis(at), inv.ID)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return cmpErr(err, problem.Conflict(members.MsgInvitationUsed))
		}
		var existing int64
		err = tx.QueryRowContext(ctx, `SELECT id FROM users WHERE email = $1`, strings.ToLower(u.Email)).Scan(&existing)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			if err := s.insertUser(ctx, tx, u, inv.Role); err != nil {
				return err
			}
		case err != nil:
			return err
		default:
			var memberships int
			if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM memberships WHERE user_id = $1`, existing).Scan(&memberships); err != nil {
				return err
			}
			if memberships > 0 {
				return problem.InvalidField("email", u.Email+" already has an account; sign in with it instead.")
			}
			u.ID, u.CreatedAt = existing, at
			if _, err := tx.ExecContext(ctx, `UPDATE users SET tenant_id = $1, organization_id = $2, name = $3,
				password_hash = $4 WHERE id = $5`, u.TenantID, u.OrganizationID, u.Name, u.PasswordHash, u.ID); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO memberships (organization_id, user_id, role, created_at)
				VALUES ($1, $2, $3, $4)`, u.OrganizationID, u.ID, string(inv.Role), millis(at)); err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE invitations SET accepted_user_id = $1 WHERE id = $2`, u.ID, inv.ID)
		return err
	})
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

// RemoveMember deletes the membership unless it is the organization's last owner.
func (s *Store) RemoveMember(ctx context.Context, organizationID, userID int64) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if err := s.lockOwners(ctx, tx, organizationID); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM memberships WHERE organization_id = $1 AND user_id = $2 AND `+lastOwnerGuard,
			organizationID, userID)
		return s.guarded(ctx, tx, res, err, organizationID, userID)
	})
}

// SetMemberRole changes the member's role unless that demotes the organization's last owner.
func (s *Store) SetMemberRole(ctx context.Context, organizationID, userID int64, role account.Role) error {
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
		return s.guarded(ctx, tx, res, err, organizationID, userID)
	})
}

// lockOwners serialises changes to an organization's owners on PostgreSQL (SQLite has one writer).
func (s *Store) lockOwners(ctx context.Context, tx *sql.Tx, organizationID int64) error {
	if s.dialect != Postgres {
		return nil
	}
	_, err := tx.ExecContext(ctx, `SELECT user_id FROM memberships WHERE organization_id = $1 AND role = 'owner' FOR UPDATE`, organizationID)
	return err
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
