package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/account"
	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/post"
	"github.com/sightline/sightline/internal/search"
)

var _ search.PlaceStore = (*Store)(nil)

// RemovePlace takes a place off a post for every user of the tenant, with the audit entries,
// and reports whether it was on it: removing a removed place changes nothing and audits nothing.
func (s *Store) RemovePlace(ctx context.Context, tenant int64, p post.Post, place post.MentionedLocation, userID int64, audit ...account.AuditEntry) (bool, error) {
	changed := false
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO post_place_removals (tenant_id, post_id, country_code, name,
			published_at, user_id, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
			tenant, p.ID, place.CountryCode, place.Name, millis(p.PublishedAt), userID, millis(time.Now()))
		if err != nil {
			return err
		}
		if changed, err = affected(res); err != nil || !changed {
			return err
		}
		return insertAudit(ctx, tx, audit...)
	})
	return changed, err
}

// RestorePlace puts a removed place back on a post for the tenant, with the audit entries, and
// reports whether it had been removed.
func (s *Store) RestorePlace(ctx context.Context, tenant int64, postID string, place post.MentionedLocation, audit ...account.AuditEntry) (bool, error) {
	changed := false
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM post_place_removals
			WHERE tenant_id = $1 AND post_id = $2 AND country_code = $3 AND name = $4`,
			tenant, postID, place.CountryCode, place.Name)
		if err != nil {
			return err
		}
		if changed, err = affected(res); err != nil || !changed {
			return err
		}
		return insertAudit(ctx, tx, audit...)
	})
	return changed, err
}

func affected(res sql.Result) (bool, error) {
	n, err := res.RowsAffected()
	return n > 0, err
}

// DeletePlaceRemovalsBefore forgets the removals of posts published before cutoff, which
// retention has removed or is removing.
func (s *Store) DeletePlaceRemovalsBefore(ctx context.Context, cutoff time.Time) (int64, error) {
	return s.deleteInChunks(ctx, `DELETE FROM post_place_removals WHERE (tenant_id, post_id, country_code, name) IN
		(SELECT tenant_id, post_id, country_code, name FROM post_place_removals WHERE published_at < $1 LIMIT $2)`,
		millis(cutoff))
}

// removedPlace names a place on a post as a removal does.
type removedPlace struct{ postID, countryCode, name string }

// hideRemovedPlaces takes the places the tenant removed off the posts. Only posts that name
// places are looked up, so a page or an analysis of posts without any costs no query.
func (s *Store) hideRemovedPlaces(ctx context.Context, tenant int64, posts ...*post.Post) error {
	var ids []string
	for _, p := range posts {
		if len(p.MentionedLocations) > 0 {
			ids = append(ids, p.ID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	removed := map[removedPlace]bool{}
	for chunk := range slices.Chunk(ids, idsPerStatement) {
		args := []any{tenant}
		marks := make([]string, len(chunk))
		for i, id := range chunk {
			args = append(args, id)
			marks[i] = "$" + strconv.Itoa(len(args))
		}
		err := s.each(ctx, `SELECT post_id, country_code, name FROM post_place_removals
			WHERE tenant_id = $1 AND post_id IN (`+strings.Join(marks, ", ")+`)`, args, func(r *sql.Rows) error {
			var k removedPlace
			if err := r.Scan(&k.postID, &k.countryCode, &k.name); err != nil {
				return err
			}
			removed[k] = true
			return nil
		})
		if err != nil {
			return err
		}
	}
	if len(removed) == 0 {
		return nil
	}
	for _, p := range posts {
		p.MentionedLocations = slices.DeleteFunc(p.MentionedLocations, func(l post.MentionedLocation) bool {
			return removed[removedPlace{p.ID, l.CountryCode, l.Name}]
		})
		if len(p.MentionedLocations) == 0 {
			p.MentionedLocations = nil // as a post that never named any
		}
	}
	return nil
}

// hideRemovedInboxPlaces takes off the matches' posts the places that the tenant of each
// match's organization removed.
func (s *Store) hideRemovedInboxPlaces(ctx context.Context, items []monitor.InboxItem) error {
	tenantOf := map[int64]int64{}
	byTenant := map[int64][]*post.Post{}
	for i := range items {
		it := &items[i]
		if len(it.Post.MentionedLocations) == 0 {
			continue
		}
		tenant, ok := tenantOf[it.OrganizationID]
		if !ok {
			if err := s.read.QueryRowContext(ctx, `SELECT tenant_id FROM organizations WHERE id = $1`,
				it.OrganizationID).Scan(&tenant); err != nil {
				return fmt.Errorf("tenant of organization %d: %w", it.OrganizationID, err)
			}
			tenantOf[it.OrganizationID] = tenant
		}
		byTenant[tenant] = append(byTenant[tenant], &it.Post)
	}
	for tenant, posts := range byTenant {
		if err := s.hideRemovedPlaces(ctx, tenant, posts...); err != nil {
			return err
		}
	}
	return nil
}

func pointers(posts []post.Post) []*post.Post {
	out := make([]*post.Post, len(posts))
	for i := range posts {
		out[i] = &posts[i]
	}
	return out
}

// removedMatchPlaces are the places the dashboard's tenant removed from the posts of its
// searches' matches in the window, by match. A removal keeps its post's publication time, so
// each finds its matches through the searches' (search, published) index.
func (s *Store) removedMatchPlaces(ctx context.Context, sc dashboardScope) (map[int64]map[removedPlace]bool, error) {
	out := map[int64]map[removedPlace]bool{}
	err := s.each(ctx, `SELECT m.id, r.post_id, r.country_code, r.name FROM post_place_removals r
		JOIN monitor_matches m ON m.published_at = r.published_at AND m.post_id = r.post_id AND m.search_id IN (`+sc.searches+`)
		WHERE r.tenant_id = $1 AND r.published_at >= $2`, []any{sc.tenant, sc.firstDay * dayMillis}, func(r *sql.Rows) error {
		var matchID int64
		var k removedPlace
		if err := r.Scan(&matchID, &k.postID, &k.countryCode, &k.name); err != nil {
			return err
		}
		if out[matchID] == nil {
			out[matchID] = map[removedPlace]bool{}
		}
		out[matchID][k] = true
		return nil
	})
	return out, err
}
