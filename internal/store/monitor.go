package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/problem"
)

const groupColumns = `id, organization_id, owner_id, name, privacy, is_saved_search, created_at, updated_at`

func scanGroup(row interface{ Scan(...any) error }) (monitor.Group, error) {
	var g monitor.Group
	var created, updated int64
	err := row.Scan(&g.ID, &g.OrganizationID, &g.OwnerID, &g.Name, &g.Privacy, &g.IsSavedSearch, &created, &updated)
	g.CreatedAt, g.UpdatedAt = fromMillis(created), fromMillis(updated)
	return g, notFound(err, "group")
}

// Group loads one group.
func (s *Store) Group(ctx context.Context, id int64) (monitor.Group, error) {
	return scanGroup(s.read.QueryRowContext(ctx, `SELECT `+groupColumns+` FROM monitor_groups WHERE id = $1`, id))
}

// Groups lists an organization's groups.
func (s *Store) Groups(ctx context.Context, organizationID int64) ([]monitor.Group, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+groupColumns+` FROM monitor_groups WHERE organization_id = $1
		ORDER BY is_saved_search DESC, name, id`, organizationID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []monitor.Group
	for rows.Next() {
		g, err := scanGroup(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, rows.Err()
}

// UncategorizedGroup returns the user's Uncategorized group, creating it the first time.
func (s *Store) UncategorizedGroup(ctx context.Context, organizationID, userID int64) (monitor.Group, error) {
	g, err := scanGroup(s.read.QueryRowContext(ctx, `SELECT `+groupColumns+` FROM monitor_groups
		WHERE owner_id = $1 AND is_saved_search`, userID))
	if !problem.Is(err, problem.KindNotFound) {
		return g, err
	}
	now := millis(time.Now())
	_, err = s.write.ExecContext(ctx, `INSERT INTO monitor_groups (organization_id, owner_id, name, privacy,
		is_saved_search, created_at, updated_at) VALUES ($1, $2, 'Uncategorized', 'private', TRUE, $3, $3)
		ON CONFLICT DO NOTHING`, organizationID, userID, now)
	if err != nil {
		return monitor.Group{}, err
	}
	return scanGroup(s.write.QueryRowContext(ctx, `SELECT `+groupColumns+` FROM monitor_groups
		WHERE owner_id = $1 AND is_saved_search`, userID))
}

// CreateGroup inserts a group with its shares, within the organization's cap on groups, and the
// audit entries made from its id.
func (s *Store) CreateGroup(ctx context.Context, g *monitor.Group, shares []monitor.Share, audit ...func(id int64) []account.AuditEntry) error {
	now := time.Now().UTC()
	g.CreatedAt, g.UpdatedAt = now, now
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if err := s.checkCap(ctx, tx, g.OrganizationID, s.caps.Groups, capGroups, 1); err != nil {
			return err
		}
		err := tx.QueryRowContext(ctx, `INSERT INTO monitor_groups (organization_id, owner_id, name, privacy,
			is_saved_search, created_at, updated_at) VALUES ($1, $2, $3, $4, FALSE, $5, $5) RETURNING id`,
			g.OrganizationID, g.OwnerID, g.Name, g.Privacy, millis(now)).Scan(&g.ID)
		if err != nil {
			return err
		}
		if err := replaceShares(ctx, tx, "monitor_group_shares", "group_id", g.ID, shares); err != nil {
			return err
		}
		return insertAuditOf(ctx, tx, g.ID, audit)
	})
}

// insertAuditOf writes the audit entries of a row just created, made from its id.
func insertAuditOf(ctx context.Context, tx *sql.Tx, id int64, audit []func(id int64) []account.AuditEntry) error {
	for _, entries := range audit {
		if err := insertAudit(ctx, tx, entries(id)...); err != nil {
			return err
		}
	}
	return nil
}

// UpdateGroup stores a group's name and privacy and, when shares is not nil, its shares, with the
// audit entries.
func (s *Store) UpdateGroup(ctx context.Context, g monitor.Group, shares *[]monitor.Share, audit ...account.AuditEntry) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE monitor_groups SET name = $1, privacy = $2, updated_at = $3
			WHERE id = $4`, g.Name, g.Privacy, millis(time.Now()), g.ID); err != nil {
			return err
		}
		if shares != nil {
			if err := replaceShares(ctx, tx, "monitor_group_shares", "group_id", g.ID, *shares); err != nil {
				return err
			}
		}
		return insertAudit(ctx, tx, audit...)
	})
}

// DeleteGroup deletes a group, moving its searches to their owners' Uncategorized groups, with
// the audit entries.
func (s *Store) DeleteGroup(ctx context.Context, g monitor.Group, audit ...account.AuditEntry) error {
	owners, err := queryIDs(ctx, s.read, `SELECT DISTINCT owner_id FROM monitor_searches WHERE group_id = $1`, g.ID)
	if err != nil {
		return err
	}
	homes := map[int64]int64{}
	for _, owner := range owners {
		home, err := s.UncategorizedGroup(ctx, g.OrganizationID, owner)
		if err != nil {
			return err
		}
		homes[owner] = home.ID
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		for owner, home := range homes {
			if _, err := tx.ExecContext(ctx, `UPDATE monitor_searches SET group_id = $1 WHERE group_id = $2 AND owner_id = $3`,
				home, g.ID, owner); err != nil {
				return err
			}
		}
		for _, q := range []string{
			`DELETE FROM monitor_detachments WHERE kind = 'group' AND item_id = $1`,
			`DELETE FROM monitor_favourites WHERE kind = 'group' AND item_id = $1`,
			`DELETE FROM monitor_groups WHERE id = $1`,
		} {
			if _, err := tx.ExecContext(ctx, q, g.ID); err != nil {
				return err
			}
		}
		return insertAudit(ctx, tx, audit...)
	})
}

func replaceShares(ctx context.Context, tx *sql.Tx, table, column string, id int64, shares []monitor.Share) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM `+table+` WHERE `+column+` = $1`, id); err != nil {
		return err
	}
	now := millis(time.Now())
	for _, sh := range shares {
		if _, err := tx.ExecContext(ctx, `INSERT INTO `+table+` (`+column+`, user_id, role, created_at)
			VALUES ($1, $2, $3, $4)`, id, sh.UserID, sh.Role, now); err != nil {
			return err
		}
	}
	return nil
}

func (s *Store) shares(ctx context.Context, table, column string, id int64) ([]monitor.Share, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT u.id, u.email, u.username, u.name, sh.role FROM `+table+` sh
		JOIN users u ON u.id = sh.user_id WHERE sh.`+column+` = $1 ORDER BY u.email`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []monitor.Share
	for rows.Next() {
		var sh monitor.Share
		if err := rows.Scan(&sh.UserID, &sh.Email, &sh.Username, &sh.Name, &sh.Role); err != nil {
			return nil, err
		}
		out = append(out, sh)
	}
	return out, rows.Err()
}

// GroupShares lists the people a group is shared with.
func (s *Store) GroupShares(ctx context.Context, groupID int64) ([]monitor.Share, error) {
	return s.shares(ctx, "monitor_group_shares", "group_id", groupID)
}

// SearchShares lists the people a search is shared with directly.
func (s *Store) SearchShares(ctx context.Context, searchID int64) ([]monitor.Share, error) {
	return s.shares(ctx, "monitor_search_shares", "search_id", searchID)
}

// PersonalState returns the user's share role, detachment and favourite for items of a kind
// ("group" or "search") in the organization, by item id.
func (s *Store) PersonalState(ctx context.Context, kind string, organizationID, userID int64) (map[int64]monitor.Personal, error) {
	table, column, items := "monitor_group_shares", "group_id", "monitor_groups"
	if kind == "search" {
		table, column, items = "monitor_search_shares", "search_id", "monitor_searches"
	}
	out := map[int64]monitor.Personal{}
	rows, err := s.read.QueryContext(ctx, `SELECT sh.`+column+`, sh.role FROM `+table+` sh
		JOIN `+items+` i ON i.id = sh.`+column+` WHERE sh.user_id = $1 AND i.organization_id = $2`, userID, organizationID)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var id int64
		var role string
		if err := rows.Scan(&id, &role); err != nil {
			rows.Close()
			return nil, err
		}
		p := out[id]
		p.ShareRole = role
		out[id] = p
	}
	rows.Close()
	for _, q := range []struct {
		table string
		set   func(*monitor.Personal)
	}{
		{"monitor_detachments", func(p *monitor.Personal) { p.Detached = true }},
		{"monitor_favourites", func(p *monitor.Personal) { p.Favourite = true }},
	} {
		rows, err := s.read.QueryContext(ctx, `SELECT item_id FROM `+q.table+` WHERE kind = $1 AND user_id = $2`, kind, userID)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, err
			}
			p := out[id]
			q.set(&p)
			out[id] = p
		}
		rows.Close()
	}
	if kind == "search" {
		rows, err := s.read.QueryContext(ctx, `SELECT search_id FROM monitor_hidden WHERE user_id = $1`, userID)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				return nil, err
			}
			p := out[id]
			p.Hidden = true
			out[id] = p
		}
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// SetHidden hides a saved search from one user's Locate saved-search list, or shows it again.
func (s *Store) SetHidden(ctx context.Context, searchID, userID int64, on bool) error {
	var err error
	if on {
		_, err = s.write.ExecContext(ctx, `INSERT INTO monitor_hidden (search_id, user_id) VALUES ($1, $2)
			ON CONFLICT DO NOTHING`, searchID, userID)
	} else {
		_, err = s.write.ExecContext(ctx, `DELETE FROM monitor_hidden WHERE search_id = $1 AND user_id = $2`, searchID, userID)
	}
	return err
}

// SetFavourite marks or unmarks an item as one of a user's favourites.
func (s *Store) SetFavourite(ctx context.Context, kind string, itemID, userID int64, on bool) error {
	var err error
	if on {
		_, err = s.write.ExecContext(ctx, `INSERT INTO monitor_favourites (kind, item_id, user_id) VALUES ($1, $2, $3)
			ON CONFLICT DO NOTHING`, kind, itemID, userID)
	} else {
		_, err = s.write.ExecContext(ctx, `DELETE FROM monitor_favourites WHERE kind = $1 AND item_id = $2 AND user_id = $3`,
			kind, itemID, userID)
	}
	return err
}

// Detach removes one user's direct share of an item and records that they left it, so access
// through the organization or a group does not bring it back, with the audit entries.
func (s *Store) Detach(ctx context.Context, kind string, itemID, userID int64, audit ...account.AuditEntry) error {
	table, column := "monitor_group_shares", "group_id"
	if kind == "search" {
		table, column = "monitor_search_shares", "search_id"
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM `+table+` WHERE `+column+` = $1 AND user_id = $2`, itemID, userID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO monitor_detachments (kind, item_id, user_id) VALUES ($1, $2, $3)
			ON CONFLICT DO NOTHING`, kind, itemID, userID); err != nil {
			return err
		}
		return insertAudit(ctx, tx, audit...)
	})
}

const searchColumns = `id, organization_id, owner_id, group_id, name, enabled, author_id, author_query, address,
	address_bounds, keywords, providers, start_at, end_at, images_only, video_only, board_names,
	notification_settings, streaming_lower_limit_exceeded, streaming_upper_limit_exceeded,
	gnip_lower_limit_exceeded, gnip_upper_limit_exceeded, streaming_override_until, gnip_override_until,
	created_at, updated_at`

func scanSearch(row interface{ Scan(...any) error }) (monitor.Search, error) {
	var m monitor.Search
	var providers, boards, notifications string
	var start, end, streamingUntil, gnipUntil, created, updated int64
	err := row.Scan(&m.ID, &m.OrganizationID, &m.OwnerID, &m.GroupID, &m.Name, &m.Enabled, &m.AuthorID,
		&m.AuthorQuery, &m.Address, &m.AddressBounds, &m.Keywords, &providers, &start, &end, &m.ImagesOnly,
		&m.VideoOnly, &boards, &notifications, &m.StreamingLowerLimitExceeded, &m.StreamingUpperLimitExceeded,
		&m.GnipLowerLimitExceeded, &m.GnipUpperLimitExceeded, &streamingUntil, &gnipUntil, &created, &updated)
	if err != nil {
		return m, notFound(err, "saved search")
	}
	m.StartAt, m.EndAt = fromMillis(start), fromMillis(end)
	m.StreamingOverrideUntil, m.GnipOverrideUntil = fromMillis(streamingUntil), fromMillis(gnipUntil)
	m.CreatedAt, m.UpdatedAt = fromMillis(created), fromMillis(updated)
	m.NotificationSettings = json.RawMessage(notifications)
	if err := json.Unmarshal([]byte(providers), &m.Providers); err != nil {
		return m, err
	}
	return m, json.Unmarshal([]byte(boards), &m.BoardNames)
}

// Search loads one saved search.
func (s *Store) Search(ctx context.Context, id int64) (monitor.Search, error) {
	return scanSearch(s.read.QueryRowContext(ctx, `SELECT `+searchColumns+` FROM monitor_searches WHERE id = $1`, id))
}

// Searches lists an organization's saved searches; organizationID 0 lists every organization's
// (for the percolator).
func (s *Store) Searches(ctx context.Context, organizationID int64) ([]monitor.Search, error) {
	q := `SELECT ` + searchColumns + ` FROM monitor_searches`
	var args []any
	if organizationID != 0 {
		q += ` WHERE organization_id = $1`
		args = append(args, organizationID)
	}
	rows, err := s.read.QueryContext(ctx, q+` ORDER BY name, id`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []monitor.Search
	for rows.Next() {
		m, err := scanSearch(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

func searchArgs(m monitor.Search) ([]any, error) {
	providers, err := json.Marshal(nonNil(m.Providers))
	if err != nil {
		return nil, err
	}
	boards, err := json.Marshal(nonNil(m.BoardNames))
	if err != nil {
		return nil, err
	}
	notifications := string(m.NotificationSettings)
	if strings.TrimSpace(notifications) == "" {
		notifications = "[]"
	}
	return []any{m.GroupID, m.Name, m.Enabled, m.AuthorID, m.AuthorQuery, m.Address, m.AddressBounds, m.Keywords,
		string(providers), millis(m.StartAt), millis(m.EndAt), m.ImagesOnly, m.VideoOnly, string(boards),
		notifications, m.StreamingLowerLimitExceeded, m.StreamingUpperLimitExceeded, m.GnipLowerLimitExceeded,
		m.GnipUpperLimitExceeded, millis(m.StreamingOverrideUntil), millis(m.GnipOverrideUntil)}, nil
}

func nonNil(list []string) []string {
	if list == nil {
		return []string{}
	}
	return list
}

// CreateSearch inserts a saved search with its shares and filter lists, within the
// organization's asset limit and its cap on saved searches, and the audit entries made from its id.
func (s *Store) CreateSearch(ctx context.Context, m *monitor.Search, shares []monitor.Share, filterLists []int64,
	audit ...func(id int64) []account.AuditEntry) error {
	args, err := searchArgs(*m)
	if err != nil {
		return err
	}
	now := time.Now().UTC()
	m.CreatedAt, m.UpdatedAt = now, now
	args = append(args, m.OrganizationID, m.OwnerID, millis(now))
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if err := s.checkAssetLimit(ctx, tx, m.OrganizationID); err != nil {
			return err
		}
		if err := s.checkCap(ctx, tx, m.OrganizationID, s.caps.SavedSearches, capSavedSearches, 1); err != nil {
			return err
		}
		err := tx.QueryRowContext(ctx, `INSERT INTO monitor_searches (group_id, name, enabled, author_id,
			author_query, address, address_bounds, keywords, providers, start_at, end_at, images_only, video_only,
			board_names, notification_settings, streaming_lower_limit_exceeded, streaming_upper_limit_exceeded,
			gnip_lower_limit_exceeded, gnip_upper_limit_exceeded, streaming_override_until, gnip_override_until,
			organization_id, owner_id, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21,
			$22, $23, $24, $24) RETURNING id`, args...).Scan(&m.ID)
		if err != nil {
			return err
		}
		if err := replaceShares(ctx, tx, "monitor_search_shares", "search_id", m.ID, shares); err != nil {
			return err
		}
		if err := replaceFilterLists(ctx, tx, m.ID, filterLists); err != nil {
			return err
		}
		return insertAuditOf(ctx, tx, m.ID, audit)
	})
}

// UpdateSearch stores a saved search, with the audit entries; shares and filter lists change only
// when not nil.
func (s *Store) UpdateSearch(ctx context.Context, m monitor.Search, shares *[]monitor.Share, filterLists *[]int64,
	audit ...account.AuditEntry) error {
	args, err := searchArgs(m)
	if err != nil {
		return err
	}
	args = append(args, millis(time.Now()), m.ID)
	return s.inTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE monitor_searches SET group_id = $1, name = $2, enabled = $3,
			author_id = $4, author_query = $5, address = $6, address_bounds = $7, keywords = $8, providers = $9,
			start_at = $10, end_at = $11, images_only = $12, video_only = $13, board_names = $14,
			notification_settings = $15, streaming_lower_limit_exceeded = $16, streaming_upper_limit_exceeded = $17,
			gnip_lower_limit_exceeded = $18, gnip_upper_limit_exceeded = $19, streaming_override_until = $20,
			gnip_override_until = $21, updated_at = $22 WHERE id = $23`, args...)
		if err != nil {
			return err
		}
		if shares != nil {
			if err := replaceShares(ctx, tx, "monitor_search_shares", "search_id", m.ID, *shares); err != nil {
				return err
			}
		}
		if filterLists != nil {
			if err := replaceFilterLists(ctx, tx, m.ID, *filterLists); err != nil {
				return err
			}
		}
		return insertAudit(ctx, tx, audit...)
	})
}

func replaceFilterLists(ctx context.Context, tx *sql.Tx, searchID int64, lists []int64) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM monitor_search_filter_lists WHERE search_id = $1`, searchID); err != nil {
		return err
	}
	for _, id := range lists {
		if _, err := tx.ExecContext(ctx, `INSERT INTO monitor_search_filter_lists (search_id, list_id) VALUES ($1, $2)
			ON CONFLICT DO NOTHING`, searchID, id); err != nil {
			return err
		}
	}
	return nil
}

// SearchFilterLists returns the filter list ids attached to each of the searches.
func (s *Store) SearchFilterLists(ctx context.Context, organizationID int64) (map[int64][]int64, error) {
	q := `SELECT sfl.search_id, sfl.list_id FROM monitor_search_filter_lists sfl`
	var args []any
	if organizationID != 0 {
		q += ` JOIN monitor_searches m ON m.id = sfl.search_id WHERE m.organization_id = $1`
		args = append(args, organizationID)
	}
	rows, err := s.read.QueryContext(ctx, q+` ORDER BY sfl.list_id`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64][]int64{}
	for rows.Next() {
		var search, list int64
		if err := rows.Scan(&search, &list); err != nil {
			return nil, err
		}
		out[search] = append(out[search], list)
	}
	return out, rows.Err()
}

// DeleteSearch deletes a saved search and everything that hangs on it (matches, shares), with the
// audit entries.
func (s *Store) DeleteSearch(ctx context.Context, id int64, audit ...account.AuditEntry) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		for _, q := range []string{
			`DELETE FROM monitor_detachments WHERE kind = 'search' AND item_id = $1`,
			`DELETE FROM monitor_favourites WHERE kind = 'search' AND item_id = $1`,
			`DELETE FROM monitor_hidden WHERE search_id = $1`,
			`DELETE FROM monitor_searches WHERE id = $1`,
		} {
			if _, err := tx.ExecContext(ctx, q, id); err != nil {
				return err
			}
		}
		return insertAudit(ctx, tx, audit...)
	})
}

// MoveSearches puts searches into a group, with the audit entries.
func (s *Store) MoveSearches(ctx context.Context, ids []int64, groupID int64, audit ...account.AuditEntry) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		for _, id := range ids {
			if _, err := tx.ExecContext(ctx, `UPDATE monitor_searches SET group_id = $1, updated_at = $2 WHERE id = $3`,
				groupID, millis(time.Now()), id); err != nil {
				return err
			}
		}
		return insertAudit(ctx, tx, audit...)
	})
}

// UsersByLogin finds an organization's members by e-mail or username.
func (s *Store) UsersByLogin(ctx context.Context, organizationID int64, login string) (monitor.Share, error) {
	var sh monitor.Share
	err := s.read.QueryRowContext(ctx, `SELECT u.id, u.email, u.username, u.name FROM users u
		JOIN memberships m ON m.user_id = u.id AND m.organization_id = $1
		WHERE u.email = $2 OR u.username = $3 ORDER BY u.id LIMIT 1`,
		organizationID, strings.ToLower(strings.TrimSpace(login)), strings.TrimSpace(login)).
		Scan(&sh.UserID, &sh.Email, &sh.Username, &sh.Name)
	if errors.Is(err, sql.ErrNoRows) {
		return sh, problem.NotFound("No one in your organization signs in as %s.", login)
	}
	return sh, err
}

// CountMatchesSince counts the matches an organization collected since t (its monthly data).
func (s *Store) CountMatchesSince(ctx context.Context, organizationID int64, since time.Time) (int64, error) {
	var n int64
	err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM monitor_matches WHERE organization_id = $1
		AND created_at >= $2`, organizationID, millis(since)).Scan(&n)
	return n, err
}
