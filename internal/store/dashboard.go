package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sightline/sightline/internal/monitor"
	"github.com/sightline/sightline/internal/post"
)

const (
	hourMillis = int64(time.Hour / time.Millisecond)
	dayMillis  = 24 * hourMillis
)

// Dashboard computes every dashboard widget over the searches for the user, leaving out the
// matches the user deleted. The searches are the ones the caller found visible. Counts come from
// the aggregates kept as matches are stored (dashboard_counts.go), less the user's deleted
// matches; the lists from each search's own index; so neither grows with the matches.
func (s *Store) Dashboard(ctx context.Context, userID int64, searchIDs []int64, now time.Time) (monitor.Dashboard, error) {
	d := monitor.Dashboard{TopAuthors: []monitor.AuthorCount{}, TopProviders: []monitor.ProviderCount{},
		TopMentionedLocations: []monitor.LocationCount{}, Heatmap: []monitor.HeatmapCell{}, Timeline: []monitor.TimelinePoint{},
		Threat: monitor.ThreatDistribution{Buckets: threatBuckets(), Top: []monitor.ThreatPost{}}, Spikes: []monitor.DashboardSpike{}}
	if len(searchIDs) == 0 {
		return d, nil
	}
	firstDay := millis(now)/dayMillis - (monitor.DashboardDays - 1)
	deleted, err := s.deletedMatches(ctx, userID, searchIDs)
	if err != nil {
		return d, err
	}
	steps := []func(context.Context, *monitor.Dashboard, dashboardScope) error{
		s.dashboardNew, s.dashboardHours, s.dashboardUnread, s.dashboardThreat, s.dashboardPlaces, s.dashboardAuthors, s.dashboardThreatTop,
		s.dashboardSpikes,
	}
	var tenant int64
	if err := s.read.QueryRowContext(ctx, `SELECT tenant_id FROM users WHERE id = $1`, userID).Scan(&tenant); err != nil {
		return d, fmt.Errorf("dashboard tenant: %w", err)
	}
	scope := dashboardScope{userID: userID, tenant: tenant, searches: idList(searchIDs), searchIDs: searchIDs,
		firstDay: firstDay, now: now, deleted: deleted}
	for _, step := range steps {
		if err := step(ctx, &d, scope); err != nil {
			return d, err
		}
	}
	return d, nil
}

// dashboardScope is what every widget's query needs.
type dashboardScope struct {
	userID    int64
	tenant    int64  // the user's, whose removals of places the widgets leave out
	searches  string // the search ids as an SQL list
	searchIDs []int64
	firstDay  int64 // the window's first UTC day, in days since the epoch
	now       time.Time
	deleted   []deletedMatch
}

// deletedMatch is one of the user's deleted matches, to subtract from the aggregates.
type deletedMatch struct {
	id, search, published, created int64
	provider, postID               string
	threatScore                    int
	hasLocation                    bool
}

func (s *Store) deletedMatches(ctx context.Context, userID int64, searchIDs []int64) ([]deletedMatch, error) {
	var out []deletedMatch
	for ids := range slices.Chunk(searchIDs, idsPerStatement) {
		err := s.each(ctx, `SELECT m.id, m.search_id, m.published_at, m.created_at, m.provider, m.post_id, m.threat_score,
			m.has_location FROM monitor_match_states st JOIN monitor_matches m ON m.id = st.match_id
			WHERE st.user_id = $1 AND st.is_deleted AND st.search_id IN (`+idList(ids)+`)`, []any{userID},
			func(r *sql.Rows) error {
				var m deletedMatch
				if err := r.Scan(&m.id, &m.search, &m.published, &m.created, &m.provider, &m.postID, &m.threatScore, &m.hasLocation); err != nil {
					return err
				}
				out = append(out, m)
				return nil
			})
		if err != nil {
			return nil, fmt.Errorf("dashboard deleted matches: %w", err)
		}
	}
	return out, nil
}

// dashboardNew counts the matches stored since the start of the hour a day ago.
func (s *Store) dashboardNew(ctx context.Context, d *monitor.Dashboard, sc dashboardScope) error {
	since := millis(sc.now.Add(-monitor.DashboardNewWindow)) / hourMillis
	if err := s.read.QueryRowContext(ctx, `SELECT COALESCE(SUM(match_count), 0) FROM monitor_match_stored_hours
		WHERE search_id IN (`+sc.searches+`) AND hour >= $1`, since).Scan(&d.NewCount); err != nil {
		return fmt.Errorf("dashboard new: %w", err)
	}
	for _, m := range sc.deleted {
		if m.created/hourMillis >= since {
			d.NewCount--
		}
	}
	return nil
}

// dashboardUnread counts the results the user has not read, from the read counts the inbox keeps
// (monitor_state_counts), which leave deleted matches out; it runs after the total is known.
func (s *Store) dashboardUnread(ctx context.Context, d *monitor.Dashboard, sc dashboardScope) error {
	var read int64
	if err := s.read.QueryRowContext(ctx, `SELECT COALESCE(SUM(read_count), 0) FROM monitor_state_counts
		WHERE user_id = $1 AND search_id IN (`+sc.searches+`)`, sc.userID).Scan(&read); err != nil {
		return fmt.Errorf("dashboard unread: %w", err)
	}
	d.UnreadCount = d.ResultCount - read
	return nil
}

// dashboardHours fills the total and the data sources (all time), the heatmap and the timeline
// (the window) from the hourly counts.
func (s *Store) dashboardHours(ctx context.Context, d *monitor.Dashboard, sc dashboardScope) error {
	providers := map[string]int64{}
	cells := map[[2]int]int64{}
	type daySearch struct{ day, search int64 }
	days := map[daySearch]int64{}
	add := func(search, hour int64, provider string, n int64) {
		d.ResultCount += n
		providers[provider] += n
		if hour/24 < sc.firstDay {
			return
		}
		t := time.UnixMilli(hour * hourMillis).UTC()
		cells[[2]int{int(t.Weekday()), t.Hour()}] += n
		days[daySearch{hour / 24, search}] += n
	}
	err := s.each(ctx, `SELECT search_id, hour, provider, match_count FROM monitor_match_hours
		WHERE search_id IN (`+sc.searches+`)`, nil, func(r *sql.Rows) error {
		var search, hour, n int64
		var provider string
		if err := r.Scan(&search, &hour, &provider, &n); err != nil {
			return err
		}
		add(search, hour, provider, n)
		return nil
	})
	if err != nil {
		return fmt.Errorf("dashboard hours: %w", err)
	}
	for _, m := range sc.deleted {
		add(m.search, m.published/hourMillis, m.provider, -1)
	}
	for provider, n := range providers {
		if n > 0 {
			d.TopProviders = append(d.TopProviders, monitor.ProviderCount{Provider: provider, Count: n})
		}
	}
	slices.SortFunc(d.TopProviders, func(a, b monitor.ProviderCount) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Provider, b.Provider))
	})
	for wd := range 7 {
		for h := range 24 {
			if n := cells[[2]int{wd, h}]; n > 0 {
				d.Heatmap = append(d.Heatmap, monitor.HeatmapCell{Weekday: wd, Hour: h, Count: n})
			}
		}
	}
	for k, n := range days {
		if n > 0 {
			d.Timeline = append(d.Timeline, monitor.TimelinePoint{
				Date: time.UnixMilli(k.day * dayMillis).UTC().Format(time.DateOnly), MonitorSearchID: k.search, Count: n})
		}
	}
	slices.SortFunc(d.Timeline, func(a, b monitor.TimelinePoint) int {
		return cmp.Or(cmp.Compare(a.Date, b.Date), cmp.Compare(a.MonitorSearchID, b.MonitorSearchID))
	})
	return nil
}

// dashboardThreat fills the threat score's distribution (all time) from the daily counts.
func (s *Store) dashboardThreat(ctx context.Context, d *monitor.Dashboard, sc dashboardScope) error {
	err := s.each(ctx, `SELECT bucket, SUM(match_count) FROM monitor_match_threat_days
		WHERE search_id IN (`+sc.searches+`) GROUP BY bucket`, nil, func(r *sql.Rows) error {
		var b int
		var n int64
		if err := r.Scan(&b, &n); err != nil {
			return err
		}
		d.Threat.Buckets[b].Count = n
		return nil
	})
	if err != nil {
		return fmt.Errorf("dashboard threat: %w", err)
	}
	for _, m := range sc.deleted {
		d.Threat.Buckets[threatBucket(m.threatScore)].Count--
	}
	return nil
}

// dashboardPlaces fills the most mentioned places of the window from the daily counts.
func (s *Store) dashboardPlaces(ctx context.Context, d *monitor.Dashboard, sc dashboardScope) error {
	type place struct {
		name, countryCode string
		lat, lon          float64
	}
	places := map[place]int64{}
	err := s.each(ctx, `SELECT name, country_code, lat, lon, SUM(match_count) FROM monitor_match_place_days
		WHERE search_id IN (`+sc.searches+`) AND day >= $1 GROUP BY name, country_code, lat, lon`,
		[]any{sc.firstDay}, func(r *sql.Rows) error {
			var p place
			var n int64
			if err := r.Scan(&p.name, &p.countryCode, &p.lat, &p.lon, &n); err != nil {
				return err
			}
			places[p] += n
			return nil
		})
	if err != nil {
		return fmt.Errorf("dashboard places: %w", err)
	}
	// The deleted matches' places are read from their posts, which name them only in the document.
	// So are the places the tenant removed from the posts of matches not deleted.
	removed, err := s.removedMatchPlaces(ctx, sc)
	if err != nil {
		return fmt.Errorf("dashboard removed places: %w", err)
	}
	var located []int64
	for _, m := range sc.deleted {
		if m.hasLocation && m.published/dayMillis >= sc.firstDay {
			located = append(located, m.id)
		}
		delete(removed, m.id)
	}
	located = slices.AppendSeq(located, maps.Keys(removed))
	var matchID int64
	var doc string
	err = s.eachMatchPost(ctx, located, "m.id, p.doc", `p.doc LIKE '%"mentioned_locations"%'`, []any{&matchID, &doc}, func() error {
		var p struct {
			ID                 string                   `json:"id"`
			MentionedLocations []post.MentionedLocation `json:"mentioned_locations"`
		}
		if err := json.Unmarshal([]byte(doc), &p); err != nil {
			return err
		}
		only, partly := removed[matchID]
		for _, l := range p.MentionedLocations {
			if !partly || only[removedPlace{p.ID, l.CountryCode, l.Name}] {
				places[place{l.Name, l.CountryCode, l.Point.Lat, l.Point.Lon}]--
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("dashboard deleted places: %w", err)
	}
	for p, n := range places {
		if n > 0 {
			d.TopMentionedLocations = append(d.TopMentionedLocations, monitor.LocationCount{
				Name: p.name, CountryCode: p.countryCode, Lat: p.lat, Lon: p.lon, Count: n})
		}
	}
	slices.SortFunc(d.TopMentionedLocations, func(a, b monitor.LocationCount) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Name, b.Name), cmp.Compare(a.CountryCode, b.CountryCode))
	})
	d.TopMentionedLocations = d.TopMentionedLocations[:min(len(d.TopMentionedLocations), monitor.DashboardTopN)]
	return nil
}

// eachMatchPost reads columns of the posts of the matches that meet where into dest, calling fn
// after each row.
func (s *Store) eachMatchPost(ctx context.Context, matchIDs []int64, columns, where string, dest []any, fn func() error) error {
	posts := s.sql.joinPost("m", "*", "")
	for chunk := range slices.Chunk(matchIDs, idsPerStatement) {
		err := s.each(ctx, `SELECT `+columns+` FROM monitor_matches m `+posts+`
			WHERE m.id IN (`+idList(chunk)+`) AND `+where, nil, func(r *sql.Rows) error {
			if err := r.Scan(dest...); err != nil {
				return err
			}
			return fn()
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// rankedMatch is a match in one of the dashboard's lists.
type rankedMatch struct {
	id, search, published int64
	threatScore           int
	postID                string
}

// eachSearchTop returns, for every search, its first limit kept matches in order (an ORDER BY
// over monitor_matches m that one of the search's indexes serves), where is an extra condition.
// Each search reads only its own index range; the caller merges.
func (s *Store) eachSearchTop(ctx context.Context, sc dashboardScope, where, order string, limit int) ([]rankedMatch, error) {
	var out []rankedMatch
	// SQLite allows 500 terms in a compound SELECT.
	for ids := range slices.Chunk(sc.searchIDs, 200) {
		parts := make([]string, len(ids))
		for i, id := range ids {
			parts[i] = `SELECT * FROM (SELECT m.id, m.search_id, m.published_at, m.threat_score, m.post_id FROM monitor_matches m
				WHERE m.search_id = ` + strconv.FormatInt(id, 10) + where + ` AND NOT EXISTS (SELECT 1 FROM monitor_match_states st
				WHERE st.match_id = m.id AND st.user_id = $1 AND st.is_deleted) ORDER BY ` + order + ` LIMIT $2) AS s` + strconv.Itoa(i)
		}
		err := s.each(ctx, strings.Join(parts, " UNION ALL "), []any{sc.userID, limit}, func(r *sql.Rows) error {
			var m rankedMatch
			if err := r.Scan(&m.id, &m.search, &m.published, &m.threatScore, &m.postID); err != nil {
				return err
			}
			out = append(out, m)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// dashboardAuthors counts the authors of the most recent results.
func (s *Store) dashboardAuthors(ctx context.Context, d *monitor.Dashboard, sc dashboardScope) error {
	recent, err := s.eachSearchTop(ctx, sc, "", "m.published_at DESC, m.id DESC", monitor.DashboardRecentResults)
	if err != nil {
		return fmt.Errorf("dashboard recent: %w", err)
	}
	slices.SortFunc(recent, func(a, b rankedMatch) int {
		return cmp.Or(cmp.Compare(b.published, a.published), cmp.Compare(b.id, a.id))
	})
	recent = recent[:min(len(recent), monitor.DashboardRecentResults)]
	ids := make([]int64, len(recent))
	for i, m := range recent {
		ids[i] = m.id
	}
	// A post matched by two searches counts twice, as its two results do.
	authors := map[monitor.AuthorCount]int64{}
	var a monitor.AuthorCount
	err = s.eachMatchPost(ctx, ids, "p.author_name, p.author_screen_name, p.provider",
		"(p.author_name <> '' OR p.author_screen_name <> '')", []any{&a.Name, &a.ScreenName, &a.Provider},
		func() error {
			authors[a]++
			return nil
		})
	if err != nil {
		return fmt.Errorf("dashboard authors: %w", err)
	}
	for a, n := range authors {
		a.Count = n
		d.TopAuthors = append(d.TopAuthors, a)
	}
	slices.SortFunc(d.TopAuthors, func(a, b monitor.AuthorCount) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.ScreenName, b.ScreenName), cmp.Compare(a.Name, b.Name),
			cmp.Compare(a.Provider, b.Provider))
	})
	d.TopAuthors = d.TopAuthors[:min(len(d.TopAuthors), monitor.DashboardTopN)]
	return nil
}

// dashboardThreatTop lists the highest-scoring results with their posts.
func (s *Store) dashboardThreatTop(ctx context.Context, d *monitor.Dashboard, sc dashboardScope) error {
	top, err := s.eachSearchTop(ctx, sc, " AND m.threat_score > 0", "m.threat_score DESC, m.published_at DESC, m.id DESC",
		monitor.DashboardThreatTop)
	if err != nil {
		return fmt.Errorf("dashboard threat top: %w", err)
	}
	slices.SortFunc(top, func(a, b rankedMatch) int {
		return cmp.Or(cmp.Compare(b.threatScore, a.threatScore), cmp.Compare(b.published, a.published), cmp.Compare(b.id, a.id))
	})
	for _, m := range top[:min(len(top), monitor.DashboardThreatTop)] {
		p, err := s.storedPost(ctx, m.postID)
		if err == nil {
			err = s.hideRemovedPlaces(ctx, sc.tenant, &p)
		}
		if err != nil {
			return fmt.Errorf("dashboard threat post: %w", err)
		}
		reasons := p.Threat.Reasons
		if reasons == nil {
			reasons = []string{}
		}
		d.Threat.Top = append(d.Threat.Top, monitor.ThreatPost{MatchID: m.id, MonitorSearchID: m.search,
			Score: p.Threat.Score, Reasons: reasons, Post: p})
	}
	return nil
}

func threatBuckets() []monitor.ThreatBucket {
	out := make([]monitor.ThreatBucket, 10)
	for i := range out {
		out[i] = monitor.ThreatBucket{From: i * 10, To: i*10 + 10}
	}
	return out
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
