package store

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/filters"
)

var _ filters.LocationStore = (*Store)(nil)

const locationColumns = `c.id, c.fpid, c.organization_id, c.owner_id, u.email, u.username, c.name, c.address,
	c.address_bounds, c.created_at, c.updated_at`

const locationFrom = ` FROM location_configurations c JOIN users u ON u.id = c.owner_id`

func scanLocation(row interface{ Scan(...any) error }) (filters.LocationConfiguration, error) {
	var c filters.LocationConfiguration
	var bounds string
	var created, updated int64
	err := row.Scan(&c.ID, &c.FPID, &c.OrganizationID, &c.OwnerID, &c.Owner.Email, &c.Owner.Username, &c.Name,
		&c.Address, &bounds, &created, &updated)
	c.Owner.ID, c.AddressBounds = c.OwnerID, []byte(bounds)
	c.CreatedAt, c.UpdatedAt = fromMillis(created), fromMillis(updated)
	return c, notFound(err, "location configuration")
}

// CreateLocationConfiguration inserts a configuration unless the organization already holds as
// many assets as its asset limit (0: unlimited) allows.
func (s *Store) CreateLocationConfiguration(ctx context.Context, c *filters.LocationConfiguration) error {
	now := time.Now().UTC()
	c.CreatedAt, c.UpdatedAt = now, now
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if err := s.checkAssetLimit(ctx, tx, c.OrganizationID); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `INSERT INTO location_configurations (fpid, organization_id, owner_id, name,
			name_key, address, address_bounds, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)
			RETURNING id`, c.FPID, c.OrganizationID, c.OwnerID, c.Name, filters.NameKey(c.Name), c.Address,
			string(c.AddressBounds), millis(now)).Scan(&c.ID)
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

// UpdateLocationConfiguration stores a configuration's name, address and bounds.
func (s *Store) UpdateLocationConfiguration(ctx context.Context, c filters.LocationConfiguration) error {
	_, err := s.write.ExecContext(ctx, `UPDATE location_configurations SET name = $1, name_key = $2, address = $3,
		address_bounds = $4, updated_at = $5 WHERE id = $6`, c.Name, filters.NameKey(c.Name), c.Address,
		string(c.AddressBounds), millis(time.Now()), c.ID)
	return err
}

// DeleteLocationConfiguration deletes a configuration.
func (s *Store) DeleteLocationConfiguration(ctx context.Context, id int64) error {
	_, err := s.write.ExecContext(ctx, `DELETE FROM location_configurations WHERE id = $1`, id)
	return err
}
