package store

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/alerts"
)

const deliveryColumns = `id, search_id, organization_id, type, destination_type, destination, match_count, status,
	attempts, next_attempt_at, lease_until, last_error, created_at, sent_at, kind, story_id, story_level, escalation, skipped, note`

func scanDelivery(r rowScanner) (alerts.Delivery, error) {
	var d alerts.Delivery
	var next, lease, created, sent int64
	err := r.Scan(&d.ID, &d.SearchID, &d.OrganizationID, &d.Type, &d.Destination.Type, &d.Destination.Address,
		&d.MatchCount, &d.Status, &d.Attempts, &next, &lease, &d.LastError, &created, &sent, &d.Kind, &d.StoryID,
		&d.StoryLevel, &d.Escalation, &d.Skipped, &d.Note)
	d.NextAttemptAt, d.LeaseUntil, d.CreatedAt, d.SentAt = fromMillis(next), fromMillis(lease), fromMillis(created), fromMillis(sent)
	return d, err
}

// LastRun is when a search's alert last collected matches (zero when never).
func (s *Store) LastRun(ctx context.Context, searchID int64, alertType string) (time.Time, error) {
	var at int64
	err := s.read.QueryRowContext(ctx, `SELECT last_run_at FROM alert_runs WHERE search_id = $1 AND type = $2`,
		searchID, alertType).Scan(&at)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, nil
	}
	return fromMillis(at), err
}

// ClaimRun moves an alert's last run from prev to next, as one compare-and-set.
func (s *Store) ClaimRun(ctx context.Context, searchID int64, alertType string, prev, next time.Time) (bool, error) {
	var res sql.Result
	var err error
	if prev.IsZero() {
		res, err = s.write.ExecContext(ctx, `INSERT INTO alert_runs (search_id, type, last_run_at) VALUES ($1, $2, $3)
			ON CONFLICT (search_id, type) DO NOTHING`, searchID, alertType, millis(next))
	} else {
		res, err = s.write.ExecContext(ctx, `UPDATE alert_runs SET last_run_at = $1
			WHERE search_id = $2 AND type = $3 AND last_run_at = $4`, millis(next), searchID, alertType, millis(prev))
	}
	return affectedOne(res, err)
}

// UncoveredMatches lists the search's matches since a time that no delivery of the alert and
// destination covers, oldest first. A backfill's matches are old posts: no alert covers them.
func (s *Store) UncoveredMatches(ctx context.Context, searchID int64, alertType, destination string, since time.Time, limit int) ([]int64, error) {
	return queryIDs(ctx, s.read, `SELECT m.id FROM monitor_matches m
		WHERE m.search_id = $1 AND m.created_at >= $2 AND NOT m.backfilled AND NOT EXISTS (SELECT 1 FROM alert_delivery_matches c
			WHERE c.search_id = $1 AND c.type = $3 AND c.destination = $4 AND c.match_id = m.id)
		ORDER BY m.id LIMIT $5`, searchID, millis(since), alertType, destination, limit)
}

// errCovered rolls back a delivery one of whose matches another delivery holds.
var errCovered = errors.New("store: a match is covered already")

// CreateDelivery writes a delivery with the matches it covers, all or nothing.
func (s *Store) CreateDelivery(ctx context.Context, d *alerts.Delivery, matchIDs []int64) (bool, error) {
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if d.Kind == "" {
			d.Kind = alerts.KindMatches
		}
		if err := tx.QueryRowContext(ctx, `INSERT INTO alert_deliveries (search_id, organization_id, type, destination_type,
			destination, match_count, status, attempts, next_attempt_at, created_at, kind, story_id, story_level, escalation,
			skipped, note) VALUES ($1, $2, $3, $4, $5, $6, $7, 0, $8, $9, $10, $11, $12, $13, $14, $15)
			RETURNING id`, d.SearchID, d.OrganizationID, d.Type, d.Destination.Type, d.Destination.Address, d.MatchCount,
			d.Status, millis(d.NextAttemptAt), millis(d.CreatedAt), d.Kind, d.StoryID, d.StoryLevel, d.Escalation,
			d.Skipped, d.Note).Scan(&d.ID); err != nil {
			return err
		}
		if n := d.Notice; n != nil {
			res, err := tx.ExecContext(ctx, `INSERT INTO alert_story_notices (search_id, type, destination, story_id, level,
				delivery_id, post_count, providers, languages, threat_high, created_at)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT DO NOTHING`, d.SearchID, d.Type,
				d.Destination.Address, n.StoryID, n.Level, d.ID, n.PostCount, n.Providers, n.Languages, n.ThreatHigh,
				millis(d.CreatedAt))
			if ok, err := affectedOne(res, err); err != nil || !ok {
				return errors.Join(errCovered, err)
			}
		}
		if !d.FloodDay.IsZero() {
			res, err := tx.ExecContext(ctx, `INSERT INTO alert_flood_notices (search_id, day, delivery_id) VALUES ($1, $2, $3)
				ON CONFLICT DO NOTHING`, d.SearchID, millis(d.FloodDay), d.ID)
			if ok, err := affectedOne(res, err); err != nil || !ok {
				return errors.Join(errCovered, err)
			}
		}
		for _, id := range matchIDs {
			res, err := tx.ExecContext(ctx, `INSERT INTO alert_delivery_matches (search_id, type, destination, match_id, delivery_id)
				VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`, d.SearchID, d.Type, d.Destination.Address, id, d.ID)
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil || n != 1 {
				return errors.Join(errCovered, err)
			}
		}
		return nil
	})
	if errors.Is(err, errCovered) {
		d.ID = 0
		return false, nil
	}
	return err == nil, err
}

// ClaimDelivery takes the oldest due delivery until leaseUntil.
func (s *Store) ClaimDelivery(ctx context.Context, now, leaseUntil time.Time) (alerts.Delivery, bool, error) {
	d, err := scanDelivery(s.write.QueryRowContext(ctx, `UPDATE alert_deliveries SET lease_until = $1
		WHERE id = (SELECT id FROM alert_deliveries WHERE status IN ('pending', 'retrying') AND next_attempt_at <= $2
			AND lease_until < $2 ORDER BY next_attempt_at, id LIMIT 1`+s.sql.claimLock+`)
		AND status IN ('pending', 'retrying') AND lease_until < $2
		RETURNING `+deliveryColumns, millis(leaseUntil), millis(now)))
	if errors.Is(err, sql.ErrNoRows) {
		return alerts.Delivery{}, false, nil
	}
	return d, err == nil, err
}

// DeliveryMatches are the ids of the matches a delivery covers, oldest first.
func (s *Store) DeliveryMatches(ctx context.Context, deliveryID int64) ([]int64, error) {
	return queryIDs(ctx, s.read, `SELECT match_id FROM alert_delivery_matches WHERE delivery_id = $1 ORDER BY match_id`,
		deliveryID)
}

// RenewDelivery extends a lease the caller still holds.
func (s *Store) RenewDelivery(ctx context.Context, id int64, held, until time.Time) (bool, error) {
	res, err := s.write.ExecContext(ctx, `UPDATE alert_deliveries SET lease_until = $1 WHERE id = $2 AND lease_until = $3`,
		millis(until), id, millis(held))
	return affectedOne(res, err)
}

// FinishDelivery records the outcome of an attempt and frees the row, unless the lease the
// attempt held has passed to another sender.
func (s *Store) FinishDelivery(ctx context.Context, d alerts.Delivery) (bool, error) {
	res, err := s.write.ExecContext(ctx, `UPDATE alert_deliveries SET status = $1, attempts = $2, next_attempt_at = $3,
		last_error = $4, sent_at = $5, lease_until = 0 WHERE id = $6 AND lease_until = $7`, d.Status, d.Attempts,
		millis(d.NextAttemptAt), d.LastError, millis(d.SentAt), d.ID, millis(d.LeaseUntil))
	return affectedOne(res, err)
}

func affectedOne(res sql.Result, err error) (bool, error) {
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// Deliveries are a search's newest deliveries.
func (s *Store) Deliveries(ctx context.Context, searchID int64, limit int) ([]alerts.Delivery, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+deliveryColumns+` FROM alert_deliveries WHERE search_id = $1
		ORDER BY id DESC LIMIT $2`, searchID, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []alerts.Delivery
	for rows.Next() {
		d, err := scanDelivery(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// LastStoryNotices are the newest notice an alert and destination gave each of the stories.
func (s *Store) LastStoryNotices(ctx context.Context, searchID int64, alertType, destination string, storyIDs []string) (map[string]alerts.StoryNotice, error) {
	out := map[string]alerts.StoryNotice{}
	for chunk := range slices.Chunk(storyIDs, 500) {
		args := []any{searchID, alertType, destination}
		for _, id := range chunk {
			args = append(args, id)
		}
		rows, err := s.read.QueryContext(ctx, `SELECT story_id, level, post_count, providers, languages, threat_high, created_at
			FROM alert_story_notices WHERE search_id = $1 AND type = $2 AND destination = $3
			AND story_id IN (`+placeholders(4, len(chunk))+`)`, args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var n alerts.StoryNotice
			var at int64
			if err := rows.Scan(&n.StoryID, &n.Level, &n.PostCount, &n.Providers, &n.Languages, &n.ThreatHigh, &at); err != nil {
				rows.Close()
				return nil, err
			}
			n.At = fromMillis(at)
			if was, ok := out[n.StoryID]; !ok || n.Level > was.Level {
				out[n.StoryID] = n
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// CountNotifications counts what the flood guard bounds of a search's deliveries since a time.
func (s *Store) CountNotifications(ctx context.Context, searchID int64, since time.Time) (int, error) {
	var n int
	err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM alert_deliveries WHERE search_id = $1 AND created_at >= $2
		AND status <> 'skipped' AND kind <> 'flood' AND type NOT IN ('digest', 'ai_summary')`, searchID, millis(since)).Scan(&n)
	return n, err
}

// Snooze is the search's snooze (zero Until when none).
func (s *Store) Snooze(ctx context.Context, searchID int64) (alerts.Snooze, error) {
	sn := alerts.Snooze{SearchID: searchID}
	var until, created int64
	err := s.read.QueryRowContext(ctx, `SELECT until_at, user_id, created_at FROM alert_snoozes WHERE search_id = $1`,
		searchID).Scan(&until, &sn.UserID, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return sn, nil
	}
	sn.Until, sn.CreatedAt = fromMillis(until), fromMillis(created)
	return sn, err
}

// SetSnooze stores or, for a zero Until, removes a search's snooze, with the audit entries.
func (s *Store) SetSnooze(ctx context.Context, sn alerts.Snooze, audit ...account.AuditEntry) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		if sn.Until.IsZero() {
			_, err = tx.ExecContext(ctx, `DELETE FROM alert_snoozes WHERE search_id = $1`, sn.SearchID)
		} else {
			_, err = tx.ExecContext(ctx, `INSERT INTO alert_snoozes (search_id, until_at, user_id, created_at) VALUES ($1, $2, $3, $4)
				ON CONFLICT (search_id) DO UPDATE SET until_at = $2, user_id = $3, created_at = $4`,
				sn.SearchID, millis(sn.Until), sn.UserID, millis(sn.CreatedAt))
		}
		if err != nil {
			return err
		}
		return insertAudit(ctx, tx, audit...)
	})
}

// MutedStories are a search's muted stories, newest first.
func (s *Store) MutedStories(ctx context.Context, searchID int64) ([]alerts.Mute, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT story_id, user_id, created_at FROM alert_story_mutes WHERE search_id = $1
		ORDER BY created_at DESC, story_id`, searchID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []alerts.Mute{}
	for rows.Next() {
		mu := alerts.Mute{SearchID: searchID}
		var created int64
		if err := rows.Scan(&mu.StoryID, &mu.UserID, &created); err != nil {
			return nil, err
		}
		mu.CreatedAt = fromMillis(created)
		out = append(out, mu)
	}
	return out, rows.Err()
}

// SetMute mutes or unmutes a story in a search's alerts, with the audit entries when it changed.
func (s *Store) SetMute(ctx context.Context, mu alerts.Mute, on bool, audit ...account.AuditEntry) (bool, error) {
	var changed bool
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var res sql.Result
		var err error
		if on {
			res, err = tx.ExecContext(ctx, `INSERT INTO alert_story_mutes (search_id, story_id, user_id, created_at)
				VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`, mu.SearchID, mu.StoryID, mu.UserID, millis(mu.CreatedAt))
		} else {
			res, err = tx.ExecContext(ctx, `DELETE FROM alert_story_mutes WHERE search_id = $1 AND story_id = $2`,
				mu.SearchID, mu.StoryID)
		}
		if changed, err = affectedOne(res, err); err != nil || !changed {
			return err
		}
		return insertAudit(ctx, tx, audit...)
	})
	return changed, err
}

var _ alerts.Store = (*Store)(nil)
