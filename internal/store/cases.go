package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"strconv"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/cases"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/problem"
)

// Cases (internal/cases, migration 0039). Each change writes its timeline events and audit
// entries in its own transaction, and moves the case's updated_at.

var _ cases.Store = (*Store)(nil)

const caseColumns = `c.id, c.organization_id, c.owner_id, c.name, c.description, c.status, c.privacy,
	c.assignees, c.tags, c.created_at, c.updated_at`

func scanCase(row interface{ Scan(...any) error }, extra ...any) (cases.Case, error) {
	var c cases.Case
	var assignees, tags string
	var created, updated int64
	err := row.Scan(append([]any{&c.ID, &c.OrganizationID, &c.OwnerID, &c.Name, &c.Description, &c.Status, &c.Privacy,
		&assignees, &tags, &created, &updated}, extra...)...)
	if err != nil {
		return c, err
	}
	c.CreatedAt, c.UpdatedAt = fromMillis(created), fromMillis(updated)
	if err := json.Unmarshal([]byte(assignees), &c.Assignees); err != nil {
		return c, err
	}
	return c, json.Unmarshal([]byte(tags), &c.Tags)
}

// Cases lists an organization's cases with how many items each holds, most recently changed first.
func (s *Store) Cases(ctx context.Context, organizationID int64) ([]cases.Case, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+caseColumns+`,
		(SELECT COUNT(*) FROM case_items i WHERE i.case_id = c.id)
		FROM cases c WHERE c.organization_id = $1 ORDER BY c.updated_at DESC, c.id DESC`, organizationID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []cases.Case{}
	for rows.Next() {
		var n int
		c, err := scanCase(rows, &n)
		if err != nil {
			return nil, err
		}
		c.ItemCount = n
		out = append(out, c)
	}
	return out, rows.Err()
}

// Case loads one case, whichever organization owns it; NotFound when there is none.
func (s *Store) Case(ctx context.Context, id int64) (cases.Case, error) {
	c, err := scanCase(s.read.QueryRowContext(ctx, `SELECT `+caseColumns+` FROM cases c WHERE c.id = $1`, id))
	return c, notFound(err, "case")
}

// CaseShares lists the members a case is shared with.
func (s *Store) CaseShares(ctx context.Context, caseID int64) ([]cases.Share, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT user_id, role FROM case_shares WHERE case_id = $1 ORDER BY user_id`, caseID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []cases.Share{}
	for rows.Next() {
		var sh cases.Share
		if err := rows.Scan(&sh.UserID, &sh.Role); err != nil {
			return nil, err
		}
		out = append(out, sh)
	}
	return out, rows.Err()
}

// CaseShareRoles is the user's role on each case of the organization shared with them directly.
func (s *Store) CaseShareRoles(ctx context.Context, organizationID, userID int64) (map[int64]string, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT sh.case_id, sh.role FROM case_shares sh
		JOIN cases c ON c.id = sh.case_id WHERE c.organization_id = $1 AND sh.user_id = $2`, organizationID, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var id int64
		var role string
		if err := rows.Scan(&id, &role); err != nil {
			return nil, err
		}
		out[id] = role
	}
	return out, rows.Err()
}

// CreateCase stores a new case with the timeline's first event and its audit entry, which
// get the new case's id.
func (s *Store) CreateCase(ctx context.Context, c *cases.Case, e cases.Event, entry account.AuditEntry) error {
	assignees, tags, err := caseLists(*c)
	if err != nil {
		return err
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `INSERT INTO cases (organization_id, owner_id, name, description, status,
			privacy, assignees, tags, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
			c.OrganizationID, c.OwnerID, c.Name, c.Description, c.Status, c.Privacy, assignees, tags,
			millis(c.CreatedAt), millis(c.UpdatedAt)).Scan(&c.ID); err != nil {
			return err
		}
		e.CaseID = c.ID
		return s.caseChanged(ctx, tx, c.ID, []cases.Event{e}, withID(entry, c.ID))
	})
}

func caseLists(c cases.Case) (assignees, tags string, err error) {
	a, err := json.Marshal(nonNilIDs(c.Assignees))
	if err != nil {
		return "", "", err
	}
	t, err := json.Marshal(nonNil(c.Tags))
	return string(a), string(t), err
}

// withID gives an entry about a row just created that row's id.
func withID(e account.AuditEntry, id int64) account.AuditEntry {
	if e.ModelID == "" {
		e.ModelID = strconv.FormatInt(id, 10)
	}
	return e
}

// caseChanged writes a change's timeline events and audit entries and moves the case's
// updated_at to the last event's time.
func (s *Store) caseChanged(ctx context.Context, tx *sql.Tx, caseID int64, events []cases.Event, entries ...account.AuditEntry) error {
	for _, e := range events {
		if _, err := tx.ExecContext(ctx, `INSERT INTO case_events (case_id, user_id, actor_name, action, summary, created_at)
			VALUES ($1, $2, COALESCE((SELECT name FROM users WHERE id = $2), ''), $3, $4, $5)`,
			caseID, e.UserID, e.Action, e.Summary, millis(e.CreatedAt)); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE cases SET updated_at = $1 WHERE id = $2`, millis(e.CreatedAt), caseID); err != nil {
			return err
		}
	}
	return insertAudit(ctx, tx, entries...)
}

// UpdateCase stores a case's fields and, when shares is not nil, who it is shared with.
func (s *Store) UpdateCase(ctx context.Context, c cases.Case, shares *[]cases.Share, events []cases.Event, entries ...account.AuditEntry) error {
	assignees, tags, err := caseLists(c)
	if err != nil {
		return err
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE cases SET name = $1, description = $2, status = $3, privacy = $4,
			assignees = $5, tags = $6 WHERE id = $7`, c.Name, c.Description, c.Status, c.Privacy, assignees, tags, c.ID); err != nil {
			return err
		}
		if shares != nil {
			if _, err := tx.ExecContext(ctx, `DELETE FROM case_shares WHERE case_id = $1`, c.ID); err != nil {
				return err
			}
			for _, sh := range *shares {
				if _, err := tx.ExecContext(ctx, `INSERT INTO case_shares (case_id, user_id, role) VALUES ($1, $2, $3)`,
					c.ID, sh.UserID, sh.Role); err != nil {
					return err
				}
			}
		}
		return s.caseChanged(ctx, tx, c.ID, events, entries...)
	})
}

// DeleteCase removes a case with everything in it.
func (s *Store) DeleteCase(ctx context.Context, id int64, entries ...account.AuditEntry) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM cases WHERE id = $1`, id); err != nil {
			return err
		}
		return insertAudit(ctx, tx, entries...)
	})
}

// CaseItems lists a case's items in the order they were added.
func (s *Store) CaseItems(ctx context.Context, caseID int64) ([]cases.Item, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT id, case_id, kind, ref, title, post_doc, note, added_by, created_at,
		updated_at FROM case_items WHERE case_id = $1 ORDER BY created_at, id`, caseID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []cases.Item{}
	for rows.Next() {
		var it cases.Item
		var doc string
		var created, updated int64
		if err := rows.Scan(&it.ID, &it.CaseID, &it.Kind, &it.Ref, &it.Title, &doc, &it.Note, &it.AddedBy,
			&created, &updated); err != nil {
			return nil, err
		}
		it.CreatedAt, it.UpdatedAt = fromMillis(created), fromMillis(updated)
		if doc != "" {
			var p post.Post
			if err := json.Unmarshal([]byte(doc), &p); err != nil {
				return nil, err
			}
			it.Post = &p
		}
		out = append(out, it)
	}
	return out, rows.Err()
}

// AddCaseItem stores a new item with the post it shows; an item already in the case is a conflict.
func (s *Store) AddCaseItem(ctx context.Context, it *cases.Item, e cases.Event, entry account.AuditEntry) error {
	doc := ""
	if it.Post != nil {
		b, err := json.Marshal(it.Post)
		if err != nil {
			return err
		}
		doc = string(b)
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `INSERT INTO case_items (case_id, kind, ref, title, post_doc, note, added_by,
			created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
			it.CaseID, it.Kind, it.Ref, it.Title, doc, it.Note, it.AddedBy, millis(it.CreatedAt), millis(it.UpdatedAt)).Scan(&it.ID)
		if isUniqueViolation(err) {
			return problem.Conflict(cases.MsgDuplicateItem)
		}
		if err != nil {
			return err
		}
		return s.caseChanged(ctx, tx, it.CaseID, []cases.Event{e}, withID(entry, it.ID))
	})
}

// UpdateCaseItem stores an item's note.
func (s *Store) UpdateCaseItem(ctx context.Context, it cases.Item, e cases.Event, entries ...account.AuditEntry) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE case_items SET note = $1, updated_at = $2 WHERE id = $3 AND case_id = $4`,
			it.Note, millis(it.UpdatedAt), it.ID, it.CaseID); err != nil {
			return err
		}
		return s.caseChanged(ctx, tx, it.CaseID, []cases.Event{e}, entries...)
	})
}

// DeleteCaseItem takes an item out of its case.
func (s *Store) DeleteCaseItem(ctx context.Context, it cases.Item, e cases.Event, entries ...account.AuditEntry) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM case_items WHERE id = $1 AND case_id = $2`, it.ID, it.CaseID); err != nil {
			return err
		}
		return s.caseChanged(ctx, tx, it.CaseID, []cases.Event{e}, entries...)
	})
}

// CaseEvents is a case's timeline, oldest first.
func (s *Store) CaseEvents(ctx context.Context, caseID int64) ([]cases.Event, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT id, case_id, user_id, actor_name, action, summary, created_at
		FROM case_events WHERE case_id = $1 ORDER BY created_at, id`, caseID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []cases.Event{}
	for rows.Next() {
		var e cases.Event
		var at int64
		if err := rows.Scan(&e.ID, &e.CaseID, &e.UserID, &e.ActorName, &e.Action, &e.Summary, &at); err != nil {
			return nil, err
		}
		e.CreatedAt = fromMillis(at)
		out = append(out, e)
	}
	return out, rows.Err()
}

// CaseComments lists a case's comments, oldest first.
func (s *Store) CaseComments(ctx context.Context, caseID int64) ([]cases.Comment, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT id, case_id, user_id, author_name, body, mentions, created_at
		FROM case_comments WHERE case_id = $1 ORDER BY created_at, id`, caseID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []cases.Comment{}
	for rows.Next() {
		var c cases.Comment
		var mentions string
		var at int64
		if err := rows.Scan(&c.ID, &c.CaseID, &c.UserID, &c.AuthorName, &c.Body, &mentions, &at); err != nil {
			return nil, err
		}
		c.CreatedAt = fromMillis(at)
		if err := json.Unmarshal([]byte(mentions), &c.Mentions); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// AddCaseComment stores a comment with its timeline event and audit entry.
func (s *Store) AddCaseComment(ctx context.Context, c *cases.Comment, e cases.Event, entry account.AuditEntry) error {
	mentions, err := json.Marshal(nonNilIDs(c.Mentions))
	if err != nil {
		return err
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `INSERT INTO case_comments (case_id, user_id, author_name, body, mentions, created_at)
			VALUES ($1, $2, COALESCE((SELECT name FROM users WHERE id = $2), ''), $3, $4, $5) RETURNING id`,
			c.CaseID, c.UserID, c.Body, string(mentions), millis(c.CreatedAt)).Scan(&c.ID); err != nil {
			return err
		}
		return s.caseChanged(ctx, tx, c.CaseID, []cases.Event{e}, withID(entry, c.ID))
	})
}

// CaseMatch is a match's saved search and post.
func (s *Store) CaseMatch(ctx context.Context, matchID int64) (int64, string, error) {
	var searchID int64
	var postID string
	err := s.read.QueryRowContext(ctx, `SELECT search_id, post_id FROM monitor_matches WHERE id = $1`, matchID).
		Scan(&searchID, &postID)
	return searchID, postID, notFound(err, "match")
}

// nonNilIDs keeps an empty list of ids a JSON list.
func nonNilIDs(ids []int64) []int64 {
	if ids == nil {
		return []int64{}
	}
	return ids
}
