package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/asset"
)

var _ asset.Store = (*Store)(nil)

const assetColumns = `a.id, a.organization_id, a.owner_id, u.email, a.type, a.value, a.created_at, a.updated_at
	FROM assets a JOIN users u ON u.id = a.owner_id`

func scanAsset(row interface{ Scan(...any) error }) (asset.Stored, error) {
	var a asset.Stored
	var created, updated int64
	err := row.Scan(&a.ID, &a.OrganizationID, &a.OwnerID, &a.OwnerEmail, &a.Type, &a.Value, &created, &updated)
	a.CreatedAt, a.UpdatedAt = fromMillis(created), fromMillis(updated)
	return a, notFound(err, "asset")
}

// CreateAsset inserts an asset unless the organization holds as many assets as its asset limit
// allows, or max assets without one, or has this one already; with the audit entries.
func (s *Store) CreateAsset(ctx context.Context, a *asset.Stored, max int64, audit ...account.AuditEntry) error {
	now := time.Now().UTC()
	a.CreatedAt, a.UpdatedAt = now, now
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if err := s.checkAssetLimit(ctx, tx, a.OrganizationID); err != nil {
			return err
		}
		if err := s.checkCap(ctx, tx, a.OrganizationID, max, `SELECT COUNT(*) FROM assets WHERE organization_id = $1`, 1); err != nil {
			return err
		}
		if err := tx.QueryRowContext(ctx, `INSERT INTO assets (organization_id, owner_id, type, value, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $5) RETURNING id`, a.OrganizationID, a.OwnerID, a.Type, a.Value, millis(now)).Scan(&a.ID); err != nil {
			return err
		}
		return insertAudit(ctx, tx, withModelID(audit, a.ID)...)
	})
	if isUniqueViolation(err) {
		return asset.ErrDuplicate
	}
	return err
}

// Asset loads an asset by id.
func (s *Store) Asset(ctx context.Context, id int64) (asset.Stored, error) {
	return scanAsset(s.read.QueryRowContext(ctx, `SELECT `+assetColumns+` WHERE a.id = $1`, id))
}

// Assets returns the organization's assets, of type t unless it is empty, by type and value.
func (s *Store) Assets(ctx context.Context, organizationID int64, t asset.Type) ([]asset.Stored, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+assetColumns+` WHERE a.organization_id = $1 AND ($2 = '' OR a.type = $2)
		ORDER BY a.type, a.value, a.id`, organizationID, string(t))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []asset.Stored
	for rows.Next() {
		a, err := scanAsset(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// UpdateAsset stores an asset's type and value, with the audit entries.
func (s *Store) UpdateAsset(ctx context.Context, a asset.Stored, audit ...account.AuditEntry) error {
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE assets SET type = $1, value = $2, updated_at = $3 WHERE id = $4`,
			a.Type, a.Value, millis(time.Now()), a.ID); err != nil {
			return err
		}
		return insertAudit(ctx, tx, audit...)
	})
	if isUniqueViolation(err) {
		return asset.ErrDuplicate
	}
	return err
}

// DeleteAsset removes an asset, with the audit entries.
func (s *Store) DeleteAsset(ctx context.Context, id int64, audit ...account.AuditEntry) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM assets WHERE id = $1`, id); err != nil {
			return err
		}
		return insertAudit(ctx, tx, audit...)
	})
}
