package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
)

// MarkPostDeleted records that the provider deleted a stored post: the post's document gains
// deletedAt, appended to it, and keeps everything else as stored (a deleted post is evidence of what was
// said), so every read of it (searches, matches, threads, exports) carries the mark. Only a post
// owned by owner is marked (0: the operator's shared sources; a tenant's id: that tenant's own
// sources and ingest), so no tenant can mark another's post. found is false when there is no
// such post. Marking a post again keeps the first time.
func (s *Store) MarkPostDeleted(ctx context.Context, id string, owner int64, at time.Time) (found bool, err error) {
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		var doc string
		lock := ""
		if s.dialect == Postgres {
			lock = " FOR UPDATE" // two reports at once: the second waits and sees the first's mark
		}
		err := tx.QueryRowContext(ctx, `SELECT doc FROM posts WHERE id = $1 AND tenant_id = $2`+lock, id, owner).Scan(&doc)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		found = true
		var fields map[string]json.RawMessage
		if err := json.Unmarshal([]byte(doc), &fields); err != nil {
			return fmt.Errorf("post %s: reading its document: %w", id, err)
		}
		if _, marked := fields["deletedAt"]; marked {
			return nil
		}
		stamp, err := json.Marshal(at.UTC())
		if err != nil {
			return err
		}
		// The mark is appended to the object as stored, so the rest stays as it was written.
		trimmed := strings.TrimRightFunc(doc, unicode.IsSpace)
		if !strings.HasSuffix(trimmed, "}") {
			return fmt.Errorf("post %s: its document is not a JSON object", id)
		}
		sep := ","
		if len(fields) == 0 {
			sep = ""
		}
		updated := trimmed[:len(trimmed)-1] + sep + `"deletedAt":` + string(stamp) + "}"
		_, err = tx.ExecContext(ctx, `UPDATE posts SET doc = $1 WHERE id = $2 AND tenant_id = $3`, updated, id, owner)
		return err
	})
	return found, err
}
