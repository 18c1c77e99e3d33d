package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/problem"
	"github.com/sightline/sightline/internal/sealed"
	"github.com/sightline/sightline/internal/sourcing"
)

const sourceColumns = `id, tenant_id, type, name, config, enabled, created_at, updated_at, health`

func (s *Store) scanSource(row interface{ Scan(...any) error }) (sourcing.Source, error) {
	var r sourcing.Source
	var config, health string
	var created, updated int64
	if err := row.Scan(&r.ID, &r.TenantID, &r.Type, &r.Name, &config, &r.Enabled, &created, &updated, &health); err != nil {
		return r, err
	}
	opened, err := s.openSourceConfig(r.TenantID, json.RawMessage(config))
	if err != nil {
		return r, fmt.Errorf("store: the credentials of source %d: %w", r.ID, err)
	}
	r.Config = opened
	r.CreatedAt, r.UpdatedAt = fromMillis(created), fromMillis(updated)
	if health != "" {
		_ = json.Unmarshal([]byte(health), &r.Report) // a report from another version reads as none
	}
	return r, nil
}

func (s *Store) scanSources(rows *sql.Rows, err error) ([]sourcing.Source, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []sourcing.Source{}
	for rows.Next() {
		r, err := s.scanSource(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Sources returns the tenant's content sources by name.
func (s *Store) Sources(ctx context.Context, tenantID int64) ([]sourcing.Source, error) {
	return s.scanSources(s.read.QueryContext(ctx, `SELECT `+sourceColumns+` FROM sources WHERE tenant_id = $1 ORDER BY name, id`, tenantID))
}

// Source returns one content source.
func (s *Store) Source(ctx context.Context, id int64) (sourcing.Source, error) {
	r, err := s.scanSource(s.read.QueryRowContext(ctx, `SELECT `+sourceColumns+` FROM sources WHERE id = $1`, id))
	return r, notFound(err, "source")
}

// CreateSource adds a content source; a name the tenant uses already is a conflict, and a
// tenant holding as many sources as its cap allows gets sourcing.ErrSourceLimitReached. The count
// and the insert are one transaction, the tenant's row locked on PostgreSQL, so concurrent
// creations cannot overshoot.
func (s *Store) CreateSource(ctx context.Context, r *sourcing.Source, audit ...account.AuditEntry) error {
	config, err := s.sealSourceConfig(r.TenantID, r.Config)
	if err != nil {
		return err
	}
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		if limit := s.caps.SourcesPerTenant; limit > 0 {
			if err := s.lockRows(ctx, tx, `SELECT id FROM tenants WHERE id = $1`, r.TenantID); err != nil {
				return err
			}
			var n int64
			if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM sources WHERE tenant_id = $1`, r.TenantID).Scan(&n); err != nil {
				return err
			}
			if n >= limit {
				return sourcing.ErrSourceLimitReached
			}
		}
		if err := tx.QueryRowContext(ctx, `INSERT INTO sources (tenant_id, type, name, config, enabled, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`, r.TenantID, r.Type, r.Name, config, r.Enabled,
			millis(r.CreatedAt), millis(r.UpdatedAt)).Scan(&r.ID); err != nil {
			return err
		}
		return insertAudit(ctx, tx, withModelID(audit, r.ID)...)
	})
	if isUniqueViolation(err) {
		return problem.Conflict("A source of that name exists already.")
	}
	return err
}

// UpdateSource saves an edited source, with the audit entries.
func (s *Store) UpdateSource(ctx context.Context, r sourcing.Source, audit ...account.AuditEntry) error {
	config, err := s.sealSourceConfig(r.TenantID, r.Config)
	if err != nil {
		return err
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE sources SET type = $1, name = $2, config = $3, enabled = $4, updated_at = $5
			WHERE id = $6 AND tenant_id = $7`, r.Type, r.Name, config, r.Enabled, millis(r.UpdatedAt), r.ID, r.TenantID)
		if isUniqueViolation(err) {
			return problem.Conflict("A source of that name exists already.")
		}
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return problem.NotFound("The source was not found.")
		}
		return insertAudit(ctx, tx, audit...)
	})
}

// DeleteSource removes a source, with the audit entries.
func (s *Store) DeleteSource(ctx context.Context, id int64, audit ...account.AuditEntry) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM sources WHERE id = $1`, id); err != nil {
			return err
		}
		return insertAudit(ctx, tx, audit...)
	})
}

// ClaimSources takes until leaseUntil every enabled source that is free (its lease ran out)
// or already claim's, and returns those claim holds. One statement: two nodes never both hold
// a source.
func (s *Store) ClaimSources(ctx context.Context, claim string, now, leaseUntil time.Time) ([]sourcing.Source, error) {
	if _, err := s.write.ExecContext(ctx, `UPDATE sources SET claim = '', lease_until = 0 WHERE claim = $1 AND NOT enabled`, claim); err != nil {
		return nil, err
	}
	return s.scanSources(s.write.QueryContext(ctx, `UPDATE sources SET claim = $1, lease_until = $2
		WHERE enabled AND (claim = $1 OR lease_until < $3) RETURNING `+sourceColumns, claim, millis(leaseUntil), millis(now)))
}

// ReleaseSources frees every source claim holds, for another node to take at once.
func (s *Store) ReleaseSources(ctx context.Context, claim string) error {
	_, err := s.write.ExecContext(ctx, `UPDATE sources SET claim = '', lease_until = 0 WHERE claim = $1`, claim)
	return err
}

// SaveSourceReport stores the health report of a source claim holds.
func (s *Store) SaveSourceReport(ctx context.Context, id int64, claim string, r sourcing.Report) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = s.write.ExecContext(ctx, `UPDATE sources SET health = $1 WHERE id = $2 AND claim = $3`, string(b), id, claim)
	return err
}

// SeedSources creates the seeds for the tenant if it was never seeded, in one transaction;
// seeds whose name the tenant uses already are left out.
func (s *Store) SeedSources(ctx context.Context, tenantID int64, seeds []sourcing.Seed, now time.Time) (bool, error) {
	seeded := false
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO source_seeds (tenant_id, seeded_at) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
			tenantID, millis(now))
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil
		}
		seeded = true
		for _, sd := range seeds {
			config, err := s.sealSourceConfig(tenantID, sd.Config)
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO sources (tenant_id, type, name, config, enabled, created_at, updated_at)
				VALUES ($1, $2, $3, $4, $5, $6, $6) ON CONFLICT DO NOTHING`, tenantID, sd.Type, sd.Name, config, sd.Enabled, millis(now)); err != nil {
				return err
			}
		}
		return nil
	})
	return seeded, err
}

// sourceConfigPurpose binds a source's sealed credentials to its tenant: moved into another
// tenant's row, they do not open.
func sourceConfigPurpose(tenantID int64) string {
	return "sources.config tenant " + strconv.FormatInt(tenantID, 10)
}

// sealSourceConfig seals every credential of a source's settings (sourcing.EachString says which
// values are), in place, for storage; sealed values and the other settings stay as they are.
func (s *Store) sealSourceConfig(tenantID int64, config json.RawMessage) (string, error) {
	out, err := sourcing.EachString(config, func(_, value string, credential bool) (string, error) {
		if !credential || sealed.IsSealed(value) {
			return value, nil
		}
		if s.key == nil {
			return "", errNoSecretKey
		}
		return s.key.Seal(sourceConfigPurpose(tenantID), value)
	})
	return string(out), err
}

// openSourceConfig opens the sealed values of stored settings.
func (s *Store) openSourceConfig(tenantID int64, config json.RawMessage) (json.RawMessage, error) {
	return sourcing.EachString(config, func(_, value string, _ bool) (string, error) {
		if !sealed.IsSealed(value) {
			return value, nil
		}
		if s.key == nil {
			return "", errNoSecretKey
		}
		return s.key.Open(sourceConfigPurpose(tenantID), value)
	})
}
