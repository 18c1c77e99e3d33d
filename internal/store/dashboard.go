package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/monitor"
)

const (
	hourMillis = int64(time.Hour / time.Millisecond)
	dayMillis  = 24 * hourMillis
)

// Dashboard computes every dashboard widget over the searches for the user, leaving out the
// matches the user deleted. The searches are the ones the caller found visible.
func (s *Store) Dashboard(ctx context.Context, userID int64, searchIDs []int64, now time.Time) (monitor.Dashboard, error) {
	d := monitor.Dashboard{TopAuthors: []monitor.AuthorCount{}, TopProviders: []monitor.ProviderCount{},
		TopMentionedLocations: []monitor.LocationCount{}, Heatmap: []monitor.HeatmapCell{}, Timeline: []monitor.TimelinePoint{},
		Threat: monitor.ThreatDistribution{Buckets: threatBuckets(), Top: []monitor.ThreatPost{}}}
	if len(searchIDs) == 0 {
		return d, nil
	}
	counts, err := s.MatchCounts(ctx, userID, searchIDs)
	if err != nil {
		return d, err
	}
	for _, c := range counts {
		d.ResultCount += c.TotalCount
		d.UnreadCount += c.UnreadCount
	}
	postJoin := "p.id = m.post_id"
	if s.dialect == Postgres {
		postJoin += " AND p.published_at = m.published_at"
	}
	// kept selects the user's matches that are not deleted; $1 is the user.
	kept := `monitor_matches m LEFT JOIN monitor_match_states st ON st.match_id = m.id AND st.user_id = $1
		WHERE m.search_id IN (` + idList(searchIDs) + `) AND COALESCE(st.is_deleted, FALSE) = FALSE`
	withPosts := `monitor_matches m JOIN posts p ON ` + postJoin + `
		LEFT JOIN monitor_match_states st ON st.match_id = m.id AND st.user_id = $1
		WHERE m.search_id IN (` + idList(searchIDs) + `) AND COALESCE(st.is_deleted, FALSE) = FALSE`
	since := millis(now.Add(-monitor.DashboardWindow))

	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+kept+` AND m.created_at >= $2`, userID,
		millis(now.Add(-monitor.DashboardNewWindow))).Scan(&d.NewCount); err != nil {
		return d, fmt.Errorf("dashboard new: %w", err)
	}
	err = s.each(ctx, `SELECT p.author_name, p.author_screen_name, p.provider, COUNT(*) AS n FROM (
			SELECT m.post_id, m.published_at FROM `+kept+` ORDER BY m.published_at DESC, m.id DESC LIMIT $2
		) m JOIN posts p ON `+postJoin+` WHERE p.author_name <> '' OR p.author_screen_name <> ''
		GROUP BY p.author_name, p.author_screen_name, p.provider ORDER BY n DESC, p.author_screen_name, p.author_name LIMIT $3`,
		[]any{userID, monitor.DashboardRecentResults, monitor.DashboardTopN}, func(r *sql.Rows) error {
			var a monitor.AuthorCount
			if err := r.Scan(&a.Name, &a.ScreenName, &a.Provider, &a.Count); err != nil {
				return err
			}
			d.TopAuthors = append(d.TopAuthors, a)
			return nil
		})
	if err != nil {
		return d, fmt.Errorf("dashboard authors: %w", err)
	}
	err = s.each(ctx, `SELECT m.provider, COUNT(*) AS n FROM `+kept+` GROUP BY m.provider ORDER BY n DESC, m.provider`,
		[]any{userID}, func(r *sql.Rows) error {
			var p monitor.ProviderCount
			if err := r.Scan(&p.Provider, &p.Count); err != nil {
				return err
			}
			d.TopProviders = append(d.TopProviders, p)
			return nil
		})
	if err != nil {
		return d, fmt.Errorf("dashboard providers: %w", err)
	}
	// Mentioned locations live only in the post's document: read through the JSON functions, and
	// only for documents that name places (a text test is cheaper than parsing).
	places := `SELECT loc.value ->> 'name' AS name, loc.value ->> 'country_code' AS cc,
		CAST(loc.value -> 'point' ->> 'lat' AS REAL) AS lat, CAST(loc.value -> 'point' ->> 'lon' AS REAL) AS lon FROM ` + withPosts + ` AND m.published_at >= $2 AND p.doc LIKE '%"mentioned_locations"%'`
	if s.dialect == Postgres {
		places = `SELECT loc.value ->> 'name' AS name, loc.value ->> 'country_code' AS cc,
			(loc.value -> 'point' ->> 'lat')::float8 AS lat, (loc.value -> 'point' ->> 'lon')::float8 AS lon FROM ` + withPosts + ` AND m.published_at >= $2 AND p.doc LIKE '%"mentioned_locations"%'`
	}
	placesFrom := "json_each(p.doc, '$.mentioned_locations') AS loc"
	if s.dialect == Postgres {
		placesFrom = "jsonb_array_elements(COALESCE(p.doc::jsonb -> 'mentioned_locations', '[]'::jsonb)) AS loc(value)"
	}
	places = `SELECT name, cc, lat, lon, COUNT(*) AS n FROM (` + injectFrom(places, placesFrom) + `) AS l
		GROUP BY name, cc, lat, lon ORDER BY n DESC, name LIMIT $3`
	err = s.each(ctx, places, []any{userID, since, monitor.DashboardTopN}, func(r *sql.Rows) error {
		var l monitor.LocationCount
		if err := r.Scan(&l.Name, &l.CountryCode, &l.Lat, &l.Lon, &l.Count); err != nil {
			return err
		}
		d.TopMentionedLocations = append(d.TopMentionedLocations, l)
		return nil
	})
	if err != nil {
		return d, fmt.Errorf("dashboard locations: %w", err)
	}
	// Hours and days are counted in SQL and turned into weekdays and dates here, the same on
	// both databases.
	cells := map[[2]int]int64{}
	err = s.each(ctx, `SELECT m.published_at / $3 AS h, COUNT(*) FROM `+kept+` AND m.published_at >= $2 GROUP BY h`,
		[]any{userID, since, hourMillis}, func(r *sql.Rows) error {
			var h, n int64
			if err := r.Scan(&h, &n); err != nil {
				return err
			}
			t := time.UnixMilli(h * hourMillis).UTC()
			cells[[2]int{int(t.Weekday()), t.Hour()}] += n
			return nil
		})
	if err != nil {
		return d, fmt.Errorf("dashboard heatmap: %w", err)
	}
	for wd := range 7 {
		for h := range 24 {
			if n := cells[[2]int{wd, h}]; n > 0 {
				d.Heatmap = append(d.Heatmap, monitor.HeatmapCell{Weekday: wd, Hour: h, Count: n})
			}
		}
	}
	err = s.each(ctx, `SELECT m.published_at / $3 AS day, m.search_id, COUNT(*) FROM `+kept+` AND m.published_at >= $2
		GROUP BY day, m.search_id ORDER BY day, m.search_id`,
		[]any{userID, since, dayMillis}, func(r *sql.Rows) error {
			var day, search, n int64
			if err := r.Scan(&day, &search, &n); err != nil {
				return err
			}
			d.Timeline = append(d.Timeline, monitor.TimelinePoint{
				Date: time.UnixMilli(day * dayMillis).UTC().Format(time.DateOnly), MonitorSearchID: search, Count: n})
			return nil
		})
	if err != nil {
		return d, fmt.Errorf("dashboard timeline: %w", err)
	}
	// Scores 0 to 100 in ten buckets; 100 counts in the last.
	err = s.each(ctx, `SELECT CASE WHEN p.threat_score >= 100 THEN 9 WHEN p.threat_score < 0 THEN 0 ELSE p.threat_score / 10 END AS b,
		COUNT(*) FROM `+withPosts+` GROUP BY b`, []any{userID}, func(r *sql.Rows) error {
		var b int
		var n int64
		if err := r.Scan(&b, &n); err != nil {
			return err
		}
		d.Threat.Buckets[b].Count = n
		return nil
	})
	if err != nil {
		return d, fmt.Errorf("dashboard threat: %w", err)
	}
	// The ranking carries no documents (a sort would copy every one); the five are read after.
	var top []monitor.ThreatPost
	var postIDs []string
	err = s.each(ctx, `SELECT m.id, m.search_id, m.post_id FROM `+withPosts+` AND p.threat_score > 0
		ORDER BY p.threat_score DESC, m.published_at DESC, m.id DESC LIMIT $2`,
		[]any{userID, monitor.DashboardThreatTop}, func(r *sql.Rows) error {
			var tp monitor.ThreatPost
			var postID string
			if err := r.Scan(&tp.MatchID, &tp.MonitorSearchID, &postID); err != nil {
				return err
			}
			top, postIDs = append(top, tp), append(postIDs, postID)
			return nil
		})
	if err != nil {
		return d, fmt.Errorf("dashboard threat top: %w", err)
	}
	for i, tp := range top {
		if tp.Post, err = s.Post(ctx, postIDs[i]); err != nil {
			return d, fmt.Errorf("dashboard threat post: %w", err)
		}
		tp.Score, tp.Reasons = tp.Post.Threat.Score, tp.Post.Threat.Reasons
		if tp.Reasons == nil {
			tp.Reasons = []string{}
		}
		d.Threat.Top = append(d.Threat.Top, tp)
	}
	return d, nil
}

func threatBuckets() []monitor.ThreatBucket {
	out := make([]monitor.ThreatBucket, 10)
	for i := range out {
		out[i] = monitor.ThreatBucket{From: i * 10, To: i*10 + 10}
	}
	return out
}

// injectFrom adds a table function to the FROM of a "SELECT ... FROM a JOIN b ... WHERE" query
// as a cross join right before its WHERE.
func injectFrom(q, from string) string {
	i := strings.LastIndex(q, "WHERE m.search_id")
	return q[:i] + "CROSS JOIN " + from + "\n\t\t" + q[i:]
}

// each runs a query on the read pool and calls fn for every row.
func (s *Store) each(ctx context.Context, q string, args []any, fn func(*sql.Rows) error) error {
	rows, err := s.read.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}
