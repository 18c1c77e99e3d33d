package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/filters"
	"github.com/sightline/sightline/internal/problem"
)

var _ filters.Store = (*Store)(nil)

const filterListColumns = `l.id, l.organization_id, l.owner_id, u.email, u.username, l.name, l.type, l.inclusion,
	l.created_at, l.updated_at`

const filterListFrom = ` FROM filter_lists l JOIN users u ON u.id = l.owner_id`

// scanFilterList scans filterListColumns after the leading columns scanned into before.
func scanFilterList(row interface{ Scan(...any) error }, before ...any) (filters.List, error) {
	var l filters.List
	var typ string
	var created, updated int64
	err := row.Scan(append(before, &l.ID, &l.OrganizationID, &l.OwnerID, &l.Owner.Email, &l.Owner.Username, &l.Name,
		&typ, &l.Inclusion, &created, &updated)...)
	l.Owner.ID, l.Type = l.OwnerID, filters.Type(typ)
	l.CreatedAt, l.UpdatedAt = fromMillis(created), fromMillis(updated)
	return l, notFound(err, "filter list")
}

// CreateFilterList inserts a list with its entries, within the organization's caps on lists and
// entries, with the audit entries (one without a ModelID names the list). A name already used in
// the organization (compared folded) is refused.
func (s *Store) CreateFilterList(ctx context.Context, l *filters.List, audit ...account.AuditEntry) error {
	now := time.Now().UTC()
	l.CreatedAt, l.UpdatedAt = now, now
	return s.inTx(ctx, func(tx *sql.Tx) error {
		// Locked before the insert, which takes a share lock on the same row through its foreign key:
		// taking the lock only after that would deadlock two creations.
		if err := s.lockOrganization(ctx, tx, l.OrganizationID); err != nil {
			return err
		}
		if err := s.checkCap(ctx, tx, l.OrganizationID, s.caps.FilterLists, capFilterLists, 1); err != nil {
			return err
		}
		err := tx.QueryRowContext(ctx, `INSERT INTO filter_lists (organization_id, owner_id, name, name_key, type,
			inclusion, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING id`,
			l.OrganizationID, l.OwnerID, l.Name, filters.NameKey(l.Name), string(l.Type), l.Inclusion,
			millis(now)).Scan(&l.ID)
		if isUniqueViolation(err) {
			return problem.InvalidField("name", filters.MsgDuplicateName)
		}
		if err != nil {
			return err
		}
		if _, err = insertEntries(ctx, tx, l.ID, l.Entries, now); err != nil {
			return err
		}
		if err := s.checkCap(ctx, tx, l.OrganizationID, s.caps.FilterListEntries, capEntries, 0); err != nil {
			return err
		}
		return insertAudit(ctx, tx, withModelID(audit, l.ID)...)
	})
}

// insertEntries adds the entries whose key the list lacks and reports how many it added.
func insertEntries(ctx context.Context, tx *sql.Tx, listID int64, entries []filters.Entry, now time.Time) (int, error) {
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO filter_list_entries (list_id, value, value_key, created_at)
		VALUES ($1, $2, $3, $4) ON CONFLICT (list_id, value_key) DO NOTHING`)
	if err != nil {
		return 0, err
	}
	defer stmt.Close()
	added := 0
	for _, e := range entries {
		res, err := stmt.ExecContext(ctx, listID, e.Value, e.Key, millis(now))
		if err != nil {
			return added, err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return added, err
		}
		added += int(n)
	}
	return added, nil
}

// FilterList loads one list with its entries.
func (s *Store) FilterList(ctx context.Context, id int64) (filters.List, error) {
	l, err := scanFilterList(s.read.QueryRowContext(ctx, `SELECT `+filterListColumns+filterListFrom+` WHERE l.id = $1`, id))
	if err != nil {
		return l, err
	}
	entries, err := s.filterListEntries(ctx, `e.list_id = $1`, id)
	l.Entries = entries[id]
	return l, err
}

// FilterLists loads an organization's lists with their entries, by name.
func (s *Store) FilterLists(ctx context.Context, organizationID int64) ([]filters.List, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+filterListColumns+filterListFrom+`
		WHERE l.organization_id = $1 ORDER BY l.name_key, l.id`, organizationID)
	if err != nil {
		return nil, err
	}
	lists, err := scanFilterLists(rows)
	if err != nil {
		return nil, err
	}
	entries, err := s.filterListEntries(ctx, `e.list_id IN (SELECT id FROM filter_lists WHERE organization_id = $1)`,
		organizationID)
	for i := range lists {
		lists[i].Entries = entries[lists[i].ID]
	}
	return lists, err
}

func scanFilterLists(rows *sql.Rows) ([]filters.List, error) {
	defer rows.Close()
	var out []filters.List
	for rows.Next() {
		l, err := scanFilterList(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, rows.Err()
}

// filterListEntries loads the entries matching where (over filter_list_entries e), by list, in
// the order they were added.
func (s *Store) filterListEntries(ctx context.Context, where string, args ...any) (map[int64][]filters.Entry, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT e.list_id, e.id, e.value, e.value_key FROM filter_list_entries e
		WHERE `+where+` ORDER BY e.list_id, e.id`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64][]filters.Entry{}
	for rows.Next() {
		var listID int64
		var e filters.Entry
		if err := rows.Scan(&listID, &e.ID, &e.Value, &e.Key); err != nil {
			return nil, err
		}
		out[listID] = append(out[listID], e)
	}
	return out, rows.Err()
}

// UpdateFilterList stores a list's name and inclusion, with the audit entries.
func (s *Store) UpdateFilterList(ctx context.Context, l filters.List, audit ...account.AuditEntry) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE filter_lists SET name = $1, name_key = $2, inclusion = $3,
			updated_at = $4 WHERE id = $5`, l.Name, filters.NameKey(l.Name), l.Inclusion, millis(time.Now()), l.ID)
		if isUniqueViolation(err) {
			return problem.InvalidField("name", filters.MsgDuplicateName)
		}
		if err != nil {
			return err
		}
		return insertAudit(ctx, tx, audit...)
	})
}

// DeleteFilterList deletes a list, detaching it from its searches, with the audit entries, and
// returns those searches.
func (s *Store) DeleteFilterList(ctx context.Context, id int64, audit ...account.AuditEntry) ([]int64, error) {
	var searches []int64
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		if searches, err = queryIDs(ctx, tx, `SELECT search_id FROM monitor_search_filter_lists WHERE list_id = $1
			ORDER BY search_id`, id); err != nil {
			return err
		}
		if _, err = tx.ExecContext(ctx, `DELETE FROM filter_lists WHERE id = $1`, id); err != nil {
			return err
		}
		return insertAudit(ctx, tx, audit...)
	})
	return searches, err
}

// queryIDs runs a query selecting one integer column.
func queryIDs(ctx context.Context, q interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}, query string, args ...any) ([]int64, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// AddFilterListEntries adds the entries whose key the list lacks and reports how many it added,
// within the organization's cap on entries, with the audit entries when it added any.
func (s *Store) AddFilterListEntries(ctx context.Context, listID int64, entries []filters.Entry, audit ...account.AuditEntry) (int, error) {
	var added int
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var organizationID int64
		if err := tx.QueryRowContext(ctx, `SELECT organization_id FROM filter_lists WHERE id = $1`, listID).Scan(&organizationID); err != nil {
			return notFound(err, "filter list")
		}
		// Locked before the insert, for the same reason as in CreateFilterList.
		if err := s.lockOrganization(ctx, tx, organizationID); err != nil {
			return err
		}
		now := time.Now()
		var err error
		if added, err = insertEntries(ctx, tx, listID, entries, now); err != nil || added == 0 {
			return err
		}
		if err := s.checkCap(ctx, tx, organizationID, s.caps.FilterListEntries, capEntries, 0); err != nil {
			return err
		}
		if _, err = tx.ExecContext(ctx, `UPDATE filter_lists SET updated_at = $1 WHERE id = $2`, millis(now), listID); err != nil {
			return err
		}
		return insertAudit(ctx, tx, audit...)
	})
	return added, err
}

// RemoveFilterListEntries removes the list's entries with the given ids and reports how many
// it removed, with the audit entries when it removed any; ids of other lists' entries are ignored.
func (s *Store) RemoveFilterListEntries(ctx context.Context, listID int64, entryIDs []int64, audit ...account.AuditEntry) (int, error) {
	if len(entryIDs) == 0 {
		return 0, nil
	}
	var removed int
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM filter_list_entries WHERE list_id = $1 AND id IN (`+
			idList(entryIDs)+`)`, listID)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil || n == 0 {
			return err
		}
		removed = int(n)
		if _, err = tx.ExecContext(ctx, `UPDATE filter_lists SET updated_at = $1 WHERE id = $2`, millis(time.Now()), listID); err != nil {
			return err
		}
		return insertAudit(ctx, tx, audit...)
	})
	return removed, err
}

// FilterListAttachments lists the saved searches using the organization's lists (only list
// listID's when it is not 0), each with what decides userID's access to it.
func (s *Store) FilterListAttachments(ctx context.Context, userID, organizationID, listID int64) ([]filters.Attachment, error) {
	where, args := `l.organization_id = $2`, []any{userID, organizationID}
	if listID != 0 {
		where, args = where+` AND sfl.list_id = $3`, append(args, listID)
	}
	rows, err := s.read.QueryContext(ctx, `SELECT sfl.list_id, m.id, m.name, m.organization_id, m.owner_id,
			g.organization_id, g.owner_id, g.privacy, g.is_saved_search,
			COALESCE(gs.role, ''), gd.user_id IS NOT NULL, COALESCE(ms.role, ''), md.user_id IS NOT NULL
		FROM monitor_search_filter_lists sfl
		JOIN filter_lists l ON l.id = sfl.list_id
		JOIN monitor_searches m ON m.id = sfl.search_id
		JOIN monitor_groups g ON g.id = m.group_id
		LEFT JOIN monitor_group_shares gs ON gs.group_id = g.id AND gs.user_id = $1
		LEFT JOIN monitor_detachments gd ON gd.kind = 'group' AND gd.item_id = g.id AND gd.user_id = $1
		LEFT JOIN monitor_search_shares ms ON ms.search_id = m.id AND ms.user_id = $1
		LEFT JOIN monitor_detachments md ON md.kind = 'search' AND md.item_id = m.id AND md.user_id = $1
		WHERE `+where+` ORDER BY m.name, m.id`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []filters.Attachment
	for rows.Next() {
		var a filters.Attachment
		f, g := &a.Search, &a.Search.Group
		if err := rows.Scan(&a.ListID, &a.SearchID, &a.SearchName, &f.OrganizationID, &f.OwnerID,
			&g.OrganizationID, &g.OwnerID, &g.Privacy, &g.IsSavedSearch, &g.ShareRole, &g.Detached,
			&f.ShareRole, &f.Detached); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// FilterListSearchIDs lists the saved searches using a list.
func (s *Store) FilterListSearchIDs(ctx context.Context, listID int64) ([]int64, error) {
	return queryIDs(ctx, s.read, `SELECT search_id FROM monitor_search_filter_lists WHERE list_id = $1
		ORDER BY search_id`, listID)
}

// searchBatch keeps each query's IN list short.
const searchBatch = 500

// FilterListsOfSearches loads the lists attached to each of the searches, with their entries.
func (s *Store) FilterListsOfSearches(ctx context.Context, searchIDs []int64) (map[int64][]filters.List, error) {
	out := map[int64][]filters.List{}
	for start := 0; start < len(searchIDs); start += searchBatch {
		batch := searchIDs[start:min(start+searchBatch, len(searchIDs))]
		in := idList(batch)
		rows, err := s.read.QueryContext(ctx, `SELECT sfl.search_id, `+filterListColumns+filterListFrom+`
			JOIN monitor_search_filter_lists sfl ON sfl.list_id = l.id
			WHERE sfl.search_id IN (`+in+`) ORDER BY sfl.search_id, l.id`)
		if err != nil {
			return nil, err
		}
		searchOf, lists, err := scanAttachedLists(rows)
		if err != nil {
			return nil, err
		}
		entries, err := s.filterListEntries(ctx, `e.list_id IN (SELECT list_id FROM monitor_search_filter_lists
			WHERE search_id IN (`+in+`))`)
		if err != nil {
			return nil, err
		}
		for i, l := range lists {
			l.Entries = entries[l.ID]
			out[searchOf[i]] = append(out[searchOf[i]], l)
		}
	}
	return out, nil
}

func scanAttachedLists(rows *sql.Rows) (searchOf []int64, lists []filters.List, err error) {
	defer rows.Close()
	for rows.Next() {
		var searchID int64
		l, err := scanFilterList(rows, &searchID)
		if err != nil {
			return nil, nil, err
		}
		searchOf, lists = append(searchOf, searchID), append(lists, l)
	}
	return searchOf, lists, rows.Err()
}

// TrackObjectDetection counts one more use of an object by the organization and returns the
// new count.
func (s *Store) TrackObjectDetection(ctx context.Context, organizationID int64, keyword string) (int64, error) {
	var uses int64
	err := s.write.QueryRowContext(ctx, `INSERT INTO object_detection_usage (organization_id, keyword, uses)
		VALUES ($1, $2, 1) ON CONFLICT (organization_id, keyword)
		DO UPDATE SET uses = object_detection_usage.uses + 1 RETURNING uses`, organizationID, keyword).Scan(&uses)
	return uses, err
}

// ObjectDetectionUsage returns how often the organization chose each object.
func (s *Store) ObjectDetectionUsage(ctx context.Context, organizationID int64) (map[string]int64, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT keyword, uses FROM object_detection_usage WHERE organization_id = $1`,
		organizationID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var keyword string
		var uses int64
		if err := rows.Scan(&keyword, &uses); err != nil {
			return nil, err
		}
		out[keyword] = uses
	}
	return out, rows.Err()
}
