package store

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/filters"
	"github.com/sightline/sightline/internal/geom"
)

var _ filters.LocationStore = (*Store)(nil)

const locationColumns = `c.id, c.fpid, c.organization_id, c.owner_id, u.email, u.username, c.name, c.address,
	c.address_bounds, c.radius_m, c.lat, c.lon, c.created_at, c.updated_at`

const locationFrom = ` FROM location_configurations c JOIN users u ON u.id = c.owner_id`

func scanLocation(row interface{ Scan(...any) error }) (filters.LocationConfiguration, error) {
	var c filters.LocationConfiguration
	var bounds string
	var radius sql.NullInt64
	var lat, lon sql.NullFloat64
	var created, updated int64
	err := row.Scan(&c.ID, &c.FPID, &c.OrganizationID, &c.OwnerID, &c.Owner.Email, &c.Owner.Username, &c.Name,
		&c.Address, &bounds, &radius, &lat, &lon, &created, &updated)
	c.Owner.ID, c.AddressBounds, c.RadiusMeters = c.OwnerID, []byte(bounds), int(radius.Int64)
	if lat.Valid && lon.Valid {
		c.Point = &geom.Point{Lat: lat.Float64, Lon: lon.Float64}
	}
	c.CreatedAt, c.UpdatedAt = fromMillis(created), fromMillis(updated)
	return c, notFound(err, "location configuration")
}

// CreateLocationConfiguration inserts a configuration unless the organization already holds as
// many assets as its asset limit (0: unlimited) allows, with the audit entries.
func (s *Store) CreateLocationConfiguration(ctx context.Context, c *filters.LocationConfiguration, audit ...account.AuditEntry) error {
	now := time.Now().UTC()
	c.CreatedAt, c.UpdatedAt = now, now
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if err := s.checkAssetLimit(ctx, tx, c.OrganizationID); err != nil {
			return err
		}
		lat, lon := pointColumns(c.Point)
		if err := tx.QueryRowContext(ctx, `INSERT INTO location_configurations (fpid, organization_id, owner_id, name,
			name_key, address, address_bounds, radius_m, lat, lon, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11) RETURNING id`, c.FPID, c.OrganizationID, c.OwnerID,
			c.Name, filters.NameKey(c.Name), c.Address, string(c.AddressBounds), radiusColumn(c.RadiusMeters), lat, lon,
			millis(now)).Scan(&c.ID); err != nil {
			return err
		}
		return insertAudit(ctx, tx, audit...)
	})
}

// LocationConfiguration loads a configuration by id.
func (s *Store) LocationConfiguration(ctx context.Context, id int64) (filters.LocationConfiguration, error) {
	return scanLocation(s.read.QueryRowContext(ctx, `SELECT `+locationColumns+locationFrom+` WHERE c.id = $1`, id))
}

// LocationConfigurationByFPID loads a configuration by its public id.
func (s *Store) LocationConfigurationByFPID(ctx context.Context, fpid string) (filters.LocationConfiguration, error) {
	return scanLocation(s.read.QueryRowContext(ctx, `SELECT `+locationColumns+locationFrom+` WHERE c.fpid = $1`, fpid))
}

// likeEscaper makes a text match itself literally in a LIKE pattern with ESCAPE '\'.
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// LocationConfigurations returns limit configurations from offset, of those of the organization
// whose folded name contains nameKey, by name; and how many of those there are.
func (s *Store) LocationConfigurations(ctx context.Context, organizationID int64, nameKey string, offset, limit int) ([]filters.LocationConfiguration, int, error) {
	const where = ` WHERE c.organization_id = $1 AND c.name_key LIKE $2 ESCAPE '\'`
	pattern := "%" + likeEscaper.Replace(nameKey) + "%"
	var total int
	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM location_configurations c`+where,
		organizationID, pattern).Scan(&total); err != nil {
		return nil, 0, err
	}
	rows, err := s.read.QueryContext(ctx, `SELECT `+locationColumns+locationFrom+where+`
		ORDER BY c.name_key, c.id LIMIT $3 OFFSET $4`, organizationID, pattern, limit, offset)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var out []filters.LocationConfiguration
	for rows.Next() {
		c, err := scanLocation(rows)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, c)
	}
	return out, total, rows.Err()
}

// UpdateLocationConfiguration stores a configuration's name, place, bounds and radius, with the
// audit entries.
func (s *Store) UpdateLocationConfiguration(ctx context.Context, c filters.LocationConfiguration, audit ...account.AuditEntry) error {
	lat, lon := pointColumns(c.Point)
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE location_configurations SET name = $1, name_key = $2, address = $3,
			address_bounds = $4, radius_m = $5, lat = $6, lon = $7, updated_at = $8 WHERE id = $9`, c.Name,
			filters.NameKey(c.Name), c.Address, string(c.AddressBounds), radiusColumn(c.RadiusMeters), lat, lon,
			millis(time.Now()), c.ID); err != nil {
			return err
		}
		return insertAudit(ctx, tx, audit...)
	})
}

// radiusColumn stores the default radius (0) as NULL.
func radiusColumn(meters int) sql.NullInt64 {
	return sql.NullInt64{Int64: int64(meters), Valid: meters > 0}
}

func pointColumns(p *geom.Point) (lat, lon sql.NullFloat64) {
	if p == nil {
		return lat, lon
	}
	return sql.NullFloat64{Float64: p.Lat, Valid: true}, sql.NullFloat64{Float64: p.Lon, Valid: true}
}

// DeleteLocationConfiguration deletes a configuration, with the audit entries.
func (s *Store) DeleteLocationConfiguration(ctx context.Context, id int64, audit ...account.AuditEntry) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM location_configurations WHERE id = $1`, id); err != nil {
			return err
		}
		return insertAudit(ctx, tx, audit...)
	})
}
