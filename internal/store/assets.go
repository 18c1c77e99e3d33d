package store

import (
	"context"
	"database/sql"

	"github.com/sightline/sightline/internal/account"
)

// checkAssetLimit fails with account.ErrAssetLimitReached when the organization already holds
// as many assets (saved searches and location configurations) as its limit allows (0:
// unlimited). Call it in the transaction that adds the asset: on PostgreSQL it locks the
// organization's row so concurrent creations count one after the other; on SQLite the write
// transaction already does.
func (s *Store) checkAssetLimit(ctx context.Context, tx *sql.Tx, organizationID int64) error {
	limitQuery := `SELECT asset_limit FROM organizations WHERE id = $1`
	if s.dialect == Postgres {
		limitQuery += ` FOR UPDATE`
	}
	var limit int64
	if err := tx.QueryRowContext(ctx, limitQuery, organizationID).Scan(&limit); err != nil {
		return notFound(err, "organization")
	}
	if limit <= 0 {
		return nil
	}
	var assets int64
	if err := tx.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM monitor_searches WHERE organization_id = $1)
		+ (SELECT COUNT(*) FROM location_configurations WHERE organization_id = $1)`, organizationID).Scan(&assets); err != nil {
		return err
	}
	if assets >= limit {
		return account.ErrAssetLimitReached
	}
	return nil
}
