package store

import (
	"context"
	"database/sql"

	"github.com/sightline/sightline/internal/account"
)

// checkAssetLimit fails with account.ErrAssetLimitReached when the organization already holds
// as many assets (saved searches, location configurations and its assets table) as its limit allows (0:
// unlimited). Call it in the transaction that adds the asset: on PostgreSQL it locks the
// organization's row so concurrent creations count one after the other; on SQLite the write
// transaction already does.
func (s *Store) checkAssetLimit(ctx context.Context, tx *sql.Tx, organizationID int64) error {
	var limit int64
	if err := tx.QueryRowContext(ctx, `SELECT asset_limit FROM organizations WHERE id = $1`+s.sql.rowLock, organizationID).Scan(&limit); err != nil {
		return notFound(err, "organization")
	}
	if limit <= 0 {
		return nil
	}
	var assets int64
	if err := tx.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM monitor_searches WHERE organization_id = $1)
		+ (SELECT COUNT(*) FROM location_configurations WHERE organization_id = $1)
		+ (SELECT COUNT(*) FROM assets WHERE organization_id = $1)`, organizationID).Scan(&assets); err != nil {
		return err
	}
	if assets >= limit {
		return account.ErrAssetLimitReached
	}
	return nil
}

// SetCaps sets the per-organization caps; call it before the store is used.
func (s *Store) SetCaps(c account.Caps) { s.caps = c }

// Counts of what the caps bound, $1 being the organization.
const (
	capSavedSearches = `SELECT COUNT(*) FROM monitor_searches WHERE organization_id = $1`
	capGroups        = `SELECT COUNT(*) FROM monitor_groups WHERE organization_id = $1 AND NOT is_saved_search`
	capFilterLists   = `SELECT COUNT(*) FROM filter_lists WHERE organization_id = $1`
	capEntries       = `SELECT COUNT(*) FROM filter_list_entries e JOIN filter_lists l ON l.id = e.list_id
		WHERE l.organization_id = $1`
)

// checkCap fails with account.ErrAssetLimitReached when the organization would hold more than
// limit (0: no cap) of what count counts once adding more are added (0 when they are already
// inserted in tx). Like checkAssetLimit it runs in the transaction that adds them, the
// organization's row locked on PostgreSQL, so concurrent additions count one after the other.
func (s *Store) checkCap(ctx context.Context, tx *sql.Tx, organizationID, limit int64, count string, adding int64) error {
	if limit <= 0 {
		return nil
	}
	if err := s.lockOrganization(ctx, tx, organizationID); err != nil {
		return err
	}
	var n int64
	if err := tx.QueryRowContext(ctx, count, organizationID).Scan(&n); err != nil {
		return err
	}
	if n+adding > limit {
		return account.ErrAssetLimitReached
	}
	return nil
}

// lockOrganization locks the organization's row until tx ends on PostgreSQL, so that counts
// against its caps run one after the other; on SQLite the write transaction already does.
func (s *Store) lockOrganization(ctx context.Context, tx *sql.Tx, organizationID int64) error {
	return s.lockRows(ctx, tx, `SELECT id FROM organizations WHERE id = $1`, organizationID)
}
